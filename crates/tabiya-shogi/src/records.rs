//! KIF, KI2, CSA and SFEN files as a whole: read (the encoding detected, each record into a
//! [`Kifu`]), written (the encoding chosen), and what `info` and `verify` say of them.
//!
//! ```
//! use tabiya_shogi::{Encoding, Format, records};
//!
//! let kif = "手合割：平手\r\n手数----指手---------消費時間--\r\n   1 ７六歩(77)\r\n   2 ３四歩(33)\r\n";
//! let file = records::parse(&Encoding::ShiftJis.encode(kif).unwrap(), Format::Kif, None)?;
//! assert_eq!(file.encoding, Encoding::ShiftJis);
//! assert_eq!(file.records[0].moves.len(), 2);
//! let csa = records::write(&file.records, Format::Csa, file.encoding)?;
//! assert!(csa.ends_with(b"+\r\n+7776FU\r\n-3334FU\r\n"));
//! # Ok::<(), tabiya_shogi::Error>(())
//! ```

use std::path::Path;

use serde_json::json;
use shogi_core::{Move, PartialPosition};
use tabiya_io::report::{Info, Verification};
use tabiya_io::{Diagnostic, Location, Unit};

use crate::notation::kif::Flavour;
use crate::notation::{Ending, Kifu, MoveTime, Variation, csa, kif, sfen};
use crate::{Encoding, Error, Format, board};

/// What a KIF, KI2, CSA or SFEN file holds.
#[derive(Debug, Clone)]
pub struct RecordFile {
    /// The records in file order (KIF and KI2 hold one, CSA several, SFEN one a line).
    pub records: Vec<Kifu>,
    /// The encoding the text was read in.
    pub encoding: Encoding,
    /// What reading met without stopping (bytes the encoding does not allow, …).
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a file (compressed or not: gzip, bzip2, xz, zstd, zip); see [`parse`].
pub fn read(path: &Path, format: Format, encoding: Option<Encoding>) -> Result<RecordFile, Error> {
    let bytes = tabiya_io::read_decompressed(path).map_err(|e| Error::of_input(e, path))?;
    parse_file(path, &bytes, format, encoding)
}

/// [`parse`], with every location naming `path`.
fn parse_file(path: &Path, bytes: &[u8], format: Format, encoding: Option<Encoding>) -> Result<RecordFile, Error> {
    let mut file = parse(bytes, format, encoding).map_err(|e| e.in_file(path))?;
    for d in &mut file.diagnostics {
        *d = d.clone().in_file(path);
    }
    Ok(file)
}

/// Reads the records of a KIF, KI2, CSA or SFEN text in `encoding`, else the one
/// [`Encoding::detect`] finds. A record that does not read is an [`Error::Record`] naming its
/// line.
pub fn parse(bytes: &[u8], format: Format, encoding: Option<Encoding>) -> Result<RecordFile, Error> {
    let encoding = encoding.unwrap_or_else(|| Encoding::detect(bytes));
    let (text, malformed) = encoding.decode(bytes);
    let mut diagnostics = Vec::new();
    if malformed {
        let code = match format {
            Format::Kif => "kif.encoding",
            Format::Ki2 => "ki2.encoding",
            Format::Csa => "csa.encoding",
            _ => "sfen.encoding",
        };
        let what = format!("bytes that are not {encoding}, decoded as U+FFFD (give --from's file an encoding?)");
        diagnostics.push(Diagnostic::warning(code, Location::default(), what));
    }
    diagnostics.extend(not_kept(&text, format));
    let records = match format {
        Format::Kif | Format::Ki2 => vec![kif::read(&text)?],
        Format::Csa => csa::read(&text)?,
        Format::Sfen => sfen_lines(&text)?,
        Format::JsonLines => json_lines(&text)?,
        other => return Err(Error::Output(format!("{other} is not a KIF, KI2, CSA, SFEN or JSON Lines file"))),
    };
    Ok(RecordFile { records, encoding, diagnostics })
}

/// What the readers do not keep, said as warnings instead of dropped silently: KIF and KI2
/// `#` lines (program banners such as Kakinoki's, the `#KIF version=… encoding=…`
/// declaration: the writers write neither), CSA V3.0's fractions of a second (`T16.250` is
/// kept as 16 seconds, what KIF's time column holds).
fn not_kept(text: &str, format: Format) -> Vec<Diagnostic> {
    let lines = || text.split('\n').map(|l| l.trim_start_matches('\u{feff}').trim_end_matches('\r')).enumerate();
    let first_and_count = |found: &dyn Fn(&str) -> bool| {
        let mut matching = lines().filter(|(_, l)| found(l));
        matching.next().map(|(first, _)| (first, 1 + matching.count()))
    };
    let at = |line: usize| Location::of(Unit::Line, line as u64 + 1);
    let mut found = Vec::new();
    if matches!(format, Format::Kif | Format::Ki2)
        && let Some((first, count)) = first_and_count(&|l| l.starts_with('#'))
    {
        let code = if format == Format::Kif { "kif.comment_lines_not_kept" } else { "ki2.comment_lines_not_kept" };
        found.push(Diagnostic::warning(code, at(first), format!("{count} `#` lines not kept (not written back)")));
    }
    let fraction = |l: &str| {
        l.split(',').any(|s| {
            s.strip_prefix('T').and_then(|t| t.split_once('.')).is_some_and(|(w, f)| {
                !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) && !f.is_empty() && f.bytes().any(|b| b != b'0')
            })
        })
    };
    if format == Format::Csa
        && let Some((first, count)) = first_and_count(&fraction)
    {
        let what = format!("{count} move times with fractions of a second kept as whole seconds");
        found.push(Diagnostic::warning("csa.time_fractions_not_kept", at(first), what));
    }
    found
}

