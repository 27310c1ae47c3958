//! The position tree: merge = the tree of the union byte for byte, spilling changes nothing,
//! probes agree with a count made here from the games, damaged files are refused without a
//! panic.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use tabiya_chess::book::probe_position;
use tabiya_chess::game::GameResult;
use tabiya_chess::tree::{self, Tree, TreeOptions};
use tabiya_testdata::{Xorshift, corpus_file};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/famous-games.pgn");

fn options(dir: &Path) -> TreeOptions {
    TreeOptions { temp_dir: dir.to_path_buf(), ..TreeOptions::default() }
}

fn build(paths: &[&Path], options: TreeOptions) -> Vec<u8> {
    let (bytes, _, summary) = tree::build(paths, options, Vec::new()).unwrap();
    // small-varied.pgn holds Chess960 games: left out (standard chess only), and said.
    assert_eq!(summary.games_left_out(), summary.games_chess960, "{:?}", summary.problems);
    bytes
}

/// The PGN text cut in two at the start of a game about `share` of the way in.
fn split(text: &[u8], share: f64) -> (Vec<u8>, Vec<u8>) {
    let from = (text.len() as f64 * share) as usize;
    let at = text[from..].windows(8).position(|w| w == b"\n[Event ").map_or(text.len(), |i| from + i + 1);
    (text[..at].to_vec(), text[at..].to_vec())
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn merged(dir: &Path, parts: &[&[u8]]) -> Vec<u8> {
    let trees: Vec<Tree> = parts
        .iter()
        .enumerate()
        .map(|(i, bytes)| Tree::open(&write(dir, &format!("part{i}.tree"), bytes)).unwrap())
        .collect();
    tree::merge_trees(&trees, Vec::new()).unwrap()
}

fn merge_is_the_tree_of_the_union(pgn: &Path, cuts: &[f64]) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(pgn).unwrap();
    for &share in cuts {
        let (a, b) = split(&text, share);
        // The names the games are counted under are the paths as given: the same in both.
        let (a, b) = (write(dir.path(), "a.pgn", &a), write(dir.path(), "b.pgn", &b));
        let whole = build(&[&a, &b], options(dir.path()));
        let parts = [build(&[&a], options(dir.path())), build(&[&b], options(dir.path()))];
        assert!(merged(dir.path(), &[&parts[0], &parts[1]]) == whole, "cut at {share}");
        // Spilling about 40 runs (merged into one every 32) gives the same bytes.
        let moves = Tree::open(&write(dir.path(), "whole.tree", &whole)).unwrap().footer().occurrences;
        let occurrence = tabiya_io::tree::RunBuilder::<{ tree::KEY_BYTES }>::OCCURRENCE_BYTES;
        let small = TreeOptions { memory: (moves / 40).max(16) * occurrence, ..options(dir.path()) };
        let (spilled, _, summary) = tree::build(&[&a, &b], small, Vec::new()).unwrap();
        assert!(summary.runs > 32, "{summary:?}");
        assert!(spilled == whole, "spilled, cut at {share}");
        let tree = Tree::open(&write(dir.path(), "whole.tree", &whole)).unwrap();
        let verification = tree.verify();
        assert!(verification.ok, "{:?}", verification.problems);
    }
}

#[test]
fn merge_of_the_sample() {
    merge_is_the_tree_of_the_union(Path::new(SAMPLE), &[0.0, 0.3, 0.5, 1.0]);
}

#[test]
fn merge_of_the_corpus() {
    let Some(pgn) = corpus_file("pgn/small-varied.pgn") else { return };
    merge_is_the_tree_of_the_union(&pgn, &[0.4]);
}

/// Games, wins, draws, losses of every (position as FEN without clocks, UCI move) of the
/// games, counted here with shakmaty from the games reader.
fn count(pgn: &Path) -> HashMap<(String, String), [u64; 4]> {
    let mut counts: HashMap<(String, String), [u64; 4]> = HashMap::new();
    for game in tabiya_chess::games::open(pgn).unwrap() {
        let game = game.unwrap();
        if game.castling_mode == CastlingMode::Chess960 {
            continue;
        }
        let mut pos: Chess = game.start_position().unwrap();
        for node in &game.moves.nodes {
            let Some(mv) = node.mv else { break };
            let fen = shakmaty::fen::Epd::from_position(&pos, EnPassantMode::Legal).to_string();
            let c = counts.entry((fen, mv.to_uci(CastlingMode::Standard).to_string())).or_default();
            c[0] += 1;
            let white = pos.turn().is_white();
            match game.result {
                GameResult::Draw => c[2] += 1,
                GameResult::WhiteWins if white => c[1] += 1,
                GameResult::BlackWins if !white => c[1] += 1,
                GameResult::WhiteWins | GameResult::BlackWins => c[3] += 1,
                GameResult::Unknown => {}
            }
            pos.play_unchecked(mv);
        }
    }
    counts
}

