//! `tabiya` on Kvetka books: build, info, probe, verify, append, convert, merge.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn ok(args: &[&str]) -> String {
    let out = tabiya(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap()
}

const GAMES: &str = "[White \"Иванов\"]\n[Black \"Smith\"]\n[WhiteElo \"2400\"]\n[Result \"1-0\"]\n\n1. e4 c5 2. Nf3 1-0\n\n\
[White \"Petrov\"]\n[Black \"Jones\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n\
[White \"Sidorov\"]\n[Black \"Brown\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";

fn setup(dir: &Path) -> (String, String) {
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let eco = dir.join("eco.pgn");
    std::fs::write(&eco, "[ECO \"B20\"]\n[Opening \"Sicilian Defence\"]\n\n1. e4 c5 *\n").unwrap();
    let book = dir.join("book.kob");
    let (pgn, book) = (pgn.to_str().unwrap().to_owned(), book.to_str().unwrap().to_owned());
    ok(&["book", "-q", &pgn, "-o", &book, "--game-links", "--eco", eco.to_str().unwrap(), "--caption", "Test"]);
    (pgn, book)
}

#[test]
fn build_then_info_probe_verify() {
    let dir = tempfile::tempdir().unwrap();
    let (_, book) = setup(dir.path());
    assert!(dir.path().join("book_0.kob").is_file() && dir.path().join("book.kin").is_file());

    let info = json(&["info", "--json", &book]);
    assert_eq!(info["format"], "kvetka");
    // Start, e4, e4 c5, e4 c5 Nf3, e4 e5, d4, d4 d5.
    assert_eq!(info["counts"]["positions"], 7);
    assert_eq!(info["counts"]["games"], 3);
    assert_eq!(info["header"]["caption"], "Test");
    assert_eq!(info["header"]["element_type"], 1);

    let probe = json(&["probe", "--json", &book, "--moves", ""]);
    assert_eq!(probe["found"], true);
    assert_eq!((probe["position"]["wins"].as_u64(), probe["position"]["losses"].as_u64()), (Some(1), Some(1)));
    let moves: Vec<(String, u64, u64)> = probe["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["san"].as_str().unwrap().to_owned(), m["games"].as_u64().unwrap(), m["wins"].as_u64().unwrap()))
        .collect();
    // Ascending codes: d4 (0x0d), e4 (0x11); e4 won one of its two games for White.
    assert_eq!(moves, [("d4".into(), 1, 0), ("e4".into(), 2, 1)]);

    let sicilian = json(&["probe", "--json", &book, "--moves", "e4 c5"]);
    assert_eq!(sicilian["position"]["comment"], "B20|Sicilian Defence");
    let after_nf3 = json(&["probe", "--json", &book, "--moves", "e4 c5 Nf3"]);
    let game = &after_nf3["position"]["games_ending_here"][0];
    assert_eq!(
        (game["white"].as_str(), game["black"].as_str(), game["result"].as_str()),
        (Some("Иванов"), Some("Smith"), Some("1-0"))
    );
    assert_eq!((game["offset"].as_u64(), game["white_elo"].as_u64()), (Some(0), Some(2400)));

    let verify = json(&["verify", "--json", &book]);
    assert_eq!(verify["ok"], true, "{verify}");
}

#[test]
fn append_doubles_and_merge_equals_append() {
    let dir = tempfile::tempdir().unwrap();
    let (pgn, book) = setup(dir.path());
    let copy = dir.path().join("copy.kob");
    let copy = copy.to_str().unwrap();
    ok(&["convert", "-q", &book, "-o", copy]);
    ok(&["book", "-q", &pgn, "-o", &book, "--append"]);
    let start = json(&["probe", "--json", &book, "--moves", "e4"]);
    assert_eq!(start["position"]["games"], 4);
    let merged = dir.path().join("merged.kob");
    ok(&["convert", "-q", copy, copy, "-o", merged.to_str().unwrap()]);
    let start = json(&["probe", "--json", merged.to_str().unwrap(), "--moves", "e4"]);
    assert_eq!(start["position"]["games"], 4);
    assert_eq!(json(&["info", "--json", merged.to_str().unwrap()])["counts"]["games"], 6);
}

#[test]
fn converts_to_json_lines_and_polyglot() {
    let dir = tempfile::tempdir().unwrap();
    let (_, book) = setup(dir.path());
    let lines = ok(&["convert", &book, "-o", "-", "--to", "jsonl"]);
    assert_eq!(lines.lines().count(), 7);
    let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first["key"].as_str().map(str::len), Some(44));
    let bin = dir.path().join("book.bin");
    ok(&["convert", "-q", &book, "-o", bin.to_str().unwrap()]);
    // Entries with weight > 0: start → e4 (2·1 + 1 = 3); after e4: e5 (draw, 1);
    // after e4 c5: Nf3 (won, 2); after d4: d5 (won by Black, 2). d4 lost: weight 0. Each
    // position also in its colour flip (a Kvetka element stands for both; castling rights
    // rule out the mirrors).
    assert_eq!(std::fs::metadata(&bin).unwrap().len(), 2 * 4 * 16);
    let flipped_start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
    let probe: Value =
        serde_json::from_str(&ok(&["probe", bin.to_str().unwrap(), "--fen", flipped_start, "--json"])).unwrap();
    assert_eq!((&probe["moves"][0]["uci"], &probe["moves"][0]["weight"]), (&Value::from("e7e5"), &Value::from(3)));
}

#[test]
fn damaged_books_exit_with_status_3_or_verify_1() {
    let dir = tempfile::tempdir().unwrap();
    let (_, book) = setup(dir.path());
    let part = dir.path().join("book_0.kob");
    let mut bytes = std::fs::read(&part).unwrap();
    let header = 20 + 2 * 4;
    bytes[header] = 0x09; // n = 0x09xx > 2048
    std::fs::write(&part, &bytes).unwrap();
    let out = tabiya(&["info", &book]);
    assert_eq!(out.status.code(), Some(3));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("book_0.kob@0x1c (record 0)") && message.contains("block size n"), "{message}");
    assert_eq!(tabiya(&["verify", &book]).status.code(), Some(1));
}

#[test]
fn names_windows_1251_cannot_hold_lose_their_accents_with_a_warning_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("m.pgn");
    std::fs::write(&pgn, "[White \"Ivanov\"]\n\n1. e4 1-0\n\n[White \"Müller\"]\n\n1. d4 0-1\n").unwrap();
    let book = dir.path().join("m.kob");
    let out = tabiya(&["book", pgn.to_str().unwrap(), "-o", book.to_str().unwrap(), "--game-links"]);
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(message.contains("1 player names"), "{message}");
    assert!(message.contains("m.pgn: the game at byte 29: White \"Müller\" written as \"Muller\""), "{message}");
    // The book is whole: both games, the second named in Windows-1251 as "Muller" (ASCII), the
    // first as "Ivanov".
    let ksf = std::fs::read(dir.path().join("m.ksf")).unwrap();
    let holds = |name: &[u8]| ksf.windows(name.len()).any(|w| w == name);
    assert!(holds(b"Muller") && holds(b"Ivanov") && !holds("ü".as_bytes()));
    let info = json(&["info", "--json", book.to_str().unwrap()]);
    assert_eq!(info["counts"]["games"], 2);
    // Without game references no name is stored: nothing is altered.
    ok(&["book", "-q", pgn.to_str().unwrap(), "-o", dir.path().join("n.kob").to_str().unwrap()]);
}
