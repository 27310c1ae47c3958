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
    assert!(problems[0]["where"].as_str().unwrap().ends_with("problems.tjn@0x0 (line 1)"), "{problems:?}");
    assert_eq!(problems[0]["code"], "tbase.not_check");
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

/// The example problem exported as `p.<ext>` into `dir`.
fn exported(dir: &Path, ext: &str, extra: &[&str]) -> PathBuf {
    let path = set(dir, "example_3line.dia", Some("example.tjn"));
    let out = dir.join(format!("p.{ext}"));
    // Callers export the same problem several times to compare encodings: replacing is asked for.
    let mut args = vec!["convert", &path, "-o", out.to_str().unwrap(), "--force"];
    args.extend_from_slice(extra);
    let run = tabiya(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    out
}

/// The README's own example: each input is read in its own format (the CSA used to be parsed
/// as KIF, the format of the first input).
#[test]
fn convert_reads_each_input_in_its_own_format() {
    let dir = tempfile::tempdir().unwrap();
    let inputs: Vec<String> =
        ["kif", "ki2", "csa"].iter().map(|ext| exported(dir.path(), ext, &[]).to_str().unwrap().to_owned()).collect();
    let mine = dir.path().join("mine.dia");
    let out = tabiya(&["convert", &inputs[0], &inputs[1], &inputs[2], "-o", mine.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dia = std::fs::read(&mine).unwrap();
    assert_eq!(dia.len(), 3 * 330);
    assert_eq!(dia[..330], dia[330..660]);
    assert_eq!(dia[..330], dia[660..]);
}

/// `--encoding` chooses the bytes of KIF/KI2/CSA output; standard output and a `.kif` file agree.
#[test]
fn encoding_option_chooses_the_output_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let sjis = std::fs::read(exported(dir.path(), "kif", &[])).unwrap();
    assert!(std::str::from_utf8(&sjis).is_err(), "Shift-JIS by default");
    let path = dir.path().join("problems.dia");
    let stdout = tabiya(&["convert", path.to_str().unwrap(), "-o", "-", "--to", "kif"]);
    assert_eq!(stdout.stdout, sjis, "-o - --to kif and -o p.kif agree");
    let utf8 = std::fs::read(exported(dir.path(), "kif", &["--encoding", "utf-8"])).unwrap();
    let text = std::str::from_utf8(&utf8).unwrap();
    assert!(text.starts_with("作品番号：0003\r\n作者：初代宗桂\r\n"), "{text}");
    let euc = std::fs::read(exported(dir.path(), "csa", &["--encoding", "euc-jp"])).unwrap();
    // 作品番号 in EUC-JP.
    assert!(euc.starts_with(b"V2.2\r\n'\xba\xee\xc9\xca\xc8\xd6\xb9\xe6"), "{:?}", &euc[..16]);
    // Read back: the EUC-JP is detected, the record is the same problem.
    let back = dir.path().join("back.dia");
    let csa = dir.path().join("p.csa");
    assert!(tabiya(&["convert", csa.to_str().unwrap(), "-o", back.to_str().unwrap()]).status.success());
    assert_eq!(std::fs::read(&back).unwrap()[..118], std::fs::read(&path).unwrap()[..118]);
    let sfen = dir.path().join("p.sfen");
    let refused = tabiya(&["convert", path.to_str().unwrap(), "-o", sfen.to_str().unwrap(), "--encoding", "utf-8"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--encoding"));
}

/// `verify` of a KIF: its moves replayed; an illegal move is an error at its line.
#[test]
fn verify_checks_a_kif_record() {
    let dir = tempfile::tempdir().unwrap();
    let kif = exported(dir.path(), "kifu", &[]);
    let out = tabiya(&["verify", "--json", kif.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(json(&out)["checked"]["moves"], 17);
    let text = std::fs::read_to_string(&kif).unwrap().replace("同　金(72)", "同　金(71)");
    let line = text.lines().position(|l| l.contains("同　金(71)")).unwrap() + 1;
    std::fs::write(&kif, text).unwrap();
    let out = tabiya(&["verify", "--json", kif.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let problem = &json(&out)["problems"][0];
    assert_eq!(problem["code"], "kif.illegal_move");
    assert_eq!(problem["location"]["unit"], "line");
    assert_eq!(problem["location"]["number"], line);
}

#[test]
fn a_number_given_twice_gives_two_kif_files_and_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    // The seed example in both of its forms: two records with the same 作品番号.
    let two =
        [std::fs::read(fixture("example_3line.dia")).unwrap(), std::fs::read(fixture("example_4line.dia")).unwrap()];
    let path = dir.path().join("twice.dia");
    std::fs::write(&path, two.concat()).unwrap();
    let kif = dir.path().join("out.kif");
    let out = tabiya(&["convert", path.to_str().unwrap(), "-o", kif.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut written: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".kif"))
        .collect();
    written.sort();
    assert_eq!(written.len(), 2, "{written:?}");
    assert_eq!(written[1], written[0].replace(".kif", "_2.kif"), "{written:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("tbase.number_repeated") || stderr.contains("again"), "{stderr}");
}
