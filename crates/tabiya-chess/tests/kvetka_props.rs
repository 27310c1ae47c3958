//! Property tests of kvetka.md 14.4: random legal games.

use proptest::prelude::*;
use shakmaty::{Chess, Position};
use tabiya_chess::boardcode::Normalized;
use tabiya_chess::kvetka::key::{self, KEY_BITS};
use tabiya_chess::kvetka::moves::{decode_move, encode_move};
use tabiya_chess::kvetka::{Book, Header, build::Builder};

/// The positions of a random legal game: each choice picks one of the legal moves.
fn positions(choices: &[u16]) -> Vec<Chess> {
    let mut pos = Chess::default();
    let mut out = vec![pos.clone()];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[usize::from(c) % moves.len()]);
        out.push(pos.clone());
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn keys_and_moves_round_trip(choices in proptest::collection::vec(any::<u16>(), 0..160)) {
        for pos in positions(&choices) {
            let Ok((key, norm)) = key::encode(&pos) else { continue };
            // key → position → key is the identity.
            let back = key::check(&key).unwrap();
            prop_assert_eq!(key::encode(&back).unwrap().0, key);
            // Every encodable move decodes to itself.
            for mv in pos.legal_moves() {
                if let Some(code) = encode_move(&norm, &mv) {
                    prop_assert_eq!(decode_move(&norm, &pos, code), Some(mv));
                }
            }
            // A too-long position is rejected with its length, never truncated.
            let mut n = Normalized::new(&pos);
            n.ep_file = None;
            if let Err(bits) = key::key_of(&n) {
                prop_assert!(bits > KEY_BITS);
            }
        }
    }

    #[test]
    fn random_books_read_back_identically(games in proptest::collection::vec(proptest::collection::vec(any::<u16>(), 0..40), 1..12)) {
        let mut builder = Builder::new(Header { element_type: 1, links: 1, ..Header::default() });
        builder.add_source("random.pgn".into()).unwrap();
        for (i, choices) in games.iter().enumerate() {
            let mut game = tabiya_chess::game::Game::default();
            let mut pos = Chess::default();
            for &c in choices {
                let moves = pos.legal_moves();
                if moves.is_empty() { break; }
                let mv = moves[usize::from(c) % moves.len()];
                game.moves.nodes.push(tabiya_chess::game::Node::new(Some(mv)));
                pos.play_unchecked(mv);
            }
            game.result = [tabiya_chess::game::GameResult::WhiteWins, tabiya_chess::game::GameResult::Draw][i % 2];
            builder.add_game(&game, tabiya_chess::kvetka::build::GamePlace { offset: i as u32 * 100, length: 100 }).unwrap();
        }
        let (book, _) = builder.finish(None).unwrap();
        let dir = tempfile::tempdir().unwrap();
        book.write(&dir.path().join("r"), &Default::default()).unwrap();
        let opened = tabiya_chess::kvetka::open(&dir.path().join("r"), Default::default()).unwrap();
        prop_assert!(opened.problems.is_empty());
        prop_assert_eq!(&opened.book, &book);
        prop_assert_eq!(Book::read(&dir.path().join("r.kin")).unwrap(), book);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Hostile bytes: a header of caption "Test" and one block of random bytes (so the random
    /// part reaches the element parser), random .kin and .ksf. Never a panic.
    #[test]
    fn random_blocks_never_panic(
        block in proptest::collection::vec(any::<u8>(), 2048),
        n in 0u16..2100,
        kin in proptest::collection::vec(any::<u8>(), 0..60),
        ksf in proptest::collection::vec(any::<u8>(), 0..700),
    ) {
        use std::path::PathBuf;
        use tabiya_chess::kvetka::{BookBytes, BookFiles, BookReader, read_whole};
        use tabiya_io::FileBytes;
        let mut kob = Header { caption: "Test".into(), element_type: 1, ..Header::default() }.to_bytes(1);
        let mut block = block;
        block[..2].copy_from_slice(&n.to_be_bytes());
        kob.extend_from_slice(&block);
        let bytes = BookBytes {
            files: BookFiles::new(&PathBuf::from("random")),
            parts: vec![(PathBuf::from("random_0.kob"), FileBytes::Owned(kob))],
            kin: Some(FileBytes::Owned(kin)),
            ksf: Some(FileBytes::Owned(ksf)),
        };
        if let Ok(reader) = BookReader::from_bytes(bytes, Default::default()) {
            let _ = tabiya_chess::kvetka::probe::probe(&reader, &Chess::default());
            if let Ok(opened) = read_whole(reader) {
                let _ = tabiya_chess::polyglot::entries_of_model(tabiya_chess::kvetka::convert::read_model(&opened.book).0);
            }
        }
    }
}
