//! KIF, KI2 and CSA records as other programs write them (tests/data; each file's comment in
//! the test says which program's files it stands for), read by tabiya and checked against
//! rsshogi (MIT, dev-dependency only) on the start position and the moves: handicap games,
//! EUC-JP and BOM-less UTF-8 files, endings, SFEN lines with moves.

use rsshogi::records::Record;
use rsshogi::records::formats::{csa as rs_csa, kif as rs_kif};
use tabiya_shogi::board::usi;
use tabiya_shogi::notation::{Ending, sfen};
use tabiya_shogi::records::{self, RecordFile};
use tabiya_shogi::{Encoding, Format};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn tabiya(bytes: &[u8], format: Format) -> RecordFile {
    records::parse(bytes, format, None).unwrap_or_else(|e| panic!("tabiya: {e}"))
}

/// rsshogi's reading of a text: start SFEN and USI moves.
fn rsshogi(text: &str, format: Format) -> (String, Vec<String>) {
    let record: Record = match format {
        Format::Kif => rs_kif::parse_kif_str(text).unwrap_or_else(|e| panic!("rsshogi: {e}\n{text}")),
        Format::Ki2 => rs_kif::parse_ki2_str(text).unwrap_or_else(|e| panic!("rsshogi: {e}\n{text}")),
        _ => rs_csa::parse_csa_str(text).unwrap_or_else(|e| panic!("rsshogi: {e}\n{text}")),
    };
    let sfen = record.init_position_sfen().trim_start_matches("sfen ").to_owned();
    (sfen, record.main_moves().map(|entry| entry.mv().to_usi()).collect())
}

/// tabiya's reading in the same shape.
fn ours(file: &RecordFile) -> (String, Vec<String>) {
    let kifu = &file.records[0];
    (sfen::write(&kifu.start), kifu.moves.iter().map(|&m| usi(m)).collect())
}

fn decoded(bytes: &[u8], encoding: &'static encoding_rs::Encoding) -> String {
    encoding.decode_without_bom_handling(bytes).0.into_owned()
}

const KYO: &str = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
const NIMAI: &str = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";

/// 柿木将棋 / Shogidokoro KIF of a 香落ち game: `手合割` without a board, 上手 moves first,
/// times, `投了`. Refused before ("expected a legal move, 4a3b is not").
#[test]
fn kif_handicap_game_agrees_with_rsshogi() {
    let bytes = fixture("handicap_kyo.kif");
    let file = tabiya(&bytes, Format::Kif);
    assert_eq!(file.encoding, Encoding::ShiftJis);
    assert_eq!(ours(&file).0, KYO);
    assert_eq!(ours(&file).1, ["4a3b", "7g7f", "8c8d", "2g2f"]);
    assert_eq!(ours(&file), rsshogi(&decoded(&bytes, encoding_rs::SHIFT_JIS), Format::Kif));
    assert_eq!(file.records[0].end, Some(Ending::Resign));
    // KIF → KIF: the same bytes (no board under a `手合割` that names the start, the times
    // kept) but for the `#` banner line, which tabiya skips.
    let written = records::write(&file.records, Format::Kif, file.encoding).unwrap();
    let original = decoded(&bytes, encoding_rs::SHIFT_JIS);
    let (banner, rest) = original.split_once("\r\n").unwrap();
    assert!(banner.starts_with('#'), "{banner}");
    assert_eq!(decoded(&written, encoding_rs::SHIFT_JIS), rest);
}

/// KI2 of a 二枚落ち game as 柿木将棋 writes it: △ first, `金右` from 上手's side, `まで…中断`.
#[test]
fn ki2_handicap_game_agrees_with_rsshogi() {
    let bytes = fixture("handicap_nimai.ki2");
    let file = tabiya(&bytes, Format::Ki2);
    assert_eq!(ours(&file).0, NIMAI);
    assert_eq!(ours(&file), rsshogi(&decoded(&bytes, encoding_rs::SHIFT_JIS), Format::Ki2));
    assert_eq!(file.records[0].end, Some(Ending::Interrupt));
    let written = records::write(&file.records, Format::Ki2, file.encoding).unwrap();
    assert_eq!(decoded(&written, encoding_rs::SHIFT_JIS), decoded(&bytes, encoding_rs::SHIFT_JIS), "KI2 → KI2");
}