/// What a `format` file cannot hold of `records`, said as warnings before they are written:
/// variations (CSA and SFEN have no branches), move times (KI2 and SFEN have no time column).
pub fn left_out(records: &[Kifu], format: Format) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    if !matches!(format, Format::Csa | Format::Sfen | Format::Ki2) {
        return found;
    }
    let variations: usize = records.iter().map(Kifu::variation_count).sum();
    if variations > 0 && format != Format::Ki2 {
        let code = if format == Format::Csa { "csa.variations_left_out" } else { "sfen.variations_left_out" };
        let what = format!("{variations} variations (変化) left out: {format} holds the main line only");
        found.push(Diagnostic::warning(code, Location::default(), what));
    }
    let times: usize = records.iter().map(|k| k.times.iter().flatten().count()).sum();
    if times > 0 && format != Format::Csa {
        let code = if format == Format::Ki2 { "ki2.times_left_out" } else { "sfen.times_left_out" };
        let what = format!("{times} move times left out: {format} has no time column");
        found.push(Diagnostic::warning(code, Location::default(), what));
    }
    found
}

/// One position a line; blank lines are skipped.
fn sfen_lines(text: &str) -> Result<Vec<Kifu>, Error> {
    let mut records = Vec::new();
    for (at, line) in tabiya_io::located_lines(text.split('\n')) {
        if line.trim().is_empty() {
            continue;
        }
        let located = |code: &'static str, e: String| Error::Record(Diagnostic::error(code, at.clone(), e));
        let (position, moves) = line.split_once(" moves").unwrap_or((line, ""));
        let position = position.trim().strip_prefix("position ").unwrap_or(position.trim());
        let start = match position {
            "startpos" => PartialPosition::startpos(),
            text => sfen::parse(text).map_err(|e| located("sfen.position", e))?,
        };
        let mut kifu = Kifu::new(start);
        let mut current = kifu.start.clone();
        let texts: Vec<String> = moves.split_ascii_whitespace().map(str::to_owned).collect();
        kifu.moves =
            usi_moves(&mut current, &texts).map_err(|e| located("sfen.illegal_move", format!("expected {e}")))?;
        records.push(kifu);
    }
    Ok(records)
}

/// A SFEN line: the position alone, or `sfen POSITION moves M1 M2 …` (USI's form) when the
/// record has moves.
fn sfen_line(kifu: &Kifu) -> String {
    if kifu.moves.is_empty() {
        return sfen::write(&kifu.start) + "\n";
    }
    let moves: Vec<String> = kifu.moves.iter().map(|&m| board::usi(m)).collect();
    format!("sfen {} moves {}\n", sfen::write(&kifu.start), moves.join(" "))
}

