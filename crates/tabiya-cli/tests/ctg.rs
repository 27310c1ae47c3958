//! `tabiya` on the CTG books of the corpus.

use std::process::Command;

use tabiya_testdata::corpus_file;

fn tabiya(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabiya")).args(args).output().expect("tabiya runs")
}

fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn probe_powerplay17() {
    let Some(path) = corpus_file("ctg/PowerPlay17-Sicilienne/PowerPlay17-Sicilienne.ctg") else { return };
    let book = path.to_str().unwrap();
    let start = json(&tabiya(&["probe", book, "--moves", "", "--json"]));
    assert_eq!(start["format"], "ctg");
    assert_eq!(start["found"], true);
    assert_eq!((start["position"]["games"].as_u64(), start["position"]["wins"].as_u64()), (Some(499), Some(176)));
    assert_eq!(start["position"]["own_ratings"]["average"], 2244);
    assert_eq!(start["moves"][0]["uci"], "e2e4");
    assert_eq!(start["moves"][0]["weight"], 462);
    let e4 = json(&tabiya(&["probe", book, "--moves", "1. e4", "--json", "--weights", "raw"]));
    assert_eq!(e4["position"]["flipped"], true);
    assert_eq!((e4["moves"][0]["san"].as_str(), e4["moves"][0]["weight"].as_u64()), (Some("c5"), Some(498)));
    // The mover's view: Black's wins after 1...c5 are the child's losses.
    assert_eq!(e4["moves"][0]["wins"], e4["moves"][0]["child"]["wins"]);
    let fen = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let c5 = json(&tabiya(&["probe", book, "--fen", fen, "--json"]));
    assert_eq!((c5["moves"][0]["uci"].as_str(), c5["moves"][0]["weight"].as_u64()), (Some("b1c3"), Some(421)));
    let absent = json(&tabiya(&["probe", book, "--moves", "d4", "--json"]));
    assert_eq!(absent["found"], false);
    assert_eq!(tabiya(&["probe", book, "--moves", "e5"]).status.code(), Some(2));
}

