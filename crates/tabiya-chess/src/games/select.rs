//! Choosing games: filters on tags, moves and positions, and the removal of duplicates.
//!
//! A [`Selection`] is a list of [`GameFilter`]s a game must all pass. Each filter decides in
//! up to two steps, as pgn-extract and python-chess's visitors do: first on the tags
//! ([`GameFilter::by_tags`], before any move is replayed: a PGN game rejected there is only
//! tokenized, never replayed), then, for the filters that need it ([`GameFilter::needs_game`]),
//! on the whole game ([`GameFilter::by_game`]: the main line, the positions it reaches). The
//! tag criteria of `tabiya select` are in [`criteria`]; a position filter (`--fen`,
//! `--material`) is a `GameFilter` whose `needs_game` is true, pushed onto the same selection.
//!
//! [`Source::read_selected`] reads a source through a selection on all cores;
//! [`Sink::add_selected`] writes what it keeps, and [`Duplicates`] drops repeated games on
//! the way (`--dedup`, `--twins`, `--contained`).
//!
//! ```
//! use tabiya_chess::games::select::{Selection, criteria};
//! use tabiya_chess::games::Source;
//!
//! let dir = tempfile::tempdir()?;
//! let pgn = dir.path().join("games.pgn");
//! std::fs::write(&pgn, "[White \"Morphy\"]\n[Black \"Duke\"]\n\n1. e4 e5 1-0\n\n[White \"Anderssen\"]\n\n1. e4 *\n")?;
//! let selection = Selection::all().with(criteria::TagPrefix::player("morphy"));
//! let mut kept = Vec::new();
//! Source::open(&pgn)?.read_selected(&selection, |game| game.tag("Black").map(|b| b.as_bytes().to_vec()), |item| {
//!     if let Ok((Some(black), _)) = item { kept.push(black) }
//!     Ok::<(), ()>(())
//! }).unwrap();
//! assert_eq!(kept, [Some(b"Duke".to_vec())]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Source::read_selected`]: super::Source::read_selected
//! [`Sink::add_selected`]: super::Sink::add_selected

pub mod criteria;
mod duplicates;
mod read;

use std::borrow::Cow;

pub use duplicates::{Duplicates, GameRef, Held, Identity, Merge, Removal, Rules};
pub use read::{SelectSummary, count_from, removal_diagnostic, select_from};

use crate::game::{Game, GameResult};
use crate::games::index::{Candidate, ScidPositions};
use crate::text::Text;

/// What a filter sees of a game before its moves are replayed: its tags and its result.
pub trait TagView {
    /// The value of the first tag named `name` (names are case-sensitive, as in PGN): the
    /// bytes it came as, escapes decoded.
    fn tag_bytes(&self, name: &str) -> Option<Cow<'_, [u8]>>;

    /// The value of the first tag named `name`, decoded for matching (UTF-8 as it is, other
    /// bytes as Windows-1252).
    fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        self.tag_bytes(name).map(for_matching)
    }

    /// The game's result (the movetext's, else the `Result` tag's).
    fn result(&self) -> GameResult;
}

/// A tag value as text to match: UTF-8 as it is, other bytes read as Windows-1252 (the code
/// page of old PGN files; every byte decodes, so no value fails to match for its encoding).
fn for_matching(value: Cow<'_, [u8]>) -> Cow<'_, str> {
    let decode = |bytes: &[u8]| tabiya_io::Codepage::Windows1252.decode(bytes).into_owned();
    match value {
        Cow::Borrowed(bytes) => std::str::from_utf8(bytes).map_or_else(|_| Cow::Owned(decode(bytes)), Cow::Borrowed),
        Cow::Owned(bytes) => Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|e| decode(e.as_bytes()))),
    }
}

/// A tag value's bytes, borrowed where the text is.
fn text_bytes(value: Cow<'_, Text>) -> Cow<'_, [u8]> {
    match value {
        Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
        Cow::Owned(text) => Cow::Owned(text.as_bytes().to_vec()),
    }
}

impl TagView for Game {
    fn tag_bytes(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        Game::tag(self, name).map(|value| Cow::Borrowed(value.as_bytes()))
    }

    fn result(&self) -> GameResult {
        self.result
    }
}

impl TagView for crate::pgn::WalkedGame<'_> {
    fn tag_bytes(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        crate::pgn::WalkedGame::tag(self, name).map(text_bytes)
    }

    fn result(&self) -> GameResult {
        self.result
    }
}

/// One condition on games. Thread-safe: games are judged on the threads that read them.
pub trait GameFilter: Send + Sync {
    /// False rejects the game on its tags alone, before its moves are replayed. A filter that
    /// cannot tell from the tags returns true.
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        let _ = tags;
        true
    }

    /// True when the filter must see the whole game ([`GameFilter::by_game`]): its moves or
    /// positions.
    fn needs_game(&self) -> bool {
        false
    }

    /// False rejects the game, whose tags passed [`GameFilter::by_tags`]. Called only when
    /// [`GameFilter::needs_game`] is true.
    fn by_game(&self, game: &Game) -> bool {
        let _ = game;
        true
    }

    /// What the filter says of each game of a SCID database without reading the games (a
    /// position looked up through `positions`, by the database's position index when it has
    /// one); `None` when it cannot tell without reading them.
    fn scid_candidates(&self, positions: &ScidPositions<'_>) -> Option<Vec<Candidate>> {
        let _ = positions;
        None
    }
}

