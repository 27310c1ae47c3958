//! The new user's stream matrix (issue 16): every command that reads, on every kind of file it
//! reads, gives the same answer from the file, from standard input (`-`) and from a FIFO with
//! no extension (what `<(zstdcat x.pgn.zst)` is): the same exit status, the same report with the
//! input's name set aside, and the same bytes written. A stream is named by its content, never
//! by an extension it does not have, and never taken for an empty file.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const SAMPLE_PGN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/famous-games.pgn");
const SAMPLE_BOOK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/famous-games.bin");
const SHOGI_DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tabiya-shogi/tests/data");

fn tabiya(args: &[&str], stdin: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabiya"));
    command.args(args).stdin(match stdin {
        Some(path) => Stdio::from(fs::File::open(path).unwrap()),
        None => Stdio::null(),
    });
    command.output().expect("tabiya runs")
}

/// Makes an input with `tabiya convert` (what the matrix checks is stream against file, not
/// the conversion).
fn converted(from: &Path, to: &Path) -> PathBuf {
    let out = tabiya(&["-q", "convert", from.to_str().unwrap(), "-o", to.to_str().unwrap()], None);
    assert!(out.status.success() || to.exists(), "{}", String::from_utf8_lossy(&out.stderr));
    to.to_owned()
}

/// What a run answered, with the input's name (a path, `-`, "standard input") replaced by
/// `<input>` so that the three ways of reading compare.
#[derive(Debug, PartialEq, Eq)]
struct Answer {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    written: Option<Vec<u8>>,
}

fn answer(out: Output, names: &[&str]) -> Answer {
    let clean = |bytes: &[u8]| {
        let mut text = String::from_utf8_lossy(bytes).into_owned();
        for name in names {
            text = text.replace(name, "<input>");
        }
        for (stdin, placeholder) in [
            ("\"path\":\"-\"", "\"path\":\"<input>\""),
            ("path: -\n", "path: <input>\n"),
            ("standard input", "<input>"),
            ("\n-: ", "\n<input>: "),
            ("\n-@", "\n<input>@"),
            (" -@", " <input>@"),
            (" -: ", " <input>: "),
        ] {
            text = text.replace(stdin, placeholder);
        }
        text.strip_prefix("-: ").map(|rest| format!("<input>: {rest}")).unwrap_or(text)
    };
    Answer { status: out.status.code(), stdout: clean(&out.stdout), stderr: clean(&out.stderr), written: None }
}

/// Runs `command` (with `{}` for the input and `{out}` for an output path) on `input` as a
/// file, from standard input and as `<(cat input)` (a pipe named `/dev/fd/N`, as bash makes
/// it), and checks the three answers are one.
fn same_from_streams(dir: &Path, input: &Path, command: &[&str]) {
    let output = dir.join("written");
    let writes = command.contains(&"{out}");
    let names_input = command.contains(&"{named-out}");
    let args = |name: &str| -> Vec<String> {
        command
            .iter()
            .map(|&a| match a {
                "{}" => name.to_owned(),
                "{out}" | "{named-out}" => output.to_str().unwrap().to_owned(),
                other => other.to_owned(),
            })
            .collect()
    };
    let written = || writes.then(|| fs::read(&output).unwrap_or_default());
    let clear = || {
        let _ = fs::remove_file(&output);
    };
    let input_name = input.to_str().unwrap();

    clear();
    let from_file =
        answer(tabiya(&args(input_name).iter().map(String::as_str).collect::<Vec<_>>(), None), &[input_name]);
    let from_file = Answer { written: written(), ..from_file };

    clear();
    let from_stdin = answer(tabiya(&args("-").iter().map(String::as_str).collect::<Vec<_>>(), Some(input)), &[]);
    let from_stdin = Answer { written: written(), ..from_stdin };

    clear();
    let quoted = |a: &str| format!("'{}'", a.replace('\'', r"'\''"));
    let line: Vec<String> = args("STREAM")
        .iter()
        .map(|a| if a == "STREAM" { format!("<(cat {})", quoted(input_name)) } else { quoted(a) })
        .collect();
    let script = format!("exec {} {}", quoted(env!("CARGO_BIN_EXE_tabiya")), line.join(" "));
    let out = Command::new("bash").arg("-c").arg(script).stdin(Stdio::null()).output().expect("bash runs");
    let from_pipe = answer(out, &["/dev/fd/63"]);
    let from_pipe = Answer { written: written(), ..from_pipe };

    let what = format!("{} on {}", command.join(" "), input.display());
    // The file itself is read (0, or 1 for what it holds): answers that all refuse would agree.
    assert!(matches!(from_file.status, Some(0 | 1)), "{what}: {:?} {}", from_file.status, from_file.stderr);
    assert_eq!(from_stdin, from_file, "{what}: standard input answers otherwise");
    assert_eq!(from_pipe, from_file, "{what}: <(cat …) answers otherwise");
    if let Some(written) = &from_file.written {
        assert!(!written.is_empty(), "{what}: nothing written");
    }
    if names_input {
        let size = fs::metadata(&output).map(|m| m.len()).unwrap_or(0);
        assert!(size > 0, "{what}: nothing written from <(cat …)");
    }
}

