//! `tabiya info | verify | convert` on Wthor files and Othello text.

use std::path::{Path, PathBuf};
use std::process::Command;

use tabiya_testdata::corpus_file;

// Conversions below write over outputs of earlier steps (and a .wtb copy writes the name files
// beside it): they ask for --force.
fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn info_of_every_kind() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    let out = tabiya(&["info", "--json", s(&dir.join("WTH_1977.wtb"))]);
    assert!(out.status.success());
    let j = json(&out);
    assert_eq!(j["format"], "wthor_games");
    assert_eq!(j["counts"]["games"], 12);
    assert_eq!(j["header"]["created"], "2007-05-22");
    assert_eq!(j["header"]["p3_depth"], 24);
    let j = json(&tabiya(&["info", "--json", s(&dir.join("WTHOR.JOU"))]));
    assert_eq!((j["format"].as_str(), j["counts"]["names"].as_u64()), (Some("wthor_players"), Some(4448)));
    let j = json(&tabiya(&["info", "--json", s(&dir.join("WTHOR.TRN"))]));
    assert_eq!(j["counts"]["names"], 492);
}

#[test]
fn verify_directory_and_old_name_files() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    let out = tabiya(&["verify", "--json", s(&dir)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let j = json(&out);
    assert_eq!(j["ok"], true);
    let c = &j["checked"];
    assert_eq!(
        (c["files"].as_u64(), c["games"].as_u64(), c["truncated"].as_u64()),
        (Some(49), Some(137_548), Some(413))
    );
    assert_eq!((c["games_with_pass"].as_u64(), c["early_end"].as_u64()), (Some(80_200), Some(6_446)));
    assert_eq!((c["unreplayable"].as_u64(), c["real_score_mismatches"].as_u64()), (Some(0), Some(0)));

    let old = corpus_file("wthor/release-2022").unwrap();
    let out = tabiya(&["verify", "--json", "--names", s(&old), s(&dir.join("WTH_2025.wtb"))]);
    assert_eq!(out.status.code(), Some(1));
    let j = json(&out);
    let problems = j["problems"].as_array().unwrap();
    assert!(problems.iter().any(|p| p["what"].as_str().unwrap().contains("beyond the 3884 names of WTHOR.JOU")));
}

#[test]
fn verify_reports_a_corrupted_game() {
    let Some(path) = corpus_file("wthor/current/WTH_1977.wtb") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(path).unwrap();
    bytes[16 + 68 + 8 + 10] = 99; // record 1, move 11: no square
    bytes[16 + 2 * 68 + 8 + 59] = 11; // record 2: the last byte is a move already played
    let bad = tmp.path().join("WTH_1977.wtb");
    std::fs::write(&bad, &bytes).unwrap();
    let out = tabiya(&["verify", "--json", s(&bad)]);
    assert_eq!(out.status.code(), Some(1));
    let j = json(&out);
    let wheres: Vec<&str> = j["problems"].as_array().unwrap().iter().map(|p| p["where"].as_str().unwrap()).collect();
    assert!(wheres.iter().any(|w| w.ends_with("@0x66 (record 1)")), "16 + 68 + 8 + 10: {wheres:?}");
    assert!(wheres.iter().any(|w| w.ends_with("@0xdb (record 2)")), "16 + 2 · 68 + 8 + 59: {wheres:?}");
    assert_eq!(j["checked"]["unreplayable"], 2);
}

#[test]
fn export_and_import() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let t = |name: &str| -> PathBuf { tmp.path().join(name) };
    let out = tabiya(&["convert", s(&dir.join("WTH_1977.wtb")), "-o", s(&t("g.ggf"))]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(t("g.ggf")).unwrap();
    assert_eq!(text.lines().count(), 12);
    assert!(
        text.starts_with(
            "(;GM[Othello]PC[World Championship]DT[1977]PB[Inoue Hiroshi]PW[Heiberg Thomas]TY[8]RE[+4.000]"
        )
    );

    let j = json(&tabiya(&["info", "--json", s(&t("g.ggf"))]));
    assert_eq!((j["format"].as_str(), j["counts"]["games"].as_u64()), (Some("ggf"), Some(12)));
    assert!(tabiya(&["convert", s(&dir.join("WTH_1977.wtb")), "-o", s(&t("g.txt"))]).status.success());
    let j = json(&tabiya(&["info", "--json", s(&t("g.txt"))]));
    assert_eq!((j["format"].as_str(), j["counts"]["games"].as_u64()), (Some("othello_transcript"), Some(12)));
    let ffo = corpus_file("ffo/fforum-40-59.obf").unwrap();
    let j = json(&tabiya(&["info", "--json", s(&ffo)]));
    assert_eq!((j["format"].as_str(), j["counts"]["positions"].as_u64()), (Some("obf"), Some(20)));

    // OBF needs --empties; the import needs a decision on theoretical scores.
    assert_eq!(tabiya(&["convert", s(&dir.join("WTH_1977.wtb")), "-o", s(&t("p.obf"))]).status.code(), Some(2));
    std::fs::create_dir(t("db")).unwrap();
    let wtb = t("db/WTH_2026.wtb");
    assert_eq!(tabiya(&["convert", s(&t("g.ggf")), "-o", s(&wtb)]).status.code(), Some(2));
    assert!(!wtb.exists());
    let out = tabiya(&["convert", s(&t("g.ggf")), "-o", s(&wtb), "--theoretical", "copy-real", "--names", s(&dir)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The names existed: the copies equal the originals, and the indices are the FFO's.
    assert_eq!(std::fs::read(t("db/WTHOR.JOU")).unwrap(), std::fs::read(dir.join("WTHOR.JOU")).unwrap());
    let original = std::fs::read(dir.join("WTH_1977.wtb")).unwrap();
    let imported = std::fs::read(&wtb).unwrap();
    assert_eq!(imported.len(), original.len());
    for r in 0..12 {
        let (a, b) = (&original[16 + r * 68..][..68], &imported[16 + r * 68..][..68]);
        assert_eq!(a[..7], b[..7], "record {r}: indices and real score");
        assert_eq!(a[8..], b[8..], "record {r}: moves");
        assert_eq!(b[7], b[6], "record {r}: theoretical copied from real, as asked");
    }
    assert_eq!(&imported[10..12], &2026u16.to_le_bytes(), "year from the file name");
    let out = tabiya(&["verify", s(&wtb)]);
    assert_eq!(out.status.code(), Some(0));
}

/// Names of a name file by index, read from its bytes (16-byte header, NUL-terminated records).
fn names_by_bytes(path: &Path, record_len: usize) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    bytes[16..]
        .chunks_exact(record_len)
        .map(|r| String::from_utf8_lossy(&r[..r.iter().position(|&b| b == 0).unwrap_or(r.len())]).into_owned())
        .collect()
}

/// (tournament, black, white) of every record of a .wtb, read from its bytes.
fn games_by_bytes(bytes: &[u8]) -> Vec<(u16, u16, u16)> {
    let le = |b: &[u8]| u16::from_le_bytes([b[0], b[1]]);
    bytes[16..].chunks_exact(68).map(|r| (le(&r[0..]), le(&r[2..]), le(&r[4..]))).collect()
}

#[test]
fn every_wthor_file_converts_to_itself_byte_for_byte() {
    let Some(current) = corpus_file("wthor/current") else { return };
    let release = corpus_file("wthor/release-2022").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for dir in [current, release] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let copy = tmp.path().join(path.file_name().unwrap());
            let out = tabiya(&["convert", "-q", "--force", s(&path), "-o", s(&copy)]);
            assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
            assert!(std::fs::read(&path).unwrap() == std::fs::read(&copy).unwrap(), "{}", path.display());
            std::fs::remove_file(&copy).unwrap();
            checked += 1;
        }
    }
    assert_eq!(checked, 56, "52 game files and 4 name files");

    // The FFO positions too: OBF lines are checked and kept as written (`B2:+0`, not `+00`).
    let ffo = corpus_file("ffo").unwrap();
    let mut obf = 0;
    for entry in std::fs::read_dir(&ffo).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "obf") {
            continue;
        }
        let copy = tmp.path().join("copy.obf");
        let out = tabiya(&["convert", "-q", "--force", s(&path), "-o", s(&copy)]);
        assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
        assert!(std::fs::read(&path).unwrap() == std::fs::read(&copy).unwrap(), "{}", path.display());
        obf += 1;
    }
    assert_eq!(obf, 4);
    let bad = tmp.path().join("bad.obf");
    std::fs::write(&bad, "not a position\n").unwrap();
    let out = tabiya(&["convert", "-q", "--force", s(&bad), "-o", s(&tmp.path().join("kept.obf"))]);
    assert_eq!(out.status.code(), Some(1), "the line is kept, and the exit status says it is wrong");
    assert_eq!(std::fs::read(tmp.path().join("kept.obf")).unwrap(), b"not a position\n");
}

