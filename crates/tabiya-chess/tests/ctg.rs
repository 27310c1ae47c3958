//! CTG books of the corpus: the facts of ctg.md sections 2, 6, 11 and issue 4.

use std::path::PathBuf;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use tabiya_chess::boardcode::Normalized;
use tabiya_chess::ctg::{Book, CtgReading, Key, Stats, Weights, dump, hex, read_model, verify};
use tabiya_chess::polyglot;
use tabiya_testdata::{Xorshift, corpus_file};

fn powerplay() -> Option<PathBuf> {
    corpus_file("ctg/PowerPlay17-Sicilienne/PowerPlay17-Sicilienne.ctg")
}

fn simple() -> Option<PathBuf> {
    corpus_file("ctg/simple/simple.ctg")
}

/// The position after `moves` (SAN or UCI) from the start.
fn after(moves: &str) -> Chess {
    tabiya_chess::book::probe_position(None, Some(moves)).expect("legal moves")
}

/// (uci, code, raw weight) of the book moves of a position.
fn book_moves(book: &Book, pos: &Chess) -> Vec<(String, u8, u64)> {
    let probe = book.probe(pos).unwrap();
    assert!(probe.problems.is_empty(), "{:?}", probe.problems);
    let weights = Weights::Raw.weights(&probe.moves);
    probe.moves.iter().zip(weights).map(|(m, w)| (m.uci(), m.stored.code, w)).collect()
}

