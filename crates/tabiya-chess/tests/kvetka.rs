//! Kvetka books against the document's worked examples (kvetka.md 14) and the corpus.

use std::path::{Path, PathBuf};

use tabiya_chess::game::Game;
use tabiya_chess::kvetka::build::{BuildReport, Builder, GamePlace, OpeningNames};
use tabiya_chess::kvetka::conventions::ReadOptions;
use tabiya_chess::kvetka::{Book, BookReader, GameLinks, Header, Key, KinState, SourceRef, open};
use tabiya_chess::pgn::PgnReader;

fn unhex(text: &str) -> Vec<u8> {
    let digits: String = text.split_whitespace().collect();
    (0..digits.len()).step_by(2).map(|i| u8::from_str_radix(&digits[i..i + 2], 16).unwrap()).collect()
}

fn games(pgn: &str) -> Vec<Game> {
    PgnReader::new(pgn.as_bytes()).map(|g| g.unwrap().game).collect()
}

/// kvetka.md 14.3: the used bytes of tiny_0.kob.
const TINY_KOB: &str = "
01000000040054006500730074000000000000000002010000000001009d22b6
0f7960f3a60f58b078e0c1e1a60f5960f3b60f70f00100000111040000000000
0022b60f7960f3a60f58b078e0c721a60f5960f3b60f70f00000010109040000
0000000054b60f7960f3a63958b078e031e1a60f5960f3b60f70f00100000007
00000000000000000014004200320030007c0053006900630069006c00690061
006e00200044006500660065006e0063006501000000000000";

const TINY_KSF_SOURCE: &str = "
01000000001c002500630075007200720065006e007400640069007200700067
006e005c00670061006d0065005f0062006100730065002e00700067006e0000
0001000000000000007800000006c8e2e0edeee200000005536d697468096000
0001";

/// The tiny book, built the way 14.3 describes, written into `dir`.
fn build_tiny(dir: &Path) -> (PathBuf, BuildReport) {
    let header = Header { caption: "Test".into(), max_move: 2, element_type: 1, ..Header::default() };
    let mut builder = Builder::new(header);
    builder.add_source(r"%currentdirpgn\game_base.pgn".into()).unwrap();
    let game = &games("[White \"Иванов\"]\n[Black \"Smith\"]\n[WhiteElo \"2400\"]\n\n1. e4 c5 1-0\n")[0];
    builder.add_game(game, GamePlace { offset: 0, length: 120 }).unwrap();
    let eco = "[ECO \"B20\"]\n[Opening \"Sicilian Defence\"]\n\n1. e4 c5 *\n";
    let names = OpeningNames::from_pgn(Path::new("eco.pgn"), eco.as_bytes());
    let (book, report) = builder.finish(Some(&names)).unwrap();
    let stem = dir.join("tiny");
    book.write(&stem, &Default::default()).unwrap();
    (stem, report)
}

fn read(path: PathBuf) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn golden_tiny_book_is_byte_exact() {
    let dir = tempfile::tempdir().unwrap();
    let (stem, report) = build_tiny(dir.path());
    assert_eq!((report.games_added, report.positions), (1, 3));

    let kob = read(stem.with_file_name("tiny_0.kob"));
    let used = unhex(TINY_KOB);
    assert_eq!(kob.len(), 2_076);
    assert_eq!(&kob[..used.len()], &used[..]);
    assert!(kob[used.len()..].iter().all(|&b| b == 0));

    assert_eq!(read(stem.with_file_name("tiny.kin")), unhex("b60f7960f3a60f58b078e0c1e1a60f5960f3b60f70f0"));

    let ksf = read(stem.with_file_name("tiny.ksf"));
    assert_eq!(ksf.len(), 610);
    assert_eq!(&ksf[..8], &[0, 0, 0, 1, 0, 0, 2, 0]);
    assert!(ksf[8..512].iter().all(|&b| b == 0));
    assert_eq!(&ksf[512..], &unhex(TINY_KSF_SOURCE)[..]);
}

