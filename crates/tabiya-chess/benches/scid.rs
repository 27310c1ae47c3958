//! SCID throughput, stage by stage: `cargo bench -p tabiya-chess --bench scid -- PGN_FILE`.
//! Prints games per second for PGN parsing, encoding, writing a SCID 4 database, opening it,
//! decoding every game and exporting it with SCID's layout.

use std::time::Instant;

use tabiya_chess::pgn::{PgnReader, WriterOptions, write_game};
use tabiya_chess::scid::encode::encode_game;
use tabiya_chess::scid::write::write_database;
use tabiya_chess::scid::{Database, Version};
use tabiya_io::Warnings;

fn timed<T>(what: &str, games: usize, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let result = f();
    let s = start.elapsed().as_secs_f64();
    println!("{what:<28} {games:>8} games {s:>8.3} s {:>10.0} games/s", games as f64 / s);
    result
}

fn main() {
    let Some(pgn) = std::env::args().skip(1).find(|a| !a.starts_with('-')) else {
        eprintln!("usage: cargo bench -p tabiya-chess --bench scid -- PGN_FILE");
        return;
    };
    let bytes = std::fs::read(&pgn).expect("PGN file");
    let games: Vec<_> =
        timed("parse PGN", 0, || PgnReader::new(&bytes[..]).filter_map(Result::ok).map(|g| g.game).collect());
    let n = games.len();
    timed("encode (records + fields)", n, || games.iter().filter(|g| encode_game(g, Version::Scid4).is_ok()).count());
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.si4");
    timed("write SCID 4 database", n, || write_database(&path, Version::Scid4, games.iter().cloned()).expect("write"));
    let db = timed("open (index + names)", n, || Database::open(&path).expect("open"));
    timed("decode every game", n, || (0..db.len()).filter(|&i| db.record(i, &mut Warnings::default()).is_ok()).count());
    let options = WriterOptions::scid();
    timed("decode + export PGN", n, || {
        let mut out = Vec::with_capacity(bytes.len());
        for game in db.games() {
            write_game(&game.expect("game"), &options, &mut out).expect("write");
        }
        out.len()
    });
}
