//! KIF move times and variations (`変化：N手`) kept, written back and said where a format cannot
//! hold them; the sealed move (封じ手) through CSA.
//!
//! `tests/data/kakinoki_variations.kif` is laid out as Kifu for Windows (柿木将棋) writes a
//! branched game (its "柿木形式V4" layout: the move text padded to 13 Shift-JIS columns, the
//! time column `( m:ss/hh:mm:ss)`, `+` after a move that has a variation, after the main line a
//! blank line and `変化：N手` block per variation, from the last branch point back to the first,
//! each followed by the variations off it). The moves and times are made up for this test; the
//! `#` banner line such files start with is left out (tabiya skips `#` lines).
//! rsshogi (MIT, dev-dependency) is the oracle for what the file holds: main line, every
//! variation's branch point and moves, every move's time.

use rsshogi::records::Record;
use rsshogi::records::formats::kif as rs_kif;
use tabiya_shogi::board::usi;
use tabiya_shogi::notation::{Ending, Kifu, Variation};
use tabiya_shogi::records::{self, RecordFile};
use tabiya_shogi::{Encoding, Format};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn tabiya(bytes: &[u8], format: Format) -> RecordFile {
    records::parse(bytes, format, None).unwrap_or_else(|e| panic!("tabiya: {e}"))
}

fn shift_jis(bytes: &[u8]) -> String {
    encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes).0.into_owned()
}

/// A line of play: the USI moves before its branch point, then its moves with their seconds.
type Line = (String, Vec<(String, Option<u32>)>);

/// Every line rsshogi reads (the main line first, then each variation), sorted after the main line.
fn rsshogi_lines(record: &Record) -> Vec<Line> {
    fn chain(record: &Record, mut node: Option<rsshogi::records::record::RecordNodeId>) -> Vec<(String, Option<u32>)> {
        let mut moves = Vec::new();
        while let Some(id) = node {
            let n = record.node(id);
            let Some(mv) = n.mv() else { break };
            moves.push((mv.mv().to_usi(), n.time_ms().map(|ms| ms / 1000)));
            node = record.children(id).first().copied();
        }
        moves
    }
    let mut lines = vec![(String::new(), chain(record, record.children(record.root_id()).first().copied()))];
    // Every node with more than one child: the later children start variations.
    let mut stack = vec![(record.root_id(), String::new())];
    while let Some((id, prefix)) = stack.pop() {
        for (i, &child) in record.children(id).iter().enumerate() {
            let Some(mv) = record.node(child).mv() else { continue };
            if i > 0 {
                lines.push((prefix.clone(), chain(record, Some(child))));
            }
            let path = if prefix.is_empty() { mv.mv().to_usi() } else { format!("{prefix} {}", mv.mv().to_usi()) };
            stack.push((child, path));
        }
    }
    lines[1..].sort();
    lines
}

/// The same from tabiya's record.
fn tabiya_lines(kifu: &Kifu, with_times: bool) -> Vec<Line> {
    fn timed(
        moves: &[shogi_core::Move],
        times: &[Option<tabiya_shogi::notation::MoveTime>],
        with: bool,
    ) -> Vec<(String, Option<u32>)> {
        let time = |i: usize| times.get(i).copied().flatten().map(|t| t.seconds).filter(|_| with);
        moves.iter().enumerate().map(|(i, &m)| (usi(m), time(i))).collect()
    }
    fn walk(
        list: &[Variation],
        first: usize,
        prefix: &[String],
        moves: &[shogi_core::Move],
        with: bool,
        out: &mut Vec<Line>,
    ) {
        for v in list {
            let mut before: Vec<String> = prefix.to_vec();
            before.extend(moves[..v.ply - first].iter().map(|&m| usi(m)));
            out.push((before.join(" "), timed(&v.moves, &v.times, with)));
            walk(&v.variations, v.ply, &before, &v.moves, with, out);
        }
    }
    let mut lines = vec![(String::new(), timed(&kifu.moves, &kifu.times, with_times))];
    walk(&kifu.variations, 1, &[], &kifu.moves, with_times, &mut lines);
    lines[1..].sort();
    lines
}