#[test]
fn filtered_wtb_is_a_valid_wthor_file() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let original = std::fs::read(dir.join("WTH_2004.wtb")).unwrap();
    let players = names_by_bytes(&dir.join("WTHOR.JOU"), 20);
    let tournaments = names_by_bytes(&dir.join("WTHOR.TRN"), 26);
    let games = games_by_bytes(&original);
    // The player of the first game's Black, counted independently of the library's filter.
    let player = players[usize::from(games[0].1)].clone();
    let needle = player.to_lowercase();
    let plays = |i: u16| players[usize::from(i)].to_lowercase().contains(&needle);
    let expected = games.iter().filter(|g| plays(g.1) || plays(g.2)).count();
    assert!(expected > 0 && expected < games.len());

    let subset = tmp.path().join("WTH_2004.wtb");
    let out = tabiya(&[
        "convert",
        "-q",
        s(&dir.join("WTH_2004.wtb")),
        "-o",
        s(&subset),
        "--years",
        "2004",
        "--player",
        &player,
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let written = std::fs::read(&subset).unwrap();
    assert_eq!(written.len(), 16 + 68 * expected);
    assert_eq!(u32::from_le_bytes(written[4..8].try_into().unwrap()) as usize, expected, "N1");
    assert_eq!(written[..4], original[..4], "creation date kept");
    assert_eq!(written[8..16], original[8..16], "N2, year, P1, P2, P3 kept");
    assert_eq!(std::fs::read(tmp.path().join("WTHOR.JOU")).unwrap(), std::fs::read(dir.join("WTHOR.JOU")).unwrap());
    let out = tabiya(&["verify", "--json", s(&subset)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(json(&out)["checked"]["games"], expected);

    // Each filter acts: a year the file does not hold, a tournament, the programs.
    let other = tmp.path().join("none.wtb");
    assert!(
        tabiya(&["convert", "-q", "--force", s(&dir.join("WTH_2004.wtb")), "-o", s(&other), "--years", "1990-2003"])
            .status
            .success()
    );
    assert_eq!(std::fs::read(&other).unwrap().len(), 16);
    let tournament = tournaments[usize::from(games[0].0)].clone();
    let in_tournament = games
        .iter()
        .filter(|g| tournaments[usize::from(g.0)].to_lowercase().contains(&tournament.to_lowercase()))
        .count();
    assert!(
        tabiya(&[
            "convert",
            "-q",
            "--force",
            s(&dir.join("WTH_2004.wtb")),
            "-o",
            s(&other),
            "--tournament",
            &tournament
        ])
        .status
        .success()
    );
    assert_eq!(std::fs::read(&other).unwrap().len(), 16 + 68 * in_tournament);
    let program = |i: u16| {
        let name = &players[usize::from(i)];
        name.ends_with(')') && name.contains(" (")
    };
    let humans = games.iter().filter(|g| !program(g.1) && !program(g.2)).count();
    assert!(humans < games.len(), "WTH_2004 has games of programs");
    assert!(
        tabiya(&["convert", "-q", "--force", s(&dir.join("WTH_2004.wtb")), "-o", s(&other), "--exclude-programs"])
            .status
            .success()
    );
    assert_eq!(std::fs::read(&other).unwrap().len(), 16 + 68 * humans);
    // Options that do not apply are refused.
    let out = tabiya(&["convert", s(&dir.join("WTHOR.JOU")), "-o", s(&tmp.path().join("x.JOU")), "--years", "2004"]);
    assert_eq!(out.status.code(), Some(2));
    let out = tabiya(&["convert", s(&dir.join("WTH_2004.wtb")), "-o", s(&other), "--theoretical", "solve"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn info_with_name_files_counts_the_names_it_resolves() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    let old = corpus_file("wthor/release-2022").unwrap();
    let wtb = dir.join("WTH_2025.wtb");
    let j = json(&tabiya(&["info", "--json", s(&wtb)]));
    let players = j["counts"]["players"].as_u64().unwrap();
    assert_eq!(j["counts"]["players_named"].as_u64(), Some(players), "the current names resolve every index");
    let j = json(&tabiya(&["info", "--json", "--names", s(&old), s(&wtb)]));
    assert!(j["counts"]["players_named"].as_u64().unwrap() < players, "the 2022 names are older than 2025's games");
}

#[test]
fn solitaires_copy_and_become_obf_positions() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let pzz = tmp.path().join("SOLITAIRES_12.pzz");
    let out = tabiya(&[
        "convert",
        "-q",
        "--force",
        s(&dir.join("WTH_1977.wtb")),
        s(&dir.join("WTH_1978.wtb")),
        "-o",
        s(&pzz),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&pzz).unwrap();
    let count = (bytes.len() - 16 - 256) / 36;
    assert!(count > 0);
    let copy = tmp.path().join("copy.pzz");
    assert!(tabiya(&["convert", "-q", "--force", s(&pzz), "-o", s(&copy)]).status.success());
    assert_eq!(std::fs::read(&copy).unwrap(), bytes);
    let obf = tmp.path().join("s.obf");
    assert!(tabiya(&["convert", "-q", "--force", s(&pzz), "-o", s(&obf)]).status.success());
    let text = std::fs::read_to_string(&obf).unwrap();
    assert_eq!(text.lines().count(), count);
    // The solver agrees with every stored solution (exit 1 on any disagreement).
    let out = tabiya(&["solve", "-q", s(&obf)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
}

/// A 10×10 game worked out by hand: the shortest 8×8 wipe-out (9 moves, found by search and
/// replayed on paper) turned by 180° to start with f5 and moved one square right and down,
/// where the 10×10 start sits. Black ends with 13 discs, White with none: Black's score with
/// the 87 empties is 100.
const WIPE_OUT_10: [&str; 9] = ["g6", "g7", "g8", "h6", "i5", "d6", "c6", "g5", "f4"];

fn wtd_file(games: &[(&[&str], u8)]) -> Vec<u8> {
    // Created 2026-02-16, N1, N2 0, year 2026, P1 10, P2 0, P3 22.
    let mut bytes = vec![20, 26, 2, 16];
    bytes.extend_from_slice(&(games.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&[0, 0, 0xea, 0x07, 10, 0, 22, 0]);
    for (moves, score) in games {
        bytes.extend_from_slice(&[0, 0, 0, 0, 0, 0, *score, *score]);
        let mut codes = [0u8; 96];
        for (code, name) in codes.iter_mut().zip(moves.iter()) {
            let column = name.as_bytes()[0] - b'a' + 1;
            let row: u8 = name[1..].parse().unwrap();
            *code = column + 12 * row; // the 10×10 code of specs/wthor.md section 7
        }
        bytes.extend_from_slice(&codes);
    }
    bytes
}

#[test]
fn ten_by_ten_games_are_replayed_and_scored() {
    let tmp = tempfile::tempdir().unwrap();
    let wtd = tmp.path().join("WTH_2026.wtd");
    std::fs::write(&wtd, wtd_file(&[(&WIPE_OUT_10, 100)])).unwrap();
    let out = tabiya(&["verify", "--json", s(&wtd)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let c = &json(&out)["checked"];
    assert_eq!((c["games"].as_u64(), c["early_end"].as_u64()), (Some(1), Some(1)));
    assert_eq!((c["theoretical_checked"].as_u64(), c["real_score_mismatches"].as_u64()), (Some(1), Some(0)));

    // A wrong score, an illegal move (White cannot play f4 first) and a truncated game.
    let bad = tmp.path().join("bad.wtd");
    std::fs::write(&bad, wtd_file(&[(&WIPE_OUT_10, 99), (&["g6", "f4"], 50), (&WIPE_OUT_10[..4], 50)])).unwrap();
    let out = tabiya(&["verify", "--json", s(&bad)]);
    assert_eq!(out.status.code(), Some(1));
    let j = json(&out);
    let codes: Vec<&str> = j["problems"].as_array().unwrap().iter().map(|p| p["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"wthor.real_score") && codes.contains(&"wthor.illegal_move"), "{codes:?}");
    assert!(codes.contains(&"wthor.truncated"), "{codes:?}");
    assert_eq!(j["checked"]["truncated"], 1);

    let copy = tmp.path().join("copy.wtd");
    assert!(tabiya(&["convert", "-q", "--force", s(&bad), "-o", s(&copy)]).status.success());
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&bad).unwrap());
    // The game filters act on .wtd copies too: the file holds 2026 alone.
    assert!(tabiya(&["convert", "-q", "--force", s(&bad), "-o", s(&copy), "--years", "2025"]).status.success());
    assert_eq!(std::fs::read(&copy).unwrap().len(), 16);
    assert!(tabiya(&["convert", "-q", "--force", s(&bad), "-o", s(&copy), "--years", "2026"]).status.success());
    assert_eq!(std::fs::read(&copy).unwrap().len(), 16 + 3 * 104);
}

#[test]
fn text_formats_verify_line_by_line() {
    let tmp = tempfile::tempdir().unwrap();
    let txt = tmp.path().join("games.txt");
    std::fs::write(&txt, "f5d6c3\nf5 z9\n").unwrap();
    let out = tabiya(&["verify", "--json", s(&txt)]);
    assert_eq!(out.status.code(), Some(1));
    let j = json(&out);
    assert_eq!(j["checked"]["games"], 1);
    assert_eq!(j["problems"][0]["code"], "transcript.syntax");
    assert_eq!(j["problems"][0]["location"]["unit"], "line");
    assert_eq!(j["problems"][0]["location"]["number"], 2);
    let Some(ffo) = corpus_file("ffo/fforum-1-19.obf") else { return };
    let out = tabiya(&["verify", "--json", s(&ffo)]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["checked"]["positions"], 19);
}

#[test]
fn text_games_convert_through_the_model_with_filters() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let t = |name: &str| -> PathBuf { tmp.path().join(name) };
    let wtb = dir.join("WTH_2004.wtb");
    for out in ["g.ggf", "w.txt", "w.obf"] {
        let extra: &[&str] = if out.ends_with(".obf") { &["--empties", "20"] } else { &[] };
        let run = tabiya(&[&["convert", "-q", s(&wtb), "-o", s(&t(out))], extra].concat());
        assert!(run.status.success(), "{out}: {}", String::from_utf8_lossy(&run.stderr));
    }
    let ggf = std::fs::read_to_string(t("g.ggf")).unwrap();
    // GGF to itself: every record as read, byte for byte.
    assert!(tabiya(&["convert", "-q", "--force", s(&t("g.ggf")), "-o", s(&t("copy.ggf"))]).status.success());
    assert!(std::fs::read_to_string(t("copy.ggf")).unwrap() == ggf);
    // GGF to transcripts and OBF gives what the Wthor file gives.
    assert!(tabiya(&["convert", "-q", "--force", s(&t("g.ggf")), "-o", s(&t("g.txt"))]).status.success());
    assert!(std::fs::read(t("g.txt")).unwrap() == std::fs::read(t("w.txt")).unwrap());
    assert!(
        tabiya(&["convert", "-q", "--force", s(&t("g.ggf")), "-o", s(&t("g.obf")), "--empties", "20"]).status.success()
    );
    assert!(std::fs::read(t("g.obf")).unwrap() == std::fs::read(t("w.obf")).unwrap());
    // Transcripts to GGF put the passes back: back to transcripts, the same lines.
    assert!(tabiya(&["convert", "-q", "--force", s(&t("w.txt")), "-o", s(&t("t.ggf"))]).status.success());
    assert!(tabiya(&["convert", "-q", "--force", s(&t("t.ggf")), "-o", s(&t("t.txt"))]).status.success());
    assert!(std::fs::read(t("t.txt")).unwrap() == std::fs::read(t("w.txt")).unwrap());
    let passes = std::fs::read_to_string(t("t.ggf")).unwrap().matches("[PA]").count();
    assert_eq!(passes, ggf.matches("[PA]").count());

    // The filters read the GGF tags; the expected counts come from the text itself.
    let first = ggf.lines().next().unwrap();
    let tag =
        |line: &str, key: &str| line.split(&format!("{key}[")).nth(1).unwrap().split(']').next().unwrap().to_owned();
    let player = tag(first, "PB");
    let expected = ggf.lines().filter(|l| tag(l, "PB").contains(&player) || tag(l, "PW").contains(&player)).count();
    let run = tabiya(&["convert", "-q", "--force", s(&t("g.ggf")), "-o", s(&t("p.jsonl")), "--player", &player]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let jsonl = std::fs::read_to_string(t("p.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), expected);
    let j: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!((j["year"].as_u64(), j["black"].as_str()), (Some(2004), Some(player.as_str())));
    let place = tag(first, "PC");
    let in_place = ggf.lines().filter(|l| tag(l, "PC").contains(&place)).count();
    assert!(
        tabiya(&["convert", "-q", "--force", s(&t("g.ggf")), "-o", s(&t("p.txt")), "--tournament", &place])
            .status
            .success()
    );
    assert_eq!(std::fs::read_to_string(t("p.txt")).unwrap().lines().count(), in_place);
    let program = |name: String| name.ends_with(')') && name.contains(" (");
    let humans = ggf.lines().filter(|l| !program(tag(l, "PB")) && !program(tag(l, "PW"))).count();
    assert!(
        tabiya(&["convert", "-q", "--force", s(&t("g.ggf")), "-o", s(&t("h.csv")), "--exclude-programs"])
            .status
            .success()
    );
    assert_eq!(std::fs::read_to_string(t("h.csv")).unwrap().lines().count(), 1 + humans, "header and rows");
    assert!(
        tabiya(&["convert", "-q", "--force", s(&t("g.ggf")), "-o", s(&t("y.txt")), "--years", "2005"]).status.success()
    );
    assert_eq!(std::fs::read(t("y.txt")).unwrap().len(), 0);
    // Transcripts name no one and give no year: the filters are refused, not ignored.
    let run = tabiya(&["convert", s(&t("w.txt")), "-o", s(&t("x.txt")), "--years", "2004"]);
    assert_eq!(run.status.code(), Some(2));
}
