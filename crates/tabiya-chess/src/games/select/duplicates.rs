//! Removing repeated games: `--dedup` (the same game twice), `--twins` (SCID's twin rules),
//! `--contained` (a game whose moves start another game by the same players).
//!
//! `--dedup` decides as the games come (a 128-bit hash per game kept: 24 bytes a game).
//! `--twins` and `--contained` compare every game with every other, so they hold the games
//! selected (their output, ready to write, and their main line) until the last one is read.
//! Neither is quadratic: the games of a group (same players, …) are sorted by their moves, and
//! a line that starts another sorts just before it (or before a line that starts with it).

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use shakmaty::Move;

use super::TagView;
use super::criteria::PgnDate;
use crate::game::{Game, GameResult};

/// A game among the inputs: the input's index and the game's number in it (from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameRef {
    /// The input, by its place among the inputs (from 0).
    pub input: usize,
    /// The game's number in its input, from 1.
    pub number: u64,
}

/// Why a game was removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merge {
    /// The same moves, players, result and date as a game before it (`--dedup`).
    Duplicate,
    /// A twin by SCID's rules (`--twins`).
    Twin,
    /// Its moves start a game by the same players (`--contained`).
    Contained,
}

impl Merge {
    /// What the game is to the one kept, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Merge::Duplicate => "duplicate",
            Merge::Twin => "twin",
            Merge::Contained => "start",
        }
    }
}

/// The stable diagnostic code of a removal.
pub(super) fn codes_for(why: Merge) -> &'static str {
    match why {
        Merge::Duplicate => "select.duplicate",
        Merge::Twin => "select.twin",
        Merge::Contained => "select.contained",
    }
}

/// A game removed, and the game it merged into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removal {
    /// The game left out.
    pub removed: GameRef,
    /// The game kept in its place (itself removed in turn when a longer game contains it).
    pub kept: GameRef,
    /// Why.
    pub why: Merge,
}

/// What the rules compare of a game, taken on the thread that read it.
#[derive(Debug, Clone)]
pub struct Identity {
    white: String,
    black: String,
    event: String,
    site: String,
    round: String,
    date: String,
    result: GameResult,
    /// The main line, a number per move (see [`move_code`]), from the game's start.
    moves: Vec<u16>,
    /// Comments or variations: SCID never deletes such a twin.
    annotated: bool,
}

impl Identity {
    /// What the rules compare of `game`.
    pub fn of(game: &Game) -> Identity {
        let tag = |name: &str| TagView::tag(game, name).map(|v| v.into_owned()).unwrap_or_default();
        let nodes = &game.moves.nodes;
        let annotated = !game.moves.comments.is_empty()
            || nodes.iter().any(|n| !n.comments().is_empty() || !n.variations().is_empty());
        // A game from another start is told apart by its FEN in the first code.
        let mut moves: Vec<u16> = Vec::with_capacity(nodes.len() + 1);
        if let Some(fen) = &game.start {
            let mut h = DefaultHasher::new();
            fen.to_string().hash(&mut h);
            moves.push(h.finish() as u16 | 0x8000);
        }
        moves.extend(nodes.iter().map(|n| move_code(n.mv.as_ref())));
        Identity {
            white: tag("White"),
            black: tag("Black"),
            event: tag("Event"),
            site: tag("Site"),
            round: tag("Round"),
            date: tag("Date"),
            result: game.result,
            moves,
            annotated,
        }
    }

    fn plies(&self) -> usize {
        self.moves.len()
    }

    /// `--dedup`'s key: moves, players, result and date, hashed to 128 bits.
    fn key(&self) -> u128 {
        let half = |salt: u8| {
            let mut h = DefaultHasher::new();
            salt.hash(&mut h);
            (&self.moves, &self.white, &self.black, self.result, &self.date).hash(&mut h);
            h.finish()
        };
        (u128::from(half(0)) << 64) | u128::from(half(1))
    }
}

/// A move as a number: from, to and promotion (0 is a null move).
fn move_code(mv: Option<&Move>) -> u16 {
    let Some(mv) = mv else { return 0 };
    let from = mv.from().map_or(0, |s| s as u16);
    let promotion = mv.promotion().map_or(0, |r| r as u16);
    1 + ((from << 9) | ((mv.to() as u16) << 3) | promotion)
}

/// Which rules a [`Duplicates`] applies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rules {
    /// `--dedup`.
    pub dedup: bool,
    /// `--twins`.
    pub twins: bool,
    /// `--contained`.
    pub contained: bool,
}