#[test]
fn golden_book_reads_back_and_rewrites_identically() {
    let dir = tempfile::tempdir().unwrap();
    let (stem, _) = build_tiny(dir.path());
    let opened = open(&stem.with_file_name("tiny_0.kob"), ReadOptions::default()).unwrap();
    assert!(opened.problems.is_empty(), "{:?}", opened.problems);
    assert_eq!(opened.kin, KinState::Agrees);
    let book = &opened.book;
    assert_eq!(book.header.caption, "Test");
    assert_eq!(book.element_count(), 3);
    let last = book.find(&Key::from_hex("b60f7960f3a63958b078e031e1a60f5960f3b60f70f0").unwrap()).unwrap();
    assert_eq!((last.wins, last.draws, last.losses), (1, 0, 0));
    assert_eq!(last.comment.as_deref(), Some("B20|Sicilian Defence"));
    assert_eq!(last.game_links, GameLinks::Parsed(vec![SourceRef { source: 0, game: 0 }]));
    let sources = book.sources.as_ref().unwrap();
    let (source, game) = sources.game(SourceRef { source: 0, game: 0 }).unwrap();
    assert_eq!(source.address, r"%currentdirpgn\game_base.pgn");
    assert_eq!((game.white_name().as_str(), game.black_name().as_str(), game.white_elo), ("Иванов", "Smith", 2400));

    let copy = dir.path().join("copy");
    book.write(&copy, &Default::default()).unwrap();
    for (a, b) in [("tiny_0.kob", "copy_0.kob"), ("tiny.kin", "copy.kin"), ("tiny.ksf", "copy.ksf")] {
        assert_eq!(read(dir.path().join(a)), read(dir.path().join(b)), "{a}");
    }
}

#[test]
fn lookups_work_without_kin_and_ksf() {
    let dir = tempfile::tempdir().unwrap();
    let (stem, _) = build_tiny(dir.path());
    std::fs::remove_file(stem.with_file_name("tiny.kin")).unwrap();
    std::fs::remove_file(stem.with_file_name("tiny.ksf")).unwrap();
    let reader = BookReader::open(&stem, ReadOptions::default()).unwrap();
    let start = Key::from_hex("b60f7960f3a60f58b078e0c1e1a60f5960f3b60f70f0").unwrap();
    let element = reader.find(&start).unwrap().unwrap();
    assert_eq!(element.moves, [0x11]);
    assert_eq!(reader.find(&Key([0xff; 22])).unwrap(), None);
    assert_eq!(reader.find(&Key([0; 22])).unwrap(), None);
    let opened = open(&stem, ReadOptions::default()).unwrap();
    assert_eq!((opened.kin, opened.book.sources.is_none()), (KinState::Absent, true));
}

#[test]
fn the_kob_header_type_must_be_one() {
    let dir = tempfile::tempdir().unwrap();
    let (stem, _) = build_tiny(dir.path());
    let part = stem.with_file_name("tiny_0.kob");
    let mut bytes = read(part.clone());
    bytes[0] = 0x02;
    std::fs::write(&part, &bytes).unwrap();
    let err = Book::read(&part).unwrap_err().to_string();
    assert!(err.contains("unsupported book format (type 0x02"), "{err}");
}

/// Truncations and byte flips of every file of the golden book: a result or an error, never a
/// panic (the fuzz target explores further).
#[test]
fn damaged_books_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    let (stem, _) = build_tiny(dir.path());
    let names = ["tiny_0.kob", "tiny.kin", "tiny.ksf"];
    let originals: Vec<Vec<u8>> = names.iter().map(|n| read(dir.path().join(n))).collect();
    let mut damaged = 0;
    for (i, name) in names.iter().enumerate() {
        let path = dir.path().join(name);
        let original = &originals[i];
        let mut variants: Vec<Vec<u8>> = (0..original.len()).step_by(13).map(|n| original[..n].to_vec()).collect();
        for at in (0..original.len().min(700)).step_by(5) {
            for flip in [0x01, 0x80, 0xff] {
                let mut v = original.clone();
                v[at] ^= flip;
                variants.push(v);
            }
        }
        for v in variants {
            std::fs::write(&path, &v).unwrap();
            if open(&stem, ReadOptions::default()).is_err() {
                damaged += 1;
            }
            if let Ok(reader) = BookReader::open(&stem, ReadOptions::default()) {
                let _ = reader.find(&Key::from_hex("b60f7960f3a60f58b078e0c1e1a60f5960f3b60f70f0").unwrap());
            }
        }
        std::fs::write(&path, original).unwrap();
    }
    // Truncated parts at least are errors.
    assert!(damaged > 150, "{damaged}");
}

