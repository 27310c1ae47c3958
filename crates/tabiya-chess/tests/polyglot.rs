//! Polyglot books against python-chess's test vectors and the corpus books
//! (../shared/specs/polyglot.md).

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use tabiya_chess::polyglot::{self, Entry, MergeRule, key, merge, probe, read_entries, verify, write_entries};
use tabiya_testdata::corpus_file;

/// The position after `moves` (SAN or UCI) from the start.
fn after(moves: &str) -> Chess {
    tabiya_chess::book::probe_position(None, Some(moves)).expect("legal moves")
}

fn from_fen(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

#[test]
fn keys_are_polyglots() {
    let cases = [
        ("", 0x463b96181691fc9c),
        ("e4", 0x823c9b50fd114196),
        ("e4 d5", 0x0756b94461c50fb0),
        ("e4 d5 e5", 0x662fafb965db29d4),
        ("e4 d5 e5 f5", 0x22a48b5a8e47ff78),
        ("e4 d5 e5 f5 Ke2", 0x652a607ca3f242c1),
        ("e4 d5 e5 f5 Ke2 Kf7", 0x00fdd303c946bdd9),
        ("a4 b5 h4 b4 c4", 0x3c8123ea7b067637),
        ("a4 b5 h4 b4 c4 bxc3 Ra3", 0x5c3f9b829b279560),
    ];
    for (moves, expected) in cases {
        assert_eq!(key(&after(moves)), expected, "after {moves:?}");
    }
    // The en-passant capture is illegal (the pawn is pinned) but Polyglot still counts it.
    assert_eq!(key(&from_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 2")), 0xf008b0d4b67d65ee);
}

fn book(name: &str) -> Option<(Vec<u8>, Vec<Entry>)> {
    let path = corpus_file(&format!("polyglot/{name}"))?;
    let bytes = std::fs::read(&path).unwrap();
    let entries = read_entries(&bytes, Some(&path)).unwrap();
    Some((bytes, entries))
}

fn hits(entries: &[Entry], pos: &Chess) -> Vec<(String, u16, u16, u32)> {
    probe(entries, pos).into_iter().map(|h| (h.uci, h.entry.raw_move, h.entry.weight, h.entry.learn)).collect()
}

#[test]
fn performance_bin_probes_like_python_chess() {
    let Some((bytes, entries)) = book("performance.bin") else { return eprintln!("skipped: no corpus") };
    assert_eq!(bytes.len(), 1_487_264);
    assert_eq!(entries.len(), 92_954);
    let s = |x: &str| x.to_owned();
    assert_eq!(
        hits(&entries, &Chess::default()),
        [(s("e2e4"), 0x031c, 1, 486544384), (s("d2d4"), 0x02db, 1, 5120), (s("c2c4"), 0x029a, 1, 3825144832)]
    );
    assert_eq!(hits(&entries, &after("e4")), [(s("e7e5"), 0x0d24, 1, 3070170112), (s("c7c5"), 0x0ca2, 1, 2902397952)]);
    let pos = after("d4 Nf6 c4");
    assert_eq!(key(&pos), 0x54c31263e9ad3b4f);
    assert_eq!(hits(&entries, &pos), [(s("e7e6"), 0x0d2c, 1, 3355382784)]);
    let pos = after("e4 c5");
    assert_eq!(key(&pos), 0x644d4afe02564aeb);
    assert_eq!(
        hits(&entries, &pos),
        [(s("g1f3"), 0x0195, 306, 16782336), (s("b1c3"), 0x0052, 12, 5120), (s("c2c3"), 0x0292, 10, 4093580288)]
    );

    // Following the heaviest move from the start (the first of equal weights, as Python's
    // `max` picks) ends where python-chess's test ends.
    let mut pos = Chess::default();
    let heaviest = |pos: &Chess| {
        probe(&entries, pos)
            .into_iter()
            .filter(|h| h.mv.is_some() && h.entry.weight > 0)
            .reduce(|best, h| if h.entry.weight > best.entry.weight { h } else { best })
    };
    while let Some(best) = heaviest(&pos) {
        pos.play_unchecked(best.mv.unwrap());
    }
    assert_eq!(
        Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string(),
        "r2q1rk1/4bppp/p2p1n2/np5b/3BP1P1/5N1P/PPB2P2/RN1QR1K1 b - - 0 15"
    );

    // Castling stored as king-takes-rook comes out as castling ...
    let pos = from_fen("r1bqr1k1/pp1nbppp/2p2n2/3p2B1/3P4/2NBP3/PPQ1NPPP/R3K2R w KQ - 5 10");
    let mut sans: Vec<String> = probe(&entries, &pos).into_iter().filter_map(|h| h.san).collect();
    sans.sort();
    assert_eq!(sans, ["O-O", "O-O-O", "h3"]);
    // ... but a rook on e1 moving to a1 is a rook move.
    let pos = from_fen("1r1qr1k1/1b2bp1n/p2p2pB/1pnPp2p/P1p1P3/R1P2NNP/1PBQ1PP1/4R1K1 w - - 0 1");
    let found = probe(&entries, &pos);
    assert!(found.iter().any(|h| h.uci == "e1a1" && h.san.as_deref() == Some("Rea1")), "{found:?}");

    assert!(verify(&entries).is_empty());
}

#[test]
fn lasker_trap_entries() {
    let Some((bytes, entries)) = book("lasker-trap.bin") else { return eprintln!("skipped: no corpus") };
    let expected: [(u64, u16); 7] = [
        (0x332ee8e572a57adc, 0x06d4),
        (0x5028f645a2af84bc, 0x1346),
        (0x830eb9b20758d1de, 0x0ce3),
        (0x8a470482d88334ff, 0x0d24),
        (0x9ca2f38a43537bb9, 0x08db),
        (0xb0a23032f72b13fe, 0x050d),
        (0xd3e2db56ab33d9fa, 0x0f59),
    ];
    let read: Vec<(u64, u16)> = entries.iter().map(|e| (e.key, e.raw_move)).collect();
    assert_eq!(read, expected);
    assert!(entries.iter().all(|e| e.weight == 2 && e.learn == 0));
    let pos = from_fen("rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7");
    let found = probe(&entries, &pos);
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].uci.as_str(), found[0].san.as_deref()), ("f2g1n", Some("fxg1=N+")));
    assert_eq!(bytes.len(), 112);
}

#[test]
fn corpus_books_round_trip_byte_exact() {
    for name in ["performance.bin", "lasker-trap.bin"] {
        let Some((bytes, entries)) = book(name) else { return eprintln!("skipped: no corpus") };
        let mut written = Vec::new();
        write_entries(&entries, &mut written).unwrap();
        assert!(written == bytes, "{name} differs after a round trip");
        // Merging a book with itself changes nothing under either rule's first-book priority.
        assert!(merge(&entries, &entries, MergeRule::FirstWins) == entries);
    }
}

#[test]
fn sizes_that_cut_an_entry_are_errors() {
    let err = read_entries(&[0; 17], None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "<input>@0x10 (entry 1): expected a size that is a multiple of 16 bytes (whole entries), found 17 bytes (1 trailing)"
    );
    assert!(matches!(err, polyglot::PolyglotError::Size { size: 17, .. }));
}
