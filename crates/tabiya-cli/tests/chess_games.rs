//! `tabiya convert` between every pair of chess games formats (PGN, SCID 3/4/5, JSON Lines),
//! the PGN-writing options for every source written as PGN, and `verify` of PGN.

use std::path::{Path, PathBuf};
use std::process::Command;

use tabiya_testdata::corpus_file;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/famous-games.pgn")
}

/// Runs a conversion that must succeed, and returns the output's bytes.
fn convert(input: &Path, output: &Path, options: &[&str]) -> Vec<u8> {
    // Outputs are reused from one call to the next: replacing them is asked for.
    let mut args = vec!["convert", s(input), "-o", s(output), "-q", "--force"];
    args.extend_from_slice(options);
    let out = tabiya(&args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::read(output).unwrap()
}

fn database(stem: &Path, ext: [&str; 3]) -> Vec<Vec<u8>> {
    ext.iter().map(|e| std::fs::read(stem.with_extension(e)).unwrap()).collect()
}

/// SCID → SCID of the same version, and SCID 5 → SCID 4, write the database SCID 5.0.2 wrote
/// from the same games.
#[test]
fn scid_to_scid_is_scid_502s_database() {
    let Some(si4) = corpus_file("scid/generated-scid502/five_4.si4") else { return };
    let Some(si5) = corpus_file("scid5/five_5.si5") else { return };
    let dir = tempfile::tempdir().unwrap();
    let same = dir.path().join("same.si4");
    convert(&si4, &same, &[]);
    assert_eq!(database(&same, ["si4", "sg4", "sn4"]), database(&si4, ["si4", "sg4", "sn4"]));
    let from5 = dir.path().join("from5.si4");
    convert(&si5, &from5, &[]);
    assert_eq!(database(&from5, ["si4", "sg4", "sn4"]), database(&si4, ["si4", "sg4", "sn4"]));
    let again5 = dir.path().join("again.si5");
    convert(&si5, &again5, &[]);
    assert_eq!(database(&again5, ["si5", "sg5", "sn5"]), database(&si5, ["si5", "sg5", "sn5"]));
}

/// PGN → JSON Lines: one line a game, tags in order, moves in UCI and SAN; JSON Lines back to
/// PGN is the PGN the original gives.
#[test]
fn pgn_to_json_lines_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("games.jsonl");
    let text = String::from_utf8(convert(&sample(), &jsonl, &[])).unwrap();
    let pgn = std::fs::read_to_string(sample()).unwrap();
    assert_eq!(text.lines().count(), pgn.matches("[Event ").count());
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["tags"][0][0], "Event");
    let moves = first["moves"].as_array().unwrap();
    assert!(moves.iter().all(|m| m["uci"].as_str().is_some_and(|u| u.len() >= 4) && m["san"].is_string()));
    // verify replays every line; a line that is not a game is an error.
    assert_eq!(tabiya(&["verify", s(&jsonl)]).status.code(), Some(0));
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(&broken, format!("{text}{{\"tags\":[]}}\n")).unwrap();
    let out = tabiya(&["verify", "--json", s(&broken)]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["problems"][0]["code"], "jsonl.unreadable_game");
    assert_eq!(json["problems"][0]["location"]["number"], text.lines().count() + 1);
    // Back to PGN: the same text as PGN → PGN.
    let direct = convert(&sample(), &dir.path().join("direct.pgn"), &[]);
    let through = convert(&jsonl, &dir.path().join("through.pgn"), &["--from", "jsonl"]);
    assert_eq!(through, direct);
}

/// SCID → JSON Lines → SCID gives the database back, byte for byte.
#[test]
fn scid_to_json_lines_and_back() {
    let Some(si4) = corpus_file("scid/generated-scid502/five_4.si4") else { return };
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("five.jsonl");
    let text = String::from_utf8(convert(&si4, &jsonl, &[])).unwrap();
    assert_eq!(text.lines().count(), 5);
    let back = dir.path().join("back.si4");
    convert(&jsonl, &back, &["--from", "jsonl"]);
    assert_eq!(database(&back, ["si4", "sg4", "sn4"]), database(&si4, ["si4", "sg4", "sn4"]));
}

/// The movetext lines of PGN text (tag lines left out).
fn movetext(pgn: &str) -> impl Iterator<Item = &str> {
    pgn.lines().filter(|l| !l.starts_with('['))
}

