//! The answers every format gives to `info`, `verify` and `probe`, in one shape each, with
//! their JSON (design.md's contract) and their plain text. Formats fill them in; the command
//! line, the Python package and the web explorer print or serve them.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Severity};

mod statistics;

pub use statistics::{Frequent, FrequentNames, GameFacts, Outcome, Ratings, Results, Statistics, Tally};

/// What every report is: JSON through serde, and plain text for people.
pub trait Report: Serialize {
    /// The report as people read it.
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()>;

    /// The report as one JSON object on a line.
    fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        write_json(out, self)
    }
}

/// What a file is: `{"path", "format", "version", "counts", "header"}`.
#[derive(Debug, Clone, Serialize)]
pub struct Info {
    /// The file as it was named.
    pub path: PathBuf,
    /// The format's stable name (`scid4`, `wthor_games`, …).
    pub format: &'static str,
    /// The format's version, when it has one.
    pub version: Value,
    /// How many of each thing the file holds, by name.
    pub counts: Map<String, Value>,
    /// Header fields.
    pub header: Map<String, Value>,
    /// What a collection of games holds (games, results, dates, ratings, frequent names).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statistics: Option<Statistics>,
    /// What reading found; `info` shows it and counts it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Diagnostic>,
}

impl Info {
    /// An empty report on `path`.
    pub fn new(path: &Path, format: &'static str) -> Info {
        Info {
            path: path.to_path_buf(),
            format,
            version: Value::Null,
            counts: Map::new(),
            header: Map::new(),
            statistics: None,
            problems: Vec::new(),
        }
    }

    /// Adds a count.
    pub fn count(&mut self, name: &str, value: impl Into<Value>) -> &mut Self {
        self.counts.insert(name.to_owned(), value.into());
        self
    }

    /// Adds a header field.
    pub fn header(&mut self, name: &str, value: impl Into<Value>) -> &mut Self {
        self.header.insert(name.to_owned(), value.into());
        self
    }
}

impl Report for Info {
    /// Plain text: one `name: value` line each, counts and header indented under their title.
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "path: {}", self.path.display())?;
        writeln!(out, "format: {}", self.format)?;
        if !self.version.is_null() {
            writeln!(out, "version: {}", plain(&self.version))?;
        }
        for (title, map) in [("counts", &self.counts), ("header", &self.header)] {
            if !map.is_empty() {
                writeln!(out, "{title}:")?;
                for (k, v) in map {
                    writeln!(out, "  {k}: {}", plain(v))?;
                }
            }
        }
        if let Some(s) = &self.statistics {
            write_statistics(out, s)?;
        }
        for p in &self.problems {
            writeln!(out, "{p}")?;
        }
        Ok(())
    }
}

/// The statistics as text: a `statistics:` block of `name: value` lines.
fn write_statistics(out: &mut dyn Write, s: &Statistics) -> io::Result<()> {
    let r = &s.results;
    writeln!(out, "statistics:")?;
    writeln!(out, "  games: {}", s.games)?;
    writeln!(out, "  plies: {}", s.plies)?;
    writeln!(out, "  results: white {}, draw {}, black {}, unknown {}", r.white, r.draw, r.black, r.unknown)?;
    if let Some([first, last]) = &s.dates {
        writeln!(out, "  dates: {first} to {last}")?;
    }
    if let Some(r) = &s.ratings {
        writeln!(out, "  ratings: {} to {}, mean {:.1} ({} ratings)", r.min, r.max, r.mean, r.count)?;
    }
    for (title, list) in [("players", &s.players), ("events", &s.events), ("openings", &s.openings)] {
        if !list.is_empty() {
            let shown: Vec<String> = list.iter().map(|f| format!("{} ({})", f.name, f.games)).collect();
            writeln!(out, "  {title}: {}", shown.join(", "))?;
        }
    }
    if s.frequency_error > 0 {
        writeln!(out, "  (frequent names: counts low by at most {})", s.frequency_error)?;
    }
    writeln!(out, "  problems: {}", s.problems)
}