/// CSA of a 二枚落ち game as the CSA servers write it: `PI82HI22KA`, an explicit `-` turn.
#[test]
fn csa_handicap_game_agrees_with_rsshogi() {
    let bytes = fixture("handicap_nimai.csa");
    let file = tabiya(&bytes, Format::Csa);
    assert_eq!(ours(&file).0, NIMAI);
    assert_eq!(ours(&file).1, ["6a5b", "7g7f", "5c5d", "2g2f"]);
    assert_eq!(ours(&file), rsshogi(std::str::from_utf8(&bytes).unwrap(), Format::Csa));
    assert_eq!(file.records[0].end, Some(Ending::Resign));
}

/// tabiya's own KIF, KI2 and CSA of the handicap games read back the same, and rsshogi reads
/// them as tabiya does.
#[test]
fn handicap_games_written_read_back_and_rsshogi_agrees() {
    for (name, format) in
        [("handicap_kyo.kif", Format::Kif), ("handicap_nimai.ki2", Format::Ki2), ("handicap_nimai.csa", Format::Csa)]
    {
        let file = tabiya(&fixture(name), format);
        for to in [Format::Kif, Format::Ki2, Format::Csa] {
            let text = records::text(&file.records, to).unwrap();
            let back = tabiya(text.as_bytes(), to);
            assert_eq!(ours(&back), ours(&file), "{name} → {to}");
            assert_eq!(back.records[0].end, file.records[0].end, "{name} → {to}");
            assert_eq!(rsshogi(&text, to), ours(&file), "{name} → {to}, read by rsshogi:\n{text}");
        }
    }
}

/// An EUC-JP CSA as GPS将棋 (2005) wrote them, without BOM or encoding line: detected, not
/// decoded as Shift-JIS into mojibake; written back in EUC-JP.
#[test]
fn euc_jp_csa_is_detected_and_kept() {
    let bytes = fixture("gps_eucjp.csa");
    let file = tabiya(&bytes, Format::Csa);
    assert_eq!(file.encoding, Encoding::EucJp);
    assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    let kifu = &file.records[0];
    let seconds: Vec<u32> = kifu.times.iter().flatten().map(|t| t.seconds).collect();
    assert_eq!(seconds, [1, 2, 1, 3], "the T lines are kept");
    assert_eq!(kifu.header("先手"), Some("ＧＰＳ将棋"));
    assert_eq!(kifu.header("棋戦"), Some("第15回世界コンピュータ将棋選手権"));
    assert_eq!(ours(&file), rsshogi(&decoded(&bytes, encoding_rs::EUC_JP), Format::Csa));
    let written = records::write(&file.records, Format::Csa, file.encoding).unwrap();
    assert_eq!(tabiya(&written, Format::Csa).encoding, Encoding::EucJp);
    assert_eq!(ours(&tabiya(&written, Format::Csa)), ours(&file));
}

/// A UTF-8 KIF named `.kif`, without BOM or `#KIF … encoding=` line, as web viewers export.
#[test]
fn utf8_kif_without_bom_is_detected() {
    let bytes = fixture("utf8_nobom.kif");
    let file = tabiya(&bytes, Format::Kif);
    assert_eq!(file.encoding, Encoding::Utf8);
    assert_eq!(file.records[0].header("先手"), Some("先手の人"));
    assert_eq!(ours(&file), rsshogi(std::str::from_utf8(&bytes).unwrap(), Format::Kif));
    assert_eq!(file.records[0].end, Some(Ending::Interrupt));
}

/// `投了` ↔ `%TORYO`, `中断` ↔ `%CHUDAN`: the ending survives KIF → CSA → KIF.
#[test]
fn endings_map_between_kif_and_csa() {
    for (name, word, statement) in [("handicap_kyo.kif", "投了", "%TORYO"), ("utf8_nobom.kif", "中断", "%CHUDAN")] {
        let file = tabiya(&fixture(name), Format::Kif);
        let csa = records::text(&file.records, Format::Csa).unwrap();
        assert!(csa.ends_with(&format!("{statement}\r\n")), "{csa}");
        let kif = records::text(&tabiya(csa.as_bytes(), Format::Csa).records, Format::Kif).unwrap();
        assert!(kif.contains(&format!("   5 {word}\r\n")), "{kif}");
    }
}

