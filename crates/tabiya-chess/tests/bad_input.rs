//! Damaged inputs give results, warnings or errors, never a panic: every corpus file of the
//! PGN and Polyglot scope, truncated at many points and with random bytes flipped.

use shakmaty::Chess;
use std::ops::ControlFlow;

use tabiya_chess::pgn::{PgnReader, PgnWalk, ReadOptions, WalkOptions};
use tabiya_chess::polyglot;
use tabiya_testdata::{Xorshift, corpus_file};

/// Truncations at `cuts` points and `flips` copies with a few random bytes replaced.
fn mutations(bytes: &[u8], cuts: usize, flips: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Xorshift::new(seed);
    let mut out = Vec::new();
    for i in 1..=cuts {
        out.push(bytes[..bytes.len() * i / (cuts + 1)].to_vec());
    }
    for _ in 0..flips {
        let mut copy = bytes.to_vec();
        for _ in 0..8 {
            let at = rng.below(copy.len());
            if let Some(b) = copy.get_mut(at) {
                *b = rng.below(256) as u8;
            }
        }
        out.push(copy);
    }
    out
}

fn read_pgn(bytes: &[u8]) -> usize {
    let plain: usize = PgnReader::new(bytes).map(|item| item.map_or(0, |g| g.game.ply_count())).sum();
    let repaired: usize =
        PgnReader::from_bytes(bytes, ReadOptions::default()).map(|item| item.map_or(0, |g| g.diagnostics.len())).sum();
    let walked: usize = PgnWalk::new(bytes, WalkOptions::default())
        .flatten()
        .map(|mut game| game.tags().count() + game.play(|_, _| ControlFlow::Continue(())).plies as usize)
        .sum();
    plain + repaired + walked
}

#[test]
fn damaged_pgn_never_panics() {
    let mut files: Vec<String> = [
        "dirty-immortal-games-latin1-crlf.pgn",
        "pgnextract-barnes-horton-pregame-comment.pgn",
        "pgnextract-lalg-promotions.pgn",
        "pgnextract-long-line.pgn",
        "pgnextract-nagcomments.pgn",
        "pgnextract-nested-comment.pgn",
        "pgnextract-null-moves.pgn",
        "pgnmentor-double-blank-line-crlf.pgn",
        "pychess-antichess-programfox.pgn",
        "pychess-chessbase-empty-line.pgn",
        "pychess-crazyhouse-knightvuillaume-jannlee.pgn",
        "pychess-crazyhouse-saturs-jannlee.pgn",
        "pychess-uci-moves.pgn",
        "pychess-utf8-bom.pgn",
        "scid-res_gameLatin1.pgn",
        "scid-res_gameUTF8.pgn",
    ]
    .iter()
    .map(|f| format!("pgn/edge-cases/{f}"))
    .collect();
    files.extend(["pgn/small-varied.pgn".to_owned(), "pgn/medium-pgnmentor-12players.pgn".to_owned()]);
    for (n, file) in files.iter().enumerate() {
        let Some(path) = corpus_file(file) else { return eprintln!("skipped: no corpus") };
        let bytes = std::fs::read(&path).unwrap();
        // The large files: a slice from the parts with annotations, variations and Chess960.
        let sample = if bytes.len() > 200_000 { &bytes[bytes.len() - 100_000..] } else { &bytes[..] };
        for mutated in mutations(sample, 16, 16, n as u64 + 1) {
            read_pgn(&mutated);
        }
    }
}

#[test]
fn damaged_books_never_panic() {
    for (n, file) in ["polyglot/lasker-trap.bin", "polyglot/performance.bin"].iter().enumerate() {
        let Some(path) = corpus_file(file) else { return eprintln!("skipped: no corpus") };
        let bytes = std::fs::read(&path).unwrap();
        let sample = &bytes[..bytes.len().min(64 * 1024)];
        for mutated in mutations(sample, 24, 24, n as u64 + 7) {
            let Ok(entries) = polyglot::read_entries(&mutated, None) else { continue };
            polyglot::verify(&entries);
            polyglot::probe(&entries, &Chess::default());
            polyglot::merge(&entries, &entries, polyglot::MergeRule::SumWeights);
            for entry in entries.iter().take(2000) {
                polyglot::decode_move(entry.raw_move, &Chess::default());
            }
        }
    }
}
