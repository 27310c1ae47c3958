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

/// `data/tree/famous-games-layout2.tree` is the tree of the sample as the tabiya of
/// 2026-11-28 (`5244bae`) wrote it, in layout 2 (every move with its counts), its source named
/// `famous-games.pgn`. This tabiya reads it as the same tree: merged alone, it is byte for byte
/// the tree of the sample built now (layout 3, a move played once written as its game).
#[test]
fn a_layout_2_tree_is_read_as_the_same_tree() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tree/famous-games-layout2.tree");
    let old = Tree::open(&path).unwrap();
    assert_eq!(old.file().version(), 2);
    let dir = tempfile::tempdir().unwrap();
    let mut builder = tree::TreeBuilder::new(options(dir.path())).unwrap();
    builder.add_source(&tabiya_chess::games::Source::open(Path::new(SAMPLE)).unwrap(), "famous-games.pgn").unwrap();
    let (now, _, _) = builder.finish(Vec::new()).unwrap();
    assert_eq!(now[12..14], [3, 0], "layout 3");
    let rewritten = tree::merge_trees(&[old], Vec::new()).unwrap();
    assert!(rewritten == now, "the layout-2 tree merged alone is the tree built now");
    assert!((now.len() as u64) < std::fs::metadata(&path).unwrap().len());
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

/// Games written to put the walked build to the test: a FEN start with castling, a Chess960
/// game, a game an illegal move cuts (its moves count with an unknown result, as `PgnReader`
/// marks it unfinished), an illegal move in a variation only, null moves, an illegal move long
/// after any ply limit.
const PROBLEMS: &str = r#"[Event "fen"]
[White "A"]
[WhiteElo "2500"]
[Date "2001.01.01"]
[Result "1-0"]
[SetUp "1"]
[FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]

1. O-O O-O-O 2. Rab1 Rh2 1-0

[Event "960"]
[Variant "chess960"]
[SetUp "1"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]
[Result "0-1"]

1. e4 e5 2. O-O 0-1

[Event "cut"]
[Black "D"]
[BlackElo "2400"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ke3 Nf6 5. O-O 1-0

[Event "a variation cut"]
[Result "1/2-1/2"]

1. d4 (1. e4 e5 2. Ke3) d5 {a comment} 2. c4 -- 3. Nc3 1/2-1/2

[Event "null moves"]
[Result "0-1"]

1. e4 -- 2. d4 e5 0-1

[Event "late cut"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. Qh5 1-0
"#;

/// The same games with text the walk finds holds no game (a stray line, a trailing comment the
/// reader makes a game of) and unreadable games (an invalid FEN, an unterminated comment): the
/// reader judges such a piece.
const BETWEEN: &str = "\u{feff}stray text\n\n[Event \"b\"]\n[FEN \"not a fen\"]\n[SetUp \"1\"]\n\n1. e4 *\n\n";
const ENDS: &str = "\n{ a trailing comment }\n\n1. d4 d5 *\n\n[Event \"c\"]\n\n1. e4 {unterminated\n";

/// The tree of `path` built from the walk ([`TreeBuilder::add_source`]) and from games read
/// whole (a selection that keeps every game), with their summaries.
fn both_ways(path: &Path, max_ply: Option<u32>) -> [(Vec<u8>, tree::TreeSummary); 2] {
    use tabiya_chess::games::Source;
    use tabiya_chess::games::select::{Duplicates, Rules, Selection};

    let dir = tempfile::tempdir().unwrap();
    let options = TreeOptions { max_ply, ..options(dir.path()) };
    let source = Source::open(path).unwrap();
    let mut walked = tree::TreeBuilder::new(options.clone()).unwrap();
    walked.add_source(&source, "games").unwrap();
    let mut whole = tree::TreeBuilder::new(options).unwrap();
    let mut duplicates = Duplicates::new(Rules { dedup: false, twins: false, contained: false });
    let mut found: Vec<tabiya_io::Diagnostic> = Vec::new();
    whole.add_selected(&source, 0, "games", &Selection::all(), &mut duplicates, &mut found).unwrap();
    [walked, whole].map(|builder| {
        let (bytes, _, summary) = builder.finish(Vec::new()).unwrap();
        (bytes, summary)
    })
}

#[test]
fn the_walked_build_is_the_build_of_games_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let problems = write(dir.path(), "problems.pgn", PROBLEMS.as_bytes());
    let mixed = write(dir.path(), "mixed.pgn", format!("{BETWEEN}{PROBLEMS}{ENDS}").as_bytes());
    // A stream: the gzip of the games.
    let mut gzip = tabiya_io::compression::Compression::Gzip.encoder(Vec::new()).unwrap();
    std::io::Write::write_all(&mut gzip, PROBLEMS.as_bytes()).unwrap();
    let streamed = write(dir.path(), "problems.pgn.gz", &gzip.finish().unwrap());
    let mut paths = vec![problems.clone(), mixed.clone(), streamed];
    // Corpus files with Chess960 games, illegal moves, a BOM, text between games.
    paths.extend(
        [
            "pgn/small-varied.pgn",
            "pgn/edge-cases/dirty-immortal-games-latin1-crlf.pgn",
            "pgn/edge-cases/pychess-utf8-bom.pgn",
        ]
        .iter()
        .filter_map(|name| corpus_file(name)),
    );
    for path in &paths {
        for max_ply in [None, Some(8), Some(1)] {
            let [(walked, by_walk), (whole, by_game)] = both_ways(path, max_ply);
            assert!(walked == whole, "{}, max ply {max_ply:?}", path.display());
            let counts =
                |s: &tree::TreeSummary| (s.games_added, s.games_chess960, s.games_invalid_start, s.moves_added);
            assert_eq!(counts(&by_walk), counts(&by_game), "{}, max ply {max_ply:?}", path.display());
        }
    }
    // What the walk says of the games written here: the Chess960 game left out, three main
    // lines cut (the Chess960 game's at 2. O-O, its rook on f1; 4. Ke3; 9. Qh5 through the knight
    // on f3), the variation's illegal move not counted as a cut: the tree holds main lines only,
    // and that game's is whole.
    let [(_, summary), _] = both_ways(&problems, None);
    assert_eq!((summary.games_added, summary.games_chess960, summary.games_cut), (5, 1, 3), "{:?}", summary.problems);
    assert!(summary.problems.iter().all(|p| !p.contains("variation")), "{:?}", summary.problems);
    // The cut games' moves count with an unknown result: of the three games that play 1. e4 from
    // the start (fen: another start; 960: left out), only the null moves' game has a result.
    let tree_path = write(dir.path(), "problems.tree", &both_ways(&problems, None)[0].0);
    let probe = Tree::open(&tree_path).unwrap().probe(&Chess::default()).unwrap();
    let e4 = probe.moves.iter().find(|m| m.san == "e4").unwrap();
    assert_eq!((e4.games, e4.wins, e4.draws, e4.losses), (Some(3), Some(0), Some(0), Some(1)), "{e4:?}");
    // Read by the reader, the same games say the same; the text after them holds one more game
    // (1. d4 d5) and two unreadable ones.
    let [(_, summary), _] = both_ways(&mixed, None);
    assert_eq!((summary.games_added, summary.games_unreadable, summary.games_cut), (6, 2, 3), "{:?}", summary.problems);
}
