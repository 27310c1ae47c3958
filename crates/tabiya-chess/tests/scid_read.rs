//! Reading every corpus SCID database: counts, decoded moves and derived fields.

use tabiya_chess::scid::derived::{counts, main_line};
use tabiya_chess::scid::fields::encode_count;
use tabiya_chess::scid::{Database, NameType};
use tabiya_testdata::corpus_file;

/// Opens a corpus database, decodes every game, and returns (games, FEN games, derived-field
/// mismatches in standard-start games, derived-field mismatches in FEN games, warnings).
fn decode_all(relative: &str) -> Option<(Database, usize, usize, usize, usize)> {
    let path = corpus_file(relative)?;
    let db = Database::open(&path).unwrap();
    let (mut fen_games, mut std_mismatch, mut fen_mismatch, mut warnings) = (0, 0, 0, Vec::new());
    for n in 0..db.len() {
        let record = db.record(n, &mut warnings).unwrap_or_else(|e| panic!("{relative} game {}: {e}", n + 1));
        let entry = db.entries[n];
        let game = db.assemble(&entry, record);
        let start = game.start_position().unwrap();
        let info = main_line(&start, game.start.is_some(), &game.moves.nodes);
        let c = counts(&game.moves);
        let ok = info.plies == usize::from(entry.plies)
            && info.material == entry.material
            && info.stored_line == entry.stored_line
            && info.home_pawn_count == entry.home_pawn_count
            && info.home_pawns == entry.home_pawns
            && u32::from(info.promotion) << 1 | u32::from(info.underpromotion) << 2 == entry.flags & 6
            && encode_count(c.variations) == entry.variation_code()
            && encode_count(c.comments) == entry.comment_code()
            && encode_count(c.nags) == entry.nag_code();
        if game.start.is_some() {
            fen_games += 1;
            fen_mismatch += usize::from(!ok);
        } else {
            if !ok {
                eprintln!("{relative} game {}: {info:?} {c:?} vs {entry:?}", n + 1);
            }
            std_mismatch += usize::from(!ok);
        }
    }
    let warning_count = warnings.len();
    eprintln!(
        "{relative}: {} games, {fen_games} FEN, {fen_mismatch} stale FEN fields, {warning_count} warnings",
        db.len()
    );
    Some((db, fen_games, std_mismatch, fen_mismatch, warning_count))
}

#[test]
fn gtest_database_decodes_and_every_derived_field_matches() {
    let Some((db, fen, mismatches, _, _)) = decode_all("scid/scid-gtest/res_database.si4") else { return };
    assert_eq!(db.len(), 1339);
    assert_eq!(fen, 0);
    assert_eq!(mismatches, 0);
    assert_eq!(db.header.auto_load, 5);
}

#[test]
fn scid_vs_pc_bases_decode_with_stale_fields_only_in_fen_games() {
    for (name, games, stale) in
        [("endings", 67, 54), ("matein1", 1212, 3), ("matein2", 15623, 15345), ("tactics", 928, 1)]
    {
        let Some((db, fen, std_mismatch, fen_mismatch, _)) = decode_all(&format!("scid/scidvspc-bases/{name}.si4"))
        else {
            return;
        };
        assert_eq!(db.len(), games, "{name}");
        assert_eq!(std_mismatch, 0, "{name}");
        assert!(fen > 0, "{name}");
        assert_eq!(fen_mismatch, stale, "{name}");
    }
}

#[test]
fn five_names_and_first_game() {
    let Some(path) = corpus_file("scid/scidtopgn-five/five.si4") else { return };
    let db = Database::open(path).unwrap();
    assert_eq!(db.len(), 5);
    assert_eq!(db.header.description, b"Test");
    assert_eq!(db.header.auto_load, 2);
    assert_eq!(
        [NameType::Player, NameType::Event, NameType::Site, NameType::Round].map(|k| db.names.len(k)),
        [10, 3, 3, 5]
    );
    let game = db.game(0).unwrap();
    assert_eq!(game.tag("White").map(|t| t.as_bytes()), Some("Hossain, Enam".as_bytes()));
    assert_eq!(game.tag("ECO").map(|t| t.as_bytes()), Some("B36f".as_bytes()));
    assert_eq!(
        game.tag("Variation").map(|t| t.as_bytes()),
        Some("accelerated fianchetto, Gurgenidze variation".as_bytes())
    );
    assert_eq!(game.ply_count(), 37);
}

#[test]
fn generated_and_scid5_databases_decode_identically() {
    for name in ["five", "utf8", "latin1", "fischer"] {
        let Some((db4, _, m4, _, w4)) = decode_all(&format!("scid/generated-scid502/{name}_4.si4")) else { return };
        let (db5, _, m5, _, w5) = decode_all(&format!("scid5/{name}_5.si5")).unwrap();
        assert_eq!((m4, m5, w4, w5), (0, 0, 0, 0), "{name}");
        assert_eq!(db4.len(), db5.len());
        for n in 0..db4.len() {
            assert_eq!(db4.game(n).unwrap(), db5.game(n).unwrap(), "{name} game {}", n + 1);
        }
    }
    let Some((db, _, _, _, _)) = decode_all("scid/generated-scid502/fischer_4.si4") else { return };
    assert_eq!(db.len(), 827);
}

#[test]
fn si3_copies_match_the_si4_bases() {
    for name in ["endings", "matein1", "tactics"] {
        let Some(p3) = corpus_file(&format!("scid/scidvspc-bases-si3/{name}.si3")) else { return };
        let db3 = Database::open(p3).unwrap();
        let db4 = Database::open(corpus_file(&format!("scid/scidvspc-bases/{name}.si4")).unwrap()).unwrap();
        assert_eq!(db3.len(), db4.len(), "{name}");
        for n in 0..db3.len() {
            assert_eq!(db3.game(n).unwrap(), db4.game(n).unwrap(), "{name} game {}", n + 1);
        }
    }
}