/// KIF → SFEN keeps the moves (`sfen … moves …`, as USI writes a position); such lines, and
/// USI's `position startpos moves …`, read back.
#[test]
fn sfen_lines_keep_moves() {
    let file = tabiya(&fixture("handicap_kyo.kif"), Format::Kif);
    let text = records::text(&file.records, Format::Sfen).unwrap();
    assert_eq!(text, format!("sfen {KYO} moves 4a3b 7g7f 8c8d 2g2f\n"));
    assert_eq!(ours(&tabiya(text.as_bytes(), Format::Sfen)), ours(&file));
    let usi = tabiya(b"position startpos moves 7g7f 3c3d\n", Format::Sfen);
    assert_eq!(ours(&usi).1, ["7g7f", "3c3d"]);
    assert!(records::parse(b"startpos moves 7g7f 7g7f\n", Format::Sfen, None).is_err());
}

/// CSA's `N+`/`N-` and `$` information survive CSA → CSA and become KIF's 先手, 後手, 棋戦,
/// 場所, 開始日時 (and back).
#[test]
fn csa_game_information_survives_and_maps_to_kif() {
    let file = tabiya(&fixture("gps_eucjp.csa"), Format::Csa);
    let csa = records::text(&file.records, Format::Csa).unwrap();
    let original = decoded(&fixture("gps_eucjp.csa"), encoding_rs::EUC_JP);
    for line in [
        "N+ＧＰＳ将棋",
        "N-対局者",
        "$EVENT:第15回世界コンピュータ将棋選手権",
        "$SITE:東京都",
        "$START_TIME:2005/05/03 10:00:00",
    ] {
        assert!(original.contains(line) && csa.contains(&format!("{line}\r\n")), "{line}\n{csa}");
    }
    let kif = records::text(&file.records, Format::Kif).unwrap();
    for line in [
        "先手：ＧＰＳ将棋",
        "後手：対局者",
        "棋戦：第15回世界コンピュータ将棋選手権",
        "場所：東京都",
        "開始日時：2005/05/03 10:00:00",
    ] {
        assert!(kif.contains(&format!("{line}\r\n")), "{line}\n{kif}");
    }
    let back = records::text(&tabiya(kif.as_bytes(), Format::Kif).records, Format::Csa).unwrap();
    assert_eq!(back, csa, "KIF → CSA gives the CSA back");
}

/// Comments on moves (`*` lines after a KIF move, as 柿木将棋 and Kifu for Windows write
/// them) are kept and written back in KIF, KI2 and CSA (they were dropped).
#[test]
fn move_comments_are_kept() {
    let text = "手合割：平手\r\n*対局前のコメント\r\n手数----指手---------消費時間--\r\n   1 ７六歩(77)\r\n*角道を開ける\r\n   2 ３四歩(33)\r\n   3 ２六歩(27)\r\n*居飛車\r\n*二行目\r\n";
    let file = tabiya(text.as_bytes(), Format::Kif);
    let kifu = &file.records[0];
    assert_eq!(kifu.comments, ["対局前のコメント"]);
    assert_eq!(kifu.comments_on(1).collect::<Vec<_>>(), ["角道を開ける"]);
    assert_eq!(kifu.comments_on(3).collect::<Vec<_>>(), ["居飛車", "二行目"]);
    for to in [Format::Kif, Format::Ki2, Format::Csa] {
        let written = records::text(&file.records, to).unwrap();
        let back = tabiya(written.as_bytes(), to);
        assert_eq!(back.records[0].move_comments, kifu.move_comments, "{to}:\n{written}");
        assert_eq!(back.records[0].comments, kifu.comments, "{to}:\n{written}");
    }
    let kif = records::text(&file.records, Format::Kif).unwrap();
    assert!(kif.contains("   1 ７六歩(77)\r\n*角道を開ける\r\n   2 ３四歩(33)\r\n"), "{kif}");
}