/// The text of `records` in `format`: KIF and KI2 hold one record, CSA several (separated by
/// `/`), SFEN one a line (`sfen POSITION moves …` when it has moves), JSON Lines one a line.
/// CSA hands are written piece by piece (`P-00AL` is for T-BASE problems, see
/// [`convert`](crate::convert)). What the format cannot hold is left out: say it with
/// [`left_out`].
pub fn text(records: &[Kifu], format: Format) -> Result<String, Error> {
    Ok(match format {
        Format::Csa => csa::write(records, false),
        Format::Sfen => records.iter().map(sfen_line).collect(),
        Format::Kif | Format::Ki2 => {
            let [record] = records else {
                return Err(Error::Output(format!("{format} holds one record; {} given", records.len())));
            };
            kif::write(record, if format == Format::Kif { Flavour::Kif } else { Flavour::Ki2 })
        }
        Format::JsonLines => records.iter().map(|k| json_line(k) + "\n").collect(),
        other => return Err(Error::Output(format!("{other} is not written from KIF, KI2, CSA or SFEN records"))),
    })
}

/// [`text`] encoded: SFEN and JSON Lines are UTF-8 whatever `encoding` says.
pub fn write(records: &[Kifu], format: Format, encoding: Encoding) -> Result<Vec<u8>, Error> {
    encode(&text(records, format)?, format, encoding)
}

/// Encodes the text of a `format` file: KIF, KI2 and CSA in `encoding`, the others UTF-8.
pub fn encode(text: &str, format: Format, encoding: Encoding) -> Result<Vec<u8>, Error> {
    if !matches!(format, Format::Kif | Format::Ki2 | Format::Csa) {
        return Ok(text.as_bytes().to_vec());
    }
    encoding.encode(text).map_err(|c| {
        Error::Output(format!("{c:?} has no {encoding} code (write UTF-8: .kifu/.ki2u or --encoding utf-8)"))
    })
}

/// A record as one JSON object: headers, start SFEN, moves in USI, comments.
fn json_line(kifu: &Kifu) -> String {
    json!({
        "headers": kifu.headers,
        "sfen": sfen::write(&kifu.start),
        "moves": kifu.moves.iter().map(|&m| board::usi(m)).collect::<Vec<_>>(),
        "comments": kifu.comments,
        "move_comments": kifu.move_comments,
        "end": kifu.end.map(Ending::kif),
        "times": kifu.times,
        "variations": kifu.variations.iter().map(variation_json).collect::<Vec<_>>(),
    })
    .to_string()
}

/// A variation as JSON: the number of its first move, moves in USI, times, comments, ending,
/// the variations off it.
fn variation_json(v: &Variation) -> serde_json::Value {
    json!({
        "ply": v.ply,
        "moves": v.moves.iter().map(|&m| board::usi(m)).collect::<Vec<_>>(),
        "times": v.times,
        "move_comments": v.move_comments,
        "end": v.end.map(Ending::kif),
        "variations": v.variations.iter().map(variation_json).collect::<Vec<_>>(),
    })
}

/// The legal moves of USI texts played from `position`, which ends after them.
fn usi_moves(position: &mut PartialPosition, texts: &[String]) -> Result<Vec<Move>, String> {
    let mut moves = Vec::with_capacity(texts.len());
    for text in texts {
        let mv = board::legal_moves(position).into_iter().find(|&m| board::usi(m) == *text);
        let mv = mv.ok_or_else(|| format!("a legal USI move, found {text:?}"))?;
        position.make_move(mv);
        moves.push(mv);
    }
    Ok(moves)
}

fn json_end(word: Option<String>) -> Result<Option<Ending>, String> {
    match word {
        Some(word) => Ending::from_kif(&word).map(Some).ok_or_else(|| format!("an ending, found {word:?}")),
        None => Ok(None),
    }
}

/// The variations of a JSON line that branch off the line of `moves` from move number `first`,
/// played from `start`.
fn json_variations(
    list: Vec<JsonVariation>,
    start: &PartialPosition,
    first: usize,
    moves: &[Move],
) -> Result<Vec<Variation>, String> {
    let mut read = Vec::with_capacity(list.len());
    for v in list {
        let before = v.ply.checked_sub(first).filter(|&n| n <= moves.len() && v.ply > 0);
        let before = before
            .ok_or_else(|| format!("a variation from move {first} to {}, found {}", first + moves.len(), v.ply))?;
        let mut position = start.clone();
        for &mv in &moves[..before] {
            position.make_move(mv);
        }
        let branch = position.clone();
        let mut variation = Variation::new(v.ply);
        variation.moves = usi_moves(&mut position, &v.moves)?;
        variation.variations = json_variations(v.variations, &branch, v.ply, &variation.moves)?;
        variation.times = v.times;
        variation.move_comments = v.move_comments;
        variation.end = json_end(v.end)?;
        read.push(variation);
    }
    Ok(read)
}