#[test]
fn hostile_block_sizes_and_lengths_are_errors_with_part_block_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    let (stem, _) = build_tiny(dir.path());
    let part = stem.with_file_name("tiny_0.kob");
    let original = read(part.clone());
    let check = |at: usize, bytes: &[u8], expected: &str| {
        let mut v = original.clone();
        v[at..at + bytes.len()].copy_from_slice(bytes);
        std::fs::write(&part, &v).unwrap();
        let err = Book::read(&part).unwrap_err().to_string();
        assert!(err.contains("tiny_0.kob@") && err.contains("(record 0)") && err.contains(expected), "{err}");
    };
    check(28, &[0x08, 0x01], "block size n between 2 and 2048"); // n = 2049
    check(28, &[0x00, 0x01], "block size n between 2 and 2048");
    check(30, &[0x81, 0x7f], "an element of 255 bytes within the block"); // length past n
    check(30, &[0x8f, 0xff, 0xff, 0xff, 0xff], "CompactInt element length"); // never ends within n
    std::fs::write(&part, &original[..original.len() - 1]).unwrap();
    let err = Book::read(&part).unwrap_err().to_string();
    assert!(err.contains("whole number of 2048-byte blocks"), "{err}");
}

fn book_from(pgn: &str, header: Header) -> Book {
    let mut builder = Builder::new(header);
    builder.add_pgn(Path::new("games.pgn"), pgn.as_bytes()).unwrap();
    builder.finish(None).unwrap().0
}

fn stats(book: &Book, sans: &str) -> Option<(u32, u32, u32, Vec<u8>)> {
    let mut pos = shakmaty::Chess::default();
    for san in sans.split_whitespace() {
        let mv = san.parse::<shakmaty::san::San>().unwrap().to_move(&pos).unwrap();
        shakmaty::Position::play_unchecked(&mut pos, mv);
    }
    let key = tabiya_chess::kvetka::key::encode(&pos).unwrap().0;
    book.find(&key).map(|e| (e.wins, e.draws, e.losses, e.moves.clone()))
}

#[test]
fn statistics_count_each_position_once_per_game_for_the_player_to_move() {
    // Game 1 repeats the start position (knights out and back): counted once.
    let pgn = "1. Nf3 Nf6 2. Ng1 Ng8 3. e4 1-0\n\n1. e4 e5 0-1\n\n1. e4 c5 1/2-1/2\n\n1. d4 *\n";
    let book = book_from(pgn, Header::default());
    assert_eq!(stats(&book, ""), Some((1, 1, 1, vec![0x0d, 0x11, 0x29])));
    // After 1.e4 Black is to move: game 2 is a Black win, game 3 a draw, and game 1 (which
    // reaches the same position on move 3 and ends there) a Black loss.
    assert_eq!(stats(&book, "e4"), Some((1, 1, 1, vec![0x09, 0x11])));
    // The `*` game adds its positions without statistics.
    assert_eq!(stats(&book, "d4"), Some((0, 0, 0, vec![])));
}

#[test]
fn max_move_and_elo_filters_follow_the_header() {
    let pgn =
        "[WhiteElo \"2500\"]\n[BlackElo \"2100\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[WhiteElo \"2300\"]\n\n1. d4 d5 0-1\n";
    let header = Header { max_move: 2, min_weak_elo: 2000, ..Header::default() };
    let book = book_from(pgn, header);
    // Only game 1 passes (game 2: Black's Elo is unknown); plies 1–2 give three positions.
    assert_eq!(book.element_count(), 3);
    assert_eq!(stats(&book, "e4 e5"), Some((1, 0, 0, vec![])));
    assert_eq!(stats(&book, "e4 e5 Nf3"), None);
    let strong = Header { min_strong_elo: 2400, min_white_elo: 2400, ..Header::default() };
    assert_eq!(book_from(pgn, strong).element_count(), 5);
}

#[test]
fn underpromotions_end_the_game_and_are_counted() {
    let pgn = "[FEN \"8/1P2k3/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. b8=N Kd6 1/2-1/2\n\n[FEN \"8/1P2k3/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. b8=Q 1-0\n";
    let mut builder = Builder::new(Header::default());
    builder.add_pgn(Path::new("p.pgn"), pgn.as_bytes()).unwrap();
    let (book, report) = builder.finish(None).unwrap();
    assert_eq!(report.moves_underpromotion, 1);
    // The start position of both games, and the position after b8=Q.
    assert_eq!(book.element_count(), 2);
    let start = book.elements().find(|e| e.wins + e.draws == 2).unwrap();
    assert_eq!(start.moves, [0x00]);
}

