//! Reading a source through a selection, and writing what it keeps.
//!
//! PGN is walked ([`crate::pgn::PgnWalk`]: tags read, moves only tokenized) and each game is
//! judged on its tags first; only a game that passes is read whole (its moves replayed, its
//! comments and variations kept) from its own text. SCID databases and JSON Lines are read
//! whole, then judged.

use std::io::Write;

use tabiya_io::{Diagnostic, DiagnosticSink, Location, Unit};

use super::duplicates::{Duplicates, GameRef, Held, Identity};
use super::{Selection, TagView};
use crate::game::Game;
use crate::games::source::{PieceRead, read_pgn};
use crate::games::{GamesError, ReadItem, ReadReport, Sink, Source};
use crate::pgn::{PgnReader, PgnWalk, ReadOptions, WalkOptions};

/// PGN text per piece read on one thread (as [`Source::read_in_parallel`]).
const PGN_PIECE: usize = 256 << 10;

impl Source {
    /// Reads every game on all rayon threads, as [`Source::read_with_diagnostics`] does, and
    /// judges it by `selection`: a game it keeps is made into a `T` by `map` (`Some`), a game it
    /// rejects is `None`, so that `sink` still sees every game, in file order, with the number
    /// it has in the file. A PGN game rejected on its tags is never replayed.
    pub fn read_selected<T: Send, E: Send>(
        &self,
        selection: &Selection,
        map: impl Fn(Game) -> T + Sync,
        sink: impl FnMut(ReadItem<Option<T>>) -> Result<(), E> + Send,
    ) -> Result<(), E> {
        let Source::Pgn { path } = self else {
            return self.read_with_diagnostics(|game| selection.accepts(&game).then(|| map(game)), sink);
        };
        let in_flight = 2 * rayon::current_num_threads();
        let options = ReadOptions::default();
        let read_piece = |text: Vec<u8>| -> PieceRead<Option<T>> {
            let mut games = Vec::new();
            // Where the text of the next game starts: the end of the game before (text between
            // games, a comment before the tags, belongs to the game after it, as the reader
            // reads it; after a game the walk gave up, its text too, read again below).
            let mut from = 0usize;
            for walked in PgnWalk::new(&text, WalkOptions { max_plies: 0, file: None }) {
                let walked = match walked {
                    Ok(walked) => walked,
                    Err(e) => {
                        games.push(Err(e));
                        continue;
                    }
                };
                let (start, end) = (from, (walked.offset + walked.length) as usize);
                from = end;
                if !selection.by_tags(&walked as &dyn TagView) {
                    games.push(Ok((None, Vec::new())));
                    continue;
                }
                // The game read whole from its own text, the last game of it: locations count
                // from that text's start, and game numbers from the walk's for the game.
                let read: Vec<_> = PgnReader::from_bytes(&text[start..end], options.clone()).collect();
                let before = read.len() as u64;
                let in_piece = |location: &mut Location| {
                    if let Some(at) = location.offset.as_mut() {
                        *at += start as u64;
                    }
                    if let Some(number) = location.number.as_mut() {
                        *number = (*number + walked.number).saturating_sub(before);
                    }
                };
                games.push(match read.into_iter().last() {
                    Some(Ok(mut read)) => {
                        read.diagnostics.iter_mut().for_each(|d| in_piece(&mut d.location));
                        Ok((selection.by_game(&read.game).then(|| map(read.game)), read.diagnostics))
                    }
                    Some(Err(mut e)) => {
                        in_piece(e.location_mut());
                        Err(e)
                    }
                    // The walk found a game where the reader finds none: they are held to the
                    // same games by their tests; should they differ, the game is not kept.
                    None => Ok((None, Vec::new())),
                });
            }
            (games, text)
        };
        read_pgn(path, PGN_PIECE, in_flight, read_piece, sink)
    }
}

/// What reading a source through a selection did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SelectSummary {
    /// Games read (readable or not).
    pub read: u64,
    /// Games the selection kept (some may be removed as repeated after).
    pub selected: u64,
}

impl std::ops::AddAssign for SelectSummary {
    fn add_assign(&mut self, other: SelectSummary) {
        self.read += other.read;
        self.selected += other.selected;
    }
}

