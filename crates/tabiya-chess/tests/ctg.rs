//! CTG books of the corpus: the facts of ctg.md sections 2, 6, 11 and issue 4.

use std::path::PathBuf;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use tabiya_chess::ctg::{Book, Weights, dump, hex, to_polyglot, verify};
use tabiya_chess::polyglot;
use tabiya_io::corpus::corpus_file;

fn powerplay() -> Option<PathBuf> {
    corpus_file("ctg/PowerPlay17-Sicilienne/PowerPlay17-Sicilienne.ctg")
}

fn simple() -> Option<PathBuf> {
    corpus_file("ctg/simple/simple.ctg")
}

fn after(moves: &str) -> Chess {
    let mut pos = Chess::default();
    for uci in moves.split_whitespace() {
        let mv = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(mv);
    }
    pos
}

/// (uci, code, raw weight) of the book moves of a position.
fn book_moves(book: &Book, pos: &Chess) -> Vec<(String, u8, u64)> {
    let probe = book.probe(pos).unwrap();
    assert!(probe.warnings.is_empty(), "{:?}", probe.warnings);
    let weights = Weights::Raw.weights(&probe.moves);
    probe.moves.iter().zip(weights).map(|(m, w)| (m.uci(), m.stored.code, w)).collect()
}

#[test]
fn powerplay17_header_and_index() {
    let Some(path) = powerplay() else { return };
    let book = Book::open(&path).unwrap();
    assert!(book.warnings().is_empty(), "{:?}", book.warnings());
    let header = book.header();
    assert_eq!((header.data_pages, header.positions, header.games), (257, 13_321, 499));
    assert_eq!((header.split_marker, header.splits), (12, 256));
    assert_eq!(book.page_count(), 257);
    let tree = book.tree().unwrap();
    assert_eq!((tree.lower, tree.upper, tree.pages.len()), (248, 384, 892));
    let leaves = tree.leaves();
    assert_eq!(leaves.len(), 257);
    assert_eq!((leaves[0].0, leaves[256].0), (255, 891));
}

#[test]
fn powerplay17_probes_of_the_issue() {
    let Some(path) = powerplay() else { return };
    let book = Book::open(&path).unwrap();

    let probe = book.probe(&Chess::default()).unwrap();
    let record = probe.record.unwrap();
    assert_eq!(hex(record.key), "56b60f7960f3a60f58b078e0c1e1a60f5960f3b60f7f");
    assert_eq!((record.page, record.offset), (237, 238 * 4096 + 3071));
    assert_eq!(record.len(), 58);
    let s = record.stats;
    assert_eq!((s.games, s.wins, s.losses, s.draws, s.unknown_12), (499, 176, 201, 116, 2370));
    assert_eq!((s.own_ratings.count, s.own_ratings.sum, s.own_ratings.average()), (391, 877_568, Some(2244)));
    assert_eq!((s.opponent_ratings.count, s.opponent_ratings.sum), (388, 885_917));
    assert_eq!((s.recommendation, s.unknown_31, s.evaluation), (0x14, 0xfd, 0));

    assert_eq!(book_moves(&book, &Chess::default()), [("e2e4".to_string(), 0x5f, 462)]);
    assert_eq!(book_moves(&book, &after("e2e4"))[0], ("c7c5".to_string(), 0x9b, 498));
    assert_eq!(book_moves(&book, &after("e2e4 c7c5"))[0], ("b1c3".to_string(), 0x34, 421));

    // The child of 1.e4 seen from White: its wins are the record's losses.
    let probe = book.probe(&Chess::default()).unwrap();
    let mover = probe.moves[0].mover_stats().unwrap();
    let child = probe.moves[0].child.unwrap();
    assert_eq!((mover.wins, mover.losses), (child.losses, child.wins));
    assert_eq!(2 * u64::from(mover.wins) + u64::from(mover.draws), 462);
}

#[test]
fn simple_answers_e4_and_d4() {
    let Some(path) = simple() else { return };
    let book = Book::open(&path).unwrap();
    let moves = book_moves(&book, &Chess::default());
    let ucis: Vec<&str> = moves.iter().map(|(u, _, _)| u.as_str()).collect();
    assert_eq!(ucis, ["e2e4", "d2d4"]);
    let probe = book.probe(&Chess::default()).unwrap();
    assert!(probe.moves.iter().all(|m| m.stored.annotation == 0xe0));
    // No results in the book: every move gets the same play weight.
    assert_eq!(Weights::Play.weights(&probe.moves), [1, 1]);
    assert_eq!(book.header().data_pages, 1);
    assert_eq!(book.tree().unwrap().pages, [0]);
}