#[test]
fn probes_agree_with_a_count_of_the_games() {
    let pgn = corpus_file("pgn/small-varied.pgn");
    let pgn = pgn.as_deref().unwrap_or(Path::new(SAMPLE));
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "t.tree", &build(&[pgn], options(dir.path())));
    let tree = Tree::open(&path).unwrap();
    let counts = count(pgn);
    let mut checked = 0;
    for moves in ["", "e4", "e4 c5", "d4 Nf6 c4 e6", "e4 e5 Nf3 Nc6 Bb5"] {
        let pos = probe_position(None, Some(moves)).unwrap();
        let probe = tree.probe(&pos).unwrap();
        let epd = shakmaty::fen::Epd::from_position(&pos, EnPassantMode::Legal).to_string();
        let expected: HashMap<&str, [u64; 4]> =
            counts.iter().filter(|((fen, _), _)| *fen == epd).map(|((_, uci), c)| (uci.as_str(), *c)).collect();
        assert_eq!(probe.found, !expected.is_empty(), "{moves}");
        assert!(probe.problems.is_empty(), "{:?}", probe.problems);
        let found: HashMap<&str, [u64; 4]> = probe
            .moves
            .iter()
            .map(|m| (m.uci.as_str(), [m.games, m.wins, m.draws, m.losses].map(Option::unwrap)))
            .collect();
        assert_eq!(found, expected, "{moves}");
        // Most played first; the position's own counts are its moves' added up.
        assert!(probe.moves.windows(2).all(|w| w[0].games >= w[1].games));
        let games: u64 = expected.values().map(|c| c[0]).sum();
        assert_eq!(probe.position.get("games").and_then(|g| g.as_u64()), probe.found.then_some(games));
        checked += probe.moves.len();
    }
    assert!(checked > 5, "{checked}");
}

#[test]
fn top_games_are_the_best_rated_and_name_their_source() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = b"[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2100\"]\n[Result \"1-0\"]\n[Date \"1990.01.01\"]\n\n1. e4 e5 1-0\n\n\
[White \"C\"]\n[Black \"D\"]\n[WhiteElo \"2700\"]\n[BlackElo \"2500\"]\n[Result \"0-1\"]\n[Date \"2001.??.??\"]\n\n1. e4 c5 0-1\n\n\
[White \"E\"]\n[Black \"F\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n";
    let games = write(dir.path(), "g.pgn", pgn);
    let path = write(dir.path(), "t.tree", &build(&[&games], options(dir.path())));
    let tree = Tree::open(&path).unwrap();
    let probe = tree.probe(&Chess::default()).unwrap();
    let e4 = &probe.moves[0];
    assert_eq!((e4.san.as_str(), e4.games, e4.wins, e4.losses), ("e4", Some(2), Some(1), Some(1)));
    assert_eq!(e4.extra["average_rating"], 2350);
    assert_eq!(e4.extra["opponent_average_rating"], 2300);
    // Opponents' mean 2300, one win and one loss: 2300.
    assert_eq!(e4.extra["performance"], 2300);
    assert_eq!((e4.extra["first_year"].as_u64(), e4.extra["last_year"].as_u64()), (Some(1990), Some(2001)));
    let top: Vec<&str> =
        e4.extra["top_games"].as_array().unwrap().iter().map(|g| g["white"].as_str().unwrap()).collect();
    assert_eq!(top, ["C", "A"]);
    assert_eq!(e4.extra["top_games"][0]["number"], 2);
    assert_eq!(e4.extra["top_games"][0]["source"], games.display().to_string());
    assert_eq!(e4.extra["top_games"][0]["result"], "0-1");
    let d4 = &probe.moves[1];
    assert_eq!(
        (d4.draws, d4.extra["average_rating"].is_null(), d4.extra["first_year"].is_null()),
        (Some(1), true, true)
    );
    let info = tree.info();
    // The start, after 1.e4 and after 1.d4: a position no move was played from is no record.
    assert_eq!((info.counts["positions"].as_u64(), info.counts["games"].as_u64()), (Some(3), Some(3)));
}

#[test]
fn damaged_trees_are_refused_without_panic() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = build(&[Path::new(SAMPLE)], options(dir.path()));
    let path = dir.path().join("d.tree");
    let mut rng = Xorshift::new(19);
    let start = probe_position(None, Some("e4 e5")).unwrap();
    for round in 0..300 {
        let mut damaged = bytes.clone();
        match round % 3 {
            0 => damaged.truncate(rng.below(bytes.len())),
            _ => {
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(damaged.len());
                    damaged[i] ^= 1 << rng.below(8);
                }
            }
        }
        std::fs::write(&path, &damaged).unwrap();
        if let Ok(tree) = Tree::open(&path) {
            let _ = tree.probe(&start);
            let _ = tree.probe(&Chess::default());
            let verification = tree.verify();
            if damaged != bytes && round % 3 == 0 {
                assert!(!verification.ok, "round {round}: a cut file passed");
            }
            let _ = tree.dump(&mut std::io::sink());
        }
    }
}
