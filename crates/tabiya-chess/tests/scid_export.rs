//! SCID → PGN: tabiya's export with SCID's layout against SCID 5.0.2's own exports.

use tabiya_chess::pgn::{Layout, Notation, WriterOptions, write_game};
use tabiya_chess::scid::Database;
use tabiya_chess::scid::export::export_pgn;
use tabiya_testdata::corpus_file;

/// The database exported as the `convert` command does.
fn export(relative: &str) -> Option<Vec<u8>> {
    let db = Database::open(corpus_file(relative)?).unwrap();
    let mut out = Vec::new();
    let summary = export_pgn(&db, &WriterOptions::scid(), &mut out, |_| {}).unwrap();
    assert!(summary.failed.is_empty() && summary.exported == db.len() as u64, "{relative}: {summary:?}");
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

/// The export takes each move's SAN from the decoder instead of playing the game again: for
/// every SCID database of the corpus and every layout option, it writes what the writer writes
/// when it plays every game itself.
#[test]
fn export_with_the_decoders_san_equals_playing_each_game() {
    let Some(corpus) = corpus_file("scid") else { return };
    let mut bases: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|dir| dir.is_dir())
        .chain([corpus.with_file_name("scid5")])
        .flat_map(|dir| std::fs::read_dir(dir).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|file| file.extension().is_some_and(|e| e == "si3" || e == "si4" || e == "si5"))
        .collect();
    bases.sort();
    let scid = WriterOptions::scid();
    let layouts = [
        scid.clone(),
        WriterOptions { line_width: 0, ..scid.clone() },
        WriterOptions { comments: false, nags: false, ..scid.clone() },
        WriterOptions { variations: false, ..scid.clone() },
        WriterOptions { notation: Notation::Long, ..scid.clone() },
        WriterOptions { pad_comments: true, ..scid.clone() },
        WriterOptions { layout: Layout::Standard, ..WriterOptions::default() },
    ];
    let (mut games, mut given) = (0, 0);
    for base in &bases {
        let db = Database::open(base).unwrap();
        for options in &layouts {
            let mut played = Vec::new();
            for game in db.games().flatten() {
                write_game(&game, options, &mut played).unwrap();
            }
            let mut exported = Vec::new();
            export_pgn(&db, options, &mut exported, |_| {}).unwrap();
            assert!(exported == played, "{}: {}", base.display(), first_difference(&exported, &played));
        }
        games += db.len();
        given +=
            (0..db.len()).filter(|&n| db.game_with_san(n, &mut Vec::new()).is_ok_and(|(_, san)| san.is_some())).count();
    }
    // 19 databases, 23,052 games; the 3,014 not from a FEN take the decoder's SAN.
    assert_eq!((bases.len(), games, given), (19, 23_052, 3_014));
}
