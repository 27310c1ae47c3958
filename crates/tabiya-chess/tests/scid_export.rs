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
