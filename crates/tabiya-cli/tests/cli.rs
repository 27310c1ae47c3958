//! The command-line contract: exit statuses, format naming, JSON shapes.

use std::process::Command;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

#[test]
fn info_names_a_format_without_a_reader_yet() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("problems.dia");
    std::fs::write(&path, vec![b' '; 330 * 2]).unwrap();
    let out = tabiya(&["info", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["format"], "tbase_diagrams");
    assert_eq!(json["counts"]["bytes"], 660);
}

#[test]
fn exit_statuses() {
    // Usage error: clap's own status 2.
    assert_eq!(tabiya(&["info"]).status.code(), Some(2));
    // Unreadable input: 3, and the message names the file.
    let out = tabiya(&["info", "/nonexistent/games.pgn"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/games.pgn"));
}

#[test]
fn an_option_that_does_not_apply_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/famous-games.pgn");
    let book = dir.path().join("x.bin");
    let out = tabiya(&["book", sample, "-o", book.to_str().unwrap(), "--caption", "Famous"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--caption does not apply to pgn → polyglot in `book`"), "{stderr}");
    assert!(stderr.contains("kvetka (book output)"), "{stderr}");
    assert!(!book.exists());
    // The same option where it applies is taken.
    let kob = dir.path().join("x.kob");
    let out = tabiya(&["-q", "book", sample, "-o", kob.to_str().unwrap(), "--caption", "Famous"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn completions_and_manual_pages_come_from_the_command_line() {
    let bash = tabiya(&["completions", "bash"]);
    assert!(bash.status.success());
    let text = String::from_utf8(bash.stdout).unwrap();
    assert!(text.contains("_tabiya()") && text.contains("--pgn-line-width"), "{text}");
    let man = tabiya(&["man"]);
    assert!(String::from_utf8(man.stdout).unwrap().contains(".TH tabiya 1"));
    let convert = String::from_utf8(tabiya(&["man", "convert"]).stdout).unwrap();
    assert!(convert.contains(".TH tabiya-convert 1") && convert.contains("pgn\\-line\\-width"), "{convert}");
    assert_eq!(tabiya(&["man", "nosuch"]).status.code(), Some(2));
    let version = tabiya(&["--version"]);
    assert_eq!(String::from_utf8(version.stdout).unwrap(), format!("tabiya {}\n", env!("CARGO_PKG_VERSION")));
}
