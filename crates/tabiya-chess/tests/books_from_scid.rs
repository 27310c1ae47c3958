//! Books built from SCID databases equal books built from SCID 5.0.2's own PGN export of the
//! same database (`*.export.pgn` beside it in the corpus, see its SOURCES.md): the games
//! reach the builders through `games::open` instead of the PGN reader, and nothing else
//! may differ.

use std::path::Path;

use tabiya_chess::book::{BuildOptions, EloFilter, build_from_games, build_from_pgn};
use tabiya_chess::games;
use tabiya_chess::kvetka::build::Builder;
use tabiya_chess::kvetka::{Header, KvetkaError};
use tabiya_chess::polyglot::{MakeOptions, entries_from_book, write_entries};
use tabiya_testdata::corpus_file;

/// (database, its PGN export, games in it per SOURCES.md).
const DATABASES: [(&str, &str, u64); 6] = [
    ("scid/generated-scid502/fischer_4.si4", "scid/generated-scid502/fischer_4.export.pgn", 827),
    ("scid5/fischer_5.si5", "scid5/fischer_5.export.pgn", 827),
    ("scid/generated-scid502/fenstd_4.si4", "scid/generated-scid502/fenstd_4.export.pgn", 2),
    ("scid/generated-scid502/five_4.si4", "scid/generated-scid502/five_4.export.pgn", 5),
    ("scid5/five_5.si5", "scid5/five_5.export.pgn", 5),
    ("scid5/utf8_5.si5", "scid5/utf8_5.export.pgn", 1),
];

fn polyglot_bytes(build: tabiya_chess::book::GamesBuild) -> Vec<u8> {
    let make = MakeOptions { min_games: 1, min_score: 0.0, only: None, uniform: false };
    let mut bytes = Vec::new();
    write_entries(&entries_from_book(&build.book, &make), &mut bytes).unwrap();
    bytes
}

#[test]
fn polyglot_books_from_scid_equal_books_from_its_pgn_export() {
    let all_plies = BuildOptions::default();
    let rated_openings =
        BuildOptions { max_ply: 30, elo: EloFilter { weak: 2500, ..EloFilter::default() }, keep_positions: true };
    for (db, export, games) in DATABASES {
        let (Some(db), Some(export)) = (corpus_file(db), corpus_file(export)) else { return eprintln!("skipped") };
        for options in [&all_plies, &rated_openings] {
            let from_scid = build_from_games(games::open(&db).unwrap(), options);
            let from_pgn = build_from_pgn(&std::fs::read(&export).unwrap(), options, Some(1));
            assert_eq!(from_scid.unreadable, 0);
            assert_eq!(from_scid.summary, from_pgn.summary, "{}", db.display());
            let counted = from_scid.summary.games_added + from_scid.summary.games_below_min_elo;
            assert_eq!(counted, games, "{}", db.display());
            let bytes = polyglot_bytes(from_scid);
            // Every game has moves: with all plies, the book is not empty.
            assert!(options.elo != EloFilter::default() || !bytes.is_empty());
            assert!(bytes == polyglot_bytes(from_pgn), "{} {options:?}", db.display());
        }
    }
}

fn kvetka_from_scid(db: &Path, header: &Header) -> Result<Vec<u8>, KvetkaError> {
    let mut builder = Builder::new(header.clone());
    builder.add_games(games::open(db).unwrap())?;
    Ok(kob_bytes(builder))
}

fn kvetka_from_pgn(pgn: &Path, header: &Header) -> Vec<u8> {
    let mut builder = Builder::new(header.clone());
    builder.add_pgn(pgn, &std::fs::read(pgn).unwrap()).unwrap();
    kob_bytes(builder)
}

/// The `.kob` the builder's book writes (a book of one part, `x_0.kob`).
fn kob_bytes(builder: Builder) -> Vec<u8> {
    let (book, report) = builder.finish(None).unwrap();
    assert_eq!(report.games_unreadable, 0);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.kob");
    book.write(&path, &Default::default()).unwrap();
    std::fs::read(dir.path().join("x_0.kob")).unwrap()
}

#[test]
fn kvetka_books_from_scid_equal_books_from_its_pgn_export() {
    let plain = Header::default();
    let linked_rated = Header { links: 1, min_white_elo: 2600, max_move: 40, ..Header::default() };
    for (db, export, _) in DATABASES {
        let (Some(db), Some(export)) = (corpus_file(db), corpus_file(export)) else { return eprintln!("skipped") };
        for header in [&plain, &linked_rated] {
            let bytes = kvetka_from_scid(&db, header).unwrap();
            assert!(bytes == kvetka_from_pgn(&export, header), "{} {header:?}", db.display());
        }
    }
}

#[test]
fn kvetka_game_links_refuse_scid_games() {
    let Some(db) = corpus_file("scid/generated-scid502/five_4.si4") else { return eprintln!("skipped") };
    let references = Header { element_type: 1, ..Header::default() };
    assert!(matches!(kvetka_from_scid(&db, &references), Err(KvetkaError::Unrepresentable { .. })));
}