#[test]
fn links_add_moves_between_book_positions() {
    // Game 2 ends after 1.Nf3 Nc6 2.e4; 2...e5 would reach a position of game 1.
    let pgn = "1. e4 e5 2. Nf3 Nc6 1-0\n\n1. Nf3 Nc6 2. e4 0-1\n";
    let plain = book_from(pgn, Header::default());
    assert_eq!(stats(&plain, "Nf3 Nc6 e4").map(|s| s.3), Some(vec![]));
    let linked = book_from(pgn, Header { links: 1, ..Header::default() });
    // e7e5 in the colour-flipped frame is White's e-pawn two squares up: 0x11.
    assert_eq!(stats(&linked, "Nf3 Nc6 e4").map(|s| s.3), Some(vec![0x11]));
    // 1.e4 e5 2.Nf3 and 1.Nf3 … 2.e4 cross too: after 1.Nf3, e4 is no book position (Black
    // to move there) but after 1.e4, Nc6 leads nowhere either; the start keeps e4 and Nf3.
    assert_eq!(stats(&linked, "").map(|s| s.3), Some(vec![0x11, 0x29]));
}

#[test]
fn append_adds_statistics_and_keeps_the_book_sorted() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n1. d4 d5 2. c4 e6 0-1\n";
    let header = Header { element_type: 1, ..Header::default() };
    let once = {
        let mut b = Builder::new(header.clone());
        b.add_pgn(Path::new("a.pgn"), pgn.as_bytes()).unwrap();
        b.finish(None).unwrap().0
    };
    let mut twice = once.clone();
    let mut report = BuildReport::default();
    tabiya_chess::kvetka::merge::append(&mut twice, once.clone(), &mut report).unwrap();
    assert_eq!(twice.element_count(), once.element_count());
    for (a, b) in once.elements().zip(twice.elements()) {
        assert_eq!((b.key, b.wins, b.draws, b.losses), (a.key, 2 * a.wins, 2 * a.draws, 2 * a.losses));
        assert_eq!(b.moves, a.moves);
    }
    // References of the appended copy point into its own source, the second one.
    let sources = twice.sources.as_ref().unwrap();
    assert_eq!(sources.sources.len(), 2);
    let end = twice.elements().find(|e| e.links().len() == 2).unwrap();
    assert_eq!(end.links()[1].source, 1);
    twice.write(&dir.path().join("twice"), &Default::default()).unwrap();
    let opened = open(&dir.path().join("twice"), ReadOptions::default()).unwrap();
    assert!(opened.problems.is_empty(), "{:?}", opened.problems);
}

#[test]
fn merging_two_books_equals_building_from_both_inputs() {
    let a = "1. e4 e5 2. Nf3 1-0\n\n1. e4 c5 0-1\n";
    let b = "1. e4 e5 2. Bc4 1/2-1/2\n\n1. d4 Nf6 1-0\n";
    let (merged, _) =
        tabiya_chess::kvetka::merge::merge(vec![book_from(a, Header::default()), book_from(b, Header::default())])
            .unwrap();
    let both = book_from(&format!("{a}\n{b}"), Header::default());
    assert_eq!(merged, both);
}

#[test]
fn polyglot_round_trip_keeps_the_moves_reachable_from_the_start() {
    let pgn = "1. e4 e5 2. Nf3 Nc6 1-0\n\n1. d4 d5 1/2-1/2\n\n1. e4 c5 1-0\n";
    let book = book_from(pgn, Header::default());
    let (model, reading) = tabiya_chess::kvetka::convert::read_model(&book);
    assert_eq!((reading.positions_invalid, reading.moves_skipped), (0, 0));
    let entries = tabiya_chess::polyglot::entries_of_model(model).entries;
    let start = tabiya_chess::polyglot::probe(&entries, &shakmaty::Chess::default());
    let moves: Vec<(&str, u16)> = start.iter().map(|h| (h.uci.as_str(), h.entry.weight)).collect();
    // Weight 2·wins + draws for White: e4 won twice, d4 drew once.
    assert_eq!(moves, [("e2e4", 4), ("d2d4", 1)]);
    let (model, _) = tabiya_chess::polyglot::read_model(&entries);
    let back = tabiya_chess::kvetka::convert::write_model(&model, Header::default()).unwrap().book;
    // Black's replies to 1.e4 lost both games: weight 0, so Polyglot has no move after 1.e4.
    assert_eq!(stats(&back, "").map(|s| s.3), Some(vec![0x0d, 0x11]));
    assert_eq!(stats(&back, "d4").map(|s| s.3), Some(vec![0x0d]));
    assert_eq!(stats(&back, "e4").map(|s| s.3), Some(vec![]));
}

