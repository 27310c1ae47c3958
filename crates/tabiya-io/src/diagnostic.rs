//! One shape for every problem a reader or a check finds, in every format: a severity set by
//! the code that found it, a location (file, byte offset, and the numbered unit of the format:
//! record, game, page, block, entry, line, …), a stable code for scripts, and a message for
//! people. Readers report through a [`DiagnosticSink`] instead of stopping: like python-chess's
//! `handle_error`, the caller decides what a problem means for the job.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::ser::SerializeStruct;

/// How bad a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The data is wrong, or something was lost: `verify` fails and the exit status shows it.
    Error,
    /// A deviation real files show; reading goes on and nothing is lost.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// The numbered unit a format is made of, for the location of a problem.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// A fixed-size record (Wthor games, SCID index entries, T-BASE diagrams).
    #[default]
    Record,
    /// A game of a game collection (PGN, SCID, KIF).
    Game,
    /// A page of a paged file (CTG).
    Page,
    /// A block of a blocked file (Kvetka).
    Block,
    /// An entry of a book (Polyglot).
    Entry,
    /// A line of a text file.
    Line,
}

impl Unit {
    /// The unit's name as locations print it.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Record => "record",
            Unit::Game => "game",
            Unit::Page => "page",
            Unit::Block => "block",
            Unit::Entry => "entry",
            Unit::Line => "line",
        }
    }
}

/// Where in the input something was found: the file, the byte offset, the number of the unit.
/// Any of them may be unknown; `Display` prints what is known, e.g. `games.si4@0x1a2 (record 17)`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// The file, when known.
    pub file: Option<PathBuf>,
    /// The byte offset in the file.
    pub offset: Option<u64>,
    /// What [`number`](Location::number) counts.
    pub unit: Unit,
    /// The number of the record, game, page, … (as the format numbers them, usually from 1).
    pub number: Option<u64>,
}

impl Location {
    /// A byte offset alone.
    pub fn at(offset: u64) -> Location {
        Location { offset: Some(offset), ..Location::default() }
    }

    /// Record number `record` alone.
    pub fn record(record: u64) -> Location {
        Location::of(Unit::Record, record)
    }

    /// Unit number `number` alone.
    pub fn of(unit: Unit, number: u64) -> Location {
        Location { unit, number: Some(number), ..Location::default() }
    }

    /// The whole file.
    pub fn file(file: &Path) -> Location {
        Location { file: Some(file.to_path_buf()), ..Location::default() }
    }

    /// Fills in the file if the location does not name one yet.
    pub fn in_file(mut self, file: &Path) -> Location {
        if self.file.is_none() {
            self.file = Some(file.to_path_buf());
        }
        self
    }

    /// Sets the record number.
    pub fn with_record(self, record: u64) -> Location {
        self.with(Unit::Record, record)
    }

    /// Sets the unit and its number.
    pub fn with(mut self, unit: Unit, number: u64) -> Location {
        self.unit = unit;
        self.number = Some(number);
        self
    }

    /// Sets the byte offset.
    pub fn with_offset(mut self, offset: u64) -> Location {
        self.offset = Some(offset);
        self
    }
}

/// Each of `lines` (a text split at its `\n`s, as `str` or bytes) with its [`Location`]: the
/// line's number, from 1, and the offset of its first byte; line-based readers name a finding
/// by both.
pub fn located_lines<L: AsRef<[u8]>>(lines: impl Iterator<Item = L>) -> impl Iterator<Item = (Location, L)> {
    let mut offset = 0u64;
    lines.enumerate().map(move |(index, line)| {
        let at = Location::of(Unit::Line, index as u64 + 1).with_offset(offset);
        offset += line.as_ref().len() as u64 + 1;
        (at, line)
    })
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) => write!(f, "{}", file.display())?,
            None => f.write_str("<input>")?,
        }
        if let Some(offset) = self.offset {
            write!(f, "@{offset:#x}")?;
        }
        if let Some(number) = self.number {
            write!(f, " ({} {number})", self.unit.name())?;
        }
        Ok(())
    }
}