/// A KIF's variations and time columns (柿木将棋 writes both) are kept, no longer warned of,
/// and `&読み込み時表示` is read and written back.
#[test]
fn kif_variations_and_times_are_kept_and_directives_kept() {
    let text = "手合割：平手\r\n&読み込み時表示\r\n手数----指手---------消費時間--\r\n   1 ７六歩(77)   ( 0:01/00:00:01)\r\n   2 ３四歩(33)   ( 0:02/00:00:02)+\r\n\r\n変化：2手\r\n   2 ８四歩(83)   ( 0:01/00:00:01)\r\n";
    let file = tabiya(text.as_bytes(), Format::Kif);
    assert!(file.diagnostics.is_empty(), "{:?}", file.diagnostics);
    assert_eq!(ours(&file).1, ["7g7f", "3c3d"]);
    assert_eq!(ours(&file), rsshogi(text, Format::Kif));
    assert_eq!(file.records[0].variations[0].moves.iter().map(|&m| usi(m)).collect::<Vec<_>>(), ["8c8d"]);
    let kif = records::text(&file.records, Format::Kif).unwrap();
    assert_eq!(kif, text);
}

/// A sealed move (`封じ手`, the adjournment of a title match as 柿木将棋 records it) ends the
/// main line, is kept and written back.
#[test]
fn sealed_move_is_kept() {
    let text = "手合割：平手\r\n手数----指手---------消費時間--\r\n   1 ７六歩(77)\r\n   2 ３四歩(33)\r\n   3 封じ手\r\nまで2手で封じ手\r\n";
    let file = tabiya(text.as_bytes(), Format::Kif);
    assert_eq!(file.records[0].end, Some(Ending::Sealed));
    assert_eq!(ours(&file), rsshogi(text, Format::Kif));
    let kif = records::text(&file.records, Format::Kif).unwrap();
    assert!(kif.ends_with("   3 封じ手\r\nまで2手で封じ手\r\n"), "{kif}");
    let ki2 = records::text(&file.records, Format::Ki2).unwrap();
    assert_eq!(tabiya(ki2.as_bytes(), Format::Ki2).records[0].end, Some(Ending::Sealed), "{ki2}");
}

/// JSON Lines is a source as well as a sink: every record of these files comes back from its
/// line whole (headers in file order, start, moves, comments, ending), and KIF written from
/// the line is the KIF written from the file.
#[test]
fn json_lines_read_back_every_record() {
    for (name, format) in [
        ("handicap_kyo.kif", Format::Kif),
        ("handicap_nimai.ki2", Format::Ki2),
        ("gps_eucjp.csa", Format::Csa),
        ("utf8_nobom.kif", Format::Kif),
    ] {
        let file = tabiya(&fixture(name), format);
        let lines = records::write(&file.records, Format::JsonLines, Encoding::Utf8).unwrap();
        let back = tabiya(&lines, Format::JsonLines);
        assert_eq!(back.records, file.records, "{name}");
        let kif = |records: &[tabiya_shogi::notation::Kifu]| records::text(&records[..1], Format::Kif).unwrap();
        assert_eq!(kif(&back.records), kif(&file.records), "{name}");
        assert!(back.diagnostics.is_empty(), "{name}: {:?}", back.diagnostics);
    }
    let error = records::parse(b"{\"sfen\": \"startpos\"}\n", Format::JsonLines, None).unwrap_err();
    assert!(error.to_string().contains("SFEN"), "{error}");
}

/// What is not kept is said: KIF `#` lines (Kakinoki's banner, the encoding declaration) and
/// CSA V3.0 fractions of a second each give a warning naming the first line.
#[test]
fn banner_lines_and_time_fractions_are_warned() {
    let kif = "#KIF version=2.0 encoding=UTF-8\n# ---- Kifu for Windows V7 棋譜ファイル ----\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n";
    let file = tabiya(kif.as_bytes(), Format::Kif);
    let codes: Vec<_> = file.diagnostics.iter().map(|d| (d.code, d.location.number)).collect();
    assert_eq!(codes, [("kif.comment_lines_not_kept", Some(1))]);
    assert!(file.diagnostics[0].message.starts_with("2 "), "{}", file.diagnostics[0].message);
    let csa = "V3.0\nPI\n+\n+7776FU\nT16.250\n-3334FU\nT3\n";
    let file = tabiya(csa.as_bytes(), Format::Csa);
    let codes: Vec<_> = file.diagnostics.iter().map(|d| (d.code, d.location.number)).collect();
    assert_eq!(codes, [("csa.time_fractions_not_kept", Some(5))]);
    assert_eq!(file.records[0].times.iter().flatten().map(|t| t.seconds).collect::<Vec<_>>(), [16, 3]);
}