const READS: [&[&str]; 2] = [&["info", "{}"], &["verify", "{}"]];

#[test]
fn chess_games_read_alike_from_files_and_streams() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = Path::new(SAMPLE_PGN);
    let inputs = [
        pgn.to_owned(),
        converted(pgn, &dir.path().join("games.pgn.gz")),
        converted(pgn, &dir.path().join("games.pgn.zst")),
        converted(pgn, &dir.path().join("games.pgn.bz2")),
        converted(pgn, &dir.path().join("games.jsonl")),
    ];
    let games: [&[&str]; 4] = [
        &["select", "{}", "--count"],
        &["-q", "convert", "{}", "--to", "pgn", "-o", "-"],
        &["-q", "book", "{}", "-o", "{out}", "--to", "polyglot"],
        // The tree names its input in each game reference: its bytes differ by that name.
        &["-q", "tree", "{}", "-o", "{named-out}"],
    ];
    for input in &inputs {
        for command in READS.iter().chain(&games) {
            same_from_streams(dir.path(), input, command);
        }
    }
}

#[test]
fn a_polyglot_book_reads_alike_from_a_file_and_streams() {
    let dir = tempfile::tempdir().unwrap();
    let book: [&[&str]; 2] =
        [&["probe", "{}", "--moves", "e4 e5"], &["-q", "convert", "{}", "--to", "jsonl", "-o", "-"]];
    for command in READS.iter().chain(&book) {
        same_from_streams(dir.path(), Path::new(SAMPLE_BOOK), command);
    }
}

#[test]
fn othello_files_read_alike_from_files_and_streams() {
    let Some(wthor) = tabiya_testdata::corpus_file("wthor/current/WTH_1979.wtb") else { return };
    let dir = tempfile::tempdir().unwrap();
    // Alone in its directory: without its name files beside it, as a stream is.
    let wtb = dir.path().join("games.wtb");
    fs::copy(wthor, &wtb).unwrap();
    let inputs = [
        converted(&wtb, &dir.path().join("games.ggf")),
        converted(&wtb, &dir.path().join("games.jsonl")),
        converted(&wtb, &dir.path().join("games.csv")),
        converted(&wtb, &dir.path().join("games.txt")),
        wtb,
    ];
    let games: [&[&str]; 2] = [&["select", "{}", "--count"], &["-q", "convert", "{}", "--to", "ggf", "-o", "-"]];
    for input in &inputs {
        for command in READS.iter().chain(&games) {
            same_from_streams(dir.path(), input, command);
        }
    }
}

#[test]
fn shogi_records_read_alike_from_files_and_streams() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["utf8_nobom.kif", "handicap_nimai.csa", "handicap_nimai.ki2"] {
        let input = Path::new(SHOGI_DATA).join(name);
        let convert: &[&str] = &["-q", "convert", "{}", "--to", "csa", "-o", "-"];
        for command in READS.iter().chain([&convert]) {
            same_from_streams(dir.path(), &input, command);
        }
    }
}

#[test]
fn text_that_holds_no_game_of_the_format_named_is_an_error() {
    // `--from ggf` on a stream of PGN: no GGF game in it is a problem, not "0 games, ok".
    let out = tabiya(&["verify", "--from", "ggf", "-"], Some(Path::new(SAMPLE_PGN)));
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("error: -@0x0: no GGF game"), "{said}");
}