#[test]
fn powerplay17_dump_has_every_position_and_legal_move() {
    let Some(path) = powerplay() else { return };
    let book = Book::open(&path).unwrap();
    let positions = dump(&book).unwrap();
    assert_eq!(positions.len(), 13_305);
    let moves: usize = positions.iter().map(|p| p.moves.len()).sum();
    assert_eq!(moves, 13_406);
    for p in &positions {
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert!(p.moves.iter().all(|m| m.mv.is_some() && !m.alternative_reading));
    }
    let reached = positions.iter().filter(|p| p.reached).count();
    eprintln!("reached from the start position: {reached}");
    let start = positions.iter().find(|p| p.record.page == 237 && p.record.offset == 238 * 4096 + 3071).unwrap();
    assert!(start.reached);
    assert_eq!(start.to_json()["fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(start.to_json()["moves"][0]["san"], "e4");
}

#[test]
fn powerplay17_verifies() {
    let Some(path) = powerplay() else { return };
    let book = Book::open(&path).unwrap();
    let v = verify(&book);
    let errors: Vec<_> = v.findings.iter().filter(|f| f.error).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let count = |name| v.count(name).unwrap();
    assert_eq!(count("pages"), 257);
    assert_eq!(count("records"), 13_305);
    assert_eq!(count("moves"), 13_406);
    assert_eq!(count("ep_records"), 67);
    assert_eq!(count("pages_with_stale_bytes"), 141);
    assert_eq!(count("found_exact"), 13_305);
    assert_eq!(count("found_legacy"), 13_305);
    assert_eq!(count("leaf_buckets"), 257);
    assert_eq!(count("splits"), 256);
    // The only finding: ChessBase's approximate position count in the header.
    assert_eq!(v.findings.len(), 1, "{:?}", v.findings);
}

#[test]
fn simple_verifies() {
    let Some(path) = simple() else { return };
    let v = verify(&Book::open(&path).unwrap());
    assert!(v.ok(), "{:?}", v.findings);
    assert_eq!(v.count("records"), Some(4));
}

#[test]
fn powerplay17_play_weights_of_the_issue() {
    let Some(path) = powerplay() else { return };
    let book = Book::open(&path).unwrap();
    for (moves, uci, weight) in [("", "e2e4", 462), ("e2e4", "c7c5", 498), ("e2e4 c7c5", "b1c3", 421)] {
        let probe = book.probe(&after(moves)).unwrap();
        let weights = Weights::Play.weights(&probe.moves);
        let best = probe.moves.iter().zip(&weights).max_by_key(|(_, w)| **w).unwrap();
        assert_eq!((best.0.uci().as_str(), *best.1), (uci, weight), "after {moves:?}");
    }
}

#[test]
fn powerplay17_to_polyglot_answers_like_the_ctg() {
    let Some(path) = powerplay() else { return };
    let book = Book::open(&path).unwrap();
    let export = to_polyglot(&book, Weights::Play).unwrap();
    assert_eq!(export.records, 13_305);
    assert_eq!(export.undecodable, 0);
    let entries = &export.entries;
    assert!(entries.windows(2).all(|w| w[0].key <= w[1].key));
    // Every position reached from the start gets the CTG's moves with positive play weight,
    // in the same weights, through the Polyglot key.
    let mut checked = 0;
    for dumped in dump(&book).unwrap().iter().filter(|d| d.reached) {
        let pos = dumped.position.as_ref().unwrap();
        let probe = book.probe(pos).unwrap();
        let weights = Weights::Play.weights(&probe.moves);
        let mut expected: Vec<(String, u64)> =
            probe.moves.iter().zip(weights).filter(|(_, w)| *w > 0).map(|(m, w)| (m.uci(), w)).collect();
        let mut got: Vec<(String, u64)> =
            polyglot::probe(entries, pos).into_iter().map(|h| (h.uci, u64::from(h.entry.weight))).collect();
        if expected.iter().any(|(_, w)| *w > 65_535) {
            continue;
        }
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{}", hex(dumped.record.key));
        checked += 1;
    }
    assert!(checked > 12_000, "{checked}");
    let start = polyglot::probe(entries, &Chess::default());
    assert_eq!(start.len(), 1);
    assert_eq!((start[0].uci.as_str(), start[0].entry.weight), ("e2e4", 462));
}