/// The games that pass every one of a list of filters; an empty selection takes every game.
pub struct Selection(AllOf);

impl Default for Selection {
    fn default() -> Selection {
        Selection(AllOf(Vec::new()))
    }
}

impl Selection {
    /// Every game.
    pub fn all() -> Selection {
        Selection::default()
    }

    /// This selection with one more filter.
    pub fn with(mut self, filter: impl GameFilter + 'static) -> Selection {
        self.push(Box::new(filter));
        self
    }

    /// Adds a filter.
    pub fn push(&mut self, filter: Box<dyn GameFilter>) {
        self.0.0.push(filter);
    }

    /// False when a filter rejects the game on its tags.
    pub fn by_tags(&self, tags: &dyn TagView) -> bool {
        self.0.by_tags(tags)
    }

    /// True when a filter must see the whole game.
    pub fn needs_game(&self) -> bool {
        self.0.needs_game()
    }

    /// False when a filter that needs the whole game rejects it (its tags passed).
    pub fn by_game(&self, game: &Game) -> bool {
        self.0.by_game(game)
    }

    /// What the filters say of each game of a SCID database without reading the games
    /// ([`GameFilter::scid_candidates`]): a game that [`Candidate::Passes`] passes every filter.
    pub fn scid_candidates(&self, positions: &ScidPositions<'_>) -> Option<Vec<Candidate>> {
        self.0.scid_candidates(positions)
    }

    /// True when the game passes every filter (tags, then the whole game).
    pub fn accepts(&self, game: &Game) -> bool {
        self.by_tags(game) && self.by_game(game)
    }
}

/// The games a filter rejects (`tabiya select --player not:Carlsen`). A negated filter that
/// needs the whole game decides on it whole (tags included); one of tags decides on the tags.
pub struct Not(pub Box<dyn GameFilter>);

impl GameFilter for Not {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        // Rejecting on tags alone is only possible when the inner filter decides on them.
        self.0.needs_game() || !self.0.by_tags(tags)
    }

    fn needs_game(&self) -> bool {
        self.0.needs_game()
    }

    fn by_game(&self, game: &Game) -> bool {
        !(self.0.by_tags(game) && self.0.by_game(game))
    }

    fn scid_candidates(&self, positions: &ScidPositions<'_>) -> Option<Vec<Candidate>> {
        Some(self.0.scid_candidates(positions)?.into_iter().map(|c| !c).collect())
    }
}

/// The games that pass any of some filters (an option given several values).
pub struct AnyOf(pub Vec<Box<dyn GameFilter>>);

impl GameFilter for AnyOf {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        // A filter that needs the game may still pass it: it cannot be ruled out here.
        self.0.iter().any(|f| f.needs_game() || f.by_tags(tags))
    }

    fn needs_game(&self) -> bool {
        self.0.iter().any(|f| f.needs_game())
    }

    fn by_game(&self, game: &Game) -> bool {
        self.0.iter().any(|f| f.by_tags(game) && (!f.needs_game() || f.by_game(game)))
    }

    fn scid_candidates(&self, positions: &ScidPositions<'_>) -> Option<Vec<Candidate>> {
        // Only when every alternative names its games.
        let mut sets = self.0.iter().map(|f| f.scid_candidates(positions));
        let first = sets.next()??;
        sets.try_fold(first, |mut union, set| {
            union.iter_mut().zip(set?).for_each(|(a, b)| *a = a.or(b));
            Some(union)
        })
    }
}

/// The games that pass every one of some filters.
pub struct AllOf(pub Vec<Box<dyn GameFilter>>);

impl GameFilter for AllOf {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        self.0.iter().all(|f| f.by_tags(tags))
    }

    fn needs_game(&self) -> bool {
        self.0.iter().any(|f| f.needs_game())
    }

    fn by_game(&self, game: &Game) -> bool {
        self.0.iter().filter(|f| f.needs_game()).all(|f| f.by_game(game))
    }

    fn scid_candidates(&self, positions: &ScidPositions<'_>) -> Option<Vec<Candidate>> {
        // Any filter that names its games narrows them; a game passes unread only when every
        // filter says it passes (one that cannot tell must read it).
        let sets: Vec<Option<Vec<Candidate>>> = self.0.iter().map(|f| f.scid_candidates(positions)).collect();
        let all_named = sets.iter().all(Option::is_some);
        let mut both = sets.into_iter().flatten().reduce(|mut both, set| {
            both.iter_mut().zip(set).for_each(|(a, b)| *a = a.and(b));
            both
        })?;
        if !all_named {
            both.iter_mut().for_each(|c| *c = c.and(Candidate::Read));
        }
        Some(both)
    }
}