/// An integrity check: `{"path", "format", "ok", "checked", "problems"}`. `ok` is false when
/// any problem is an error.
#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    /// The file as it was named.
    pub path: PathBuf,
    /// The format's stable name.
    pub format: &'static str,
    /// No error among the problems.
    pub ok: bool,
    /// How many of each thing was checked, by name.
    pub checked: Map<String, Value>,
    /// Everything found, errors and warnings, in the order found.
    pub problems: Vec<Diagnostic>,
}

impl Verification {
    /// A clean report on `path`.
    pub fn new(path: &Path, format: &'static str) -> Verification {
        Verification { path: path.to_path_buf(), format, ok: true, checked: Map::new(), problems: Vec::new() }
    }

    /// Adds a count of what was checked.
    pub fn checked(&mut self, name: &str, value: impl Into<Value>) -> &mut Self {
        self.checked.insert(name.to_owned(), value.into());
        self
    }

    /// Adds a problem; an error makes the report not ok.
    pub fn problem(&mut self, diagnostic: Diagnostic) {
        if diagnostic.severity == Severity::Error {
            self.ok = false;
        }
        self.problems.push(diagnostic);
    }

    /// Adds problems.
    pub fn problems(&mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) {
        for d in diagnostics {
            self.problem(d);
        }
    }
}

impl Report for Verification {
    /// Plain text: each problem on a line, then `PATH: FORMAT (counts): ok|PROBLEMS FOUND`
    /// (`nothing checked` in place of the counts when there are none).
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        for p in &self.problems {
            writeln!(out, "{p}")?;
        }
        let checked: Vec<String> = self.checked.iter().map(|(k, v)| format!("{k} {}", plain(v))).collect();
        // A file that could not be read at all checked nothing: say so rather than `()`.
        let checked = if checked.is_empty() { "nothing checked".to_owned() } else { checked.join(", ") };
        writeln!(
            out,
            "{}: {} ({}): {}",
            self.path.display(),
            self.format,
            checked,
            if self.ok { "ok" } else { "PROBLEMS FOUND" }
        )
    }
}

impl crate::diagnostic::DiagnosticSink for Verification {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.problem(diagnostic);
    }
}

/// One move of a book or tree look-up. Statistics are from the point of view of the side that
/// plays the move.
#[derive(Debug, Clone, Serialize)]
pub struct ProbeMove {
    /// The move in UCI (`e2e4`, `e1g1`).
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// The weight the book gives it (what an engine's choice is proportional to).
    pub weight: u64,
    /// Games that played it, when the book counts them.
    pub games: Option<u64>,
    /// Games the mover won.
    pub wins: Option<u64>,
    /// Drawn games.
    pub draws: Option<u64>,
    /// Games the mover lost.
    pub losses: Option<u64>,
    /// `!`, `?`, … when the book annotates moves.
    pub annotation: Option<String>,
    /// Format-specific raw fields.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A book look-up: `{"book", "format", "fen", "found", "position", "moves"}`; moves in the
/// book's own order.
#[derive(Debug, Clone, Serialize)]
pub struct Probe {
    /// The book as it was named.
    pub book: PathBuf,
    /// The format's stable name.
    pub format: &'static str,
    /// The position looked up.
    pub fen: String,
    /// Whether the book holds the position.
    pub found: bool,
    /// Format-specific statistics of the position.
    pub position: Map<String, Value>,
    /// The book's moves.
    pub moves: Vec<ProbeMove>,
    /// What the look-up met (hash collisions, illegal stored moves).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Diagnostic>,
}

impl Probe {}

impl Report for Probe {
    /// Plain text, what a player reads: the FEN, then a line per move, heaviest first, with
    /// its games, its score from the mover's view, its annotation and its share of the
    /// weights. The book's raw fields are in the JSON only.
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}", self.fen)?;
        if !self.found {
            return writeln!(out, "not in the book");
        }
        let total: u64 = self.moves.iter().map(|m| m.weight).sum();
        let mut moves: Vec<&ProbeMove> = self.moves.iter().collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        writeln!(out, "{:<8} {:>7}  {:<26} {:<4} weight", "move", "games", "score for the mover", "")?;
        for m in moves {
            let games = m.games.map_or_else(|| "-".to_owned(), |g| g.to_string());
            let score = match (m.wins, m.draws, m.losses) {
                (Some(w), Some(d), Some(l)) if w + d + l > 0 => {
                    let percent = 100.0 * (w as f64 + d as f64 / 2.0) / (w + d + l) as f64;
                    format!("{percent:5.1}% +{w} ={d} -{l}")
                }
                _ => "-".to_owned(),
            };
            let share = if total > 0 { 100.0 * m.weight as f64 / total as f64 } else { 0.0 };
            let annotation = m.annotation.as_deref().unwrap_or("");
            writeln!(out, "{:<8} {games:>7}  {score:<26} {annotation:<4} {} ({share:.1}%)", m.san, m.weight)?;
        }
        Ok(())
    }
}

