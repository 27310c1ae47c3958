//! `tabiya` on SCID databases: info JSON, export and import byte-identical to SCID 5.0.2,
//! verify's exit status on a damaged database.

use std::path::Path;
use std::process::Command;

use tabiya_testdata::corpus_file;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn info_json_of_five() {
    let Some(db) = corpus_file("scid/scidtopgn-five/five.si4") else { return };
    let out = tabiya(&["info", "--json", s(&db)]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["format"], "scid4");
    assert_eq!(json["version"], 400);
    assert_eq!(json["counts"]["games"], 5);
    assert_eq!(json["counts"]["players"], 10);
    assert_eq!(json["header"]["description"], "Test");
    assert_eq!(json["header"]["auto_load"], 2);
}

#[test]
fn convert_round_trip_matches_scid() {
    let Some(db) = corpus_file("scid/generated-scid502/five_4.si4") else { return };
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("five.pgn");
    assert!(tabiya(&["convert", s(&db), "-o", s(&pgn), "-q"]).status.success());
    let expected = corpus_file("scid/generated-scid502/five_4.export.pgn").unwrap();
    assert_eq!(std::fs::read(&pgn).unwrap(), std::fs::read(expected).unwrap());
    let back = dir.path().join("back.si4");
    let source = corpus_file("scid/scidtopgn-five/five.pgn").unwrap();
    assert!(tabiya(&["convert", s(&source), "-o", s(&back), "-q"]).status.success());
    for ext in ["si4", "sn4", "sg4"] {
        assert_eq!(std::fs::read(back.with_extension(ext)).unwrap(), std::fs::read(db.with_extension(ext)).unwrap());
    }
    // --append adds the games again.
    assert!(tabiya(&["convert", s(&source), "-o", s(&back), "--append", "-q"]).status.success());
    let out = tabiya(&["info", "--json", s(&back)]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["counts"]["games"], 10);
}

#[test]
fn verify_fails_on_a_damaged_game() {
    let Some(db) = corpus_file("scid/generated-scid502/five_4.si4") else { return };
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("d.si4");
    for ext in ["si4", "sn4", "sg4"] {
        std::fs::copy(db.with_extension(ext), copy.with_extension(ext)).unwrap();
    }
    assert_eq!(tabiya(&["verify", s(&copy)]).status.code(), Some(0));
    // Game 1's first move byte (1.e4 = 0xCF) becomes an impossible king move.
    let mut sg = std::fs::read(copy.with_extension("sg4")).unwrap();
    let first_move = sg.iter().position(|&b| b == 0xCF).unwrap();
    sg[first_move] = 0x0E;
    std::fs::write(copy.with_extension("sg4"), sg).unwrap();
    let out = tabiya(&["verify", "--json", s(&copy)]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["ok"], false);
    assert_eq!(json["checked"]["decoded"], 4);
}

#[test]
fn books_from_a_database_equal_books_from_its_pgn_export() {
    let Some(db) = corpus_file("scid/generated-scid502/fischer_4.si4") else { return };
    let export = corpus_file("scid/generated-scid502/fischer_4.export.pgn").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name);
    let build = |input: &Path, output: &Path, options: &[&str]| {
        let run = tabiya(&[&["book", s(input), "-o", s(output), "-q"], options].concat());
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    };
    build(&db, &out("scid.bin"), &["--min-games", "1"]);
    build(&export, &out("pgn.bin"), &["--min-games", "1"]);
    let bytes = std::fs::read(out("scid.bin")).unwrap();
    // 38,522 entries of 16 bytes (the count polyglot's options give for these 827 games).
    assert_eq!(bytes.len(), 38_522 * 16);
    assert!(bytes == std::fs::read(out("pgn.bin")).unwrap());
    // The stem names the database too.
    build(&db.with_extension(""), &out("stem.bin"), &["--min-games", "1"]);
    assert!(bytes == std::fs::read(out("stem.bin")).unwrap());

    build(&db, &out("scid.kob"), &["--links"]);
    build(&export, &out("pgn.kob"), &["--links"]);
    for name in ["_0.kob", ".kin"] {
        let read = |stem: &str| std::fs::read(out(&format!("{stem}{name}"))).unwrap();
        assert!(read("scid") == read("pgn"), "{name}");
    }
    // Game links name a PGN file and a byte offset: refused for a SCID database.
    let refused = tabiya(&["book", s(&db), "-o", s(&out("links.kob")), "--game-links"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--game-links"));
    assert!(!out("links_0.kob").exists());
}
