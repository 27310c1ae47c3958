//! `select --fen` on SCID databases through the position index (`tabiya index DB` → `DB.tpx`):
//! the same games as without the index and as the replay of the database's PGN export, and as
//! python-chess counts them on that export; a stale index is not used, and said so.

use std::path::{Path, PathBuf};
use std::process::Command;

use tabiya_testdata::corpus_file;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `select INPUT --fen FEN --count`: the count, and what was said on standard error.
fn count(input: &Path, fen: &str) -> (u64, String) {
    let out = tabiya(&["select", input.to_str().unwrap(), "--fen", fen, "--count"]);
    assert!(out.status.success(), "{}: {}", input.display(), stderr(&out));
    let said = stderr(&out);
    (String::from_utf8(out.stdout).unwrap().trim().parse().expect("a count"), said)
}

/// `select INPUT --fen FEN -o OUT.pgn`: the games written.
fn selected(input: &Path, fen: &str, out: &Path) -> Vec<u8> {
    let run = tabiya(&["select", "-q", "--force", input.to_str().unwrap(), "--fen", fen, "-o", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}: {}", input.display(), stderr(&run));
    std::fs::read(out).unwrap()
}

/// A corpus SCID database (its three files by the index file's path) copied into `dir`, so that
/// its index can be written beside it.
fn copy_database(index_file: &Path, dir: &Path) -> PathBuf {
    let stem = index_file.file_stem().unwrap().to_str().unwrap();
    let version = &index_file.extension().unwrap().to_str().unwrap()[2..];
    for kind in ["si", "sg", "sn"] {
        let name = format!("{stem}.{kind}{version}");
        std::fs::copy(index_file.with_file_name(&name), dir.join(&name)).unwrap();
    }
    dir.join(index_file.file_name().unwrap())
}

/// Positions of the medium file's openings and of Fischer's games (move 7 of game 11, move 13
/// of game 201: in the index; move 21 of game 501: deeper than it), with the number of games of
/// `fischer_4.export.pgn` that reach each, counted by python-chess 1.11.2 (`board.epd(en_passant
/// = "legal")` after every move of every main line).
const FISCHER: &[(&str, u64)] = &[
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 527),
    ("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1", 55),
    ("rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1", 53),
    ("rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6", 105),
    ("rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4", 20),
    ("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", 109),
    ("rnbq1rk1/pp2ppbp/3p1np1/2p5/3P4/2N2NP1/PPP1PPBP/R1BQ1RK1 w - - 0 7", 1),
    ("r1b1k2r/2qnbppp/p2pp3/1p4P1/3NPP2/2N2Q2/PPP4P/2KR1B1R w kq - 1 13", 6),
    ("2b2k1r/pr3ppp/2p2n2/q4pN1/PpPP1B2/8/1P4PP/R3QRK1 w - - 6 21", 1),
];

#[test]
fn indexed_search_finds_the_games_of_the_replay_and_of_python_chess() {
    let (Some(scid4), Some(scid5)) =
        (corpus_file("scid/generated-scid502/fischer_4.si4"), corpus_file("scid5/fischer_5.si5"))
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for original in [scid4, scid5] {
        let export = original.with_extension("export.pgn");
        let db = copy_database(&original, dir.path());
        let db_arg = db.to_str().unwrap();
        // Without the index (SCID's own pruning data, then a replay of the games it allows).
        let unindexed: Vec<(u64, Vec<u8>)> = FISCHER
            .iter()
            .map(|(fen, _)| (count(&db, fen).0, selected(&db, fen, &dir.path().join("replayed.pgn"))))
            .collect();
        let made = tabiya(&["index", db_arg]);
        assert!(made.status.success(), "{}", stderr(&made));
        assert!(db.with_extension("tpx").is_file());
        for ((fen, python_chess), (replayed, replayed_games)) in FISCHER.iter().zip(unindexed) {
            let (indexed, said) = count(&db, fen);
            // A rare or deep position is searched by replay, and said so; nothing else is said.
            let warnings: Vec<&str> = said.lines().filter(|l| l.starts_with("warning:")).collect();
            assert!(warnings.iter().all(|w| w.contains("not in the position index")), "{said}");
            if *fen == FISCHER[8].0 {
                assert_eq!(warnings.len(), 1, "{said}");
            }
            assert_eq!(indexed, *python_chess, "{} {fen}: python-chess", db.display());
            assert_eq!(replayed, *python_chess, "{} {fen}: without the index", db.display());
            assert_eq!(count(&export, fen).0, *python_chess, "{} {fen}: the PGN export replayed", export.display());
            let games = selected(&db, fen, &dir.path().join("indexed.pgn"));
            assert!(games == replayed_games, "{fen}: the games written differ with the index");
        }
    }
}

#[test]
fn a_stale_index_is_not_used_and_said_so() {
    let (Some(fischer), Some(five)) =
        (corpus_file("scid/generated-scid502/fischer_4.si4"), corpus_file("scid/generated-scid502/five_4.si4"))
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let fischer = copy_database(&fischer, dir.path());
    let five = copy_database(&five, dir.path());
    assert!(tabiya(&["index", "-q", five.to_str().unwrap()]).status.success());
    // The index of another database: made from 5 games, not 827.
    std::fs::rename(five.with_extension("tpx"), fischer.with_extension("tpx")).unwrap();
    let (games, said) = count(&fischer, FISCHER[0].0);
    assert_eq!(games, FISCHER[0].1);
    assert!(said.contains("position index is not used") && said.contains("made from 5 games"), "{said}");
    // It is replaced only when asked.
    let again = tabiya(&["index", fischer.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert!(stderr(&again).contains("--force"));
    assert!(tabiya(&["index", "-q", "--force", fischer.to_str().unwrap()]).status.success());
    let (games, said) = count(&fischer, FISCHER[0].0);
    assert_eq!(games, FISCHER[0].1);
    assert!(!said.contains("warning:"), "{said}");
    // A file that is not an index is not one either.
    std::fs::write(fischer.with_extension("tpx"), b"not an index").unwrap();
    let (games, said) = count(&fischer, FISCHER[0].0);
    assert_eq!(games, FISCHER[0].1);
    assert!(said.contains("position index is not used"), "{said}");
}

#[test]
fn only_scid_databases_have_an_index() {
    let Some(pgn) = corpus_file("scid/generated-scid502/five_4.export.pgn") else { return };
    let out = tabiya(&["index", pgn.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("SCID"), "{}", stderr(&out));
}
