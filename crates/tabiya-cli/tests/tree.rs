//! `tabiya tree` with `select`'s filters: the tree of the games a filter keeps is the tree of
//! `select -o` of them, byte for byte in its positions and moves; its game table differs only in
//! where each game is found (the original file and the game's number there, not the selected
//! copy's).

use std::path::Path;
use std::process::Command;

use tabiya_chess::tree::Tree;
use tabiya_testdata::corpus_file;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn run(args: &[&str]) {
    let out = tabiya(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// `tree INPUT FILTERS` against `select INPUT FILTERS -o` then `tree` of that.
fn filtered_tree_is_the_tree_of_the_selection(input: &Path, filters: &[&str], dir: &Path) {
    let (filtered, selected, copy) = (dir.join("filtered.tree"), dir.join("selected.tree"), dir.join("selected.pgn"));
    let input = input.to_str().unwrap();
    let path = |p: &Path| p.to_str().unwrap().to_owned();
    run(&[&["tree", "-q", "--force", input, "-o", &path(&filtered)], filters].concat());
    run(&[&["select", "-q", "--force", input, "-o", &path(&copy)], filters].concat());
    run(&["tree", "-q", "--force", &path(&copy), "-o", &path(&selected)]);
    let (a, b) = (Tree::open(&filtered).unwrap(), Tree::open(&selected).unwrap());
    let (fa, fb) = (a.footer(), b.footer());
    assert!(fa.games > 0, "{filters:?}: no game kept");
    assert_eq!((fa.positions, fa.moves, fa.occurrences, fa.games), (fb.positions, fb.moves, fb.occurrences, fb.games));
    assert_eq!(fa.games_offset, fb.games_offset, "{filters:?}");
    let (bytes_a, bytes_b) = (std::fs::read(&filtered).unwrap(), std::fs::read(&selected).unwrap());
    let records = fa.games_offset as usize;
    assert!(bytes_a[..records] == bytes_b[..records], "{filters:?}: positions and moves differ");
    // The same games in the same order; each numbered as in the original file, the copy's from 1.
    let mut last = 0;
    for id in 0..fa.games {
        let (mut ga, gb) = (a.game(id).unwrap(), b.game(id).unwrap());
        assert_eq!((ga.source.as_str(), gb.source.as_str(), gb.number), (input, path(&copy).as_str(), id + 1));
        assert!(ga.number > last, "{filters:?}: game {id} numbered {} after {last}", ga.number);
        last = ga.number;
        (ga.source, ga.number) = (gb.source.clone(), gb.number);
        assert_eq!(ga, gb, "{filters:?}");
    }
}

#[test]
fn select_filters_give_the_tree_of_the_selected_games() {
    let Some(medium) = corpus_file("pgn/medium-pgnmentor-12players.pgn") else { return };
    let dir = tempfile::tempdir().unwrap();
    for filters in [
        &["--player", "Carlsen", "--elo", "2700.."][..],
        &["--white", "Kasparov", "--result", "1-0", "--eco", "not:B20..B99"],
        &["--dedup", "--date", "1990..1994"],
        &["--fen", "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6"],
    ] {
        filtered_tree_is_the_tree_of_the_selection(&medium, filters, dir.path());
    }
}

#[test]
fn a_scid_database_is_filtered_through_its_position_index() {
    let Some(fischer) = corpus_file("scid/generated-scid502/fischer_4.si4") else { return };
    let dir = tempfile::tempdir().unwrap();
    for kind in ["si4", "sg4", "sn4"] {
        std::fs::copy(fischer.with_extension(kind), dir.path().join(format!("fischer_4.{kind}"))).unwrap();
    }
    let db = dir.path().join("fischer_4.si4");
    run(&["index", "-q", db.to_str().unwrap()]);
    let najdorf = "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6";
    filtered_tree_is_the_tree_of_the_selection(&db, &["--fen", najdorf], dir.path());
}

#[test]
fn filters_that_cannot_apply_are_refused() {
    let Some(medium) = corpus_file("pgn/medium-pgnmentor-12players.pgn") else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.tree");
    let refused = tabiya(&["tree", medium.to_str().unwrap(), "--twins", "-o", out.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--twins"));
    assert!(!out.exists());
}
