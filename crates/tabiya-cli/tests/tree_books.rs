//! Opening books made from a position tree against the books made from the same games: the
//! medium corpus file's tree → Polyglot equals `tabiya book` → Polyglot and `polyglot
//! make-book`'s own output (the FNV-1a 64 digests and entry counts of the files Polyglot 2.0.4
//! wrote, as in tabiya-chess's `tests/polyglot_make_book.rs`); a tree → Kvetka is refused.

use std::path::Path;
use std::process::Command;

use tabiya_testdata::corpus_file;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn run(args: &[&str]) {
    let out = tabiya(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100000001b3))
}

/// (entries, digest) of a Polyglot book file.
fn fingerprint(path: &Path) -> (usize, u64) {
    let bytes = std::fs::read(path).unwrap();
    (bytes.len() / 16, fnv1a(&bytes))
}

/// The options of `tabiya tree`, those of the book, and make-book's entries and digest.
type Case<'a> = (&'a [&'a str], &'a [&'a str], (usize, u64));

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn tree_books_equal_the_books_of_their_games() {
    let Some(pgn) = corpus_file("pgn/medium-pgnmentor-12players.pgn") else { return eprintln!("skipped") };
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let cases: [Case; 2] = [
        // polyglot make-book (no options: -min-game 3, -max-ply 1024)
        (&[], &[], (31_854, 0xc9b14c576afb5d0b)),
        // polyglot make-book -max-ply 40 -only-white
        (&["--max-ply", "40"], &["--only-white"], (15_443, 0x99f5e306ad54ac08)),
    ];
    for (i, (tree_options, book_options, make_book)) in cases.into_iter().enumerate() {
        let (tree, from_tree, from_games) =
            (at(&format!("{i}.tree")), at(&format!("t{i}.bin")), at(&format!("g{i}.bin")));
        run(&[&["-q", "tree", text(&pgn), "-o", text(&tree)], tree_options].concat());
        run(&[&["-q", "convert", text(&tree), "-o", text(&from_tree)], book_options].concat());
        run(&[&["-q", "book", text(&pgn), "-o", text(&from_games)], tree_options, book_options].concat());
        assert_eq!(fingerprint(&from_tree), make_book, "tree → Polyglot, {tree_options:?} {book_options:?}");
        assert!(std::fs::read(&from_tree).unwrap() == std::fs::read(&from_games).unwrap());
    }
    // A tree holds no plies: --max-ply belongs to `tabiya tree`.
    let out = tabiya(&["-q", "convert", text(&at("0.tree")), "-o", text(&at("x.bin")), "--max-ply", "20"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!at("x.bin").exists());
}

#[test]
fn a_tree_does_not_become_a_kvetka_book() {
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/famous-games.pgn");
    let dir = tempfile::tempdir().unwrap();
    let (tree, kob) = (dir.path().join("f.tree"), dir.path().join("f.kob"));
    run(&["-q", "tree", text(&pgn), "-o", text(&tree)]);
    let out = tabiya(&["-q", "convert", text(&tree), "-o", text(&kob)]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("wins/draws/losses count each game that reached the position once"), "{said}");
    assert!(std::fs::read_dir(dir.path()).unwrap().count() == 1, "nothing written but the tree");
}
