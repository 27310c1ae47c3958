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
