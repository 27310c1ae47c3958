//! T-BASE fixtures made from tbase.md (no real T-BASE file is public): the seed's example
//! record in both forms, its 17-move solution, the board of the seed's #0003 line, and broken
//! copies that must give precise errors.

use shogi_core::Square;
use tabiya_shogi::board::{self, hand_counts};
use tabiya_shogi::tbase::{self, Diagram, Form, dia_records, read_solutions};
use tabiya_shogi::tsume::check_solution;
use tabiya_shogi::{Diagnostic, Error, Severity};
use tabiya_testdata::Xorshift;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn decode(name: &str) -> (Diagram, Vec<Diagnostic>) {
    Diagram::decode_checked(&fixture(name), 0).unwrap()
}

/// tbase.md §10, the "Decoded" table.
#[test]
fn seed_example_decodes_to_the_documented_values() {
    let (d, findings) = decode("example_3line.dia");
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(d.form, Form::ThreeLine);
    assert_eq!(hand_counts(d.attacker_hand), [0, 0, 1, 2, 1, 0, 0]);
    assert_eq!(d.sfen(), "9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1");
    assert_eq!(d.number, 3);
    assert_eq!(d.author, "初代宗桂");
    assert_eq!(d.author_code, "0000");
    assert_eq!(d.source, "象戯馬法（元和版）");
    assert_eq!(d.source_code, "102");
    assert_eq!(d.source_number, "0003");
    assert_eq!(d.date, "元和２");
    assert_eq!(d.king_square(), Some(Square::SQ_8B));
    assert_eq!(d.moves, Some(17));
    assert_eq!(d.originality, None);
    assert_eq!(d.note, "慶=   秘=3  力=54");
    assert_eq!(d.title, "");
    assert_eq!(d.jissen, Some(0));
    assert_eq!(d.completeness, None);
    assert_eq!(d.final_king, Some(Square::SQ_9C));
    assert_eq!(d.final_pieces, Some(7));
    assert_eq!(d.final_attacker_pieces, Some(2));
    assert_eq!(&d.index, b"1516   320733482 444 214 1002592 4441465 608   5");
    assert_eq!(&d.tail[..10], b"25922592* ");
    assert_eq!(board::board_counts(&d.board), [1, 1, 2, 2, 0, 0, 0, 2]);
    assert_eq!(board::legal_moves(&d.position().unwrap()).len(), 220);
}

#[test]
fn both_forms_round_trip_byte_for_byte() {
    for (name, form, attackers) in
        [("example_3line.dia", Form::ThreeLine, Some(2)), ("example_4line.dia", Form::FourLine, None)]
    {
        let bytes = fixture(name);
        let (d, findings) = decode(name);
        assert!(findings.is_empty(), "{name}: {findings:?}");
        assert_eq!((d.form, d.final_attacker_pieces), (form, attackers));
        assert_eq!(d.encode().unwrap().as_slice(), bytes.as_slice(), "{name}");
    }
}

#[test]
fn seed_example_solution_is_a_sound_17_move_mate() {
    let (d, _) = decode("example_3line.dia");
    let (solutions, findings) = read_solutions(&fixture("example.tjn"));
    assert!(findings.is_empty());
    let check = check_solution(&d, &solutions[0]);
    assert!(check.findings.is_empty(), "{:?}", check.findings);
    assert!(check.mates && check.is_ok());
    let usi: Vec<String> = check.moves.iter().map(|&m| board::usi(m)).collect();
    assert_eq!(usi.join(" "), "S*7c 7b7c N*9d 8e9d S*7a 8b9b G*8b 9b9c 9e9d 7f9d B*8d 7c8d 8b9b 9c9b 6d6b 9b9c 6b8b");
    assert_eq!(tbase::write_solutions(&solutions).unwrap(), fixture("example.tjn"));
}

#[test]
fn seed_0003_line_plays_through_on_its_board() {
    let (d, findings) = decode("seed0003.dia");
    assert!(findings.is_empty(), "{findings:?}");
    assert_eq!(d.sfen(), "7gl/8k/9/5+R3/4B4/9/9/9/9 b GPrb2g4s4n3l17p 1");
    let (solutions, _) = read_solutions(&fixture("seed0003.tjn"));
    let check = check_solution(&d, &solutions[0]);
    assert!(check.is_ok(), "{:?}", check.findings);
    assert_eq!(check.moves.len(), 15);
    assert_eq!(d.encode().unwrap().as_slice(), fixture("seed0003.dia").as_slice());
}