/// KIF → KIF gives the same bytes; what tabiya reads is what rsshogi reads.
#[test]
fn kakinoki_kif_round_trips_byte_exact_and_agrees_with_rsshogi() {
    let bytes = fixture("kakinoki_variations.kif");
    let file = tabiya(&bytes, Format::Kif);
    assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    let kifu = &file.records[0];
    assert_eq!(kifu.moves.len(), 8);
    assert_eq!(kifu.variation_count(), 6);
    assert_eq!(kifu.end, Some(Ending::Resign));
    assert_eq!(kifu.time_of(9).map(|t| (t.seconds, t.total)), Some((3, Some(17))), "the 投了 line's time");
    let written = records::write(&file.records, Format::Kif, file.encoding).unwrap();
    assert_eq!(shift_jis(&written), shift_jis(&bytes));
    assert_eq!(written, bytes);

    // Known disagreement: rsshogi 1.7.3 stops reading at the main line's ending (`投了`,
    // `まで…`), which it writes after the variations; 柿木将棋 writes the ending first (see the
    // module comment), so rsshogi reads the variations only without those two lines. When an
    // rsshogi update reads them, the first assertion fails: drop the workaround.
    let record = rs_kif::parse_kif_bytes(&bytes).unwrap_or_else(|e| panic!("rsshogi: {e}"));
    assert_eq!(rsshogi_lines(&record).len(), 1, "rsshogi now reads variations after the ending");
    let text = shift_jis(&bytes).replace("   9 投了         ( 0:03/00:00:17)\r\nまで8手で後手の勝ち\r\n", "");
    let record = rs_kif::parse_kif_str(&text).unwrap_or_else(|e| panic!("rsshogi: {e}"));
    let theirs = rsshogi_lines(&record);
    assert_eq!(theirs.len(), 7, "rsshogi reads the main line and 6 variations: {theirs:?}");
    assert_eq!(tabiya_lines(kifu, true), theirs);
}

/// KIF → CSA keeps the main line's times (`T` lines, as GPS将棋 writes them) and says that the
/// variations are left out; CSA → KIF gives back the main line byte for byte (the totals are
/// counted again from the `T` times).
#[test]
fn times_survive_csa_and_variations_are_warned() {
    let bytes = fixture("kakinoki_variations.kif");
    let file = tabiya(&bytes, Format::Kif);
    let left_out: Vec<&str> = records::left_out(&file.records, Format::Csa).iter().map(|d| d.code).collect();
    assert_eq!(left_out, ["csa.variations_left_out"]);
    let csa = records::text(&file.records, Format::Csa).unwrap();
    assert!(csa.contains("+7776FU\r\nT5\r\n-3334FU\r\nT3\r\n"), "{csa}");
    assert!(csa.ends_with("-8242HI\r\nT11\r\n%TORYO\r\nT3\r\n"), "{csa}");
    let back = tabiya(csa.as_bytes(), Format::Csa);
    assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
    let kif = records::write(&back.records, Format::Kif, Encoding::ShiftJis).unwrap();
    let original = shift_jis(&bytes);
    let main_line = original.split_once("\r\n\r\n").unwrap().0.replace(")+\r\n", ")\r\n") + "\r\n";
    assert_eq!(shift_jis(&kif), main_line);
    // KI2 and SFEN have no time column; SFEN no variations either.
    let codes = |format| records::left_out(&file.records, format).iter().map(|d| d.code).collect::<Vec<_>>();
    assert_eq!(codes(Format::Ki2), ["ki2.times_left_out"]);
    assert_eq!(codes(Format::Sfen), ["sfen.variations_left_out", "sfen.times_left_out"]);
    assert!(codes(Format::Kif).is_empty() && codes(Format::JsonLines).is_empty());
}

