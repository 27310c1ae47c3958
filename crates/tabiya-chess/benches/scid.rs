//! SCID throughput, stage by stage: `cargo bench -p tabiya-chess --bench scid -- PGN_FILE [--repeat N]`.
//! Prints games per second for PGN parsing, then, on the games read beforehand, the SCID side of
//! an import apart from the reader: encoding (records and derived fields), storing encoded games
//! (names, index, game file) and both together; then opening the database, decoding every game
//! and exporting it with SCID's layout. `--repeat N` runs the encoding stage N times, so that a
//! profiler sees mostly the encoder.

use std::time::Instant;

use tabiya_chess::pgn::{PgnReader, WriterOptions, write_game};
use tabiya_chess::scid::encode::encode_game;
use tabiya_chess::scid::{Database, DatabaseWriter, Version};

fn timed<T>(what: &str, games: usize, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let result = f();
    let s = start.elapsed().as_secs_f64();
    println!("{what:<32} {games:>8} games {s:>8.3} s {:>10.0} games/s", games as f64 / s);
    result
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let repeat = args.iter().position(|a| a == "--repeat").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(1);
    let Some(pgn) = args.iter().find(|a| !a.starts_with('-') && a.parse::<usize>().is_err()) else {
        eprintln!("usage: cargo bench -p tabiya-chess --bench scid -- PGN_FILE [--repeat N]");
        return;
    };
    let bytes = std::fs::read(pgn).expect("PGN file");
    let games: Vec<_> =
        timed("parse PGN", 0, || PgnReader::new(&bytes[..]).filter_map(Result::ok).map(|g| g.game).collect());
    let n = games.len();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.si4");
    let encode = || games.iter().map(|g| encode_game(g, Version::Scid4)).collect::<Vec<_>>();
    for _ in 1..repeat {
        timed("encode (records + fields)", n, encode);
    }
    let encoded = timed("encode (records + fields)", n, encode);
    timed("store encoded games (SCID 4)", n, || {
        let mut writer = DatabaseWriter::create(&path, Version::Scid4).expect("create");
        for e in encoded {
            writer.add_encoded(e).expect("store");
        }
        writer.finish().expect("finish")
    });
    timed("encode + store (SCID 4)", n, || {
        let mut writer = DatabaseWriter::create(&path, Version::Scid4).expect("create");
        for game in &games {
            writer.add(game).expect("store");
        }
        writer.finish().expect("finish")
    });
    let db = timed("open (index + names)", n, || Database::open(&path).expect("open"));
    timed("decode every game", n, || (0..db.len()).filter(|&i| db.record(i, &mut Vec::new()).is_ok()).count());
    let options = WriterOptions::scid();
    timed("decode + export PGN", n, || {
        let mut out = Vec::with_capacity(bytes.len());
        for game in db.games() {
            write_game(&game.expect("game"), &options, &mut out).expect("write");
        }
        out.len()
    });
}
