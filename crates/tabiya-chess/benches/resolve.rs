//! SAN resolution and playing alone: `cargo bench -p tabiya-chess --bench resolve -- PGN_FILE [ROUNDS]`
//!
//! Reads every game's main line once (`PgnWalk`: tags and SAN tokens), then times only
//! `WalkedGame::play` over all of them, round after round: each SAN resolved to a legal move
//! and played. Prints CPU nanoseconds per move for the fastest and the median round, and
//! checks the plies played against the first round. The tables stay warm here, unlike in a
//! real run where the PGN text streams through the caches between moves, so this measures
//! instructions more than cache misses.

use std::ops::ControlFlow;

use tabiya_chess::pgn::{PgnWalk, WalkOptions, WalkedGame};

/// CPU seconds this thread has run: the scheduler's count in nanoseconds (Linux
/// `/proc/thread-self/schedstat`, first field), not the 10 ms ticks of `/proc/self/stat`.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    stat.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()).unwrap_or(0.0) / 1e9
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
