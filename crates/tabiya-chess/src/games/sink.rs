//! Where games go: PGN or JSON Lines text, or a SCID 4/5 database.

use std::io::Write;
use std::path::{Path, PathBuf};

use tabiya_io::{Diagnostic, DiagnosticSink, Location, Unit};

use super::ReadReport;
use super::source::Source;
use super::{GamesError, codes};
use crate::game::Game;
use crate::jsonl;
use crate::pgn::WriterOptions;
use crate::pgn::write::push_game;
use crate::scid::encode::{Encoded, encode_game};
use crate::scid::export::export_pgn;
use crate::scid::{DatabaseWriter, Version};

/// A writer of games in one format: PGN or JSON Lines text to `W`, or a SCID database.
///
/// ```
/// use tabiya_chess::games::{Sink, Source};
/// use tabiya_chess::pgn::WriterOptions;
///
/// let dir = tempfile::tempdir()?;
/// let pgn = dir.path().join("games.pgn");
/// std::fs::write(&pgn, "[White \"Morphy\"]\n\n1. e4 e5 2. Nf3 d6 1-0\n")?;
/// let mut out = Vec::new();
/// let mut sink = Sink::json_lines(&mut out, "games.jsonl".as_ref());
/// let mut found = Vec::new();
/// sink.add_source(&Source::open(&pgn)?, &mut found, |_| {})?;
/// assert_eq!(sink.finish(&mut found)?.written, 1);
/// assert!(found.is_empty());
/// assert!(String::from_utf8(out)?.contains(r#""san":"Nf3""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Sink<W: Write + Send> {
    kind: SinkKind<W>,
    /// The output, for errors.
    path: PathBuf,
    written: u64,
    /// What every game goes through before it is written ([`Sink::editing`]).
    edit: Option<fn(&mut Game)>,
}

enum SinkKind<W> {
    Pgn { out: W, options: WriterOptions },
    JsonLines { out: W },
    Scid(Box<DatabaseWriter>),
}

/// What a sink wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SinkSummary {
    /// Games written by this sink.
    pub written: u64,
    /// Games the output holds now (a SCID database appended to holds more).
    pub total: u64,
}

/// What a game is made into for a sink, on the thread that read it.
pub(super) enum Preparer {
    Pgn(WriterOptions),
    JsonLines,
    Scid(Version),
}

impl Preparer {
    pub(super) fn prepare(&self, game: &Game) -> Prepared {
        match self {
            Preparer::Pgn(options) => {
                let mut text = Vec::with_capacity(1024);
                push_game(game, options, &mut text);
                Prepared::Text(text)
            }
            Preparer::JsonLines => {
                let mut text = Vec::with_capacity(1024);
                match jsonl::push_game(game, &mut text) {
                    Ok(()) => Prepared::Text(text),
                    Err(e) => Prepared::Unwritable(e.to_string()),
                }
            }
            Preparer::Scid(version) => Prepared::Scid(encode_game(game, *version)),
        }
    }
}

/// A game made ready for its sink on the thread that read it.
pub(super) enum Prepared {
    /// PGN or JSON Lines text.
    Text(Vec<u8>),
    /// A SCID record, or why the game cannot be stored.
    Scid(Result<Encoded, String>),
    /// A game the sink cannot write, and why.
    Unwritable(String),
}

impl<W: Write + Send> Sink<W> {
    /// PGN text laid out by `options`, written to `out` (named `path` in errors).
    pub fn pgn(out: W, path: &Path, options: WriterOptions) -> Sink<W> {
        Sink { kind: SinkKind::Pgn { out, options }, path: path.to_path_buf(), written: 0, edit: None }
    }

    /// JSON Lines (see [`crate::jsonl`]), written to `out` (named `path` in errors).
    pub fn json_lines(out: W, path: &Path) -> Sink<W> {
        Sink { kind: SinkKind::JsonLines { out }, path: path.to_path_buf(), written: 0, edit: None }
    }

    /// A SCID database being written; games are stored at [`Sink::finish`].
    pub fn scid(writer: DatabaseWriter) -> Sink<W> {
        let path = writer.paths().index.clone();
        Sink { kind: SinkKind::Scid(Box::new(writer)), path, written: 0, edit: None }
    }

    /// Every game goes through `edit` before it is written: `convert --add-eco` passes
    /// [`crate::openings::add_eco`].
    pub fn editing(mut self, edit: fn(&mut Game)) -> Sink<W> {
        self.edit = Some(edit);
        self
    }