#[test]
fn corpus_book_statistics_match_the_pgn() {
    let Some(path) = tabiya_testdata::corpus_file("pgn/small-varied.pgn") else { return };
    let bytes = std::fs::read(&path).unwrap();
    let header = Header { max_move: 40, element_type: 1, ..Header::default() };
    let mut builder = Builder::new(header);
    builder.add_pgn(&path, &bytes).unwrap();
    let (book, report) = builder.finish(None).unwrap();
    // 2,325 games, 12 of them Fischer random ([Variant "fischerandom"]).
    assert_eq!((report.games_read, report.games_chess960, report.games_added), (2_325, 12, 2_313));
    // Games from the initial position (no FEN tag, plus game 2322 whose FEN is the initial
    // position): 920 1-0, 720 ½-½, 670 0-1, one `*`.
    assert_eq!(stats(&book, "").map(|s| (s.0, s.1, s.2)), Some((920, 720, 670)));
    let sources = book.sources.as_ref().unwrap();
    assert_eq!(sources.sources[0].games.len(), 2_313);
    // The .ksf places the first game at offset 0 and each game where the next one begins.
    let games = &sources.sources[0].games;
    assert_eq!(games[0].address, 0);
    assert!(games.windows(2).all(|w| w[0].address + w[0].length <= w[1].address));
    assert!(bytes[games[1].address as usize..].starts_with(b"[Event "));

    // Written, read and written again: the same bytes.
    let dir = tempfile::tempdir().unwrap();
    book.write(&dir.path().join("a"), &Default::default()).unwrap();
    let opened = open(&dir.path().join("a_0.kob"), ReadOptions::default()).unwrap();
    assert!(opened.problems.is_empty(), "{:?}", &opened.problems[..opened.problems.len().min(3)]);
    assert_eq!(opened.book, book);
    opened.book.write(&dir.path().join("b"), &Default::default()).unwrap();
    for suffix in ["_0.kob", ".kin", ".ksf"] {
        assert_eq!(
            read(dir.path().join(format!("a{suffix}"))),
            read(dir.path().join(format!("b{suffix}"))),
            "{suffix}"
        );
    }

    // To Polyglot block by block from the files: the entries of the book in memory, in the
    // same order (their weights are checked against PGN counts in the round-trip test).
    let (whole, whole_report) = tabiya_chess::kvetka::convert::read_model(&book);
    let reader = BookReader::open(&dir.path().join("a_0.kob"), ReadOptions::default()).unwrap();
    assert!(reader.block_number() > 100, "{}", reader.block_number());
    let (streamed, streamed_report) = tabiya_chess::kvetka::convert::read_model_from(&reader).unwrap();
    let [whole, streamed] = [whole, streamed].map(|model| tabiya_chess::polyglot::entries_of_model(model).entries);
    assert!(whole.len() > 50_000, "{}", whole.len());
    assert!(streamed == whole);
    assert_eq!(streamed_report, whole_report);
}

#[test]
fn ctg_records_become_elements_of_the_same_positions() {
    let Some(path) = tabiya_testdata::corpus_file("ctg/PowerPlay17-Sicilienne/PowerPlay17-Sicilienne.ctg") else {
        return;
    };
    let ctg = tabiya_chess::ctg::Book::open(&path).unwrap();
    let (model, reading) = tabiya_chess::ctg::read_model(&ctg, tabiya_chess::ctg::Weights::Raw).unwrap();
    let export = tabiya_chess::kvetka::convert::write_model(&model, Header::default()).unwrap();
    let book = export.book;
    // The CTG book holds 13,305 position records with 13,406 moves, all expressible in Kvetka.
    let moves: usize = book.elements().map(|e| e.moves.len()).sum();
    assert_eq!(
        (book.element_count(), moves, export.too_long, reading.undecodable + export.moves_without_code),
        (13_305, 13_406, 0, 0)
    );
    // After 1.e4 c5 the CTG record counts 171 wins, 114 draws, 192 losses for White.
    assert_eq!(stats(&book, "e4 c5"), Some((171, 114, 192, vec![0x20])));
}

