//! SCID → PGN: tabiya's export with SCID's layout against SCID 5.0.2's own exports.

use tabiya_chess::pgn::{WriterOptions, write_game};
use tabiya_chess::scid::Database;
use tabiya_io::corpus::corpus_file;

fn export(relative: &str) -> Option<Vec<u8>> {
    let db = Database::open(corpus_file(relative)?).unwrap();
    let mut out = Vec::new();
    let options = WriterOptions::scid();
    for game in db.games() {
        write_game(&game.unwrap(), &options, &mut out).unwrap();
    }
    Some(out)
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let from = at.saturating_sub(200);
    format!(
        "at byte {at}:\n--- tabiya\n{}\n--- SCID\n{}",
        String::from_utf8_lossy(&a[from..(at + 100).min(a.len())]),
        String::from_utf8_lossy(&b[from..(at + 100).min(b.len())])
    )
}

#[test]
fn export_is_byte_identical_to_scid_502() {
    let mut identical = 0;
    for (db, expected) in [
        ("scid/generated-scid502/five_4.si4", "scid/generated-scid502/five_4.export.pgn"),
        ("scid/generated-scid502/utf8_4.si4", "scid/generated-scid502/utf8_4.export.pgn"),
        ("scid/generated-scid502/latin1_4.si4", "scid/generated-scid502/latin1_4.export.pgn"),
        ("scid/generated-scid502/fenstd_4.si4", "scid/generated-scid502/fenstd_4.export.pgn"),
        ("scid/generated-scid502/fischer_4.si4", "scid/generated-scid502/fischer_4.export.pgn"),
        ("scid5/five_5.si5", "scid5/five_5.export.pgn"),
        ("scid5/utf8_5.si5", "scid5/utf8_5.export.pgn"),
        ("scid5/latin1_5.si5", "scid5/latin1_5.export.pgn"),
        ("scid5/fischer_5.si5", "scid5/fischer_5.export.pgn"),
    ] {
        let Some(ours) = export(db) else { return };
        let theirs = std::fs::read(corpus_file(expected).unwrap()).unwrap();
        assert!(ours == theirs, "{db}: {}", first_difference(&ours, &theirs));
        identical += 1;
    }
    assert_eq!(identical, 9);
}

/// Scid vs PC 4.26 `tcscid` (`sc_game pgn`) writes the same layout without line wrapping.
#[test]
fn single_games_match_scid_vs_pc_exports() {
    let Some(dir) = corpus_file("scid/scidvspc-tcscid-pgn") else { return };
    let options = WriterOptions { line_width: 0, ..WriterOptions::scid() };
    let mut matched = 0;
    for file in std::fs::read_dir(&dir).unwrap() {
        let path = file.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let (base, number) = name.split_once("-game-").unwrap();
        let number: usize = number.parse().unwrap();
        let db = match base {
            "five" => "scid/scidtopgn-five/five.si4".to_owned(),
            "one" => "scid/scidtopgn-one/one.si4".to_owned(),
            other => format!("scid/scidvspc-bases/{other}.si4"),
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let begin = format!("### GAME {number} ###\n");
        let end = format!("### END GAME {number} ###\n");
        let expected = &text[text.find(&begin).unwrap() + begin.len()..text.find(&end).unwrap()];
        let game = Database::open(corpus_file(&db).unwrap()).unwrap().game(number - 1).unwrap();
        let mut ours = Vec::new();
        write_game(&game, &options, &mut ours).unwrap();
        assert_eq!(String::from_utf8(ours).unwrap(), expected, "{name}");
        matched += 1;
    }
    assert_eq!(matched, 22);
}