/// The seed's .tjn #0003 (15 moves) is not the solution of its .dia #0003 (tbase.md §11.4).
#[test]
fn seed_tjn_does_not_fit_the_seed_dia() {
    let (d, _) = decode("example_3line.dia");
    let (solutions, _) = read_solutions(&fixture("seed0003.tjn"));
    let check = check_solution(&d, &solutions[0]);
    assert!(!check.is_ok());
    // 14龍 (6四 to 1四), 13金合 and 22金 happen to be legal here, but 14龍 is no check, and no
    // defender gold can take on 22.
    assert_eq!(check.moves.len(), 3);
    let what: Vec<&str> = check.findings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        what,
        [
            "move 1 \"14龍\" (6d1d): the attacker's move does not give check",
            "move 3 \"22金\" (G*2b): the attacker's move does not give check",
            "move 4 \"同金\": expected a legal move of 金 to 2二",
        ]
    );
}

#[test]
fn checks_report_wrong_lengths_leftover_pieces_and_non_checks() {
    let (d, _) = decode("example_3line.dia");
    let (mut solutions, _) = read_solutions(&fixture("example.tjn"));
    // Stop after move 15 (the dragon check 62龍 on the king on 92). Counted by hand: the king
    // has 81, 91 and 93; interpositions are drops of 飛角金銀桂香 on 82 (歩 would be 二歩) and
    // 飛角金銀桂香歩 on 72: 3 + 6 + 7 = 16. The mate-position fields 07 / 02 happen to hold.
    solutions[0].moves.truncate(15);
    let check = check_solution(&d, &solutions[0]);
    let what: Vec<&str> = check.findings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        what,
        [
            "the last position is not mate: the defender has 16 legal moves",
            "詰手数 is 17, the solution has 15 moves",
            "the trailer says まで17手詰, the solution has 15 moves",
            "詰上り玉位置 is 93, the king ends on 92",
        ]
    );
}

#[test]
fn leftover_attacker_pieces_are_reported() {
    let (mut d, _) = decode("example_3line.dia");
    d.attacker_hand = d.attacker_hand.added(shogi_core::PieceKind::Pawn).unwrap();
    let (solutions, _) = read_solutions(&fixture("example.tjn"));
    let check = check_solution(&d, &solutions[0]);
    assert!(check.is_ok());
    assert_eq!(check.findings.len(), 1);
    assert_eq!(check.findings[0].severity, Severity::Warning);
    assert_eq!(check.findings[0].message, "駒余り: 歩 left in the attacker's hand");
}

fn error_of(name: &str) -> String {
    match dia_records(&fixture(name)).find_map(Result::err) {
        Some(Error::Data(e)) => e.to_string(),
        other => panic!("{name}: expected a data error, got {other:?}"),
    }
}

fn findings_of(name: &str) -> Vec<String> {
    let (_, findings) = decode(name);
    findings.iter().filter(|f| f.severity == Severity::Error).map(ToString::to_string).collect()
}

#[test]
fn broken_copies_give_precise_errors() {
    assert_eq!(
        findings_of("broken_checksum.dia"),
        ["error: <input>@0x8 (record 1): 持駒数 (sum of the hand): expected 04, found \"05\""]
    );
    assert_eq!(
        error_of("broken_slash.dia"),
        "<input>@0x1d (record 1): expected '/' closing file 2 of the board, found \" \""
    );
    assert_eq!(
        error_of("broken_letter.dia"),
        "<input>@0x2d (record 1): expected a T-BASE piece letter (QASDFGHJZXCVBN, lowercase for the attacker, or space) on 46, found \"K\""
    );
    let split = findings_of("broken_split.dia");
    assert_eq!(split.len(), 1, "{split:?}");
    assert!(
        split[0]
            .starts_with("error: <input>@0x75 (record 1): 作者名: a field that ends on a whole Shift-JIS character")
    );
    assert_eq!(
        error_of("broken_short.dia"),
        "<input>@0x14a (record 2): expected a 330-byte record (the file size is not a multiple of 330), found 329 bytes"
    );
    assert_eq!(error_of("broken_crlf.dia"), "<input>@0x114 (record 1): expected CR LF ending line 3, found \" \\n\"");
}

