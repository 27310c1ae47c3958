//! PGN reading, book building and Polyglot probing, with the peers in the same run:
//! `cargo bench -p tabiya-chess --bench pgn_polyglot -- PGN_FILE BOOK.bin`
//!
//! Prints wall time and this process's CPU time (from /proc, 10 ms resolution) per stage, the
//! peak resident memory after the book builds, and `polyglot make-book` (run through
//! /usr/bin/time when /usr/games/polyglot is installed) on the same file.

use std::ops::ControlFlow;
use std::process::Command;
use std::time::Instant;

use shakmaty::Chess;
use tabiya_chess::book::{Book, BuildOptions, build_from_pgn_in_ranges, probe_position};
use tabiya_chess::pgn::{PgnReader, PgnWalk, ReadOptions, WalkOptions, WalkedGame};
use tabiya_chess::polyglot::{self, MakeOptions};

/// User + system CPU seconds of this process.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and
    // 13th of them, in clock ticks of 1/100 s.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<f64> = after.split_whitespace().map(|f| f.parse().unwrap_or(0.0)).collect();
    (fields.get(11).unwrap_or(&0.0) + fields.get(12).unwrap_or(&0.0)) / 100.0
}

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next());
    kb.and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0) / 1024.0
}

/// Runs `f` `rounds` times and prints games per wall- and CPU-second.
fn stage(what: &str, games: usize, rounds: usize, mut f: impl FnMut() -> usize) {
    let (start, cpu) = (Instant::now(), cpu_seconds());
    let mut check = 0;
    for _ in 0..rounds {
        check = f();
    }
    let wall = start.elapsed().as_secs_f64() / rounds as f64;
    let cpu = (cpu_seconds() - cpu) / rounds as f64;
    println!(
        "{what:<44} {wall:>7.3} s wall {cpu:>7.3} s CPU {:>9.0} games/s wall {:>9.0} games/CPU-s  [{check}]",
        games as f64 / wall,
        games as f64 / cpu
    );
}

/// A book as `tabiya book` builds it: PGN cut into `pieces` read on rayon's threads.
fn build(bytes: &[u8], max_ply: u32, pieces: usize) -> usize {
    let options = BuildOptions { max_ply, keep_positions: false, ..BuildOptions::default() };
    let make = MakeOptions { min_games: 1, ..MakeOptions::default() };
    let by_range = |range: &mut Book| polyglot::entries_from_range(range, &make);
    let runs = build_from_pgn_in_ranges(bytes, &options, Some(pieces), by_range).book;
    let mut out = Vec::new();
    for run in &runs {
        polyglot::write_entries(run, &mut out).expect("in memory");
    }
    runs.iter().map(Vec::len).sum()
}

fn polyglot_make_book(pgn: &str, games: usize, max_ply: Option<u32>) {
    if !std::path::Path::new("/usr/games/polyglot").exists() {
        return println!("polyglot make-book: /usr/games/polyglot not installed");
    }
    let out = std::env::temp_dir().join("tabiya-bench-polyglot.bin");
    let mut args = vec!["-f".to_owned(), "%e %U %S %M".to_owned(), "/usr/games/polyglot".to_owned()];
    args.extend(
        ["make-book", "-pgn", pgn, "-bin", out.to_str().unwrap_or_default(), "-min-game", "1"].map(String::from),
    );
    if let Some(m) = max_ply {
        args.extend(["-max-ply".to_owned(), m.to_string()]);
    }
    let run = Command::new("/usr/bin/time").args(&args).output().expect("/usr/bin/time runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    let figures: Vec<f64> =
        stderr.lines().last().unwrap_or_default().split_whitespace().filter_map(|f| f.parse().ok()).collect();
    if let [wall, user, system, rss_kb] = figures[..] {
        let cpu = user + system;
        println!(
            "{:<44} {wall:>7.3} s wall {cpu:>7.3} s CPU {:>9.0} games/s wall {:>9.0} games/CPU-s  peak RSS {:.0} MB",
            format!("polyglot make-book -max-ply {}", max_ply.map_or("1024".into(), |m| m.to_string())),
            games as f64 / wall,
            games as f64 / cpu,
            rss_kb / 1024.0
        );
    }
    let _ = std::fs::remove_file(out);
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let [pgn, book] = &files[..] else {
        return eprintln!("usage: cargo bench -p tabiya-chess --bench pgn_polyglot -- PGN_FILE BOOK.bin");
    };
    let bytes = std::fs::read(pgn).expect("PGN file");
    let games = PgnReader::new(&bytes[..]).count();
    println!("{pgn}: {games} games, {} bytes", bytes.len());

    stage("tabiya PgnReader: Game with everything", games, 3, || {
        PgnReader::new(&bytes[..]).flatten().map(|g| g.game.ply_count()).sum()
    });
    let main_line = ReadOptions { variations: false, comments: false, ..ReadOptions::default() };
    stage("tabiya PgnReader: main line only", games, 3, || {
        PgnReader::from_bytes(&bytes, main_line.clone()).flatten().map(|g| g.game.ply_count()).sum()
    });

    for (what, max_plies) in
        [("tabiya PgnWalk: main line, every ply", u32::MAX), ("tabiya PgnWalk: main line, 40 plies", 40)]
    {
        stage(what, games, 3, || {
            let options = WalkOptions { max_plies, file: None };
            let play = |mut game: WalkedGame<'_>| game.play(|_, _| ControlFlow::Continue(())).plies as usize;
            PgnWalk::new(&bytes, options).flatten().map(play).sum()
        });
    }

    stage("tabiya book -max-ply 40 -min-game 1, 1 thread", games, 2, || build(&bytes, 40, 1));
    println!("{:<44} peak RSS {:.0} MB", "  after -max-ply 40", peak_rss_mb());
    stage("tabiya book -max-ply 40 -min-game 1, 2 threads", games, 2, || build(&bytes, 40, 2));
    polyglot_make_book(pgn, games, Some(40));
    stage("tabiya book full depth -min-game 1, 1 thread", games, 2, || build(&bytes, 1024, 1));
    println!("{:<44} peak RSS {:.0} MB", "  after full depth, 1 thread", peak_rss_mb());
    stage("tabiya book full depth -min-game 1, 2 threads", games, 2, || build(&bytes, 1024, 2));
    println!("{:<44} peak RSS {:.0} MB", "  after full depth, 2 threads", peak_rss_mb());
    polyglot_make_book(pgn, games, None);

    let book_bytes = std::fs::read(book).expect("book");
    let entries = polyglot::read_entries(&book_bytes, None).expect("a Polyglot book");
    let positions: Vec<Chess> = ["", "e4", "d4 Nf6 c4", "e4 c5"]
        .iter()
        .map(|moves| probe_position(None, Some(moves)).expect("legal moves"))
        .collect();
    let rounds = 100_000;
    let start = Instant::now();
    let mut found = 0;
    for i in 0..rounds {
        found += polyglot::probe(&entries, &positions[i % positions.len()]).len();
    }
    let per_probe = start.elapsed().as_secs_f64() / rounds as f64 * 1e6;
    println!("{:<44} {per_probe:>7.2} µs per probe (key, search, decode, SAN) [{found}]", "probe (4 positions, warm)");
    let start = Instant::now();
    for i in 0..rounds {
        found += polyglot::find(&entries, polyglot::key(&positions[i % positions.len()])).len();
    }
    let per_find = start.elapsed().as_secs_f64() / rounds as f64 * 1e6;
    println!("{:<44} {per_find:>7.2} µs per look-up (key + binary search) [{found}]", "find (4 positions, warm)");
}