/// KIF → KI2 writes the variations as `変化：N手` blocks of ▲/△ moves; tabiya and rsshogi read
/// them back as the KIF's lines.
#[test]
fn ki2_keeps_the_variations() {
    let file = tabiya(&fixture("kakinoki_variations.kif"), Format::Kif);
    let ki2 = records::text(&file.records, Format::Ki2).unwrap();
    assert!(ki2.contains("まで8手で後手の勝ち\r\n\r\n変化：7手\r\n▲６八玉 △６二玉\r\nまで8手で中断\r\n"), "{ki2}");
    let back = tabiya(ki2.as_bytes(), Format::Ki2);
    let kifu = &back.records[0];
    assert_eq!(tabiya_lines(kifu, false), tabiya_lines(&file.records[0], false));
    assert_eq!(kifu.move_comments, file.records[0].move_comments);
    assert_eq!(kifu.variations[3].move_comments, [(1, "居飛車".to_owned())]);
    // rsshogi stops at a `まで…` line (see above): it is given the KI2 without them.
    let without_endings: String = ki2.split_inclusive("\r\n").filter(|l| !l.starts_with("まで")).collect();
    let record = rs_kif::parse_ki2_str(&without_endings).unwrap_or_else(|e| panic!("rsshogi: {e}\n{ki2}"));
    assert_eq!(rsshogi_lines(&record), tabiya_lines(kifu, false), "{ki2}");
}

/// JSON Lines holds times and variations and reads them back whole.
#[test]
fn json_lines_keep_times_and_variations() {
    let file = tabiya(&fixture("kakinoki_variations.kif"), Format::Kif);
    let lines = records::write(&file.records, Format::JsonLines, Encoding::Utf8).unwrap();
    let back = tabiya(&lines, Format::JsonLines);
    assert_eq!(back.records, file.records);
}

/// A sealed move through CSA: `%CHUDAN` and the comment `'封じ手` (the CSA standard has no
/// statement for it), read back as 封じ手, so KIF → CSA → KIF gives the same KIF.
#[test]
fn sealed_move_survives_csa() {
    let kif = "手合割：平手\r\n手数----指手---------消費時間--\r\n   1 ７六歩(77)   ( 0:10/00:00:10)\r\n   2 ３四歩(33)   ( 1:05/00:01:05)\r\n   3 封じ手       (30:00/00:30:10)\r\nまで2手で封じ手\r\n";
    let file = tabiya(kif.as_bytes(), Format::Kif);
    assert_eq!(file.records[0].end, Some(Ending::Sealed));
    let csa = records::text(&file.records, Format::Csa).unwrap();
    assert!(csa.ends_with("-3334FU\r\nT65\r\n%CHUDAN\r\n'封じ手\r\nT1800\r\n"), "{csa}");
    let back = tabiya(csa.as_bytes(), Format::Csa);
    assert_eq!(back.records[0].end, Some(Ending::Sealed));
    assert_eq!(records::text(&back.records, Format::Kif).unwrap(), kif);
    // A plain %CHUDAN stays 中断.
    let interrupted = tabiya(csa.replace("'封じ手\r\n", "").as_bytes(), Format::Csa);
    assert_eq!(interrupted.records[0].end, Some(Ending::Interrupt));
}

/// A variation that branches where its line has no move is an error naming the line.
#[test]
fn variation_out_of_range_is_an_error() {
    let kif = "手合割：平手\r\n   1 ７六歩(77)\r\n\r\n変化：3手\r\n   3 ２六歩(27)\r\n";
    let error = records::parse(kif.as_bytes(), Format::Kif, Some(Encoding::Utf8)).unwrap_err();
    assert_eq!(error.to_string(), "<input>@0x2a (line 4): expected a variation from move 1 to 2, found \"変化：3手\"");
}
