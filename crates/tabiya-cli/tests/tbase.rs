//! `tabiya info/verify/convert` on T-BASE sets made from the fixtures of tabiya-shogi.

use std::path::{Path, PathBuf};
use std::process::Command;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tabiya-shogi/tests/data").join(name)
}

/// A set `problems.dia` (+ `.tjn`) in a temporary directory.
fn set(dir: &Path, dia: &str, tjn: Option<&str>) -> String {
    std::fs::copy(fixture(dia), dir.join("problems.dia")).unwrap();
    if let Some(tjn) = tjn {
        std::fs::copy(fixture(tjn), dir.join("problems.tjn")).unwrap();
    }
    dir.join("problems.dia").to_str().unwrap().to_owned()
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn verify_accepts_the_seed_example_with_its_solution() {
    let dir = tempfile::tempdir().unwrap();
    let path = set(dir.path(), "example_3line.dia", Some("example.tjn"));
    let out = tabiya(&["verify", "--json", &path]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["format"], "tbase_diagrams");
    assert_eq!(v["checked"]["records"], 1);
    assert_eq!(v["checked"]["mates"], 1);
    assert_eq!(v["problems"].as_array().unwrap().len(), 0);
}

#[test]
fn verify_reports_the_seed_tjn_as_not_fitting_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let path = set(dir.path(), "example_3line.dia", Some("seed0003.tjn"));
    let out = tabiya(&["verify", "--json", &path]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["ok"], false);
    assert_eq!(v["checked"]["mates"], 0);
    let problems = v["problems"].as_array().unwrap();
    assert!(problems[0]["where"].as_str().unwrap().ends_with("problems.tjn@0x0 (record 1)"), "{problems:?}");
    assert_eq!(problems[0]["what"], "move 1 \"14龍\" (6d1d): the attacker's move does not give check");
}

#[test]
fn verify_names_the_offset_of_a_broken_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = set(dir.path(), "broken_letter.dia", None);
    let out = tabiya(&["verify", "--json", &path]);
    assert_eq!(out.status.code(), Some(1));
    let problem = &json(&out)["problems"][0];
    assert!(problem["where"].as_str().unwrap().ends_with("problems.dia@0x2d (record 1)"));
    assert!(problem["what"].as_str().unwrap().starts_with("expected a T-BASE piece letter"));
}

#[test]
fn info_counts_records_and_forms() {
    let dir = tempfile::tempdir().unwrap();
    let path = set(dir.path(), "example_4line.dia", Some("example.tjn"));
    let v = json(&tabiya(&["info", "--json", &path]));
    assert_eq!(v["counts"]["records"], 1);
    assert_eq!(v["counts"]["four_line_records"], 1);
    assert_eq!(v["counts"]["solutions"], 1);
    assert_eq!(v["header"]["first_number"], 3);
}

#[test]
fn dia_to_csa_and_back_keeps_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let path = set(dir.path(), "example_3line.dia", Some("example.tjn"));
    let csa = dir.path().join("problems.csa");
    let out = tabiya(&["convert", &path, "-o", csa.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read(&csa).unwrap();
    let text = String::from_utf8_lossy(&text);
    assert!(text.contains("P-00AL\r\n+\r\n+0073GI\r\n-7273KI\r\n"));
    assert!(text.ends_with("+6282RY\r\n%TSUMI\r\n"));
    let back = dir.path().join("back.dia");
    let out = tabiya(&["convert", csa.to_str().unwrap(), "-o", back.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (a, b) = (std::fs::read(&path).unwrap(), std::fs::read(&back).unwrap());
    assert_eq!(b.len(), 330);
    // Board, hand, number and author, and every field from 玉位置 to 使用駒種類 match; the tjn too.
    assert_eq!(a[..118], b[..118]);
    assert_eq!(a[157..174], b[157..174]);
    assert_eq!(std::fs::read(dir.path().join("back.tjn")).unwrap(), std::fs::read(fixture("example.tjn")).unwrap());
}

#[test]
fn dia_to_dia_is_byte_exact_and_sfen_lists_positions() {
    let dir = tempfile::tempdir().unwrap();
    let path = set(dir.path(), "example_3line.dia", Some("example.tjn"));
    let copy = dir.path().join("copy.dia");
    assert!(tabiya(&["convert", &path, "-o", copy.to_str().unwrap()]).status.success());
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&path).unwrap());
    assert_eq!(std::fs::read(dir.path().join("copy.tjn")).unwrap(), std::fs::read(fixture("example.tjn")).unwrap());
    let sfen = dir.path().join("p.sfen");
    assert!(tabiya(&["convert", &path, "-o", sfen.to_str().unwrap()]).status.success());
    assert_eq!(std::fs::read_to_string(&sfen).unwrap(), "9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1\n");
    let jsonl = dir.path().join("p.jsonl");
    assert!(tabiya(&["convert", &path, "-o", jsonl.to_str().unwrap()]).status.success());
    let line: serde_json::Value = serde_json::from_str(std::fs::read_to_string(&jsonl).unwrap().trim()).unwrap();
    assert_eq!(line["author"], "初代宗桂");
    assert_eq!(line["solution_usi"][16], "6b8b");
    assert_eq!(line["solution"], "73銀同金94桂同馬71銀92玉82金93玉94歩同角84角同金92金同玉62龍93玉82龍");
}
