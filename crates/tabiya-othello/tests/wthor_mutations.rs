//! Truncated and corrupted Wthor files give results or errors, never panics.

use tabiya_io::Diagnostic;
use tabiya_othello::wthor::{GameFile, GameFile10, NameFile, NameKind, SolitaireFile, verify_games};
use tabiya_testdata::{Xorshift, corpus_file};

/// Every reader on `bytes`; only the absence of a panic matters here.
fn read_everything(bytes: &[u8]) {
    let mut w: Vec<Diagnostic> = Vec::new();
    let _ = GameFile::read(bytes, &mut w);
    let _ = GameFile10::read(bytes, &mut w);
    let _ = SolitaireFile::read(bytes, &mut w);
    let _ = NameFile::read(NameKind::Players, bytes, &mut w);
    let _ = NameFile::read(NameKind::Tournaments, bytes, &mut w);
    let _ = verify_games(std::path::Path::new("WTH_1981.wtb"), bytes, None, None);
}

/// Truncations and byte flips, the same every run.
fn mutations(bytes: &[u8], count: usize) -> impl Iterator<Item = Vec<u8>> + '_ {
    let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
    (0..count).map(move |i| {
        let state = rng.next_u64();
        let mut m = bytes.to_vec();
        let at = (state as usize) % bytes.len().max(1);
        if i % 3 == 0 {
            m.truncate(at);
        } else {
            for k in 0..(1 + i % 4) {
                if let Some(b) = m.get_mut((at + k * 17) % bytes.len().max(1)) {
                    *b ^= (state >> (8 * k)) as u8 | 1;
                }
            }
        }
        m
    })
}

#[test]
fn mutated_corpus_files_never_panic() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    for name in ["WTH_1977.wtb", "WTH_1981.wtb", "WTHOR.TRN"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        for m in mutations(&bytes, 400) {
            read_everything(&m);
        }
    }
}

#[test]
fn short_and_odd_inputs_never_panic() {
    for len in 0..300 {
        read_everything(&vec![0xff; len]);
        read_everything(&vec![0; len]);
    }
    // Solitaire headers whose N2 points outside the 64-entry table.
    let mut pzz = vec![20, 26, 2, 16, 0, 0, 0, 0, 200, 0, 0, 0, 8, 1, 0, 0];
    pzz.extend_from_slice(&[0; 256]);
    read_everything(&pzz);
}

proptest::proptest! {
    /// Any bytes with a consistent header come back unchanged: records are kept as stored.
    #[test]
    fn consistent_files_round_trip(records in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u8>(), 68), 0..20), date in proptest::prelude::any::<[u8; 4]>()) {
        let mut bytes = date.to_vec();
        bytes.extend_from_slice(&(records.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&[0, 0, 0xd1, 0x07, 8, 0, 24, 0]);
        for r in &records {
            bytes.extend_from_slice(r);
        }
        let file = GameFile::read(&bytes, &mut Vec::<Diagnostic>::new()).unwrap();
        proptest::prop_assert_eq!(file.games.len(), records.len());
        proptest::prop_assert_eq!(file.to_bytes(), bytes);
    }

    #[test]
    fn name_files_round_trip(names in proptest::collection::vec("[ -~]{1,19}", 0..30)) {
        let mut file = NameFile::new(NameKind::Players, tabiya_othello::wthor::Header::dated((2026, 2, 16)));
        for n in &names {
            file.append(n).unwrap();
        }
        let read = NameFile::read(NameKind::Players, &file.to_bytes(), &mut Vec::<Diagnostic>::new()).unwrap();
        let back: Vec<String> = read.names().map(|n| n.into_owned()).collect();
        proptest::prop_assert_eq!(back, names);
        proptest::prop_assert_eq!(read.to_bytes(), file.to_bytes());
    }
}