/// Reads `source` (input number `input`, for [`GameRef`]s) through `selection` on all cores;
/// each game kept is made into a `T` by `map` on the thread that read it, offered to
/// `duplicates`, and handed to `keep` in order when it goes out now (the games `duplicates`
/// holds come out of [`Duplicates::finish`]). What reading found (repairs, games that could
/// not be read; variant games counted in one warning) goes to `diagnostics`; `progress` is
/// called with the number of games read.
#[allow(clippy::too_many_arguments)]
pub fn select_from<T: Send>(
    source: &Source,
    input: usize,
    selection: &Selection,
    map: impl Fn(&Game) -> T + Sync,
    duplicates: &mut Duplicates<T>,
    diagnostics: &mut (impl DiagnosticSink + Send),
    mut progress: impl FnMut(u64) + Send,
    mut keep: impl FnMut(GameRef, T, &mut dyn DiagnosticSink) -> Result<(), GamesError> + Send,
) -> Result<SelectSummary, GamesError> {
    let mut report = ReadReport::start(source, diagnostics);
    let identify = duplicates.is_active();
    let mut summary = SelectSummary::default();
    source.read_selected(
        selection,
        |game| (map(&game), identify.then(|| Identity::of(&game))),
        |item| {
            summary.read += 1;
            progress(1);
            let Some((payload, identity)) = report.game(item).flatten() else { return Ok(()) };
            summary.selected += 1;
            let at = GameRef { input, number: summary.read };
            match duplicates.offer(at, identity, payload) {
                Some(payload) => keep(at, payload, report.diagnostics()),
                None => Ok(()),
            }
        },
    )?;
    report.finish();
    Ok(summary)
}

impl<W: Write + Send> Sink<W> {
    /// Adds the games of `source` (input number `input` of `inputs`) that `selection` keeps,
    /// minus those `duplicates` removes, in order, as [`select_from`] reads them. The games
    /// `duplicates` holds to the end are written by [`Sink::finish_selected`].
    pub fn add_selected(
        &mut self,
        source: &Source,
        input: usize,
        selection: &Selection,
        duplicates: &mut Duplicates<Held>,
        diagnostics: &mut (impl DiagnosticSink + Send),
        progress: impl FnMut(u64) + Send,
    ) -> Result<SelectSummary, GamesError> {
        let preparer = self.preparer();
        let path = source.path();
        select_from(
            source,
            input,
            selection,
            |game| Held(preparer.prepare(game)),
            duplicates,
            diagnostics,
            progress,
            |at, Held(prepared), diagnostics| self.store(prepared, || at.location(path), &mut Reporting(diagnostics)),
        )
    }

    /// Writes the games `duplicates` held to the end (`--twins`, `--contained`), minus those it
    /// removes, in the order they were read (`inputs` names the inputs); gives back what it
    /// removed, and why.
    pub fn finish_selected(
        &mut self,
        duplicates: Duplicates<Held>,
        inputs: &[std::path::PathBuf],
        diagnostics: &mut impl DiagnosticSink,
    ) -> Result<Vec<super::Removal>, GamesError> {
        let (kept, removed) = duplicates.finish();
        for (at, Held(prepared)) in kept {
            let path = inputs.get(at.input).cloned().unwrap_or_default();
            self.store(prepared, || at.location(&path), diagnostics)?;
        }
        Ok(removed)
    }
}

/// A `dyn DiagnosticSink` where an `impl` one is wanted.
struct Reporting<'a>(&'a mut dyn DiagnosticSink);

impl DiagnosticSink for Reporting<'_> {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.0.report(diagnostic);
    }
}

impl GameRef {
    /// Where the game is: its input file and its number there.
    pub fn location(&self, path: &std::path::Path) -> Location {
        Location::of(Unit::Game, self.number).in_file(path)
    }
}

/// A diagnostic per game removed, naming the game kept in its place.
pub fn removal_diagnostic(removal: &super::Removal, inputs: &[std::path::PathBuf]) -> Diagnostic {
    let path = |r: &GameRef| inputs.get(r.input).cloned().unwrap_or_default();
    let kept = removal.kept.location(&path(&removal.kept));
    Diagnostic::warning(
        super::duplicates::codes_for(removal.why),
        removal.removed.location(&path(&removal.removed)),
        format!("{} of {kept}: left out", removal.why.describe()),
    )
}
