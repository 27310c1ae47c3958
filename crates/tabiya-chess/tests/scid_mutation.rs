//! Damaged databases: every corpus SCID file truncated at many points and with byte flips
//! opens, decodes and verifies to results, errors or warnings — never a panic or a hang.

use std::path::Path;

use tabiya_chess::pgn::WriterOptions;
use tabiya_chess::pgn::write::{push_game, push_game_with_san};
use tabiya_chess::scid::decode::{decode_record, decode_record_with_san};
use tabiya_chess::scid::verify::verify;
use tabiya_chess::scid::{Database, Version};
use tabiya_testdata::{Xorshift, corpus_file};

const DATABASES: [&str; 5] = [
    "scid/scidtopgn-five/five.si4",
    "scid5/five_5.si5",
    "scid/scidvspc-bases/endings.si4",
    "scid/scidvspc-bases-si3/endings.si3",
    "scid/generated-scid502/utf8_4.si4",
];

/// Opens and fully checks a database; any outcome but a panic is fine.
fn exercise(path: &Path) {
    if let Ok(db) = Database::open(path) {
        let _ = verify(&db, path);
        for n in 0..db.len() {
            // The export's path (SAN from the decoder) decodes the same game or fails the same
            // way, and lays it out as the writer does when it plays the game itself.
            match (db.game(n), db.game_with_san(n, &mut Vec::new())) {
                (Ok(game), Ok((same, san))) => {
                    assert_eq!(game, same);
                    let (mut played, mut given) = (Vec::new(), Vec::new());
                    push_game(&game, &WriterOptions::scid(), &mut played);
                    push_game_with_san(&game, san.as_deref().unwrap_or_default(), &WriterOptions::scid(), &mut given);
                    assert!(played == given, "game {n}");
                }
                (Err(e), Err(same)) => assert_eq!(e.to_string(), same.to_string()),
                (a, b) => panic!("game {n}: {a:?} against {b:?}"),
            }
        }
    }
}

#[test]
fn truncated_and_flipped_files_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Xorshift::new(0x5C1D_2026);
    let mut cases = 0;
    for relative in DATABASES {
        let Some(index) = corpus_file(relative) else { return };
        let version = Version::from_extension(index.extension().unwrap().to_str().unwrap()).unwrap();
        let originals: Vec<Vec<u8>> =
            version.extensions().iter().map(|e| std::fs::read(index.with_extension(e)).unwrap()).collect();
        let target = dir.path().join(format!("m.{}", version.extensions()[0]));
        for damaged in 0..3 {
            for trial in 0..40 {
                let mut files = originals.clone();
                let bytes = &mut files[damaged];
                if trial % 2 == 0 {
                    let cut = rng.below(bytes.len() + 1);
                    bytes.truncate(cut);
                } else {
                    for _ in 0..1 + rng.below(8) {
                        if !bytes.is_empty() {
                            let at = rng.below(bytes.len());
                            bytes[at] ^= 1 << rng.below(8);
                        }
                    }
                }
                for (ext, data) in version.extensions().iter().zip(&files) {
                    std::fs::write(target.with_extension(ext), data).unwrap();
                }
                exercise(&target);
                cases += 1;
            }
        }
    }
    assert_eq!(cases, DATABASES.len() * 3 * 40);
}

#[test]
fn random_records_never_panic() {
    let mut rng = Xorshift::new(42);
    for len in 0..2000 {
        let data: Vec<u8> = (0..len % 300).map(|_| rng.below(256) as u8).collect();
        let record = decode_record(&data, 0, len % 2 == 0, &mut Vec::new());
        let with_san = decode_record_with_san(&data, 0, len % 2 == 0, &mut Vec::new());
        assert_eq!(format!("{record:?}"), format!("{:?}", with_san.map(|(record, _)| record)));
    }
    // Deep nesting: a move then a variation start, over and over.
    let mut deep = vec![0u8, 0];
    for _ in 0..20_000 {
        deep.extend_from_slice(&[0xCF, 13]);
    }
    assert!(decode_record(&deep, 0, false, &mut Vec::new()).is_err());
}