#[test]
fn info_verify_convert_powerplay17() {
    let Some(path) = corpus_file("ctg/PowerPlay17-Sicilienne/PowerPlay17-Sicilienne.ctg") else { return };
    let book = path.to_str().unwrap();
    let info = json(&tabiya(&["info", book, "--json"]));
    assert_eq!((info["counts"]["positions"].as_u64(), info["counts"]["moves"].as_u64()), (Some(13_305), Some(13_406)));
    assert_eq!((info["header"]["ctb_lower"].as_u64(), info["header"]["ctb_upper"].as_u64()), (Some(248), Some(384)));
    let verify = json(&tabiya(&["verify", book, "--json"]));
    assert_eq!(verify["ok"], true);
    assert_eq!(verify["checked"]["found_exact"], 13_305);

    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("book.jsonl");
    let out = tabiya(&["convert", book, "-o", jsonl.to_str().unwrap(), "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 13_305);
    let moves: usize = lines.iter().map(|l| l["moves"].as_array().unwrap().len()).sum();
    assert_eq!(moves, 13_406);
    assert!(lines.iter().all(|l| l["moves"].as_array().unwrap().iter().all(|m| m["uci"].is_string())));

    let bin = dir.path().join("book.bin");
    let out = tabiya(&["convert", book, "-o", bin.to_str().unwrap(), "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&bin).unwrap();
    assert_eq!(bytes.len() % 16, 0);
    // The start position's entry: Polyglot key 463b96181691fc9c, e2e4 (0x031c), weight 462.
    let start = bytes.chunks(16).find(|e| e[..8] == 0x463b_9618_1691_fc9c_u64.to_be_bytes()).unwrap();
    assert_eq!(&start[8..12], &[0x03, 0x1c, 0x01, 0xce]);

    // CTG → Kvetka: the same positions and moves, W/D/L of the side to move.
    let kob = dir.path().join("book.kob");
    let out = tabiya(&["convert", book, "-o", kob.to_str().unwrap(), "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let kob_0 = dir.path().join("book_0.kob");
    let info = json(&tabiya(&["verify", kob_0.to_str().unwrap(), "--json"]));
    assert_eq!(info["ok"], true);
    assert_eq!(
        (info["checked"]["positions"].as_u64(), info["checked"]["moves"].as_u64()),
        (Some(13_305), Some(13_406))
    );
    let probe = json(&tabiya(&["probe", kob_0.to_str().unwrap(), "--moves", "e4", "--json"]));
    assert_eq!((probe["position"]["wins"].as_u64(), probe["position"]["losses"].as_u64()), (Some(195), Some(173)));
    assert_eq!(probe["moves"][0]["uci"], "c7c5");
}

#[test]
fn damaged_books() {
    let Some(path) = corpus_file("ctg/PowerPlay17-Sicilienne/PowerPlay17-Sicilienne.ctg") else { return };
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("book.ctg");
    let bytes = std::fs::read(&path).unwrap();
    // Without .cto/.ctb: a warning, the same answer.
    std::fs::write(&copy, &bytes).unwrap();
    let out = tabiya(&["probe", copy.to_str().unwrap(), "--moves", "e4 c5", "--json"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("walking every page"));
    assert_eq!(json(&out)["moves"][0]["uci"], "b1c3");
    // Truncated inside the start position's page: exit 3, the message names page and offset.
    std::fs::copy(path.with_extension("cto"), copy.with_extension("cto")).unwrap();
    std::fs::copy(path.with_extension("ctb"), copy.with_extension("ctb")).unwrap();
    std::fs::write(&copy, &bytes[..238 * 4096 + 3000]).unwrap();
    let out = tabiya(&["probe", copy.to_str().unwrap(), "--moves", "", "--quiet"]);
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("data page 237") && stderr.contains("book.ctg@0x"), "{stderr}");
    let out = tabiya(&["verify", copy.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems = report["problems"].as_array().unwrap();
    let truncated = problems.iter().find(|p| p["severity"] == "error").unwrap();
    let place = truncated["where"].as_str().unwrap();
    assert!(place.contains("book.ctg@0x") && place.contains("(page 237)"), "{place}");
    assert_eq!(truncated["code"], "ctg.read");
    assert_eq!(
        (truncated["location"]["unit"].as_str(), truncated["location"]["number"].as_u64()),
        (Some("page"), Some(237))
    );
}

/// Every book → book conversion goes through the book model with one weight rule: CTG →
/// Kvetka → Polyglot writes the very bytes of CTG → Polyglot with raw weights (Kvetka keeps
/// W/D/L, not CTG's annotations and colours), and a Polyglot book read back into Kvetka
/// holds the positions of the Kvetka book that the walk from the start reaches.
#[test]
fn powerplay17_through_kvetka_is_powerplay17_with_raw_weights() {
    let Some(path) = corpus_file("ctg/PowerPlay17-Sicilienne/PowerPlay17-Sicilienne.ctg") else { return };
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let run = |args: &[&str]| {
        let done = tabiya(args);
        assert!(done.status.success(), "{args:?}: {}", String::from_utf8_lossy(&done.stderr));
    };
    let book = path.to_str().unwrap();
    run(&["-q", "convert", book, "-o", &out("direct.bin"), "--ctg-weights", "raw"]);
    run(&["-q", "convert", book, "-o", &out("pp.kob")]);
    run(&["-q", "convert", &out("pp_0.kob"), "-o", &out("through.bin")]);
    let (direct, through) = (std::fs::read(out("direct.bin")).unwrap(), std::fs::read(out("through.bin")).unwrap());
    // 13,124 entries: every orientation of every record with a move of positive weight.
    assert_eq!(direct.len(), 209_984);
    assert!(direct == through, "CTG → Polyglot and CTG → Kvetka → Polyglot differ");
    // Played (the default), CTG's marks weigh in: other weights, another book.
    run(&["-q", "convert", book, "-o", &out("play.bin")]);
    assert_ne!(std::fs::read(out("play.bin")).unwrap(), direct);

    // Back from Polyglot: the start position has the CTG's moves with a positive weight.
    run(&["-q", "convert", &out("direct.bin"), "-o", &out("back.kob")]);
    let start = json(&tabiya(&["probe", &out("back_0.kob"), "--moves", "", "--json"]));
    let sans: Vec<&str> = start["moves"].as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap()).collect();
    let ctg = json(&tabiya(&["probe", book, "--moves", "", "--json", "--weights", "raw"]));
    let mut weighed: Vec<&str> = ctg["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["weight"].as_u64() > Some(0))
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    let mut sans = sans;
    sans.sort_unstable();
    weighed.sort_unstable();
    assert_eq!(sans, weighed);
}
