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

/// A copy of a corpus book in a temporary directory, with some of its files.
fn copy_book(ctg: &std::path::Path, exts: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for ext in exts {
        std::fs::copy(ctg.with_extension(ext), dir.path().join("book").with_extension(ext)).unwrap();
    }
    dir
}

#[test]
fn missing_index_walks_the_pages_with_a_warning() {
    let Some(path) = powerplay() else { return };
    for exts in [&["ctg"][..], &["ctg", "cto"][..], &["ctg", "ctb"][..]] {
        let dir = copy_book(&path, exts);
        let book = Book::open(&dir.path().join("book.ctg")).unwrap();
        assert_eq!(book.warnings().len(), 1);
        assert!(book.warnings().iter().next().unwrap().message.contains("walking every page"));
        assert!(book.tree().is_none());
        assert_eq!(book_moves(&book, &after("e2e4 c7c5"))[0], ("b1c3".to_string(), 0x34, 421));
        assert_eq!(dump(&book).unwrap().len(), 13_305);
    }
    // Named by its stem or by the .cto: the same book.
    let dir = copy_book(&path, &["ctg", "cto", "ctb"]);
    for name in ["book", "book.cto"] {
        let book = Book::open(&dir.path().join(name)).unwrap();
        assert!(book.tree().is_some() && book.warnings().is_empty());
    }
}

#[test]
fn truncated_books_name_the_page_and_offset() {
    let Some(path) = powerplay() else { return };
    let bytes = std::fs::read(&path).unwrap();
    let cto = std::fs::read(path.with_extension("cto")).unwrap();
    let ctb = std::fs::read(path.with_extension("ctb")).unwrap();
    // Cut inside page 237 (the start position's page, file offset 0xEE000) after its header.
    let cut = 238 * 4096 + 3000;
    let book = Book::from_bytes(bytes[..cut].to_vec(), Some((&cto, &ctb))).unwrap();
    assert!(book.warnings().iter().any(|w| w.message.contains("truncated")));
    let error = book.probe(&Chess::default()).unwrap_err().to_string();
    assert!(error.contains("data page 237"), "{error}");
    assert!(error.contains("book.ctg@0x"), "{error}");
    // A page the file no longer has.
    let error = Book::from_bytes(bytes[..100 * 4096].to_vec(), Some((&cto, &ctb)))
        .unwrap()
        .probe(&Chess::default())
        .unwrap_err()
        .to_string();
    assert!(error.contains("book.cto@0x"), "{error}");
    // Truncated index files and header page.
    assert!(
        Book::from_bytes(bytes.clone(), Some((&cto[..100], &ctb))).unwrap_err().to_string().contains("book.cto@0x10")
    );
    assert!(
        Book::from_bytes(bytes.clone(), Some((&cto, &ctb[..20]))).unwrap_err().to_string().contains("book.ctb@0xc")
    );
    assert!(Book::from_bytes(bytes[..10].to_vec(), Some((&cto, &ctb))).is_err());
}

#[test]
fn corrupt_records_are_errors_not_panics() {
    let Some(path) = powerplay() else { return };
    let mut bytes = std::fs::read(&path).unwrap();
    let cto = std::fs::read(path.with_extension("cto")).unwrap();
    let ctb = std::fs::read(path.with_extension("ctb")).unwrap();
    // The start record's move-block length (page 237, page offset 3071 + 22) made even.
    bytes[238 * 4096 + 3071 + 22] = 4;
    let book = Book::from_bytes(bytes, Some((&cto, &ctb))).unwrap();
    let error = book.probe(&Chess::default()).unwrap_err().to_string();
    assert!(error.contains("odd move-block length") && error.contains("data page 237"), "{error}");
    let v = verify(&book);
    assert!(!v.ok());
}

/// Truncations and byte flips of both corpus books: every operation returns, none panics.
#[test]
fn mutated_books_never_panic() {
    for path in [simple(), powerplay()].into_iter().flatten() {
        let bytes = std::fs::read(&path).unwrap();
        let cto = std::fs::read(path.with_extension("cto")).unwrap();
        let ctb = std::fs::read(path.with_extension("ctb")).unwrap();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let exercise = |ctg: Vec<u8>, cto: &[u8], ctb: &[u8]| {
            if let Ok(book) = Book::from_bytes(ctg, Some((cto, ctb))) {
                let _ = book.probe(&Chess::default());
                let _ = book.probe(&after("e2e4 c7c5"));
                let _ = dump(&book);
                let _ = to_polyglot(&book, Weights::Play);
                let _ = verify(&book);
            }
        };
        let rounds = if bytes.len() > 100_000 { 4 } else { 60 };
        for _ in 0..rounds {
            // Flip bytes inside the pages that matter most: the header page and a few data pages.
            let mut ctg = bytes.clone();
            for _ in 0..8 {
                let page = if bytes.len() > 100_000 { [0, 1, 89, 206, 238][next(5)] } else { next(2) };
                let at = page * 4096 + next(4096.min(bytes.len() - page * 4096));
                ctg[at] ^= 1 << next(8);
            }
            exercise(ctg, &cto, &ctb);
            let mut cto_m = cto.clone();
            let at = next(cto_m.len());
            cto_m[at] ^= 0xff;
            let mut ctb_m = ctb.clone();
            let at = next(ctb_m.len());
            ctb_m[at] ^= 1 << next(8);
            exercise(bytes.clone(), &cto_m, &ctb_m);
            exercise(bytes[..next(bytes.len())].to_vec(), &cto[..next(cto.len())], &ctb);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Random data pages behind a valid header page, with and without a random index.
    #[test]
    fn random_books_never_panic(
        page in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4092),
        cto in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
        ctb in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..32),
    ) {
        let mut ctg = vec![0u8; 4096];
        ctg[..4].copy_from_slice(&[0x00, 0x20, 0x10, 0x00]);
        ctg[0x13] = 1;
        // A page header that covers the random bytes, so that records get parsed.
        let used = 4 + page.len() as u16;
        ctg.extend_from_slice(&[0, 1, (used >> 8) as u8, used as u8]);
        ctg.extend_from_slice(&page);
        let mut cto_valid = vec![0, 16, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        cto_valid.extend_from_slice(&cto);
        let ctb_valid = [&[0, 12, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0][..], &ctb].concat();
        for index in [Some((cto_valid.as_slice(), ctb_valid.as_slice())), Some((cto.as_slice(), ctb.as_slice())), None] {
            if let Ok(book) = Book::from_bytes(ctg.clone(), index) {
                let _ = book.probe(&Chess::default());
                let _ = dump(&book);
                let _ = to_polyglot(&book, Weights::Play);
                let _ = verify(&book);
            }
        }
    }
}
