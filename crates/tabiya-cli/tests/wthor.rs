//! `tabiya info | verify | convert` on Wthor files and Othello text.

use std::path::{Path, PathBuf};
use std::process::Command;

use tabiya_testdata::corpus_file;

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
