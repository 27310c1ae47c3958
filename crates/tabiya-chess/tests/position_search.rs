//! Position search of SCID databases against SCID 5.0.2's own board search: the game numbers
//! it found (recorded in `data/scid_search/`, see its README) are the oracle, for the search
//! through the position index and for the pruned replay without it. And a count that takes
//! the index's word for the games it finds ([`count_from`]) counts what reading every game
//! selects ([`select_from`]).

use std::path::{Path, PathBuf};

use shakmaty::san::San;
use shakmaty::{Chess, Position};
use tabiya_chess::games::Source;
use tabiya_chess::games::index::PositionIndex;
use tabiya_chess::games::search::{PositionQuery, search_scid};
use tabiya_chess::games::select::criteria::TagPrefix;
use tabiya_chess::games::select::{AnyOf, Duplicates, GameFilter, Not, Rules, Selection, count_from, select_from};
use tabiya_chess::scid::Database;
use tabiya_testdata::corpus_file;

/// The position after `moves` from the start.
fn after(moves: &str) -> PositionQuery {
    let mut pos = Chess::default();
    for san in moves.split_whitespace() {
        let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    PositionQuery::new(pos)
}

/// SCID's recorded searches of a database: each line's moves and game numbers (from 1).
fn recorded(name: &str) -> Vec<(String, Vec<usize>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scid_search").join(name);
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|line| {
            let (moves, games) = line.split_once(':').unwrap();
            (moves.to_owned(), games.split_whitespace().map(|n| n.parse().unwrap()).collect())
        })
        .collect()
}

fn scid(path: &Path) -> Database {
    match Source::open(path).unwrap() {
        Source::Scid(db) => *db,
        _ => panic!("{} is a SCID database", path.display()),
    }
}

/// Numbers from 0 as SCID numbers games, from 1.
fn from_one(games: &[usize]) -> Vec<usize> {
    games.iter().map(|n| n + 1).collect()
}

#[test]
fn the_games_scid_finds_are_found_with_the_index_and_without() {
    let databases = [
        ("scid/generated-scid502/fischer_4.si4", "fischer_4.txt"),
        // The same games in SCID 5's format: the same numbers.
        ("scid5/fischer_5.si5", "fischer_4.txt"),
        ("scid/scid-gtest/res_database.si4", "res_database.txt"),
    ];
    for (file, oracle) in databases {
        let Some(path) = corpus_file(file) else { return };
        let db = scid(&path);
        let index = PositionIndex::build(&db);
        for (moves, scid_games) in recorded(oracle) {
            let query = after(&moves);
            assert!(index.holds(&query), "{file} {moves}: in the index");
            let indexed = index.search(&db, &query);
            assert!(indexed.problems.is_empty(), "{file} {moves}: {:?}", indexed.problems);
            assert_eq!(from_one(&indexed.games), scid_games, "{file} {moves}: through the index");
            assert_eq!(from_one(&search_scid(&db, &query).games), scid_games, "{file} {moves}: by replay");
        }
    }
}

/// A copy of a corpus SCID database (its three files) in `dir`, so that an index can be
/// written beside it.
fn copy_database(index_file: &Path, dir: &Path) -> PathBuf {
    let stem = index_file.file_stem().unwrap().to_str().unwrap();
    for kind in ["si4", "sg4", "sn4"] {
        let name = format!("{stem}.{kind}");
        std::fs::copy(index_file.with_file_name(&name), dir.join(&name)).unwrap();
    }
    dir.join(index_file.file_name().unwrap())
}

/// The number of games `selection` keeps: counted ([`count_from`]), and selected by reading
/// every game the filters may pass ([`select_from`]).
fn counted_and_selected(path: &Path, selection: &Selection) -> (u64, u64) {
    let source = Source::open(path).unwrap();
    let mut said = Vec::new();
    let counted = count_from(&source, selection, &mut said, |_| {}).unwrap();
    let mut kept = 0;
    let mut duplicates = Duplicates::new(Rules::default());
    let keep = |_, (), _: &mut dyn tabiya_io::DiagnosticSink| {
        kept += 1;
        Ok(())
    };
    select_from(&source, 0, selection, |_| (), &mut duplicates, &mut said, |_| {}, keep).unwrap();
    assert_eq!(counted.read, 827);
    (counted.selected, kept)
}

#[test]
fn a_count_from_the_index_is_the_count_of_the_games_read() {
    let Some(fischer) = corpus_file("scid/generated-scid502/fischer_4.si4") else { return };
    let dir = tempfile::tempdir().unwrap();
    let db_path = copy_database(&fischer, dir.path());
    let recorded = recorded("fischer_4.txt");
    let scid_count = |i: usize| recorded[i].1.len() as u64;
    let fen = |i: usize| -> Box<dyn GameFilter> { Box::new(after(&recorded[i].0)) };
    let player = || -> Box<dyn GameFilter> { Box::new(TagPrefix::player("Fischer")) };
    let selections: Vec<(&str, Selection, Option<u64>)> = vec![
        ("1.e4", Selection::all().with(after(&recorded[0].0)), Some(scid_count(0))),
        ("not 1.e4", Selection::all().with(Not(fen(0))), Some(827 - scid_count(0))),
        ("1.e4 or 1.Nf3", Selection::all().with(AnyOf(vec![fen(0), fen(1)])), Some(scid_count(0) + scid_count(1))),
        ("Najdorf, a player", Selection::all().with(AnyOf(vec![fen(2)])).with(AnyOf(vec![player()])), None),
    ];
    for indexed in [false, true] {
        if indexed {
            let db = scid(&db_path);
            std::fs::write(PositionIndex::path_for(&db), PositionIndex::build(&db).as_bytes()).unwrap();
        }
        for (name, selection, expected) in &selections {
            let (counted, selected) = counted_and_selected(&db_path, selection);
            assert_eq!(counted, selected, "{name}, index {indexed}");
            if let Some(expected) = expected {
                assert_eq!(counted, *expected, "{name}, index {indexed}: SCID's");
            }
        }
    }
}