    /// How games are made ready for this sink, apart from the sink (to be shared by threads).
    pub(super) fn preparer(&self) -> Preparer {
        match &self.kind {
            SinkKind::Pgn { options, .. } => Preparer::Pgn(options.clone()),
            SinkKind::JsonLines { .. } => Preparer::JsonLines,
            SinkKind::Scid(writer) => Preparer::Scid(writer.version()),
        }
    }

    /// Writes a prepared game; `at` locates it for a diagnostic.
    pub(super) fn store(
        &mut self,
        prepared: Prepared,
        at: impl FnOnce() -> Location,
        diagnostics: &mut impl DiagnosticSink,
    ) -> Result<(), GamesError> {
        let io = |source| GamesError::Io { path: self.path.clone(), source };
        match (prepared, &mut self.kind) {
            (Prepared::Text(text), SinkKind::Pgn { out, .. } | SinkKind::JsonLines { out }) => {
                out.write_all(&text).map_err(io)?;
                self.written += 1;
            }
            (Prepared::Scid(encoded), SinkKind::Scid(writer)) => {
                // The writer keeps what it could not store; reported by `finish`.
                writer.add_encoded(encoded)?;
            }
            (Prepared::Unwritable(why), _) => {
                diagnostics.report(Diagnostic::error(codes::UNWRITABLE_GAME, at(), format!("not written: {why}")));
            }
            // A sink only stores what it prepared.
            (Prepared::Text(_) | Prepared::Scid(_), _) => unreachable!("a game prepared for another sink"),
        }
        Ok(())
    }

    /// Adds one game.
    pub fn add(&mut self, game: &Game, diagnostics: &mut impl DiagnosticSink) -> Result<(), GamesError> {
        let prepared = match self.edit {
            Some(edit) => {
                let mut edited = game.clone();
                edit(&mut edited);
                self.preparer().prepare(&edited)
            }
            None => self.preparer().prepare(game),
        };
        let number = self.written + 1;
        self.store(prepared, || Location::of(Unit::Game, number), diagnostics)
    }

    /// Adds every game of `source` in order, read and made ready on all cores (see
    /// [`Source::read_in_parallel`]). What reading found (repairs, games that could not be read)
    /// goes to `diagnostics`, each once; `progress` is called with the number of games handled.
    /// A SCID database written as PGN takes the exporter's path: SCID 5.0.2's text from the
    /// moves' SAN found while decoding.
    pub fn add_source(
        &mut self,
        source: &Source,
        diagnostics: &mut (impl DiagnosticSink + Send),
        mut progress: impl FnMut(u64) + Send,
    ) -> Result<(), GamesError> {
        let mut report = ReadReport::start(source, diagnostics);
        if let (Source::Scid(db), SinkKind::Pgn { out, options }, None) = (source, &mut self.kind, self.edit) {
            let path = &self.path;
            let done = export_pgn(db, options, out, &mut progress)
                .map_err(|source| GamesError::Io { path: path.clone(), source })?;
            self.written += done.exported;
            for d in done.diagnostics {
                report.diagnostics().report(d);
            }
            for e in done.failed {
                report.unreadable(GamesError::Scid(e));
            }
            return Ok(());
        }
        // Games are made ready on the threads that read them, and stored here in order.
        let preparer = self.preparer();
        let edit = self.edit;
        let mut number = 0u64;
        source.read_with_diagnostics(
            |mut game| {
                if let Some(edit) = edit {
                    edit(&mut game);
                }
                preparer.prepare(&game)
            },
            |item| {
                number += 1;
                progress(1);
                match report.game(item) {
                    Some(prepared) => {
                        let at = || Location::of(Unit::Game, number).in_file(source.path());
                        self.store(prepared, at, report.diagnostics())
                    }
                    None => Ok(()),
                }
            },
        )?;
        report.finish();
        Ok(())
    }

    /// Finishes the output: flushes the text, or writes the SCID database's names and index
    /// and renames its files into place. Games the database could not store, and data it could
    /// not hold, go to `diagnostics`.
    pub fn finish(self, diagnostics: &mut impl DiagnosticSink) -> Result<SinkSummary, GamesError> {
        let io = |source| GamesError::Io { path: self.path.clone(), source };
        match self.kind {
            SinkKind::Pgn { mut out, .. } | SinkKind::JsonLines { mut out } => {
                out.flush().map_err(io)?;
                Ok(SinkSummary { written: self.written, total: self.written })
            }
            SinkKind::Scid(writer) => {
                let summary = writer.finish()?;
                for d in summary.diagnostics {
                    diagnostics.report(d);
                }
                Ok(SinkSummary { written: summary.written, total: summary.total })
            }
        }
    }
}
