//! PGN → SCID: tabiya's databases against the files SCID 5.0.2 wrote from the same PGN.

use std::path::Path;

use tabiya_chess::pgn::PgnReader;
use tabiya_chess::scid::write::write_database;
use tabiya_chess::scid::{Database, Version};
use tabiya_testdata::corpus_file;

/// (source PGN, SCID 4 database stem, SCID 5 database stem or None).
const CASES: [(&str, &str, Option<&str>); 5] = [
    ("scid/scidtopgn-five/five.pgn", "scid/generated-scid502/five_4", Some("scid5/five_5")),
    ("scid/scid-gtest/res_gameUTF8.pgn", "scid/generated-scid502/utf8_4", Some("scid5/utf8_5")),
    ("scid/scid-gtest/res_gameLatin1.pgn", "scid/generated-scid502/latin1_4", Some("scid5/latin1_5")),
    ("scid/generated-scid502/source-pgn/fenstd.pgn", "scid/generated-scid502/fenstd_4", None),
    ("scid/generated-scid502/source-pgn/fischer.pgn", "scid/generated-scid502/fischer_4", Some("scid5/fischer_5")),
];

fn import(pgn: &Path, out: &Path, version: Version) {
    let file = std::fs::File::open(pgn).unwrap();
    let games = PgnReader::new(std::io::BufReader::new(file)).map(|g| g.unwrap().game);
    let summary = write_database(out, version, games).unwrap();
    assert!(summary.diagnostics.is_empty(), "{:?}", summary.diagnostics);
}

fn same_file(ours: &Path, theirs: &Path) -> Result<(), String> {
    let a = std::fs::read(ours).unwrap();
    let b = std::fs::read(theirs).unwrap();
    if a == b {
        return Ok(());
    }
    let at = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    Err(format!("{} differs from SCID's at byte {at} (sizes {} / {})", ours.display(), a.len(), b.len()))
}

/// Game records must be equal at the same offsets; bytes outside records (SCID's block
/// padding is garbage, ours zeros) are not compared.
fn same_records(ours: &Path, theirs: &Path) -> Result<(), String> {
    let a = Database::open(ours).unwrap();
    let b = Database::open(theirs).unwrap();
    for n in 0..b.len() {
        if a.raw_record(n).unwrap() != b.raw_record(n).unwrap() {
            return Err(format!("{}: game {} record differs", ours.display(), n + 1));
        }
    }
    Ok(())
}

#[test]
fn pgn_import_is_byte_identical_to_scid_502() {
    let dir = tempfile::tempdir().unwrap();
    let mut identical_files = 0;
    let mut failures = Vec::new();
    for (pgn, scid4, scid5) in CASES {
        let Some(pgn) = corpus_file(pgn) else { return };
        for (stem, version) in [(Some(scid4), Version::Scid4), (scid5, Version::Scid5)] {
            let Some(stem) = stem else { continue };
            let theirs = corpus_file(&format!("{stem}.{}", version.extensions()[0])).unwrap();
            let ours = dir.path().join(theirs.file_name().unwrap());
            import(&pgn, &ours, version);
            let [si, sg, sn] = version.extensions();
            for (ext, check) in
                [(si, same_file as fn(&Path, &Path) -> Result<(), String>), (sn, same_file), (sg, same_records)]
            {
                match check(&ours.with_extension(ext), &theirs.with_extension(ext)) {
                    Ok(()) => identical_files += 1,
                    Err(e) => failures.push(e),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{identical_files} identical; {failures:#?}");
    assert_eq!(identical_files, 27);
}

/// Converting between versions gives SCID's own files: SCID 4 → 5 and 5 → 4 for every
/// generated database.
#[test]
fn version_conversion_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let mut identical = 0;
    for (scid4, scid5) in [
        ("scid/generated-scid502/five_4.si4", "scid5/five_5.si5"),
        ("scid/generated-scid502/utf8_4.si4", "scid5/utf8_5.si5"),
        ("scid/generated-scid502/latin1_4.si4", "scid5/latin1_5.si5"),
        ("scid/generated-scid502/fischer_4.si4", "scid5/fischer_5.si5"),
    ] {
        let Some(p4) = corpus_file(scid4) else { return };
        let p5 = corpus_file(scid5).unwrap();
        for (from, to, version) in [(&p4, &p5, Version::Scid5), (&p5, &p4, Version::Scid4)] {
            let out = dir.path().join(to.file_name().unwrap());
            let db = Database::open(from).unwrap();
            let summary = write_database(&out, version, db.games().map(Result::unwrap)).unwrap();
            assert_eq!(summary.total as usize, db.len());
            for ext in version.extensions() {
                same_file(&out.with_extension(ext), &to.with_extension(ext)).unwrap();
                identical += 1;
            }
        }
    }
    assert_eq!(identical, 24);
}

/// Games SCID cannot store are skipped with a reason and the import goes on (SCID would abort).
#[test]
fn unstorable_games_are_skipped_and_counted() {
    let pgn = format!(
        "[Event \"a\"]\n[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n9. g3 *\n\n\
         [Event \"b\"]\n\n1. e4 {{{}}} *\n\n\
         [Event \"c\"]\n\n1. d4 d5 *\n",
        "x".repeat(140_000)
    );
    let games: Vec<_> = PgnReader::new(pgn.as_bytes()).map(|g| g.unwrap().game).collect();
    assert_eq!(games.len(), 3);
    let dir = tempfile::tempdir().unwrap();
    let summary = write_database(&dir.path().join("s.si4"), Version::Scid4, games.clone()).unwrap();
    assert_eq!(summary.written, 1);
    let skipped = &summary.diagnostics;
    assert_eq!(skipped.iter().map(|d| d.location.number).collect::<Vec<_>>(), [Some(1), Some(2)]);
    assert!(skipped.iter().all(|d| d.code == "scid.unstorable_game"));
    assert!(skipped[0].message.contains("Chess960"), "{skipped:?}");
    assert!(skipped[1].message.contains("128 KiB"), "{skipped:?}");
    // SCID 5 stores the Chess960 game.
    let summary = write_database(&dir.path().join("s.si5"), Version::Scid5, games).unwrap();
    assert_eq!(summary.written, 2);
    let db = Database::open(dir.path().join("s.si5")).unwrap();
    assert!(db.entries[0].chess960());
    let game = db.game(0).unwrap();
    assert_eq!(game.tag("Variant").map(|t| t.as_bytes()), Some("Chess960".as_bytes()));
    assert_eq!(game.ply_count(), 1);
}

// The corpus's 31,990-game medium file through the whole import (parallel reading and
// encoding, storing in order) is in tests/legacy_bytes.rs: its .si4, .sn4, records and export
// are SCID 5.0.2's byte for byte.
