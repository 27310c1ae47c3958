//! The command line tells the truth (issue 16): damaged files are named as what they are, a
//! damaged record cannot hang `verify`, `tabiya formats` lists what the commands do, and
//! messages name what is wrong.

use std::process::{Command, Output};

use tabiya_testdata::corpus_file;

fn tabiya(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// WTH_2001.wtb cut at byte 10,000: the header counts 5,575 games, 146 are whole (16 + 146·68
/// = 9,944 bytes). Every command names it a Wthor games file and reports the damage.
#[test]
fn a_wthor_file_cut_short_is_a_damaged_wthor_file() {
    let Some(whole) = corpus_file("wthor/current/WTH_2001.wtb") else { return };
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("WTH_2001.wtb");
    std::fs::write(&cut, &std::fs::read(whole).unwrap()[..10_000]).unwrap();
    let cut = cut.to_str().unwrap();

    let out = tabiya(&["info", "--json", cut]);
    let j = json(&out);
    assert_eq!(j["format"], "wthor_games", "{}", stderr(&out));
    let header = j["problems"].as_array().unwrap().iter().find(|p| p["code"] == "wthor.header_count").unwrap();
    assert_eq!(header["what"], "the header counts 5575 records but the file size holds 146; reading 146");

    let out = tabiya(&["verify", "--json", cut]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let j = json(&out);
    assert_eq!((j["format"].as_str(), j["ok"].as_bool()), (Some("wthor_games"), Some(false)));

    let txt = dir.path().join("out.txt");
    let out = tabiya(&["convert", "-q", cut, "-o", txt.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&txt).unwrap().lines().count(), 146);
}

/// A Polyglot book whose size is no multiple of 16 is a damaged Polyglot book.
#[test]
fn a_polyglot_book_cut_short_is_a_damaged_book() {
    let Some(whole) = corpus_file("polyglot/performance.bin") else { return };
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("performance.bin");
    std::fs::write(&cut, &std::fs::read(whole).unwrap()[..999]).unwrap();
    let out = tabiya(&["verify", "--json", cut.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(json(&out)["format"], "polyglot");
    assert!(!stderr(&out).contains("not a format tabiya knows"));
}

/// A 344-byte `.pzz` (one record) whose board was zeroed but still says 14 empties: `verify`
/// reports the record as damaged at once instead of solving a 60-empty board for hours.
#[test]
fn a_zeroed_solitaire_is_reported_not_solved() {
    let dir = tempfile::tempdir().unwrap();
    let pzz = dir.path().join("SOLITAIRES_14.pzz");
    let mut bytes = vec![0u8; 16 + 256 + 36];
    bytes[0] = 20; // century
    bytes[4] = 1; // N1: one solitaire
    bytes[8] = 14; // N2: 14 empties
    bytes[16 + 13 * 4] = 1; // presence table: one record at 14 empties
    let record = &mut bytes[272..];
    record[..2].copy_from_slice(&2001u16.to_le_bytes());
    record[28] = 14; // the record's empties
    record[29] = 1; // Black to move
    std::fs::write(&pzz, &bytes).unwrap();
    let out = tabiya(&["verify", "--json", pzz.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let j = json(&out);
    let codes: Vec<&str> = j["problems"].as_array().unwrap().iter().filter_map(|p| p["code"].as_str()).collect();
    assert!(codes.contains(&"wthor.solitaire_empties") || codes.contains(&"wthor.solitaire_position"), "{j}");
}

#[test]
fn formats_lists_every_format_and_what_commands_do() {
    let out = tabiya(&["formats", "--json"]);
    assert!(out.status.success());
    let j = json(&out);
    let entries = j.as_array().unwrap();
    let find = |family: &str, name: &str| {
        entries.iter().find(|e| e["family"] == family && e["name"] == name).unwrap_or_else(|| panic!("{name}"))
    };
    assert_eq!(find("chess", "polyglot")["extensions"], serde_json::json!(["bin"]));
    assert_eq!(find("chess", "ctg")["probe"], true);
    assert_eq!(find("othello", "wthor_games")["family"], "othello");
    assert!(find("shogi", "kif")["convert_to"].as_array().unwrap().iter().any(|n| n == "csa"));
    let text = String::from_utf8(tabiya(&["formats"]).stdout).unwrap();
    assert!(text.contains("pgn (chess) .pgn"), "{text}");
}

#[test]
fn an_unknown_output_format_lists_the_names() {
    let out = tabiya(&["convert", "-", "--from", "pgn", "-o", "out.x", "--to", "foo"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("--to foo: unknown format") && err.contains("polyglot") && err.contains("wthor_games"),
        "{err}"
    );
}

#[test]
fn solving_a_missing_file_says_so() {
    let out = tabiya(&["solve", "nosuch.obf"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("nosuch.obf: no such file"), "{}", stderr(&out));
}

/// Castling written with zeros is castling: the Polyglot book of the corpus answers the same
/// for `0-0` as for `O-O`.
#[test]
fn castling_with_zeros_in_moves() {
    let Some(book) = corpus_file("polyglot/performance.bin") else { return };
    let book = book.to_str().unwrap();
    let moves = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6";
    let letters = tabiya(&["probe", book, "--json", "--moves", &format!("{moves} O-O")]);
    let zeros = tabiya(&["probe", book, "--json", "--moves", &format!("{moves} 0-0")]);
    assert!(letters.status.success(), "{}", stderr(&letters));
    assert_eq!(zeros.status.code(), Some(0), "{}", stderr(&zeros));
    assert_eq!(json(&zeros)["moves"], json(&letters)["moves"]);
    assert!(!json(&zeros)["moves"].as_array().unwrap().is_empty());
}

/// A `.txt` that is not a transcript is refused, saying what its extension promised.
#[test]
fn a_txt_of_prose_is_no_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "hello world\n").unwrap();
    let out = tabiya(&["info", notes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains(".txt names othello_transcript, but the file does not look like one"),
        "{}",
        stderr(&out)
    );
}

/// Progress bars go to a terminal only: on a pipe (as here) stderr holds no bar.
#[test]
fn no_progress_on_a_pipe() {
    let Some(games) = corpus_file("wthor/current/WTH_1977.wtb") else { return };
    let out = tabiya(&["verify", games.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(!err.contains('\r') && !err.contains('\x1b') && !err.contains("solving"), "{err:?}");
}

/// Bytes that are not UTF-8 in an OBF file are placed by line.
#[test]
fn obf_that_is_not_text_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let obf = dir.path().join("bad.obf");
    let line = "----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X;\n";
    std::fs::write(&obf, [line.as_bytes(), line.as_bytes(), b"\xff\n"].concat()).unwrap();
    let out = tabiya(&["solve", obf.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("(line 3): not UTF-8 text"), "{}", stderr(&out));
}

/// The first two games of small-varied.pgn, then the third cut inside its tag section (byte
/// 2,000 of the corpus file falls in game 3's tags: `[Event …` of game 3 starts at 0x708).
fn two_games_and_a_cut_one(dir: &std::path::Path) -> Option<String> {
    let whole = corpus_file("pgn/small-varied.pgn")?;
    let path = dir.join("cut.pgn");
    std::fs::write(&path, &std::fs::read(whole).unwrap()[..2000]).unwrap();
    Some(path.to_str().unwrap().to_owned())
}

/// A game that could not be read shows in the exit status of every command that reads games:
/// `info` and `verify` name it, and a book or tree built without it says so and exits 1.
#[test]
fn an_unreadable_game_is_seen_in_the_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let Some(cut) = two_games_and_a_cut_one(dir.path()) else { return };
    let out = tabiya(&["info", "--json", &cut]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let j = json(&out);
    assert_eq!((j["counts"]["games"].as_u64(), j["counts"]["unreadable_games"].as_u64()), (Some(2), Some(1)));
    let problem = &j["problems"].as_array().unwrap()[0];
    assert_eq!(problem["severity"], "error");
    // The third game's tag section is the one cut short.
    assert!(problem["where"].as_str().unwrap().ends_with("@0x708 (game 3)"), "{problem}");
    for (command, output) in
        [("verify", None), ("book", Some("b.bin")), ("book", Some("b.kob")), ("tree", Some("t.tree"))]
    {
        let mut args = vec![command, "-q", &cut];
        let path = output.map(|name| dir.path().join(name).to_str().unwrap().to_owned());
        if let Some(path) = &path {
            args.extend(["-o", path]);
        }
        let out = tabiya(&args);
        assert_eq!(out.status.code(), Some(1), "{command} {output:?}: {}", stderr(&out));
    }
}

/// A game cut at an illegal move no longer claims its old result: it is written with
/// `[Result "*"]`, the `*` token and a comment saying where it was cut and what its result
/// was; the run exits 1. The game after it is untouched.
#[test]
fn a_game_cut_at_an_illegal_move_is_written_unfinished() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cut.pgn");
    std::fs::write(
        &input,
        "[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke5 4. Bxc6 1-0\n\n\
         [White \"C\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n",
    )
    .unwrap();
    let output = dir.path().join("out.pgn");
    let out = tabiya(&["convert", "-q", input.to_str().unwrap(), "-o", output.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let written = std::fs::read_to_string(&output).unwrap();
    let games: Vec<&str> = written.split("\n\n[").collect();
    assert!(games[0].contains("[Result \"*\"]"), "{written}");
    assert!(
        games[0].contains("3. Bb5 {tabiya: the game is cut here, at the illegal move\n3... Ke5; its result was 1-0} *"),
        "{written}"
    );
    assert!(games[1].contains("[Result \"0-1\"]") && games[1].contains("1. d4 d5 0-1"), "{written}");
}

/// A book is built from a stream (standard input here) as from the file itself: the stream is
/// read once, not taken for empty or read through.
#[test]
fn a_book_from_standard_input_is_the_book_of_the_file() {
    use std::io::Write;
    let Some(pgn) = corpus_file("pgn/small-varied.pgn") else { return };
    let dir = tempfile::tempdir().unwrap();
    for name in ["file.bin", "stream.bin", "file.kob", "stream.kob"] {
        let output = dir.path().join(name);
        let mut command = Command::new(env!("CARGO_BIN_EXE_tabiya"));
        let input = if name.starts_with("file") { pgn.to_str().unwrap() } else { "-" };
        command.args(["book", "-q", input, "-o", output.to_str().unwrap()]);
        let mut child =
            command.stdin(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        if input == "-" {
            stdin.write_all(&std::fs::read(&pgn).unwrap()).unwrap();
        }
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
    }
    let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
    assert!(!read("file.bin").is_empty());
    assert_eq!(read("file.bin"), read("stream.bin"));
    assert_eq!(read("file.kin"), read("stream.kin"));
}

/// A stream has no name to tell its format: a Polyglot book is named by its content (entries
/// in key order), with or without `--from`; bytes that are no format's need `--from`, as the
/// message says.
#[test]
fn a_binary_stream_is_read_with_from() {
    use std::io::Write;
    let Some(book) = corpus_file("polyglot/performance.bin") else { return };
    let run = |args: &[&str], input: Vec<u8>| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabiya"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A refused stream is left after its head: the rest meets a closed pipe.
        let _ = child.stdin.take().unwrap().write_all(&input);
        child.wait_with_output().unwrap()
    };
    // Zeros: no Polyglot entry moves from a1 to a1, no Wthor header dates day 0.
    let out = run(&["info", "-"], vec![0; 4096]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("(use --from)"), "{}", stderr(&out));
    for (command, from) in [("info", None), ("info", Some("polyglot")), ("verify", Some("polyglot"))] {
        let mut args = vec![command, "--json", "-"];
        if let Some(from) = from {
            args.extend(["--from", from]);
        }
        let out = run(&args, std::fs::read(&book).unwrap());
        assert_eq!(out.status.code(), Some(0), "{command} --from {from:?}: {}", stderr(&out));
        assert_eq!(json(&out)["format"], "polyglot");
    }
}