/// CTG → Polyglot as `convert` does it: the CTG reader into the book model, the Polyglot
/// writer from it.
fn to_polyglot(book: &Book, weights: Weights) -> (CtgReading, polyglot::PolyglotWriting) {
    let (model, reading) = read_model(book, weights).unwrap();
    (reading, polyglot::entries_of_model(model))
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
    assert_eq!(record.byte_len(), 58);
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
    let line = serde_json::to_value(start.json_line()).unwrap();
    assert_eq!(line["fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(line["moves"][0]["san"], "e4");
    assert_eq!(line["moves"][0]["uci"], "e2e4");
    assert_eq!((line["games"].as_u64(), line["own_ratings"]["average"].as_u64()), (Some(499), Some(2244)));
}

#[test]
fn powerplay17_verifies() {
    let Some(path) = powerplay() else { return };
    let book = Book::open(&path).unwrap();
    let v = verify(&book);
    let errors: Vec<_> = v.problems.iter().filter(|f| f.is_error()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let count = |name: &str| v.checked[name].as_u64().unwrap();
    assert_eq!(count("pages"), 257);
    assert_eq!(count("records"), 13_305);
    assert_eq!(count("moves"), 13_406);
    assert_eq!(count("ep_records"), 67);
    // ctg.md 4.2: 6,263 records without castling rights.
    assert_eq!(count("records") - count("castling_records"), 6_263);
    assert_eq!(count("pages_with_stale_bytes"), 141);
    assert_eq!(count("found_exact"), 13_305);
    assert_eq!(count("found_legacy"), 13_305);
    assert_eq!(count("leaf_buckets"), 257);
    assert_eq!(count("splits"), 256);
    // The only finding: ChessBase's approximate position count in the header.
    assert_eq!(v.problems.len(), 1, "{:?}", v.problems);
    assert_eq!(v.problems[0].code, "ctg.header_positions");
}

#[test]
fn simple_verifies() {
    let Some(path) = simple() else { return };
    let v = verify(&Book::open(&path).unwrap());
    assert!(v.ok, "{:?}", v.problems);
    assert_eq!(v.checked["records"], 4);
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
    let (reading, export) = to_polyglot(&book, Weights::Play);
    assert_eq!(reading.records, 13_305);
    assert_eq!(reading.undecodable, 0);
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
    assert!(!v.ok);
}

/// Truncations and byte flips of both corpus books: every operation returns, none panics.
#[test]
fn mutated_books_never_panic() {
    for path in [simple(), powerplay()].into_iter().flatten() {
        let bytes = std::fs::read(&path).unwrap();
        let cto = std::fs::read(path.with_extension("cto")).unwrap();
        let ctb = std::fs::read(path.with_extension("ctb")).unwrap();
        let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
        let mut next = move |n: usize| rng.below(n);
        let exercise = |ctg: Vec<u8>, cto: &[u8], ctb: &[u8]| {
            if let Ok(book) = Book::from_bytes(ctg, Some((cto, ctb))) {
                let _ = book.probe(&Chess::default());
                let _ = book.probe(&after("e2e4 c7c5"));
                let _ = dump(&book);
                let _ = read_model(&book, Weights::Play).map(|(model, _)| polyglot::entries_of_model(model));
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
                let _ = read_model(&book, Weights::Play).map(|(model, _)| polyglot::entries_of_model(model));
                let _ = verify(&book);
            }
        }
    }
}

/// A record of a synthetic book: key bytes, (code, annotation) pairs, statistics.
type TinyRecord<'a> = (Vec<u8>, &'a [(u8, u8)], Stats);

/// A one-page book (bucket 0 → page 0, like `simple`) holding the given records.
fn tiny_book(records: &[TinyRecord<'_>]) -> Book {
    let cto = [0, 16, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let ctb = [0, 12, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0];
    Book::from_bytes(tiny_ctg(records), Some((&cto, &ctb))).unwrap()
}

/// The .ctg of a book whose page 0 holds the given records.
fn tiny_ctg(records: &[TinyRecord<'_>]) -> Vec<u8> {
    let mut page = vec![0u8; 4];
    for (key, moves, stats) in records {
        page.extend_from_slice(key);
        page.push(2 * moves.len() as u8 + 1);
        for &(code, annotation) in *moves {
            page.extend_from_slice(&[code, annotation]);
        }
        page.extend_from_slice(&stats.to_bytes());
    }
    let used = page.len() as u16;
    page[..4].copy_from_slice(&[0, records.len() as u8, (used >> 8) as u8, used as u8]);
    page.resize(4096, 0);
    let mut ctg = vec![0u8; 4096];
    ctg[..4].copy_from_slice(&[0x00, 0x20, 0x10, 0x00]);
    ctg[0x13] = 1;
    ctg.extend_from_slice(&page);
    ctg
}

fn position(fen: &str) -> Chess {
    fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap()
}

fn key_of(pos: &Chess) -> Vec<u8> {
    Key::encode(&Normalized::new(pos)).unwrap().as_bytes().to_vec()
}

fn ucis(book: &Book, pos: &Chess) -> (Vec<String>, Vec<String>) {
    let probe = book.probe(pos).unwrap();
    (probe.moves.iter().map(|m| m.uci()).collect(), probe.problems.into_iter().map(|d| d.message).collect())
}

#[test]
fn second_queen_codes_0x1a_and_0xf9() {
    // Queen 1 on a1, queen 2 on h1 (square order a1, a2, …, h8).
    let open = position("4k3/8/8/8/8/8/8/Q3K2Q w - - 0 1");
    let book = tiny_book(&[(key_of(&open), &[(0x1a, 0), (0xf9, 0)], Stats::default())]);
    assert_eq!(ucis(&book, &open), (vec!["h1h7".to_string(), "h1f1".to_string()], vec![]));
    // h1h7 blocked by the h3 pawn: 0x1A read as x+6 (h1f1), with a warning.
    let blocked = position("4k3/8/8/8/8/7P/8/Q3K2Q w - - 0 1");
    let book = tiny_book(&[(key_of(&blocked), &[(0x1a, 0)], Stats::default())]);
    let (moves, warnings) = ucis(&book, &blocked);
    assert_eq!(moves, ["h1f1"]);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("0x1a") && warnings[0].contains("other 6-square queen move"), "{warnings:?}");
    let v = verify(&book);
    assert!(v.ok && v.problems.iter().any(|f| f.message.contains("other 6-square")), "{:?}", v.problems);
}

#[test]
fn black_to_move_and_mirrored_positions_map_back() {
    // Stored flipped and mirrored: Black's b7 pawn is White's g2 pawn (pawn 1, y+2 = 0xDB).
    let black = position("2k5/1p6/8/8/8/8/8/4K3 b - - 0 1");
    let book = tiny_book(&[(key_of(&black), &[(0xdb, 0), (0x13, 0)], Stats::default())]);
    let probe = book.probe(&black).unwrap();
    assert!(probe.normalized.frame.flipped && probe.normalized.frame.mirrored);
    let moves: Vec<String> = probe.moves.iter().map(|m| m.uci()).collect();
    // King y+1 in the normalised frame (f1 → f2) is c8 → c7 for real.
    assert_eq!(moves, ["b7b5", "c8c7"]);
    // The three other positions that normalise to the same key answer the same moves, mapped.
    for (fen, expected) in [
        ("4k3/8/8/8/8/8/1P6/2K5 w - - 0 1", ["b2b4", "c1c2"]),
        ("3k4/8/8/8/8/8/6P1/5K2 w - - 0 1", ["g2g4", "f1f2"]),
        ("5k2/6p1/8/8/8/8/8/3K4 b - - 0 1", ["g7g5", "f8f7"]),
    ] {
        assert_eq!(ucis(&book, &position(fen)).0, expected, "{fen}");
    }
    // Converted to Polyglot, every one of the four is in the book.
    let (_, export) = to_polyglot(&book, Weights::Play);
    assert_eq!(export.positions, 4);
    for fen in ["2k5/1p6/8/8/8/8/8/4K3 b - - 0 1", "3k4/8/8/8/8/8/6P1/5K2 w - - 0 1"] {
        assert_eq!(polyglot::probe(&export.entries, &position(fen)).len(), 2, "{fen}");
    }
}

#[test]
fn en_passant_is_retried_without_the_file() {
    let pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    let without_ep = position("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
    assert_ne!(key_of(&pos), key_of(&without_ep));
    // e5xd6 is pawn 1, x+7 y+1 (0x0C); only legal with the ep square.
    let book = tiny_book(&[(key_of(&without_ep), &[(0x0c, 0), (0xec, 0)], Stats::default())]);
    let (moves, warnings) = ucis(&book, &pos);
    assert_eq!(moves, ["e5d6", "e5e6"]);
    assert!(warnings.iter().any(|w| w.contains("without its en-passant file")), "{warnings:?}");
}

#[test]
fn play_weights_follow_annotations_and_colours() {
    let start = Chess::default();
    let child = |uci: &str| {
        let mut pos = start.clone();
        pos.play_unchecked(uci.parse::<UciMove>().unwrap().to_move(&start).unwrap());
        key_of(&pos)
    };
    // Child statistics are for the child's side to move (Black): White's wins are its losses.
    let stats = |losses, draws, recommendation| Stats { games: 10, losses, draws, recommendation, ..Stats::default() };
    let book = tiny_book(&[
        // e4 (plain), d4 `!`, c4 `?!`, Nf3 red, Nc3 green.
        (key_of(&start), &[(0x5f, 0), (0xe6, 1), (0x9b, 6), (0xf3, 0), (0x34, 0)], Stats::default()),
        (child("e2e4"), &[], stats(3, 2, 0)),
        (child("d2d4"), &[], stats(3, 2, 0)),
        (child("c2c4"), &[], stats(3, 2, 0)),
        (child("g1f3"), &[], stats(3, 2, 0x40)),
        (child("b1c3"), &[], stats(3, 2, 0x80)),
    ]);
    let probe = book.probe(&start).unwrap();
    let moves: Vec<String> = probe.moves.iter().map(|m| m.uci()).collect();
    assert_eq!(moves, ["e2e4", "d2d4", "c2c4", "g1f3", "b1c3"]);
    // 2·3 + 2 = 8 for every move; × 1, × 8, × 1/8, red 0, green × 10.
    assert_eq!(Weights::Raw.weights(&probe.moves), [8, 8, 8, 8, 8]);
    assert_eq!(Weights::Play.weights(&probe.moves), [8, 64, 1, 0, 80]);
    let (_, export) = to_polyglot(&book, Weights::Play);
    let weights: Vec<(String, u16)> =
        polyglot::probe(&export.entries, &start).into_iter().map(|h| (h.uci, h.entry.weight)).collect();
    assert_eq!(weights, [("b1c3".into(), 80), ("d2d4".into(), 64), ("e2e4".into(), 8), ("c2c4".into(), 1)]);
    assert_eq!(export.zero_weight, 1);
}

#[test]
fn powerplay17_to_kvetka_keeps_every_position_and_move() {
    use tabiya_chess::kvetka;
    let Some(path) = powerplay() else { return };
    let book = Book::open(&path).unwrap();
    let header = kvetka::Header { caption: "PowerPlay17".into(), ..kvetka::Header::default() };
    let (model, reading) = read_model(&book, Weights::Raw).unwrap();
    let export = kvetka::convert::write_model(&model, header).unwrap();
    let undecodable = reading.undecodable + export.moves_without_code;
    assert_eq!((export.book.element_count(), export.too_long, undecodable), (13_305, 0, 0));
    let moves: usize = export.book.elements().map(|e| e.moves.len()).sum();
    assert_eq!(moves, 13_406);
    let written = export.book;
    let dir = tempfile::tempdir().unwrap();
    written.write(&dir.path().join("pp17"), &Default::default()).unwrap();
    let kob = kvetka::Book::read(&dir.path().join("pp17_0.kob")).unwrap();
    assert_eq!(kob.element_count(), 13_305);
    // Every position reached from the start: the same moves and the same W/D/L.
    for dumped in dump(&book).unwrap().iter().filter(|d| d.reached) {
        let pos = dumped.position.as_ref().unwrap();
        let (key, norm) = kvetka::key::encode(pos).unwrap();
        let element = kob.find(&key).unwrap();
        let s = dumped.record.stats;
        assert_eq!((element.wins, element.draws, element.losses), (s.wins, s.draws, s.losses));
        let from_kvetka: Vec<_> =
            element.moves.iter().map(|&c| kvetka::moves::decode_move(&norm, pos, c).unwrap()).collect();
        let from_ctg: Vec<_> = dumped.moves.iter().map(|m| m.mv.unwrap()).collect();
        assert_eq!(from_kvetka, from_ctg, "{}", hex(dumped.record.key));
    }
}

/// ctg.md 6: the legacy walk finds 12,561 records at the first in-range bucket, 672 at the
/// second, 72 at the third (split buckets on the way have no page).
#[test]
fn powerplay17_legacy_walk_depths() {
    let Some(path) = powerplay() else { return };
    let book = Book::open(&path).unwrap();
    let tree = book.tree().unwrap();
    let mut depths = [0u32; 4];
    for record in book.records() {
        let record = record.unwrap();
        let hash = tabiya_chess::ctg::hash(record.key);
        let depth = tree
            .legacy_pages(hash)
            .position(|(_, page)| page >= 0 && book.find_in_page(page as u32, record.key).unwrap().is_some())
            .unwrap();
        depths[depth.min(3)] += 1;
    }
    assert_eq!(depths, [12_561, 672, 72, 0]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Positions of random games: the key decodes to the normalised position and re-encodes to
    /// itself, and every legal move with a CTG code decodes back to the same move.
    #[test]
    fn random_game_positions_round_trip(choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..120)) {
        let mut pos = Chess::default();
        for choice in choices {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let normalized = Normalized::new(&pos);
            let key = Key::encode(&normalized).unwrap();
            let decoded = tabiya_chess::ctg::key::decode(key.as_bytes()).unwrap();
            proptest::prop_assert_eq!(&decoded.board, &normalized.board);
            proptest::prop_assert_eq!((decoded.castling, decoded.ep_file), (normalized.castling, normalized.ep_file));
            proptest::prop_assert_eq!(Key::encode(&decoded), Some(key));
            for mv in &legal {
                let Some(code) = normalized.shape_of(mv).and_then(tabiya_chess::ctg::codes::encode) else { continue };
                let shape = tabiya_chess::ctg::codes::decode(code).unwrap();
                proptest::prop_assert_eq!(normalized.real_move(&pos, shape), Some(*mv));
            }
            pos.play_unchecked(legal[usize::from(choice) % legal.len()]);
        }
    }
}

/// A record whose page the tree does not lead to is still found by the legacy walk, with a
/// warning, and `verify` reports it as an error.
#[test]
fn record_found_only_by_the_legacy_walk() {
    // The start key hashes to 0xEB7ED3D7: with the root split its leaf is bucket 2, and the
    // legacy walk goes on to bucket (h & 3) + 3 = 6.
    let start = Chess::default();
    let mut ctg = tiny_ctg(&[(key_of(&start), &[(0x5f, 0)], Stats::default())]);
    ctg[0x13] = 2;
    ctg.extend_from_slice(&[0, 0, 0, 4]);
    ctg.resize(3 * 4096, 0);
    let entries: [i32; 7] = [-1, 0, 1, -1, -1, -1, 0];
    let mut cto = vec![0, 16, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0];
    cto.extend(entries.iter().flat_map(|e| e.to_be_bytes()));
    let ctb = [0, 12, 0, 1, 0, 0, 0, 0, 0, 0, 0, 8, 0x01];
    let book = Book::from_bytes(ctg, Some((&cto, &ctb))).unwrap();
    let (moves, warnings) = ucis(&book, &start);
    assert_eq!(moves, ["e2e4"]);
    assert!(warnings.iter().any(|w| w.contains("only by the legacy walk")), "{warnings:?}");
    let v = verify(&book);
    assert!(
        v.problems
            .iter()
            .any(|f| f.code == "ctg.exact_lookup" && f.is_error() && f.message.contains("not found by the exact")),
        "{:?}",
        v.problems
    );
}

/// SOURCES.md: `simple` holds the start position, 1.e4, 1.d4 and 1.d4 d5.
#[test]
fn simple_dump_is_the_four_positions() {
    let Some(path) = simple() else { return };
    let book = Book::open(&path).unwrap();
    let mut fens: Vec<String> = dump(&book)
        .unwrap()
        .iter()
        .map(|p| {
            assert!(p.reached && p.problems.is_empty());
            serde_json::to_value(p.json_line()).unwrap()["fen"].as_str().unwrap().to_owned()
        })
        .collect();
    fens.sort();
    let mut expected: Vec<String> = ["", "e2e4", "d2d4", "d2d4 d7d5"]
        .iter()
        .map(|m| shakmaty::fen::Fen::from_position(&after(m), shakmaty::EnPassantMode::Legal).to_string())
        .collect();
    expected.sort();
    assert_eq!(fens, expected);
}

/// The orientation choice is made once (`Normalized::orientations`): CTG → Polyglot and
/// CTG → Kvetka → Polyglot write the same positions, and with raw weights (Kvetka keeps W/D/L,
/// not CTG's annotations) the same moves with the same weights in every position.
#[test]
fn powerplay17_to_polyglot_directly_and_through_kvetka_agree() {
    use std::collections::BTreeMap;
    use tabiya_chess::kvetka;
    let Some(path) = powerplay() else { return };
    let book = Book::open(&path).unwrap();
    let direct = to_polyglot(&book, Weights::Raw).1.entries;
    let (model, _) = read_model(&book, Weights::Raw).unwrap();
    let kvetka_book = kvetka::convert::write_model(&model, kvetka::Header::default()).unwrap().book;
    let (model, reading) = kvetka::convert::read_model(&kvetka_book);
    assert_eq!((reading.positions_invalid, reading.moves_skipped), (0, 0));
    let through = polyglot::entries_of_model(model).entries;
    let by_key = |entries: &[polyglot::Entry]| {
        let mut map: BTreeMap<u64, Vec<(u16, u16)>> = BTreeMap::new();
        for e in entries {
            map.entry(e.key).or_default().push((e.raw_move, e.weight));
        }
        map.values_mut().for_each(|moves| moves.sort_unstable());
        map
    };
    let (direct, through) = (by_key(&direct), by_key(&through));
    let both: Vec<u64> = direct.keys().filter(|k| through.contains_key(k)).copied().collect();
    // Every orientation of every record: far more than the 4,381 positions reachable from
    // the start that the old walk of the Kvetka book wrote.
    assert!(both.len() > 10_000, "{}", both.len());
    assert_eq!(direct.len(), through.len());
    for key in both {
        assert_eq!(direct[&key], through[&key], "{key:016x}");
    }
}