/// A book written as given (the writer keeps the blocks it is handed).
fn write_blocks(dir: &Path, name: &str, elements: Vec<Vec<tabiya_chess::kvetka::Element>>) -> PathBuf {
    let blocks =
        elements.into_iter().map(|elements| tabiya_chess::kvetka::Block { elements, unused: Vec::new() }).collect();
    let book = Book { header: Header { caption: "Test".into(), ..Header::default() }, blocks, sources: None };
    let stem = dir.join(name);
    book.write(&stem, &Default::default()).unwrap();
    stem
}

fn element(first: u8, comment: Option<&str>) -> tabiya_chess::kvetka::Element {
    let mut key = [0; 22];
    key[0] = first;
    let mut e = tabiya_chess::kvetka::Element::new(Key(key));
    e.set_comment(comment.map(str::to_owned));
    e
}

#[test]
fn keys_in_signed_byte_order_are_detected_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let stem = write_blocks(dir.path(), "signed", vec![vec![element(0x81, None), element(0x01, None)]]);
    let opened = open(&stem, ReadOptions::default()).unwrap();
    assert_eq!(opened.key_order, Some(tabiya_chess::kvetka::conventions::KeyOrder::Signed));
    assert_eq!(opened.errors().count(), 0);
    assert!(opened.problems.iter().any(|p| p.message.contains("signed bytes")), "{:?}", opened.problems);

    let stem = write_blocks(
        dir.path(),
        "broken",
        vec![vec![element(0x05, None), element(0x05, None)], vec![element(0x01, None)]],
    );
    let opened = open(&stem, ReadOptions::default()).unwrap();
    assert_eq!(opened.key_order, None);
    let errors: Vec<&str> = opened.errors().map(|p| p.message.as_str()).collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].starts_with("duplicate key") && errors[1].starts_with("key out of order"));
}

#[test]
fn little_endian_comments_are_read_and_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    let stem =
        write_blocks(dir.path(), "le", vec![vec![element(1, Some("Иванов")), element(2, Some("A41|Queen's Pawn"))]]);
    let part = dir.path().join("le_0.kob");
    let mut bytes = read(part.clone());
    for text in ["Иванов", "A41|Queen's Pawn"] {
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let at = bytes.windows(be.len()).position(|w| w == be).unwrap();
        bytes[at..at + le.len()].copy_from_slice(&le);
    }
    std::fs::write(&part, &bytes).unwrap();
    let opened = open(&stem, ReadOptions::default()).unwrap();
    let comments: Vec<_> = opened.book.elements().map(|e| e.comment.clone().unwrap()).collect();
    assert_eq!(comments, ["Иванов", "A41|Queen's Pawn"]);
    let warnings: Vec<_> = opened.problems.iter().filter(|p| p.message.contains("UTF-16LE")).collect();
    assert_eq!(warnings.len(), 1);
}

#[test]
fn a_kin_that_disagrees_is_ignored_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let (stem, _) = build_tiny(dir.path());
    std::fs::write(stem.with_file_name("tiny.kin"), [0xffu8; 22]).unwrap();
    let opened = open(&stem, ReadOptions::default()).unwrap();
    assert_eq!(opened.kin, KinState::Ignored);
    assert!(opened.problems.iter().all(|p| !p.is_error()));
    // Look-ups do not trust it: the start position is still found.
    let reader = BookReader::open(&stem, ReadOptions::default()).unwrap();
    let start = Key::from_hex("b60f7960f3a60f58b078e0c1e1a60f5960f3b60f70f0").unwrap();
    assert!(reader.find(&start).unwrap().is_some());
}

#[test]
fn parts_concatenate_and_a_header_in_a_later_part_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let (stem, _) = build_tiny(dir.path());
    let part0 = read(stem.with_file_name("tiny_0.kob"));
    // Header in part 0, the block in part 1: the same book.
    std::fs::write(stem.with_file_name("split_0.kob"), &part0[..28]).unwrap();
    std::fs::write(stem.with_file_name("split_1.kob"), &part0[28..]).unwrap();
    let split = open(&dir.path().join("split"), ReadOptions::default()).unwrap();
    assert_eq!(split.parts.len(), 2);
    assert_eq!(split.book.element_count(), 3);
    // A copy of the header at the start of part 1 is reported as such.
    std::fs::write(stem.with_file_name("split_1.kob"), &part0).unwrap();
    let err = open(&dir.path().join("split"), ReadOptions::default()).unwrap_err().to_string();
    assert!(err.contains("split_1.kob") && err.contains("unexpected header"), "{err}");
    // A gap in the numbering is an error.
    std::fs::rename(stem.with_file_name("split_1.kob"), stem.with_file_name("split_2.kob")).unwrap();
    let err = open(&dir.path().join("split"), ReadOptions::default()).unwrap_err().to_string();
    assert!(err.contains("part 1 is missing"), "{err}");
}

