//! `tabiya select`: each filter's selection on the corpus's medium PGN file (31,990 games of
//! twelve players) against outside oracles: pgn-extract 22.x's tag criteria (`-T`, `-t`), an
//! independent Python script (regular expressions over the tag sections and movetext, no chess
//! library; `benches/peers/select/oracle.py`), and SCID 5.0.2's own twin finder
//! (`benches/peers/scid/twins.tcl`). Compressed and streamed inputs give the same games.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tabiya_io::Compression;
use tabiya_testdata::corpus_file;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn medium() -> Option<PathBuf> {
    corpus_file("pgn/medium-pgnmentor-12players.pgn")
}

/// `select --count` with `options` on `input`.
fn count(input: &Path, options: &[&str]) -> u64 {
    let mut args = vec!["select", input.to_str().unwrap(), "--count", "-q"];
    args.extend_from_slice(options);
    let out = tabiya(&args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    String::from_utf8(out.stdout).unwrap().trim().parse().expect("a count")
}

/// Each filter alone and together, on the medium file: the counts of the oracle named.
#[test]
fn filters_select_what_the_oracles_select() {
    let Some(m) = medium() else { return };
    let cases: &[(&[&str], u64, &str)] = &[
        (&[], 31990, "every game"),
        (&["--player", "Carlsen"], 5907, "pgn-extract -TpCarlsen"),
        (&["--player", "carlsen", "--elo", "2800.."], 299, "pgn-extract -t: Player Carlsen, WhiteElo/BlackElo >= 2800"),
        (&["--white", "Kasparov"], 1328, "pgn-extract -TwKasparov"),
        (&["--black", "Fischer"], 396, "pgn-extract -TbFischer"),
        (&["--result", "1-0"], 11753, "pgn-extract -Tr1-0"),
        (&["--date", "1990..1994"], 2394, "pgn-extract -t: Date >= 1990, Date <= 1994"),
        (&["--event", "Wch"], 861, "grep -ci '^\\[Event \"wch' (pgn-extract, case-sensitive: 353)"),
        (&["--site", "Moscow"], 1928, "pgn-extract -t: Site \"Moscow\""),
        (
            &["--white-elo", "2700..", "--black-elo", "..2599"],
            1394,
            "pgn-extract -t: WhiteElo >= 2700, BlackElo < 2600",
        ),
        (&["--player", "Polgar", "--result", "0-1"], 515, "pgn-extract -t: Player Polgar, Result 0-1"),
        (&["--moves", "1. e4 c5 2. Nf3"], 5142, "oracle.py: main lines starting e4 c5 Nf3"),
        (&["--plies", "40..60"], 5211, "oracle.py: 40 to 60 main-line moves"),
        (&["--eco", "B20..B99"], 6060, "oracle.py: ECO B20 to B99"),
        (
            &["--player", "Carlsen", "--white-elo", "not:2800.."],
            3329,
            "oracle.py: Carlsen, White under 2800 or unrated",
        ),
    ];
    for (options, expected, oracle) in cases {
        assert_eq!(count(&m, options), *expected, "{options:?} ({oracle})");
    }
    // Negation is the complement; values of one option are or-ed.
    let carlsen = count(&m, &["--player", "Carlsen"]);
    assert_eq!(count(&m, &["--player", "not:Carlsen"]), 31990 - carlsen);
    let decisive = count(&m, &["--result", "1-0", "--result", "0-1"]);
    assert_eq!(decisive, 11753 + count(&m, &["--result", "0-1"]));
    assert_eq!(count(&m, &["--tag", "White~^Carlsen"]), count(&m, &["--white", "Carlsen"]));
    assert_eq!(count(&m, &["--tag", "ECO=B33"]), count(&m, &["--eco", "B33"]));
    assert_eq!(count(&m, &["--variant", "standard"]), 31990);
}

/// The games written are the games counted, whole (tags, comments, moves), in file order.
#[test]
fn selected_games_are_written_whole_in_order() {
    let Some(m) = medium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("carlsen.pgn");
    let run = tabiya(&[
        "select",
        m.to_str().unwrap(),
        "--player",
        "Carlsen",
        "--elo",
        "2800..",
        "-o",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    // Converting the file whole, then keeping the same games, gives the same text.
    let all = dir.path().join("all.pgn");
    let run = tabiya(&["convert", m.to_str().unwrap(), "-o", all.to_str().unwrap(), "-q"]);
    assert!(run.status.success(), "{}", stderr(&run));
    // Names keep their legacy bytes (not UTF-8): compared as text with those bytes replaced alike.
    let text = String::from_utf8_lossy(&std::fs::read(&all).unwrap()).into_owned();
    let expected: String = text
        .split_inclusive("\n\n[Event ")
        .map(|g| g.strip_suffix("[Event ").unwrap_or(g))
        .filter(|g| {
            let carlsen = g.contains("[White \"Carlsen") || g.contains("[Black \"Carlsen");
            let elo = |tag: &str| {
                g.split(&format!("[{tag} \""))
                    .nth(1)
                    .and_then(|r| r.split('"').next())
                    .and_then(|v| v.parse::<u32>().ok())
            };
            carlsen && elo("WhiteElo").is_some_and(|e| e >= 2800) && elo("BlackElo").is_some_and(|e| e >= 2800)
        })
        .map(|g| if g.starts_with("[Event ") { g.to_owned() } else { format!("[Event {g}") })
        .collect();
    let selected = String::from_utf8_lossy(&std::fs::read(&out).unwrap()).into_owned();
    assert_eq!(selected.matches("[Event ").count(), 299);
    assert!(selected == expected, "the selected games as `convert` writes them");
}

/// `--dedup` and `--contained` remove what the independent script finds; `--twins` removes the
/// games SCID 5.0.2's twin finder deletes (`twins.tcl` on the database SCID imports from the
/// medium file: 1080 games, game numbers digested below).
#[test]
fn duplicates_twins_and_contained_games() {
    let Some(m) = medium() else { return };
    assert_eq!(count(&m, &["--dedup"]), 31990 - 1076, "oracle.py: same moves, players, result and date");
    assert_eq!(count(&m, &["--contained"]), 31990 - 1085, "oracle.py: moves that start a game by the same players");
    let out = tabiya(&["select", m.to_str().unwrap(), "--twins", "--count"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), (31990 - 1080).to_string());
    // Each twin is named with the game kept in its place. Every set of twins loses as many
    // games as SCID removes from it (oracle.py --twins against twins.tcl's list); of twins as
    // long, SCID keeps the one its unstable sort puts last, tabiya the later in the file.
    let named = stderr(&out).lines().filter(|l| l.contains("twin of")).count();
    assert_eq!(named, 1080);
    // The same file twice: every game of the second copy is a duplicate of the first.
    let twice = [m.to_str().unwrap(), m.to_str().unwrap()];
    let out = tabiya(&["select", twice[0], twice[1], "--dedup", "--count", "-q"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), (31990 - 1076).to_string());
}

/// The medium file compressed each way (gzip of two members, bzip2, xz, zstd, zip), as a file
/// and through a pipe: the same selection, and `verify` and `info` read it too.
#[test]
fn compressed_and_streamed_inputs_read_as_the_file() {
    let Some(m) = medium() else { return };
    let text = std::fs::read(&m).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let half = text.len() / 2;
    let options = ["--player", "Carlsen", "--elo", "2800.."];
    for (compression, name) in [
        (Compression::Gzip, "m.pgn.gz"),
        (Compression::Bzip2, "m.pgn.bz2"),
        (Compression::Xz, "m.pgn.xz"),
        (Compression::Zstd, "m.pgn.zst"),
    ] {
        let path = dir.path().join(name);
        let mut bytes = Vec::new();
        // Two members (frames, streams) one after the other, as pigz, pzstd and `cat` make.
        for part in [&text[..half], &text[half..]] {
            let mut encoder = compression.encoder(Vec::new()).unwrap();
            encoder.write_all(part).unwrap();
            bytes.extend(encoder.finish().unwrap());
        }
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(count(&path, &options), 299, "{name}");
        // Through a pipe, its format found by its bytes.
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabiya"))
            .args(["select", "-", "--count", "-q"])
            .args(options)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || stdin.write_all(&bytes));
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        assert!(out.status.success(), "{name} on stdin: {}", stderr(&out));
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "299", "{name} on stdin");
        let out = tabiya(&["verify", path.to_str().unwrap(), "--json"]);
        let json = String::from_utf8_lossy(&out.stdout);
        assert!(json.contains("\"games\": 31990") || json.contains("\"games\":31990"), "{name}: {json}");
    }
    // A directory of inputs: every games file in it.
    let both = dir.path().join("both");
    std::fs::create_dir(&both).unwrap();
    std::fs::copy(dir.path().join("m.pgn.zst"), both.join("a.pgn.zst")).unwrap();
    std::fs::copy(&m, both.join("b.pgn")).unwrap();
    assert_eq!(count(&both, &options), 2 * 299);
}

/// Options refused where they do not apply, and a bad value named.
#[test]
fn refusals() {
    let Some(m) = medium() else { return };
    let m = m.to_str().unwrap();
    let out = tabiya(&["select", m, "--elo", "high", "--count"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--elo: high: expected a rating"), "{}", stderr(&out));
    let out = tabiya(&["select", m, "--moves", "e4 e4", "--count"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("x.jsonl");
    let out = tabiya(&["select", m, "--count", "--pgn-long"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = tabiya(&["select", m, "-o", json.to_str().unwrap(), "--pgn-long"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--pgn-long does not apply"), "{}", stderr(&out));
    assert!(!json.exists());
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/famous-games.bin");
    let out = tabiya(&["select", book.to_str().unwrap(), "--count"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn a_game_quoted_in_a_comment_stays_in_its_comment() {
    // The second game's comment quotes a game after a blank line, as annotators do. Reading in
    // parallel pieces once cut the file there: the game lost its moves and a third appeared.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quoted.pgn");
    let pgn = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 {as in\n\n[Event \"q\"]\n\n1. c4} d5 0-1\n";
    std::fs::write(&path, pgn).unwrap();
    let path = path.to_str().unwrap();
    let out = tabiya(&["-q", "convert", path, "--to", "pgn", "-o", "-"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let written = String::from_utf8_lossy(&out.stdout);
    assert_eq!(written.lines().filter(|l| l.starts_with("[Event ")).count(), 2, "{written}");
    assert!(written.contains("1. d4 {as in [Event \"q\"] 1. c4} 1... d5 0-1"), "{written}");
    assert_eq!(count(Path::new(path), &[]), 2);
}