#[test]
fn mirrored_king_square_is_a_warning() {
    let mut bytes = fixture("example_3line.dia");
    bytes[157..159].copy_from_slice(b"22");
    let (_, findings) = Diagram::decode_checked(&bytes, 0).unwrap();
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].severity, Severity::Warning);
    assert!(findings[0].message.starts_with("玉位置 22 matches only the mirrored board (king on 82)"));
    bytes[157..159].copy_from_slice(b"55");
    let (_, findings) = Diagram::decode_checked(&bytes, 0).unwrap();
    assert_eq!(findings[0].severity, Severity::Error);
}

/// Truncations and byte flips of every fixture: results or errors, never a panic.
#[test]
fn mutated_fixtures_never_panic() {
    let names =
        ["example_3line.dia", "example_4line.dia", "seed0003.dia", "example.tjn", "seed0003.tjn", "example.rem"];
    for name in names {
        let original = fixture(name);
        let mut variants: Vec<Vec<u8>> = (0..original.len()).step_by(7).map(|n| original[..n].to_vec()).collect();
        let mut rng = Xorshift::new(0x9E37_79B9);
        for _ in 0..300 {
            let mut bytes = original.clone();
            for _ in 0..3 {
                let at = rng.below(bytes.len());
                bytes[at] = rng.next_u64() as u8;
            }
            variants.push(bytes);
        }
        for bytes in variants {
            exercise(&bytes);
        }
    }
}

fn exercise(bytes: &[u8]) {
    let (solutions, _) = read_solutions(bytes);
    let _ = tbase::read_comments(bytes);
    let example = decode("example_3line.dia").0;
    for solution in &solutions {
        let _ = check_solution(&example, solution);
    }
    for record in dia_records(bytes).flatten() {
        let diagram = record.diagram;
        let _ = diagram.encode();
        let _ = diagram.sfen();
        if let Some(solution) = solutions.first() {
            let _ = check_solution(&diagram, solution);
        }
    }
}

/// .dia → KIF → .dia: the board, hand, fields that KIF carries and the solution come back.
#[test]
fn kif_export_reads_back_into_tbase() {
    use tabiya_shogi::notation::kif::{self, Flavour};
    let (d, _) = decode("example_3line.dia");
    let (solutions, _) = read_solutions(&fixture("example.tjn"));
    let moves = check_solution(&d, &solutions[0]).moves;
    let kifu = tbase::to_kifu(&d, &moves, None);
    assert_eq!(kifu.header("作者"), Some("初代宗桂"));
    assert_eq!(kifu.header("発表誌"), Some("象戯馬法（元和版）"));
    assert_eq!(kifu.header("手数"), Some("17"));
    for flavour in [Flavour::Kif, Flavour::Ki2] {
        let text = kif::write(&kifu, flavour);
        let back = kif::read(&text).unwrap();
        let (d2, s2, comment, notes) = tbase::from_kifu(&back, 1);
        assert!(notes.is_empty() && comment.is_none());
        assert_eq!(d2.sfen(), d.sfen());
        assert_eq!(
            (d2.number, d2.author.as_str(), d2.source.as_str(), d2.date.as_str()),
            (3, "初代宗桂", "象戯馬法（元和版）", "元和２")
        );
        assert_eq!(
            (d2.moves, d2.final_king, d2.final_pieces, d2.final_attacker_pieces),
            (d.moves, d.final_king, d.final_pieces, d.final_attacker_pieces)
        );
        assert_eq!(s2.moves, solutions[0].moves);
        // The 出典 fields KIF does not carry (codes, index) are blank; the rest of the record matches.
        let (a, b) = (d.encode().unwrap(), d2.encode().unwrap());
        assert_eq!(a[..118], b[..118]);
        assert_eq!(a[157..174], b[157..174]);
    }
}