#[test]
fn a_caption_length_counted_in_bytes_is_read_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let (stem, _) = build_tiny(dir.path());
    let part = stem.with_file_name("tiny_0.kob");
    let mut bytes = read(part.clone());
    bytes[4] = 8; // "Test" = 4 code units = 8 bytes
    std::fs::write(&part, &bytes).unwrap();
    let opened = open(&part, ReadOptions::default()).unwrap();
    assert_eq!(opened.book.header.caption, "Test");
    assert_eq!(opened.book.element_count(), 3);
    assert!(opened.problems.iter().any(|p| p.message.contains("byte count")), "{:?}", opened.problems);
}

/// FNV-1a (64 bits): a short fingerprint of bytes pinned from an earlier builder.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Builds a book from `bytes` twice, held in memory ([`Builder::finish`], then written) and
/// written straight from the builder ([`Builder::write`]); checks that both give the same
/// files and returns the report and the fingerprints of `_0.kob`, `.kin` and `.ksf` (0 when
/// there is none; its source address, the corpus's full path, replaced by `games.pgn`).
fn built_fingerprints(dir: &Path, stem: &str, path: &Path, bytes: &[u8], header: Header) -> (BuildReport, [u64; 3]) {
    let mut builder = Builder::new(header.clone());
    builder.add_pgn(path, bytes).unwrap();
    let (mut book, report) = builder.finish(None).unwrap();
    book.write(&dir.join(stem), &Default::default()).unwrap();
    let mut builder = Builder::new(header);
    builder.add_pgn(path, bytes).unwrap();
    let streamed = format!("{stem}-streamed");
    assert_eq!(builder.write(None, &dir.join(&streamed), &Default::default()).unwrap(), report);
    for suffix in ["_0.kob", "_1.kob", ".kin", ".ksf"] {
        let (held, written) = (dir.join(format!("{stem}{suffix}")), dir.join(format!("{streamed}{suffix}")));
        assert_eq!(held.exists(), written.exists(), "{suffix}");
        if held.exists() {
            assert!(read(held) == read(written), "{suffix}");
        }
    }
    let ksf = book.sources.as_mut().map_or(0, |sources| {
        sources.sources[0].address = "games.pgn".into();
        fnv(&sources.to_bytes())
    });
    let prints = [fnv(&read(dir.join(format!("{stem}_0.kob")))), fnv(&read(dir.join(format!("{stem}.kin")))), ksf];
    (report, prints)
}