/// The records of a JSON Lines text as [`json_line`] writes them, one a line; blank lines are
/// skipped. `headers` is a list of `[key, value]` pairs (file order and repeated keys kept).
fn json_lines(text: &str) -> Result<Vec<Kifu>, Error> {
    let mut records = Vec::new();
    for (at, line) in tabiya_io::located_lines(text.split('\n')) {
        if line.trim().is_empty() {
            continue;
        }
        let located = |e: String| Error::Record(Diagnostic::error("jsonl.record", at.clone(), format!("expected {e}")));
        let record: JsonRecord = serde_json::from_str(line).map_err(|e| located(format!("a shogi record ({e})")))?;
        let mut kifu = Kifu::new(sfen::parse(&record.sfen).map_err(|e| located(format!("an SFEN position ({e})")))?);
        let mut current = kifu.start.clone();
        kifu.moves = usi_moves(&mut current, &record.moves).map_err(located)?;
        kifu.end = json_end(record.end).map_err(located)?;
        kifu.times = record.times;
        kifu.variations = json_variations(record.variations, &kifu.start, 1, &kifu.moves).map_err(located)?;
        kifu.headers = record.headers;
        kifu.comments = record.comments;
        kifu.move_comments = record.move_comments;
        records.push(kifu);
    }
    Ok(records)
}

/// One line of a records JSON Lines file.
#[derive(serde::Deserialize)]
struct JsonRecord {
    #[serde(default)]
    headers: Vec<(String, String)>,
    sfen: String,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    comments: Vec<String>,
    #[serde(default)]
    move_comments: Vec<(usize, String)>,
    end: Option<String>,
    #[serde(default)]
    times: Vec<Option<MoveTime>>,
    #[serde(default)]
    variations: Vec<JsonVariation>,
}

/// A variation in a records JSON Lines file, as [`variation_json`] writes it.
#[derive(serde::Deserialize)]
struct JsonVariation {
    ply: usize,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    times: Vec<Option<MoveTime>>,
    #[serde(default)]
    move_comments: Vec<(usize, String)>,
    end: Option<String>,
    #[serde(default)]
    variations: Vec<JsonVariation>,
}

/// `info` of a KIF, KI2, CSA or SFEN file: bytes, records, moves, encoding, the first record's
/// start SFEN and headers.
pub fn info(path: &Path, format: Format) -> Result<Info, Error> {
    let bytes = tabiya_io::read_decompressed(path).map_err(|e| Error::of_input(e, path))?;
    // The file's size on disk; a stream's, the bytes it gave (it can be read once).
    let size = std::fs::metadata(path).ok().filter(|m| m.is_file()).map_or(bytes.len() as u64, |m| m.len());
    let file = parse_file(path, &bytes, format, None)?;
    let mut info = Info::new(path, format.name());
    info.count("bytes", size);
    info.count("records", file.records.len());
    info.count("moves", file.records.iter().map(|k| k.moves.len()).sum::<usize>());
    info.header("encoding", file.encoding.name());
    if let Some(first) = file.records.first() {
        info.header("first_sfen", sfen::write(&first.start));
        for (k, v) in &first.headers {
            info.header(k, v.as_str());
        }
    }
    info.problems = file.diagnostics;
    Ok(info)
}

/// `verify` of a KIF, KI2 or CSA file: every move legal (a record that does not read is an
/// error at its line), the stated end agrees with the position (`詰み`/`%TSUMI` is mate), the
/// `手数` header of a tsume record equals its moves.
pub fn verify(path: &Path, format: Format) -> Result<Verification, Error> {
    let mut v = Verification::new(path, format.name());
    let file = match read(path, format, None) {
        Ok(file) => file,
        Err(e @ (Error::Record(_) | Error::Data(_))) => {
            v.problem(e.diagnostic("shogi.record").in_file(path));
            v.checked("records", 0).checked("moves", 0);
            return Ok(v);
        }
        Err(e) => return Err(e),
    };
    v.problems(file.diagnostics.iter().cloned());
    for (i, kifu) in file.records.iter().enumerate() {
        let at = Location::of(Unit::Game, i as u64 + 1).in_file(path);
        v.problems(kifu.check(format, at));
    }
    v.checked("records", file.records.len());
    v.checked("moves", file.records.iter().map(|k| k.moves.len()).sum::<usize>());
    Ok(v)
}
