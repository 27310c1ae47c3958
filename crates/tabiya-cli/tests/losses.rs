//! Every loss shows in the exit status (issue 16): a game whose main line ends at an illegal
//! move loses the moves after it, and every command that reads games says so with status 1;
//! the same games without the illegal move give 0 everywhere. A book reads moves only up to
//! its ply limit: an illegal move beyond it loses nothing the book takes.

use std::path::Path;
use std::process::Command;

/// The second game's `2. Ke3` is illegal (e2 is still occupied): the moves after it are lost.
const CUT: &str = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
                   [Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. Ke3 Nc6 0-1\n";
const CLEAN: &str = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
                     [Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. Nc3 Nc6 0-1\n";

/// Each command, `{}` the input and `{dir}` a fresh directory for what it writes.
const COMMANDS: [&[&str]; 10] = [
    &["info", "{}"],
    &["verify", "{}"],
    &["convert", "{}", "-o", "{dir}/out.pgn"],
    &["convert", "{}", "-o", "{dir}/out.si4"],
    &["convert", "{}", "-o", "{dir}/out.jsonl"],
    &["book", "{}", "-o", "{dir}/out.bin"],
    &["book", "{}", "-o", "{dir}/out.kob"],
    &["select", "{}", "--count"],
    &["select", "{}", "-o", "{dir}/selected.pgn"],
    &["tree", "{}", "-o", "{dir}/out.tree"],
];

fn status(input: &Path, command: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<String> = command
        .iter()
        .map(|a| a.replace("{}", input.to_str().unwrap()).replace("{dir}", dir.path().to_str().unwrap()))
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_tabiya")).arg("-q").args(&args).output().expect("tabiya runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_game_cut_at_an_illegal_move_fails_every_command_and_a_clean_one_none() {
    let dir = tempfile::tempdir().unwrap();
    let (cut, clean) = (dir.path().join("cut.pgn"), dir.path().join("clean.pgn"));
    std::fs::write(&cut, CUT).unwrap();
    std::fs::write(&clean, CLEAN).unwrap();
    for command in COMMANDS {
        let what = command.join(" ");
        let (code, said) = status(&clean, command);
        assert_eq!(code, Some(0), "{what} on the clean games: {said}");
        let (code, said) = status(&cut, command);
        assert_eq!(code, Some(1), "{what} on a game cut at an illegal move: {said}");
    }
}

/// A book reads a game's moves only up to its ply limit: an illegal move beyond it is never
/// read, so nothing the book takes is lost and the run succeeds; within the limit the game is
/// cut and the run exits 1. In `CUT`, `2. Ke3` is the third ply of the second game.
#[test]
fn an_illegal_move_beyond_the_ply_limit_loses_nothing_from_a_book() {
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.pgn");
    std::fs::write(&cut, CUT).unwrap();
    for output in ["out.bin", "out.kob"] {
        for (plies, expected) in [("2", 0), ("3", 1)] {
            let command = ["book", "{}", "-o", &format!("{{dir}}/{output}"), "--max-ply", plies];
            let (code, said) = status(&cut, &command);
            assert_eq!(code, Some(expected), "{}: {said}", command.join(" "));
        }
    }
}
