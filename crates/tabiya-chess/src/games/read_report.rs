//! What reading a source found, said once each to a [`DiagnosticSink`]: the one loop body of
//! every consumer of [`Source::read_with_diagnostics`] that writes games somewhere (`convert`'s
//! sinks, `select`, the Parquet tables).

use tabiya_io::DiagnosticSink;

use super::{GamesError, ReadItem, Source};
use crate::pgn::variants::SkippedVariants;

/// Says what reading one source found: what opening it found (at the start), each game's
/// repairs, each game that could not be read, and the games of chess variants tabiya does not
/// play as one warning (at the end).
///
/// ```no_run
/// use tabiya_chess::games::{ReadReport, Source};
///
/// let source = Source::open("games.pgn".as_ref())?;
/// let mut found = Vec::new();
/// let mut report = ReadReport::start(&source, &mut found);
/// let mut games = 0;
/// source.read_with_diagnostics(|game| game, |item| {
///     if let Some(_game) = report.game(item) {
///         games += 1;
///     }
///     Ok::<(), ()>(())
/// }).unwrap();
/// report.finish();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ReadReport<'a, D: DiagnosticSink + ?Sized> {
    source: &'a Source,
    diagnostics: &'a mut D,
    variants: SkippedVariants,
}

impl<'a, D: DiagnosticSink + ?Sized> ReadReport<'a, D> {
    /// Starts on `source`, saying what opening it found.
    pub fn start(source: &'a Source, diagnostics: &'a mut D) -> ReadReport<'a, D> {
        for d in source.diagnostics() {
            diagnostics.report(d.clone());
        }
        ReadReport { source, diagnostics, variants: SkippedVariants::default() }
    }

    /// Says what reading one game found; the game made ready, or `None` when it could not be
    /// read.
    pub fn game<T>(&mut self, item: ReadItem<T>) -> Option<T> {
        match item {
            Ok((game, found)) => {
                for d in found {
                    self.diagnostics.report(d);
                }
                Some(game)
            }
            Err(e) => {
                self.unreadable(e);
                None
            }
        }
    }

    /// Says that a game could not be read: a variant game is counted (one warning for them all,
    /// at the end), any other is an error.
    pub fn unreadable(&mut self, error: GamesError) {
        match error {
            GamesError::Pgn(e) => {
                if let Some(e) = self.variants.count(e) {
                    self.diagnostics.report(e.diagnostic());
                }
            }
            e => self.diagnostics.report(e.diagnostic()),
        }
    }

    /// Where the games' other diagnostics go (a sink's own, as it stores a game).
    pub fn diagnostics(&mut self) -> &mut D {
        self.diagnostics
    }

    /// Ends the source: the variant games' warning.
    pub fn finish(self) {
        if let Some(d) = self.variants.diagnostic(self.source.path()) {
            self.diagnostics.report(d);
        }
    }
}