/// The removal of repeated games from a stream of selected games, each with a payload `T`
/// (its output, ready to write).
pub struct Duplicates<T> {
    rules: Rules,
    seen: HashMap<u128, GameRef>,
    held: Vec<(GameRef, Identity, T)>,
    removed: Vec<Removal>,
}

/// What a sink holds for `--twins` and `--contained`: a game ready to write.
pub struct Held(pub(in crate::games) crate::games::sink::Prepared);

impl<T> Duplicates<T> {
    /// Applies `rules`.
    pub fn new(rules: Rules) -> Duplicates<T> {
        Duplicates { rules, seen: HashMap::new(), held: Vec::new(), removed: Vec::new() }
    }

    /// True when a rule applies: each game then needs its [`Identity`].
    pub fn is_active(&self) -> bool {
        self.rules != Rules::default()
    }

    /// Takes the next game: gives it back when it goes out now; keeps it when it must wait for
    /// the end (`--twins`, `--contained`, [`Duplicates::finish`]), or drops it as a duplicate.
    /// `identity` is needed when a rule applies.
    pub fn offer(&mut self, at: GameRef, identity: Option<Identity>, payload: T) -> Option<T> {
        let Some(identity) = identity.filter(|_| self.is_active()) else { return Some(payload) };
        if self.rules.dedup {
            if let Some(&kept) = self.seen.get(&identity.key()) {
                self.removed.push(Removal { removed: at, kept, why: Merge::Duplicate });
                return None;
            }
            self.seen.insert(identity.key(), at);
        }
        if self.rules.twins || self.rules.contained {
            self.held.push((at, identity, payload));
            return None;
        }
        Some(payload)
    }

    /// The games held, minus the twins and contained games, in the order they came; and every
    /// game removed, in the order of the games removed.
    pub fn finish(mut self) -> (Vec<(GameRef, T)>, Vec<Removal>) {
        let ids: Vec<&Identity> = self.held.iter().map(|(_, identity, _)| identity).collect();
        let mut out: Vec<Option<(usize, Merge)>> = vec![None; ids.len()];
        if self.rules.twins {
            for (removed, kept) in twins(&ids) {
                out[removed].get_or_insert((kept, Merge::Twin));
            }
        }
        if self.rules.contained {
            let mut groups: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
            for (i, id) in ids.iter().enumerate() {
                groups.entry((&id.white, &id.black)).or_default().push(i);
            }
            for group in groups.into_values() {
                for (removed, kept) in starts(group, &ids) {
                    out[removed].get_or_insert((kept, Merge::Contained));
                }
            }
        }
        let refs: Vec<GameRef> = self.held.iter().map(|(at, _, _)| *at).collect();
        let mut kept = Vec::new();
        for (i, (at, _, payload)) in self.held.into_iter().enumerate() {
            match out[i] {
                Some((by, why)) => self.removed.push(Removal { removed: at, kept: refs[by], why }),
                None => kept.push((at, payload)),
            }
        }
        self.removed.sort_by_key(|r| r.removed);
        (kept, self.removed)
    }
}

/// In a group of games, each game whose moves start another's (a shorter line, or the same
/// line as a game before it), with that other game.
fn starts(mut group: Vec<usize>, ids: &[&Identity]) -> Vec<(usize, usize)> {
    group.sort_by(|&a, &b| ids[a].moves.cmp(&ids[b].moves).then(a.cmp(&b)));
    let mut found = Vec::new();
    let mut first_of_run = None;
    for pair in group.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (la, lb) = (&ids[a].moves, &ids[b].moves);
        if la == lb {
            let first = *first_of_run.get_or_insert(a);
            found.push((b, first));
            continue;
        }
        first_of_run = None;
        if lb.starts_with(la) {
            found.push((a, b));
        }
    }
    found
}