/// One problem found while reading or checking, in any format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Set by the code that found the problem.
    pub severity: Severity,
    /// Stable, dotted and snake_case (`pgn.illegal_move`, `wthor.header_count`): scripts match
    /// on it, and it never changes once released.
    pub code: &'static str,
    /// Where it was found.
    pub location: Location,
    /// What was expected and what was there, for people.
    pub message: String,
}

impl Diagnostic {
    /// An error: the data is wrong, or something was lost.
    pub fn error(code: &'static str, location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, code, location, message: message.into() }
    }

    /// A warning: a deviation real files show, nothing lost.
    pub fn warning(code: &'static str, location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, code, location, message: message.into() }
    }

    /// True for [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Fills in the file if the location does not name one yet.
    pub fn in_file(mut self, file: &Path) -> Diagnostic {
        self.location = self.location.in_file(file);
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.severity, self.location, self.message)
    }
}

/// JSON: `{"severity", "code", "where", "what", "location": {file, offset, unit, number}}`;
/// `where` and `what` are design.md's names, `location` the same place for machines.
impl serde::Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Diagnostic", 5)?;
        s.serialize_field("severity", &self.severity)?;
        s.serialize_field("code", self.code)?;
        s.serialize_field("where", &self.location.to_string())?;
        s.serialize_field("what", &self.message)?;
        s.serialize_field("location", &self.location)?;
        s.end()
    }
}

/// Where readers and checks send what they find. `Vec<Diagnostic>` collects them; a caller can
/// also print them as they come, count them, or stop at the first error.
pub trait DiagnosticSink {
    /// Takes one problem.
    fn report(&mut self, diagnostic: Diagnostic);

    /// Reports an error.
    fn error(&mut self, code: &'static str, location: Location, message: impl Into<String>)
    where
        Self: Sized,
    {
        self.report(Diagnostic::error(code, location, message));
    }

    /// Reports a warning.
    fn warning(&mut self, code: &'static str, location: Location, message: impl Into<String>)
    where
        Self: Sized,
    {
        self.report(Diagnostic::warning(code, location, message));
    }
}

impl DiagnosticSink for Vec<Diagnostic> {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.push(diagnostic);
    }
}

impl<S: DiagnosticSink + ?Sized> DiagnosticSink for &mut S {
    fn report(&mut self, diagnostic: Diagnostic) {
        (**self).report(diagnostic);
    }
}

/// True when any of `diagnostics` is an error.
pub fn any_error<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> bool {
    diagnostics.into_iter().any(Diagnostic::is_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_located_by_number_and_offset() {
        let text = "ab\n\r\nxyz";
        let located: Vec<_> = located_lines(text.split('\n')).map(|(at, line)| (at.number, at.offset, line)).collect();
        assert_eq!(located, [(Some(1), Some(0), "ab"), (Some(2), Some(3), "\r"), (Some(3), Some(5), "xyz")]);
    }

    #[test]
    fn location_prints_what_is_known() {
        assert_eq!(Location::default().to_string(), "<input>");
        let at = Location::at(0x1a2).in_file(Path::new("games.si4")).with_record(17);
        assert_eq!(at.to_string(), "games.si4@0x1a2 (record 17)");
        assert_eq!(Location::of(Unit::Page, 3).to_string(), "<input> (page 3)");
    }

    #[test]
    fn json_shape() {
        let d = Diagnostic::error("pgn.illegal_move", Location::of(Unit::Game, 4).with_offset(16), "Nf6 is illegal");
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "severity": "error", "code": "pgn.illegal_move", "where": "<input>@0x10 (game 4)",
                "what": "Nf6 is illegal",
                "location": {"file": null, "offset": 16, "unit": "game", "number": 4}
            })
        );
    }

    #[test]
    fn sinks_collect_in_order() {
        let mut found: Vec<Diagnostic> = Vec::new();
        found.warning("a.b", Location::record(1), "first");
        found.error("a.c", Location::record(2), "second");
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), ["a.b", "a.c"]);
        assert!(any_error(&found));
    }
}
