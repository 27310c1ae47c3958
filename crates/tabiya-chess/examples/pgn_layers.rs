//! How fast each layer of PGN reading goes on one thread, for BENCHMARKS.md: the tokenizer
//! with SAN parsing but no move resolved (`tokens`: the walk with no ply wanted), the main line resolved and played (`main`: the walk), and every game built
//! with full legal replay of its moves, variations and comments (`replay`: `PgnReader`).
//! Prints games and CPU seconds of the process; the file is read into memory first.
//! `cargo run --release -p tabiya-chess --example pgn_layers -- LAYER FILE`

use std::ops::ControlFlow;

use tabiya_chess::pgn::{PgnReader, PgnWalk, ReadOptions, WalkOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [layer, path] = args.as_slice() else { return Err("usage: pgn_layers tokens|main|replay FILE".into()) };
    let bytes = std::fs::read(path)?;
    let started = cpu_seconds();
    let (games, plies) = match layer.as_str() {
        "tokens" => (PgnWalk::new(&bytes, WalkOptions { max_plies: 0, ..WalkOptions::default() }).count(), 0),
        "main" => PgnWalk::new(&bytes, WalkOptions::default()).flatten().fold((0, 0), |(games, plies), mut game| {
            (games + 1, plies + game.play(|_, _| ControlFlow::Continue(())).plies as usize)
        }),
        "replay" => PgnReader::from_bytes(&bytes, ReadOptions::default())
            .flatten()
            .fold((0, 0), |(games, plies), read| (games + 1, plies + read.game.ply_count())),
        other => return Err(format!("unknown layer {other}").into()),
    };
    let cpu = cpu_seconds() - started;
    println!("{layer}: {games} games, {plies} plies, {cpu:.3} CPU s, {:.0} games per CPU-second", games as f64 / cpu);
    Ok(())
}

/// User and system CPU seconds of this process so far (from /proc/self/stat).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or_default().split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}