/// A set converted to LF line ends (as the seed's jgawk script writes it under Unix) reads line
/// by line, with findings at their offsets in the LF file.
#[test]
fn lf_line_ends_are_read_line_by_line() {
    let crlf = [fixture("example_3line.dia"), fixture("example_4line.dia"), fixture("broken_checksum.dia")].concat();
    // No Shift-JIS byte is 0x0D: dropping every CR gives the LF file.
    let lf: Vec<u8> = crlf.iter().copied().filter(|&b| b != b'\r').collect();
    assert_eq!(lf.len(), crlf.len() - 10, "3 + 4 + 3 line ends");
    let records: Vec<_> = dia_records(&lf).collect::<Result<_, _>>().unwrap();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0].bytes.as_slice(), &crlf[..330]);
    assert_eq!(records[1].bytes.as_slice(), &crlf[330..660]);
    assert_eq!((records[0].diagram.form, records[1].diagram.form), (Form::ThreeLine, Form::FourLine));
    assert_eq!(records[0].findings.len(), 1);
    assert!(records[0].findings[0].message.starts_with("LF line ends"));
    assert!(records[1].findings.is_empty());
    // 持駒数 of record 3, which starts after 327 + 326 bytes.
    assert_eq!(records[2].findings[0].location.offset, Some(653 + 8));
    // Cut inside the last line, which starts at 653 + 101 + 175 = 929 (0x3a1).
    let mut short = lf.clone();
    short.truncate(lf.len() - 10);
    assert_eq!(
        dia_records(&short).find_map(Result::err).unwrap().to_string(),
        "<input>@0x3a1 (record 3): expected the last line: a line of 50 bytes, found 41 bytes"
    );
}

/// tbase.md §14.7: `１四龍` in CP932, and the one-character promoted pieces through a .tjn.
#[test]
fn shift_jis_of_moves() {
    use tabiya_io::Codepage;
    assert_eq!(Codepage::ShiftJis.encode("１四龍").unwrap().as_ref(), [0x82, 0x50, 0x8E, 0x6C, 0x97, 0xB4]);
    let text = "0001 １四龍22全同圭33杏まで4手詰\r\n";
    let bytes = Codepage::ShiftJis.encode(text).unwrap().into_owned();
    let (solutions, findings) = read_solutions(&bytes);
    assert!(findings.is_empty());
    assert_eq!(solutions[0].moves, ["１四龍", "22全", "同圭", "33杏"]);
    assert_eq!(tbase::write_solutions(&solutions).unwrap(), bytes);
}

/// The other two line ends of tbase.md §14.2 (276 is in `broken_copies_give_precise_errors`).
#[test]
fn missing_line_ends_name_their_offset() {
    for (offset, line) in [(100, 1), (328, 4)] {
        let mut bytes = fixture("example_3line.dia");
        bytes[offset] = b' ';
        let error = Diagram::decode(&bytes, 0).unwrap_err().to_string();
        assert_eq!(error, format!("<input>@{offset:#x} (record 1): expected CR LF ending line {line}, found \" \\n\""));
    }
}

#[test]
fn invalid_shift_jis_is_a_warning_and_hanten_sakujo_are_reported() {
    let mut bytes = fixture("example_3line.dia");
    bytes[192..194].copy_from_slice(&[0x81, 0x20]); // 作品題名: a lead byte with an invalid trail byte
    bytes[311] = b'1'; // HANTEN
    bytes[312] = b'1'; // SAKUJO
    let (d, findings) = Diagram::decode_checked(&bytes, 0).unwrap();
    let what: Vec<(Severity, &str)> = findings.iter().map(|f| (f.severity, f.message.as_str())).collect();
    assert_eq!(
        what,
        [
            (Severity::Warning, "作品題名: invalid Shift-JIS, decoded with U+FFFD"),
            (Severity::Warning, "HANTEN is set: the diagram may be stored mirrored (read as stored)"),
            (Severity::Warning, "SAKUJO is set: the record may be marked deleted"),
        ]
    );
    assert_eq!(findings[0].location.offset, Some(192));
    assert!(d.title.starts_with('\u{FFFD}'));
}