/// The bytes of books built from the corpus, pinned from the builder of commit 8518240 (a
/// `Game` per PGN game, a hash map of positions) so that a faster builder is checked against
/// it: whole games with game references and links, and 40 plies of the first 4 MB of the
/// medium file without references.
#[test]
fn corpus_books_keep_the_bytes_of_the_first_builder() {
    let (Some(small), Some(medium)) = (
        tabiya_testdata::corpus_file("pgn/small-varied.pgn"),
        tabiya_testdata::corpus_file("pgn/medium-pgnmentor-12players.pgn"),
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(&small).unwrap();
    let header = Header { caption: "small".into(), element_type: 1, links: 1, ..Header::default() };
    let (report, prints) = built_fingerprints(dir.path(), "small", &small, &bytes, header);
    let counts = (report.games_added, report.moves_underpromotion, report.moves_without_code, report.link_moves);
    assert_eq!(counts, (2_313, 55, 3, 3_102));
    assert_eq!(report.positions, 165_139);
    assert_eq!(prints, [0x1180_e2ca_57c8_1aea, 0x1796_9360_c5c2_aa22, 0x4522_c081_6777_d418]);
    let bytes = std::fs::read(&medium).unwrap();
    let cut = 4_000_000 + bytes[4_000_000..].windows(11).position(|w| w == b"\r\n\r\n[Event ").unwrap() + 4;
    let header = Header { caption: "medium".into(), max_move: 40, ..Header::default() };
    let (report, prints) = built_fingerprints(dir.path(), "medium", &medium, &bytes[..cut], header);
    assert_eq!((report.games_added, report.positions), (6_012, 148_266));
    assert_eq!(prints, [0xf79c_91db_cc40_71a6, 0x2656_6788_e03a_27da, 0]);
}

/// Spec 3.2 and 2.2: bytes after n are another writer's leftovers, CompactInts may be longer
/// than needed. Both are read; leftovers are written back with their block; strict reading
/// (what `verify` does) reports both.
#[test]
fn leftovers_after_n_are_kept_and_long_compact_ints_reported_when_strict() {
    let dir = tempfile::tempdir().unwrap();
    let (stem, _) = build_tiny(dir.path());
    let part = stem.with_file_name("tiny_0.kob");
    let original = read(part.clone());
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    let messages = |opened: &tabiya_chess::kvetka::Opened| -> Vec<String> {
        opened.problems.iter().map(|p| format!("{} {}", p.location, p.message)).collect()
    };

    // The block (after the 28-byte header) uses n = 157 bytes; leftovers follow.
    let mut leftovers = original.clone();
    leftovers[28 + 157..28 + 167].copy_from_slice(b"old bytes!");
    std::fs::write(&part, &leftovers).unwrap();
    let opened = open(&part, ReadOptions::default()).unwrap();
    assert!(opened.problems.is_empty(), "{:?}", opened.problems);
    assert_eq!(opened.book.blocks[0].unused.len(), 2048 - 157);
    assert_eq!(&opened.book.blocks[0].unused[..10], b"old bytes!");
    opened.book.write(&dir.path().join("again"), &Default::default()).unwrap();
    assert!(read(dir.path().join("again_0.kob")) == leftovers);
    let found = messages(&open(&part, strict).unwrap());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("0xb9") && found[0].contains("1891 bytes after n are not zero"), "{found:?}");

    // The first element's length 34 as `80 22` instead of `22`: n grows by one.
    let mut long = original[..30].to_vec();
    long[28..30].copy_from_slice(&158u16.to_be_bytes());
    long.push(0x80);
    long.extend_from_slice(&original[30..original.len() - 1]);
    std::fs::write(&part, &long).unwrap();
    let opened = open(&part, ReadOptions::default()).unwrap();
    assert!(opened.problems.is_empty(), "{:?}", opened.problems);
    assert_eq!(opened.book.elements().next().unwrap().moves, [0x11]);
    let found = messages(&open(&part, strict).unwrap());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("0x1e") && found[0].contains("element length 34 written in 2 bytes, 1 would do"),
        "{found:?}"
    );
}

/// `kvetka::verify` decodes every key to a legal position and every move code to a legal move
/// there: a book with a key that is no position and a code that is no legal move at the start
/// fails with `kvetka.key` and `kvetka.move_code` at their blocks; the same book without them
/// verifies.
#[test]
fn verify_finds_bad_keys_and_illegal_move_codes() {
    use tabiya_chess::boardcode::Normalized;
    use tabiya_chess::kvetka::{Element, key, moves, verify};
    let start = shakmaty::Chess::default();
    let (start_key, norm) = key::encode(&start).unwrap();
    // A code that names no legal move at the start, by shakmaty's legal moves.
    let illegal = (0..=255u8).find(|&c| moves::decode_move(&norm, &start, c).is_none()).unwrap();
    let e4 = moves::encode_move(
        &Normalized::new(&start),
        &"e2e4".parse::<shakmaty::uci::UciMove>().unwrap().to_move(&start).unwrap(),
    )
    .unwrap();
    let element = |key: Key, moves: Vec<u8>| Element { moves, ..Element::new(key) };
    let not_a_position = Key([0xff; tabiya_chess::kvetka::KEY_LEN]);
    assert!(key::check(&not_a_position).is_err());
    let dir = tempfile::tempdir().unwrap();

    let good = write_blocks(dir.path(), "good", vec![vec![element(start_key, vec![e4])]]);
    let v = verify(&good);
    assert!(v.ok, "{:?}", v.problems);
    assert_eq!(v.checked["moves"], 1);

    let bad = write_blocks(
        dir.path(),
        "bad",
        vec![vec![element(start_key, vec![e4, illegal])], vec![element(not_a_position, vec![])]],
    );
    let v = verify(&bad);
    assert!(!v.ok);
    let found: Vec<(&str, Option<u64>)> = v.problems.iter().map(|d| (d.code, d.location.number)).collect();
    assert_eq!(found, [("kvetka.move_code", Some(0)), ("kvetka.key", Some(1))], "{:?}", v.problems);
    assert!(v.problems.iter().all(|d| d.location.unit == tabiya_io::Unit::Block));
}
