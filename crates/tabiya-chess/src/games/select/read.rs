//! Reading a source through a selection, and writing what it keeps.
//!
//! A PGN game is judged on its tags first, by the one PGN scanner's visitor that builds games
//! ([`crate::pgn::read::read_wanted`]): a game its tags reject has its movetext skipped unread
//! (a byte search for where it ends); only a game that passes is read whole (its moves
//! replayed, its comments and variations kept) and judged again whole. SCID databases and
//! JSON Lines are read whole, then judged.

use std::borrow::Cow;
use std::cell::Cell;
use std::io::Write;

use tabiya_io::{Diagnostic, DiagnosticSink, Location, Unit};

use super::duplicates::{Duplicates, GameRef, Held, Identity};
use super::{Selection, TagView, text_bytes};
use crate::game::Game;
use crate::game::GameResult;
use crate::games::index::{Candidate, ScidPositions};
use crate::games::source::{PieceGames, read_numbered};
use crate::games::{GamesError, ReadItem, ReadReport, Sink, Source};
use crate::pgn::ReadOptions;
use crate::pgn::read::read_wanted;
use crate::pgn::scanner::GameStart;
use crate::scid::Database;

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
        self.read_selected_among(selection, None, map, sink)
    }

    /// [`Source::read_selected`] where, in a SCID database, what `candidates` say of a game
    /// ([`Selection::scid_candidates`]) is taken: a rejected game is not read, one that passes
    /// is not judged again.
    pub fn read_selected_among<T: Send, E: Send>(
        &self,
        selection: &Selection,
        candidates: Option<&[Candidate]>,
        map: impl Fn(Game) -> T + Sync,
        mut sink: impl FnMut(ReadItem<Option<T>>) -> Result<(), E> + Send,
    ) -> Result<(), E> {
        let Source::Pgn { .. } = self else {
            if let (Source::Scid(db), Some(candidates)) = (self, candidates) {
                let in_flight = 2 * rayon::current_num_threads();
                return read_numbered(db.len(), in_flight, &mut sink, |n| {
                    let candidate = candidates.get(n).copied().unwrap_or(Candidate::Read);
                    judge_scid(db, n, candidate, selection, &map)
                });
            }
            return self.read_with_diagnostics(|game| selection.accepts(&game).then(|| map(game)), sink);
        };
        let read_piece = |text: &[u8]| -> PieceGames<Option<T>> {
            let wanted = |start: &GameStart<'_, '_>| {
                let view = StartView { start, undecided: Cell::new(false) };
                // A game whose result cannot be told before its end is read, then judged.
                selection.by_tags(&view) || view.undecided.get()
            };
            // Room for the games of a piece of ordinary games (600-900 bytes each): a list grown
            // game by game copied itself over and over.
            let mut games = Vec::with_capacity(text.len() / 512);
            let ends_in_comment = read_wanted(text, ReadOptions::default(), wanted, |read| {
                games.push(read.map(|read| match read {
                    Some(read) => (selection.accepts(&read.game).then(|| map(read.game)), read.diagnostics),
                    // Rejected on its tags: what reading it would have found is not looked for.
                    None => (None, Vec::new()),
                }))
            });
            PieceGames { games, ends_in_comment }
        };
        self.read_pgn(PGN_PIECE, read_piece, sink)
    }
}

/// Game `n` of a SCID database judged by `selection`, knowing what its filters said of it
/// without reading it: a rejected game is not read, one that passes is read for `map` only.
fn judge_scid<T>(
    db: &Database,
    n: usize,
    candidate: Candidate,
    selection: &Selection,
    map: &impl Fn(Game) -> T,
) -> ReadItem<Option<T>> {
    if candidate == Candidate::Rejected {
        return Ok((None, Vec::new()));
    }
    let mut found = Vec::new();
    let game = db.read_game(n, &mut found)?;
    let passes = candidate == Candidate::Passes || selection.accepts(&game);
    Ok((passes.then(|| map(game)), found))
}

/// A game's start as the selection sees it: its tags, and its result when the first piece of
/// its movetext holds a result token (else the `Result` tag's, and the game is `undecided`).
struct StartView<'s, 'a, 't> {
    start: &'s GameStart<'a, 't>,
    undecided: Cell<bool>,
}

impl TagView for StartView<'_, '_, '_> {
    fn tag_bytes(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        self.start.tags.get(name.as_bytes()).map(text_bytes)
    }

    fn result(&self) -> GameResult {
        self.start.outcome_ahead().unwrap_or_else(|| {
            self.undecided.set(true);
            GameResult::Unknown
        })
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
    let candidates = scid_candidates(source, selection, &mut report);
    let identify = duplicates.is_active();
    let mut summary = SelectSummary::default();
    source.read_selected_among(
        selection,
        candidates.as_deref(),
        // Boxed: every game read, kept or not, is moved several times on its way in order, and
        // a payload with its identity is a few hundred bytes (moving them was part of the 7 % of
        // `select`'s CPU spent in `memcpy`).
        |game| Box::new((map(&game), identify.then(|| Identity::of(&game)))),
        |item| {
            summary.read += 1;
            progress(1);
            let Some(kept) = report.game(item).flatten() else { return Ok(()) };
            let (payload, identity) = *kept;
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

/// [`select_from`] when only the number of games kept is wanted (no duplicates removed): in a
/// SCID database, a game its position index (or search) says passes is counted unread.
pub fn count_from(
    source: &Source,
    selection: &Selection,
    diagnostics: &mut (impl DiagnosticSink + Send),
    mut progress: impl FnMut(u64) + Send,
) -> Result<SelectSummary, GamesError> {
    let mut report = ReadReport::start(source, diagnostics);
    let candidates = scid_candidates(source, selection, &mut report);
    let mut summary = SelectSummary::default();
    let mut count = |item| {
        summary.read += 1;
        progress(1);
        summary.selected += u64::from(report.game(item).flatten().is_some());
        Ok::<(), GamesError>(())
    };
    match (source, candidates) {
        (Source::Scid(db), Some(candidates)) => {
            // Only the games the filters cannot decide unread are read.
            let undecided: Vec<usize> =
                (candidates.iter().enumerate()).filter(|(_, c)| **c == Candidate::Read).map(|(n, _)| n).collect();
            let in_flight = 2 * rayon::current_num_threads();
            read_numbered(undecided.len(), in_flight, &mut count, |i| {
                judge_scid(db, undecided[i], Candidate::Read, selection, &|_| ())
            })?;
            let decided = (db.len() - undecided.len()) as u64;
            summary.read += decided;
            summary.selected += candidates.iter().filter(|c| **c == Candidate::Passes).count() as u64;
            progress(decided);
        }
        _ => source.read_selected(selection, |_| (), count)?,
    }
    report.finish();
    Ok(summary)
}

/// What the selection's filters say of each game of a SCID database before reading it: a
/// position is looked up (in the database's position index when it has a current one) rather
/// than replayed game by game. Why an index file there was not used is reported.
fn scid_candidates<D: DiagnosticSink + ?Sized>(
    source: &Source,
    selection: &Selection,
    report: &mut ReadReport<'_, D>,
) -> Option<Vec<Candidate>> {
    let Source::Scid(db) = source else { return None };
    if !selection.needs_game() {
        return None;
    }
    let positions = ScidPositions::new(db);
    let candidates = selection.scid_candidates(&positions);
    for notice in positions.notices() {
        report.diagnostics().report(notice);
    }
    candidates
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