/// One JSON object on a line.
pub fn write_json(out: &mut (impl Write + ?Sized), value: &(impl Serialize + ?Sized)) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}

/// A JSON value as a person reads it: strings without quotes.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Location;

    #[test]
    fn verification_json_and_text() {
        let mut v = Verification::new(Path::new("g.pgn"), "pgn");
        v.checked("games", 2);
        v.problem(Diagnostic::warning("pgn.x", Location::record(1), "odd"));
        assert!(v.ok);
        v.problem(Diagnostic::error("pgn.y", Location::record(2), "bad"));
        assert!(!v.ok);
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["ok"], false);
        assert_eq!(json["checked"], serde_json::json!({"games": 2}));
        assert_eq!(json["problems"][1]["where"], "<input> (record 2)");
        assert_eq!(json["problems"][1]["severity"], "error");
        let mut text = Vec::new();
        v.write_text(&mut text).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "warning: <input> (record 1): odd\nerror: <input> (record 2): bad\ng.pgn: pgn (games 2): PROBLEMS FOUND\n"
        );
        let mut unread = Verification::new(Path::new("x.si4"), "scid4");
        unread.problem(Diagnostic::error("scid.magic", Location::at(0), "not an index"));
        let mut text = Vec::new();
        unread.write_text(&mut text).unwrap();
        assert!(String::from_utf8(text).unwrap().ends_with("x.si4: scid4 (nothing checked): PROBLEMS FOUND\n"));
    }

    #[test]
    fn info_json_keeps_field_order() {
        let mut i = Info::new(Path::new("b.bin"), "polyglot");
        i.count("entries", 3).count("positions", 2).header("sorted", true);
        let mut out = Vec::new();
        write_json(&mut out, &i).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"path\":\"b.bin\",\"format\":\"polyglot\",\"version\":null,\"counts\":{\"entries\":3,\"positions\":2},\"header\":{\"sorted\":true}}\n"
        );
    }

    #[test]
    fn probe_text_is_what_a_player_reads() {
        let m = |san: &str, weight, wdl: Option<(u64, u64, u64)>| ProbeMove {
            uci: "e2e4".into(),
            san: san.into(),
            weight,
            games: wdl.map(|(w, d, l)| w + d + l),
            wins: wdl.map(|(w, _, _)| w),
            draws: wdl.map(|(_, d, _)| d),
            losses: wdl.map(|(_, _, l)| l),
            annotation: (san == "d4").then(|| "!".to_owned()),
            extra: Map::from_iter([("unknown_12".to_owned(), Value::from(7))]),
        };
        let p = Probe {
            book: "b.ctg".into(),
            format: "ctg",
            fen: "F".into(),
            found: true,
            position: Map::from_iter([("page".to_owned(), Value::from(3))]),
            // The book's order, lightest first: the text sorts by weight.
            moves: vec![m("d4", 1, Some((2, 1, 1))), m("e4", 3, None)],
            problems: Vec::new(),
        };
        let mut out = Vec::new();
        p.write_text(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        assert_eq!(
            lines,
            [
                "F",
                "move       games  score for the mover             weight",
                "e4             -  -                               3 (75.0%)",
                "d4             4   62.5% +2 =1 -1            !    1 (25.0%)",
            ]
        );
    }
}
