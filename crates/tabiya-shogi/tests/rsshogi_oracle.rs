//! tabiya's KIF, KI2 and CSA checked against an independent implementation, rsshogi (MIT,
//! dev-dependency only), both ways, on the seed's example problem (tbase.md §10):
//!
//! 1. tabiya writes the problem as KIF/KI2/CSA (Shift-JIS, as `tabiya convert` does); rsshogi must
//!    read the documented start position and the documented 17-move line;
//! 2. rsshogi writes that record as KIF/KI2/CSA; tabiya must read each into the documented T-BASE
//!    solution, the very .tjn of the fixture.
//!
//! rsshogi 1.7.3 disagrees with tsume usage in two places (the KIF header `手数：N`, CSA's
//! `P-00AL`), each handled and explained where it arises below.

use std::collections::BTreeMap;

use rsshogi::records::Record;
use rsshogi::records::formats::{csa as rs_csa, kif as rs_kif, usi as rs_usi};
use tabiya_io::Codepage;
use tabiya_shogi::notation::kif::Flavour;
use tabiya_shogi::notation::{Kifu, csa, kif};
use tabiya_shogi::tbase::{self, Diagram, read_solutions};
use tabiya_shogi::tsume::check_solution;

const SFEN: &str = "9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1";
const USI: &str = "S*7c 7b7c N*9d 8e9d S*7a 8b9b G*8b 9b9c 9e9d 7f9d B*8d 7c8d 8b9b 9c9b 6d6b 9b9c 6b8b";
const TBASE: &str = "73銀同金94桂同馬71銀92玉82金93玉94歩同角84角同金92金同玉62龍93玉82龍";

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The example problem as tabiya exports it: headers, position with both hands, solution.
fn example_kifu() -> Kifu {
    let diagram = Diagram::decode(&fixture("example_3line.dia"), 0).unwrap();
    let (solutions, _) = read_solutions(&fixture("example.tjn"));
    let moves = check_solution(&diagram, &solutions[0]).moves;
    tbase::to_kifu(&diagram, &moves, None)
}

/// An SFEN as (board, side to move, hand piece → count): rsshogi orders hand pieces its own way.
/// With `sente_hand_only`, gote's hand is left out.
fn canonical(sfen: &str, sente_hand_only: bool) -> (String, String, BTreeMap<char, u32>) {
    let sfen = sfen.strip_prefix("sfen ").unwrap_or(sfen);
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let mut hand = BTreeMap::new();
    let mut count = 0;
    for c in fields[2].chars().filter(|&c| c != '-') {
        match c.to_digit(10) {
            Some(d) => count = count * 10 + d,
            None => {
                if !(sente_hand_only && c.is_ascii_lowercase()) {
                    hand.insert(c, count.max(1));
                }
                count = 0;
            }
        }
    }
    (fields[0].to_owned(), fields[1].to_owned(), hand)
}

fn usi_line(record: &Record) -> String {
    record.main_moves().map(|entry| entry.mv().to_usi()).collect::<Vec<_>>().join(" ")
}

/// Checks what rsshogi read from one of tabiya's files.
fn assert_reads_the_example(record: &Record, sente_hand_only: bool, what: &str) {
    assert_eq!(
        canonical(record.init_position_sfen(), sente_hand_only),
        canonical(SFEN, sente_hand_only),
        "{what}: start position"
    );
    assert_eq!(usi_line(record), USI, "{what}: moves");
}

fn shift_jis(text: &str) -> Vec<u8> {
    Codepage::ShiftJis.encode(text).unwrap().into_owned()
}

#[test]
fn rsshogi_reads_tabiya_ki2() {
    let text = kif::write(&example_kifu(), Flavour::Ki2);
    let record = rs_kif::parse_ki2_bytes(&shift_jis(&text)).unwrap_or_else(|e| panic!("rsshogi: {e}\n{text}"));
    assert_reads_the_example(&record, false, "KI2");
}

#[test]
fn rsshogi_reads_tabiya_kif() {
    let text = kif::write(&example_kifu(), Flavour::Kif);
    assert!(text.lines().any(|line| line == "手数：17"), "{text}");
    // Known disagreement 1: rsshogi 1.7.3's KIF reader takes any line holding 手数 for a move and
    // rejects the tsume header `手数：17` that 柿木将棋 and tabiya write (its KI2 reader skips it).
    // The header is valid KIF, so tabiya keeps it and rsshogi reads the file without that line.
    // When an rsshogi update accepts the header, the first assertion fails: drop the workaround.
    let error = rs_kif::parse_kif_bytes(&shift_jis(&text)).unwrap_err().to_string();
    assert_eq!(error, "invalid KIF move: 手数：17");
    let without_header: String =
        text.lines().filter(|line| !line.starts_with("手数：")).map(|line| format!("{line}\r\n")).collect();
    let record =
        rs_kif::parse_kif_bytes(&shift_jis(&without_header)).unwrap_or_else(|e| panic!("rsshogi: {e}\n{text}"));
    assert_reads_the_example(&record, false, "KIF");
}

#[test]
fn rsshogi_reads_tabiya_csa() {
    let text = csa::write(&[example_kifu()], true);
    assert!(text.lines().any(|line| line == "P-00AL"), "{text}");
    let record = rs_csa::parse_csa_bytes(&shift_jis(&text)).unwrap_or_else(|e| panic!("rsshogi: {e}\n{text}"));
    // Known disagreement 2: in the CSA standard (and in tsume files) `P-00AL` gives gote every
    // piece not on the board or in sente's hand; rsshogi 1.7.3 gives gote only what is missing
    // from gote's own half of a set (9 歩, 2 香, … minus gote's pieces on the board). So only the
    // board, the side to move and sente's hand are compared; the moves never drop from gote's hand.
    assert_reads_the_example(&record, true, "CSA");
    let (_, _, gote_hand) = canonical(record.init_position_sfen(), false);
    assert_ne!(gote_hand, canonical(SFEN, false).2, "rsshogi now reads P-00AL as the rest: compare whole hands");
}

#[test]
fn tabiya_reads_rsshogi_kif_ki2_and_csa() {
    let reference = rs_usi::parse_usi_position(&format!("sfen {SFEN} moves {USI}")).unwrap();
    assert_eq!(usi_line(&reference), USI);
    let written = [
        ("KIF", rs_kif::export_kif(&reference).unwrap()),
        ("KI2", rs_kif::export_ki2(&reference).unwrap()),
        ("CSA", rs_csa::export_csa(&reference).unwrap()),
    ];
    for (name, text) in written {
        let kifu = if name == "CSA" {
            let mut records = csa::read(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            assert_eq!(records.len(), 1, "{name}");
            records.remove(0)
        } else {
            kif::read(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"))
        };
        let (diagram, solution, comment, notes) = tbase::from_kifu(&kifu, 3);
        assert!(notes.is_empty() && comment.is_none(), "{name}: {notes:?} {comment:?}");
        assert_eq!(diagram.sfen(), SFEN, "{name}");
        assert_eq!(solution.moves.concat(), TBASE, "{name}");
        assert_eq!(tbase::write_solutions(&[solution]).unwrap(), fixture("example.tjn"), "{name}");
    }
}