/// SCID 5.0.2's twins (its `sc_base duplicates` with its defaults, `tkscid.cpp`): the same
/// players by their first four letters (any case) with the same colours, the same event, site
/// and round, the same year and month; and the moves of the shorter game the start of the
/// other's, or either game of one move or none. Of two twins the shorter goes, of two as long
/// the earlier; a game with comments or variations is never removed (SCID's "keep all
/// commented games" and "keep all games with variations"). SCID removes as many games from
/// each set of twins; of twins as long, it keeps the one its (unstable) sort puts last, which
/// is not always the later in the file.
fn twins(ids: &[&Identity]) -> Vec<(usize, usize)> {
    type Key<'a> = ([u8; 4], [u8; 4], &'a str, &'a str, &'a str, u16, u8);
    let start = |name: &str| {
        let mut four = [0u8; 4];
        for (slot, b) in four.iter_mut().zip(name.bytes()) {
            *slot = b.to_ascii_lowercase();
        }
        four
    };
    let mut groups: HashMap<Key, Vec<usize>> = HashMap::new();
    for (i, id) in ids.iter().enumerate() {
        let (year, month) = PgnDate::from_tag(&id.date).map_or((0, 0), |d| (d.year(), d.month()));
        let key =
            (start(&id.white), start(&id.black), id.event.as_str(), id.site.as_str(), id.round.as_str(), year, month);
        groups.entry(key).or_default().push(i);
    }
    let mut found = Vec::new();
    for group in groups.into_values() {
        found.extend(twins_in_group(group, ids));
    }
    found
}

/// [`twins`] within one group of games alike in all but their moves.
fn twins_in_group(mut group: Vec<usize>, ids: &[&Identity]) -> Vec<(usize, usize)> {
    const SHORT: usize = 2;
    let mut found = Vec::new();
    // A game of one move or none is a twin of every game of its group.
    let longest = group.iter().copied().max_by_key(|&i| (ids[i].plies(), std::cmp::Reverse(i)));
    for &i in &group {
        let id = ids[i];
        if id.annotated || id.plies() > SHORT {
            continue;
        }
        // A longer game; else, as long, a later game or an earlier one that stays.
        let partner = longest.filter(|&l| ids[l].plies() > id.plies()).or_else(|| {
            group.iter().copied().find(|&j| j != i && ids[j].plies() == id.plies() && (j > i || ids[j].annotated))
        });
        if let Some(partner) = partner {
            found.push((i, partner));
        }
    }
    // Longer games: twins when one line starts the other.
    group.retain(|&i| ids[i].plies() > SHORT);
    group.sort_by(|&a, &b| ids[a].moves.cmp(&ids[b].moves).then(a.cmp(&b)));
    let mut at = 0;
    while at < group.len() {
        let run_end = (at..group.len()).find(|&k| ids[group[k]].moves != ids[group[at]].moves).unwrap_or(group.len());
        let run = &group[at..run_end];
        let longer = group.get(run_end).copied().filter(|&next| ids[next].moves.starts_with(&ids[group[at]].moves));
        let last = *run.last().expect("a run holds a game");
        let first_annotated = run.iter().copied().find(|&j| ids[j].annotated);
        for (k, &i) in run.iter().enumerate() {
            if ids[i].annotated {
                continue;
            }
            // Removed for a longer game; else for a later one as long; else for an earlier
            // annotated one, which stays.
            let partner =
                longer.or_else(|| (i != last).then(|| run[k + 1])).or_else(|| first_annotated.filter(|&j| j != i));
            if let Some(partner) = partner {
                found.push((i, partner));
            }
        }
        at = run_end;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(white: &str, moves: &[u16], annotated: bool) -> Identity {
        Identity {
            white: white.into(),
            black: "B".into(),
            event: "E".into(),
            site: "S".into(),
            round: "1".into(),
            date: "2000.01.02".into(),
            result: GameResult::Draw,
            moves: moves.to_vec(),
            annotated,
        }
    }

    #[test]
    fn starts_of_lines() {
        let games =
            [id("A", &[1, 2, 3], false), id("A", &[1, 2], false), id("A", &[1, 2, 3], false), id("A", &[1, 4], false)];
        let ids: Vec<&Identity> = games.iter().collect();
        let mut found = starts((0..4).collect(), &ids);
        found.sort();
        assert_eq!(found, [(1, 0), (2, 0)]);
    }

    #[test]
    fn scid_twins() {
        let games = [
            id("Carlsen, M", &[1, 2, 3, 4], false),
            id("carlsen", &[1, 2, 3], false),
            id("Carlsen", &[1, 2, 3, 4], true),
            id("Carlsen", &[7], false),
            id("Kasparov", &[1, 2, 3], false),
        ];
        let ids: Vec<&Identity> = games.iter().collect();
        let mut found = twins(&ids);
        found.sort();
        // The three-move start goes for the longer game; the one-move game for the longest;
        // of the two as long, the earlier goes (the later is annotated, and stays anyway).
        assert_eq!(found, [(0, 2), (1, 0), (3, 0)]);
    }
}
