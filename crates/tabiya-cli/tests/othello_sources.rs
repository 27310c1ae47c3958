//! Othello JSON Lines and CSV as sources, `info` and `verify` agreeing, and `select --moves`
//! / `--fen` for Othello games, against the Wthor bytes read here (not by the library).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tabiya_testdata::corpus_file;

fn tabiya(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn ok(args: &[&str]) -> Output {
    let out = tabiya(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// The move bytes of every record of a `.wtb` (16-byte header, 68-byte records, moves at 8..68
/// as `10 · row + column`), as the FFO's document lays them out.
fn wthor_moves(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).unwrap();
    bytes[16..].chunks_exact(68).map(|r| r[8..].iter().copied().take_while(|&b| b != 0).collect()).collect()
}

/// `f5` → 56.
fn code(square: &str) -> u8 {
    let b = square.as_bytes();
    10 * (b[1] - b'0') + (b[0] - b'a' + 1)
}

#[test]
fn json_lines_and_csv_exports_convert_back() {
    let Some(dir) = corpus_file("wthor/release-2022") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let t = |name: &str| -> PathBuf { tmp.path().join(name) };
    let wtb = dir.join("WTH_2021.wtb");
    let games = wthor_moves(&wtb).len() as u64;
    for out in ["w.jsonl", "w.csv", "w.ggf", "w.txt"] {
        ok(&["convert", "-q", s(&wtb), "-o", s(&t(out))]);
    }
    // Our own exports are sniffed as Othello's (chess also names `.jsonl`), and read whole.
    for export in ["w.jsonl", "w.csv"] {
        let j = json(&ok(&["info", "--json", s(&t(export))]));
        assert_eq!((j["counts"]["games"].as_u64(), j["counts"]["warnings"].as_u64()), (Some(games), Some(0)));
        let j = json(&ok(&["verify", "--json", s(&t(export))]));
        assert_eq!(j["checked"]["games"].as_u64(), Some(games));
    }
    // Wthor → JSON Lines / CSV → GGF and transcripts: what Wthor → GGF gives, byte for byte
    // (names, tournament, year, result and moves all came back).
    let wthor_ggf = std::fs::read(t("w.ggf")).unwrap();
    for (export, ggf, txt) in [("w.jsonl", "j.ggf", "j.txt"), ("w.csv", "c.ggf", "c.txt")] {
        ok(&["convert", "-q", s(&t(export)), "-o", s(&t(ggf))]);
        assert!(std::fs::read(t(ggf)).unwrap() == wthor_ggf, "{export} → GGF");
        ok(&["convert", "-q", s(&t(export)), "-o", s(&t(txt))]);
        assert!(std::fs::read(t(txt)).unwrap() == std::fs::read(t("w.txt")).unwrap(), "{export} → transcripts");
    }
    // GGF → JSON Lines → JSON Lines and GGF → CSV → CSV: nothing changes on the way back.
    ok(&["convert", "-q", s(&t("w.ggf")), "-o", s(&t("g.jsonl"))]);
    ok(&["convert", "-q", s(&t("g.jsonl")), "-o", s(&t("gg.jsonl"))]);
    assert!(std::fs::read(t("g.jsonl")).unwrap() == std::fs::read(t("gg.jsonl")).unwrap());
    ok(&["convert", "-q", s(&t("w.ggf")), "-o", s(&t("g.csv"))]);
    ok(&["convert", "-q", s(&t("g.csv")), "-o", s(&t("gg.csv"))]);
    assert!(std::fs::read(t("g.csv")).unwrap() == std::fs::read(t("gg.csv")).unwrap());
    // JSON Lines → a new .wtb: the same records (moves, real scores, names by text).
    std::fs::create_dir(t("db")).unwrap();
    let new = t("db/WTH_2021.wtb");
    ok(&["convert", "-q", s(&t("w.jsonl")), "-o", s(&new), "--theoretical", "copy-real"]);
    assert_eq!(wthor_moves(&new), wthor_moves(&wtb));
    let real = |p: &Path| -> Vec<u8> { std::fs::read(p).unwrap()[16..].chunks_exact(68).map(|r| r[6]).collect() };
    assert_eq!(real(&new), real(&wtb));
    ok(&["convert", "-q", s(&new), "-o", s(&t("back.ggf"))]);
    assert!(std::fs::read(t("back.ggf")).unwrap() == wthor_ggf);
    // `--from othello_jsonl` names our JSON Lines whatever the file is called.
    std::fs::copy(t("w.jsonl"), t("w.json")).unwrap();
    ok(&["convert", "-q", "--from", "othello_jsonl", s(&t("w.json")), "-o", s(&t("n.txt"))]);
    assert!(std::fs::read(t("n.txt")).unwrap() == std::fs::read(t("w.txt")).unwrap());
    // A line that is not a game is an error in the exit status, named by its line.
    let mut broken = std::fs::read_to_string(t("w.jsonl")).unwrap();
    broken.insert_str(broken.find('\n').unwrap() + 1, "{\"moves\":\"f5f5\"}\n");
    std::fs::write(t("b.jsonl"), broken).unwrap();
    let out = tabiya(&["verify", "--json", s(&t("b.jsonl"))]);
    assert_eq!(out.status.code(), Some(1));
    let j = json(&out);
    assert_eq!(
        (j["problems"][0]["location"]["unit"].as_str(), j["problems"][0]["location"]["number"].as_u64()),
        (Some("line"), Some(2))
    );
}

#[test]
fn info_and_verify_list_the_same_problems() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut with_problems = 0;
    for file in files.iter().filter(|p| p.extension().is_some_and(|e| e == "wtb")) {
        let info = json(&ok(&["info", "--json", s(file)]));
        let verify = json(&tabiya(&["verify", "--json", s(file)]));
        let codes = |problems: &serde_json::Value| -> Vec<String> {
            problems
                .as_array()
                .map(|a| a.iter().map(|p| p["where"].to_string() + &p["what"].to_string()).collect())
                .unwrap_or_default()
        };
        assert_eq!(codes(&info["problems"]), codes(&verify["problems"]), "{}", file.display());
        assert_eq!(info["counts"]["warnings"].as_u64(), Some(codes(&verify["problems"]).len() as u64));
        with_problems += usize::from(!codes(&verify["problems"]).is_empty());
    }
    // The FFO's files of 1981–2000 have games cut before their end: verify warns, and so does info.
    assert!(with_problems >= 19, "{with_problems}");
}

/// Plays Othello on an array, independently of the library: the position after `moves` as
/// (board by `8 · row + column`: 0 empty, 1 Black, 2 White; the side to move).
fn replay(moves: &[u8], plies: usize) -> Option<([u8; 64], u8)> {
    let mut board = [0u8; 64];
    (board[27], board[28], board[35], board[36]) = (2, 1, 1, 2);
    let mut side = 1u8;
    let flips = |board: &[u8; 64], at: usize, side: u8| -> Vec<usize> {
        let mut all = Vec::new();
        if board[at] != 0 {
            return all;
        }
        for (dr, dc) in [(-1i32, -1i32), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] {
            let (mut r, mut c, mut line) = (at as i32 / 8 + dr, at as i32 % 8 + dc, Vec::new());
            while (0..8).contains(&r) && (0..8).contains(&c) && board[(r * 8 + c) as usize] == 3 - side {
                line.push((r * 8 + c) as usize);
                (r, c) = (r + dr, c + dc);
            }
            if (0..8).contains(&r) && (0..8).contains(&c) && board[(r * 8 + c) as usize] == side {
                all.extend(line);
            }
        }
        all
    };
    for &code in moves.iter().take(plies) {
        let at = usize::from(code / 10 - 1) * 8 + usize::from(code % 10 - 1);
        let mut flipped = flips(&board, at, side);
        if flipped.is_empty() {
            side = 3 - side; // a forced pass
            flipped = flips(&board, at, side);
        }
        if flipped.is_empty() {
            return None;
        }
        for i in flipped.into_iter().chain([at]) {
            board[i] = side;
        }
        side = 3 - side;
    }
    (moves.len() >= plies).then_some((board, side))
}

#[test]
fn select_moves_and_positions_of_othello_games() {
    let Some(dir) = corpus_file("wthor/release-2022") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let wtb = dir.join("WTH_2021.wtb");
    let games = wthor_moves(&wtb);
    let count = |args: &[&str]| -> u64 {
        let out = ok(&[&["select", "--count", s(&wtb)], args].concat());
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    };
    let opening = |line: &[&str]| {
        let codes: Vec<u8> = line.iter().map(|m| code(m)).collect();
        games.iter().filter(|g| g.starts_with(&codes)).count() as u64
    };
    let tiger = opening(&["f5", "d6", "c3", "d3", "c4"]);
    assert!(tiger > 0);
    assert_eq!(count(&["--moves", "f5 d6 c3 d3 c4"]), tiger);
    assert_eq!(count(&["--moves", "f5 d6 c3"]), opening(&["f5", "d6", "c3"]));
    // e6 f4 is f5 d6 turned across the a1–h8 diagonal: the same games (Wthor stores f5 first).
    assert_eq!(count(&["--moves", "e6 f4"]), opening(&["f5", "d6"]));
    // Two lines: either.
    assert_eq!(count(&["--moves", "f5 d6", "--moves", "f5 f6"]), opening(&["f5", "d6"]) + opening(&["f5", "f6"]));

    // The tiger's position, by any move order that reaches it (counted by the array replay).
    let (board, side) =
        replay(&games.iter().find(|g| g.starts_with(&[56, 64, 33, 34, 43])).unwrap().clone(), 5).unwrap();
    let text: String = board.iter().map(|&d| ['-', 'X', 'O'][usize::from(d)]).collect();
    let fen = format!("{text} {}", if side == 1 { 'X' } else { 'O' });
    // Or an image of it under the four symmetries of the start position (the games' own rule).
    let images: Vec<[u8; 64]> = [|r, c| (r, c), |r, c| (7 - r, 7 - c), |r, c| (c, r), |r, c| (7 - c, 7 - r)]
        .iter()
        .map(|map: &fn(usize, usize) -> (usize, usize)| {
            let mut image = [0u8; 64];
            for (i, &disc) in board.iter().enumerate() {
                let (r, c) = map(i / 8, i % 8);
                image[r * 8 + c] = disc;
            }
            image
        })
        .collect();
    let reaching =
        games.iter().filter(|g| replay(g, 5).is_some_and(|(b, s)| s == side && images.contains(&b))).count() as u64;
    assert!(reaching >= tiger);
    assert_eq!(count(&["--fen", &fen]), reaching);

    // The same selection from the GGF and JSON Lines exports, and written out.
    let ggf = tmp.path().join("w.ggf");
    ok(&["convert", "-q", s(&wtb), "-o", s(&ggf)]);
    let out = ok(&["select", "--count", s(&ggf), "--moves", "f5 d6 c3 d3 c4"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), tiger.to_string());
    let txt = tmp.path().join("tiger.txt");
    ok(&["select", "-q", s(&ggf), "--moves", "f5 d6 c3 d3 c4", "-o", s(&txt)]);
    let lines = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(lines.lines().count() as u64, tiger);
    assert!(lines.lines().all(|l| l.starts_with("f5d6c3d3c4")));
    // Not a transcript: refused, naming the option.
    let bad = tabiya(&["select", "--count", s(&wtb), "--moves", "f5 z9"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--moves"));
}