/// Every PGN-writing option acts for every source written as PGN (PGN, SCID, JSON Lines).
#[test]
fn pgn_writing_options_act_for_every_source() {
    let Some(si4) = corpus_file("scid/generated-scid502/utf8_4.si4") else { return };
    let Some(scid_export) = corpus_file("scid/generated-scid502/utf8_4.export.pgn") else { return };
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("utf8.jsonl");
    convert(&si4, &jsonl, &[]);
    let out = dir.path().join("out.pgn");
    for source in [sample(), si4.clone(), jsonl.clone()] {
        let from: &[&str] = if source == jsonl { &["--from", "jsonl"] } else { &[] };
        let with = |options: &[&str]| {
            let all: Vec<&str> = from.iter().chain(options).copied().collect();
            String::from_utf8(convert(&source, &out, &all)).unwrap()
        };
        let plain = with(&[]);
        assert!(plain.contains('{') && plain.contains('(') && plain.contains('$'), "{source:?}");
        assert!(!with(&["--pgn-no-comments"]).contains('{'));
        // Comments may hold parentheses: variations are looked for without them.
        let variations = |pgn: &str| movetext(pgn).any(|l| l.contains('('));
        assert!(variations(&with(&["--pgn-no-comments"])));
        assert!(!variations(&with(&["--pgn-no-comments", "--pgn-no-variations"])));
        assert!(!with(&["--pgn-no-nags"]).contains('$'));
        // Long algebraic movetext has no piece letters (promotions are lowercase).
        let upper = |pgn: &str| movetext(pgn).any(|l| l.bytes().any(|b| b"NBRQK".contains(&b)));
        assert!(upper(&with(&["--pgn-no-comments"])));
        assert!(!upper(&with(&["--pgn-no-comments", "--pgn-long"])), "{source:?}");
        let crlf = with(&["--pgn-crlf"]);
        assert_eq!(crlf.matches("\r\n").count(), plain.matches('\n').count());
        // No wrapping: each game's movetext is one line, so there are fewer lines.
        assert!(with(&["--pgn-line-width", "0"]).lines().count() < plain.lines().count());
        let narrow = with(&["--pgn-line-width", "40", "--pgn-no-comments"]);
        // (A variation's closing parenthesis is glued to its last move and may overhang.)
        assert!(movetext(&narrow).all(|l| l.trim_end().trim_end_matches(')').len() <= 40), "{source:?}");
        assert!(narrow.lines().count() > with(&["--pgn-no-comments"]).lines().count());
        // The standard layout writes `1. e4`, SCID's `1.e4`.
        assert!(movetext(&with(&["--pgn-layout", "standard"])).any(|l| l.starts_with("1. ")));
        assert!(!movetext(&with(&["--pgn-layout", "scid"])).any(|l| l.starts_with("1. ")));
    }
    // A SCID source is written in SCID 5.0.2's layout unless told otherwise.
    assert_eq!(convert(&si4, &out, &[]), std::fs::read(scid_export).unwrap());
}

/// Options that do not act where they are given are refused, naming where they apply.
#[test]
fn options_are_refused_where_they_do_not_act() {
    let dir = tempfile::tempdir().unwrap();
    let si4 = dir.path().join("x.si4");
    let out = tabiya(&["convert", s(&sample()), "-o", s(&si4), "--pgn-long"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("scid4 → pgn"));
    let pgn = dir.path().join("x.pgn");
    let out = tabiya(&["convert", s(&sample()), "-o", s(&pgn), "--append"]);
    assert_eq!(out.status.code(), Some(2));
    let out = tabiya(&["convert", s(&sample()), "-o", s(&dir.path().join("x.si3"))]);
    assert_eq!(out.status.code(), Some(2));
}

/// `verify` of PGN replays every move: an illegal move is an error (exit 1), a repaired comma
/// a warning (exit 0); a conversion that loses moves says so in its exit status.
#[test]
fn pgn_verify_and_lossy_conversion() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "[Event \"a\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n").unwrap();
    let out = tabiya(&["verify", "--json", s(&bad)]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["problems"][0]["code"], "pgn.illegal_move");
    assert_eq!(json["problems"][0]["location"]["unit"], "game");
    let repaired = dir.path().join("repaired.pgn");
    std::fs::write(&repaired, "[Event \"a\"]\n\n1. e4, e5 *\n").unwrap();
    let out = tabiya(&["verify", "--json", s(&repaired)]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["problems"][0]["code"], "pgn.repaired_token");
    assert_eq!(json["checked"]["plies"], 2);
    let out = tabiya(&["convert", s(&bad), "-o", s(&dir.path().join("x.si4"))]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("illegal move 2. Ke3"));
}
