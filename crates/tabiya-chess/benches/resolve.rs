//! SAN resolution and playing alone: `cargo bench -p tabiya-chess --bench resolve -- PGN_FILE [ROUNDS]`
//!
//! Reads every game's main line once (`PgnWalk`: tags and SAN tokens), then times only
//! `WalkedGame::play` over all of them, round after round: each SAN resolved to a legal move
//! and played. Prints CPU nanoseconds per move (from /proc, 10 ms resolution) for the fastest
//! and the median round, and checks the plies played against the first round. The tables stay
//! warm here, unlike in a real run where the PGN text streams through the caches between
//! moves, so this measures instructions more than cache misses.

use std::ops::ControlFlow;

use tabiya_chess::pgn::{PgnWalk, WalkOptions, WalkedGame};

/// User + system CPU seconds of this process.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // utime and stime are the 12th and 13th fields after the command name, in 1/100 s.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<f64> = after.split_whitespace().map(|f| f.parse().unwrap_or(0.0)).collect();
    (fields.get(11).unwrap_or(&0.0) + fields.get(12).unwrap_or(&0.0)) / 100.0
}

fn play_all(games: &[WalkedGame<'_>]) -> u64 {
    games.iter().map(|game| u64::from(game.clone().play(|_, _| ControlFlow::Continue(())).plies)).sum()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let Some(pgn) = args.first() else {
        return eprintln!("usage: cargo bench -p tabiya-chess --bench resolve -- PGN_FILE [ROUNDS]");
    };
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(10);
    let bytes = std::fs::read(pgn).expect("PGN file");
    let games: Vec<WalkedGame<'_>> = PgnWalk::new(&bytes, WalkOptions::default()).flatten().collect();
    let plies = play_all(&games);
    println!("{pgn}: {} games, {plies} moves played", games.len());
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let cpu = cpu_seconds();
            assert_eq!(play_all(&games), plies, "the same moves every round");
            cpu_seconds() - cpu
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let per_move = |seconds: f64| seconds / plies as f64 * 1e9;
    println!(
        "resolve + play: {:.1} ns per move fastest, {:.1} median of {rounds} rounds (CPU)",
        per_move(times[0]),
        per_move(times[rounds / 2])
    );
}
