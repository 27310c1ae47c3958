//! Warm probes of a position tree: each position probed many times in one process, as the
//! explorer answers (moves with SAN, statistics and top games).
//!
//! `cargo run --release -p tabiya-chess --example tree_probe -- TREE [--repeat N] [--moves "e4 c5"]...`
//!
//! Without `--moves`, the positions are the openings of BENCHMARKS.md, each followed along its
//! most played moves to ply 30 (so shallow and deep positions alike). Prints, for each position,
//! the moves found, the first probe's time (the pages of the file not read yet) and the mean of
//! the next `N` (default 1,000).

use std::time::Instant;

use shakmaty::{Chess, Position};
use tabiya_chess::book::probe_position;
use tabiya_chess::tree::{Tree, code_move};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().ok_or("usage: tree_probe TREE [--repeat N] [--moves LINE]...")?;
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let repeat: u32 = value("--repeat").map_or(Ok(1000), |n| n.parse())?;
    let mut lines: Vec<String> = args.windows(2).filter(|w| w[0] == "--moves").map(|w| w[1].clone()).collect();
    let followed = lines.is_empty();
    if followed {
        lines = ["", "e4", "Nf3", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", "d4 Nf6 c4 e6 Nc3 Bb4"]
            .map(String::from)
            .to_vec();
    }
    let tree = Tree::open(path.as_ref())?;
    let mut positions: Vec<(String, Chess)> = Vec::new();
    for line in &lines {
        let pos = probe_position(None, Some(line))?;
        positions.push((line.clone(), pos.clone()));
        if followed {
            positions.push(most_played(&tree, line, pos)?);
        }
    }
    let mut worst = 0f64;
    for (line, pos) in &positions {
        let start = Instant::now();
        let first = tree.probe(pos)?;
        let cold = start.elapsed().as_secs_f64() * 1e6;
        let start = Instant::now();
        for _ in 0..repeat {
            std::hint::black_box(tree.probe(pos)?);
        }
        let warm = start.elapsed().as_secs_f64() * 1e6 / f64::from(repeat.max(1));
        worst = worst.max(warm);
        println!("{:>3} moves  first {cold:>8.1} µs  warm {warm:>7.1} µs  [{line}]", first.moves.len());
    }
    println!("slowest warm probe: {worst:.1} µs ({} positions, {repeat} probes each)", positions.len());
    Ok(())
}

/// The position after `line` then the tree's most played move at each ply, to ply 30 or the
/// tree's end.
fn most_played(tree: &Tree, line: &str, mut pos: Chess) -> Result<(String, Chess), Box<dyn std::error::Error>> {
    let mut moves: Vec<String> = line.split_whitespace().map(String::from).collect();
    while moves.len() < 30 {
        let Ok(key) = tabiya_chess::tree::PositionKey::new(&pos) else { break };
        let Some(found) = tree.get(&key)? else { break };
        let Some(best) = found.iter().max_by_key(|m| (m.games, std::cmp::Reverse(m.code))) else { break };
        let Some(mv) = code_move(best.code, &pos) else { break };
        moves.push(shakmaty::san::San::from_move(&pos, mv).to_string());
        pos.play_unchecked(mv);
    }
    Ok((moves.join(" "), pos))
}
