//! Positions as the builder collects them: one fixed-size [`Record`] per position of a game,
//! kept in [`Piece`]s (runs of games of one source), sorted by key, then merged into one
//! [`Tally`] per position. Sorting records is cheaper than a hash map of positions (no
//! per-position allocation, sequential memory) and gives the book's order directly.

use rayon::prelude::*;

use super::{Key, SourceRef};
use crate::boardcode::BoardCoder;
use crate::book::engine::{self, KeyGroups, Keyed};

/// The move code of a record whose position no move left (its game's last stored position).
pub(crate) const NO_MOVE: u8 = 0xff;

/// How the game ended for the player to move (spec 10.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// `*`: the position counts, its statistics do not.
    Unknown = 0,
    Win = 1,
    Draw = 2,
    Loss = 3,
}

/// What a record keeps of its game: its number in the piece (`u32`), or nothing (`()`) when
/// the book keeps no game references, which makes records 24 bytes instead of 32: less to
/// sort and to merge.
pub(crate) trait GameNumber: Copy + Send + Sync + std::fmt::Debug + 'static {
    fn new(game: u32) -> Self;
    /// The number; 0 when not kept.
    fn get(self) -> u32;
    /// `records` when they are of this layout.
    fn records(records: &Records) -> Option<&[Record<Self>]>;
}

impl GameNumber for u32 {
    fn new(game: u32) -> u32 {
        game
    }

    fn get(self) -> u32 {
        self
    }

    fn records(records: &Records) -> Option<&[Record<u32>]> {
        match records {
            Records::Numbered(records) => Some(records),
            Records::Unnumbered(_) => None,
        }
    }
}

impl GameNumber for () {
    fn new(_: u32) {}

    fn get(self) -> u32 {
        0
    }

    fn records(records: &Records) -> Option<&[Record<()>]> {
        match records {
            Records::Unnumbered(records) => Some(records),
            Records::Numbered(_) => None,
        }
    }
}

/// One position of one game: its key, the move played from it, and where it was met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Record<G> {
    /// The key's 22 bytes big-endian in three words (comparing words compares keys byte by
    /// byte); the 16 bits after them hold the move code and, below it, the outcome (bits 0–1),
    /// whether this is the game's last stored position (bit 2) and whether the game met the
    /// position before (bit 3).
    words: [u64; 3],
    /// The game in its piece.
    game: G,
}

const LAST: u64 = 1 << 2;
const REPEAT: u64 = 1 << 3;

impl<G: GameNumber> Record<G> {
    /// `words` as [`Key::from_words`] takes them; `repeat`: the game met the key before.
    pub fn new(words: &[u64; 3], code: u8, outcome: Outcome, last: bool, repeat: bool, game: u32) -> Record<G> {
        let flags = outcome as u64 | if last { LAST } else { 0 } | if repeat { REPEAT } else { 0 };
        Record { words: [words[0], words[1], words[2] & !0xffff | u64::from(code) << 8 | flags], game: G::new(game) }
    }

    fn key_words(&self) -> (u64, u64, u64) {
        (self.words[0], self.words[1], self.words[2] >> 16)
    }

    fn key(&self) -> Key {
        Key::from_words(&self.words)
    }

    fn code(&self) -> u8 {
        (self.words[2] >> 8) as u8
    }

    fn outcome(&self) -> u8 {
        self.words[2] as u8 & 3
    }

    fn is_last(&self) -> bool {
        self.words[2] & LAST != 0
    }

    fn is_repeat(&self) -> bool {
        self.words[2] & REPEAT != 0
    }
}

/// A piece's records, with game numbers or without (see [`GameNumber`]).
#[derive(Debug, Clone)]
pub(crate) enum Records {
    Numbered(Vec<Record<u32>>),
    Unnumbered(Vec<Record<()>>),
}

impl<G: GameNumber> Keyed for Record<G> {
    type Key = (u64, u64, u64);

    fn key(&self) -> (u64, u64, u64) {
        self.key_words()
    }

    /// Records of one key stay in no particular order: what the merge takes from them does not
    /// depend on it.
    fn sort(records: &mut [Record<G>]) {
        // By the first word alone, then each run of equal first words by the other two: most
        // keys differ in their first 64 bits (the file codes of files a to c or so), and a sort
        // on one number is faster than on three.
        records.sort_unstable_by_key(|r| r.words[0]);
        for run in records.chunk_by_mut(|a, b| a.words[0] == b.words[0]) {
            if run.len() > 1 {
                run.sort_unstable_by_key(|r| (r.words[1], r.words[2]));
            }
        }
    }
}

/// The records of a run of consecutive games of one source.
#[derive(Debug, Clone)]
pub(crate) struct Piece {
    pub records: Records,
    /// Board codes of the positions as they come, game after game.
    pub coder: BoardCoder,
    /// Games numbered in this piece.
    pub games: u32,
    /// The source of the games, and the number of the piece's first game in it (what a
    /// reference names).
    pub source: u16,
    pub first_game: u32,
    /// Whether the records are sorted by key (no record came since [`sort_pieces`]).
    sorted: bool,
}

impl Piece {
    /// An empty piece of games of `source`; `numbered`: its records keep their game (needed
    /// for game references only).
    pub fn new(source: u16, numbered: bool) -> Piece {
        let records = if numbered { Records::Numbered(Vec::new()) } else { Records::Unnumbered(Vec::new()) };
        Piece { records, coder: BoardCoder::default(), games: 0, source, first_game: 0, sorted: false }
    }

    /// Adds a record; `game` is the game's number in this piece.
    pub fn push(&mut self, words: &[u64; 3], code: u8, outcome: Outcome, last: bool, repeat: bool, game: u32) {
        match &mut self.records {
            Records::Numbered(records) => records.push(Record::new(words, code, outcome, last, repeat, game)),
            Records::Unnumbered(records) => records.push(Record::new(words, code, outcome, last, repeat, game)),
        }
        self.sorted = false;
    }
}

/// What the games say about one position.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub key: Key,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Move codes played from the position, as a 256-bit set.
    pub moves: [u64; 4],
    /// The first game (in input order) that reached the position.
    pub first_game: SourceRef,
    /// The games whose last stored position this is, in input order.
    pub last_of: Vec<SourceRef>,
}

impl Tally {
    /// The move codes, ascending.
    #[inline(always)]
    pub fn codes(&self, out: &mut Vec<u8>) {
        out.clear();
        for (i, &word) in self.moves.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                out.push((64 * i + bits.trailing_zeros() as usize) as u8);
                bits &= bits - 1;
            }
        }
    }
}

/// Sorts each piece's records by key (in parallel), unless sorted already.
pub(crate) fn sort_pieces(pieces: &mut [Piece]) {
    pieces.par_iter_mut().filter(|p| !p.sorted).for_each(|p| {
        match &mut p.records {
            Records::Numbered(records) => Keyed::sort(records),
            Records::Unnumbered(records) => Keyed::sort(records),
        }
        p.sorted = true;
    });
}

/// Where a piece's games are: its source and the number of its first game there.
#[derive(Debug, Clone, Copy)]
struct Origin {
    source: u16,
    first_game: u32,
}

/// Sorted pieces' records of one layout merged in key order into tallies: each position
/// counted once per game (as the game first met it: later meetings are marked repeats), moves united, the
/// first game and the games ending there taken in input order, so the result depends on the
/// order of the games only, not on how they were cut into pieces.
#[derive(Clone)]
pub(crate) struct Merge<'a, G: GameNumber> {
    /// Piece by piece, its records still to merge, and where its games are.
    groups: KeyGroups<'a, Record<G>>,
    origins: Vec<Origin>,
}

impl<'a, G: GameNumber> Merge<'a, G> {
    fn new(pieces: &'a [Piece]) -> Merge<'a, G> {
        let records = pieces
            .iter()
            .map(|piece| G::records(&piece.records).expect("a builder's pieces all keep game numbers, or none"));
        let origins = pieces.iter().map(|piece| Origin { source: piece.source, first_game: piece.first_game });
        Merge { groups: KeyGroups::new(records.collect()), origins: origins.collect() }
    }

    /// At most `parts` merges of consecutive ranges of keys, about equal in records, whose
    /// tallies one after the other are this merge's: every record of a key falls in one part.
    fn split(self, parts: usize) -> Vec<Merge<'a, G>> {
        let range =
            |records: Vec<&'a [Record<G>]>| Merge { groups: KeyGroups::new(records), origins: self.origins.clone() };
        engine::split(self.groups.runs(), parts).into_iter().map(range).collect()
    }

    /// Fills `tally` with the next position; `false` after the last.
    // Inlined into the writer's loop: called once per position, the merge's state was saved
    // and loaded again on every call.
    #[inline(always)]
    fn next_into(&mut self, tally: &mut Tally) -> bool {
        // Indexed by outcome; slot 0 takes unknown results and repeats, which count nothing.
        let mut counts = [0u32; 4];
        tally.moves = [0; 4];
        tally.last_of.clear();
        let mut first_game = None;
        let Some((_, holding)) = self.groups.next_group() else { return false };
        for (run, records, _) in holding {
            let Origin { source, first_game: first_of_run } = self.origins[run];
            let mut first_in_run = u32::MAX;
            for r in records {
                counts[if r.is_repeat() { 0 } else { usize::from(r.outcome()) }] += 1;
                // NO_MOVE's bit (255, which no move has) is set too, and cleared below.
                let code = r.code();
                tally.moves[usize::from(code >> 6)] |= 1 << (code & 63);
                if r.is_last() {
                    tally.last_of.push(SourceRef { source, game: first_of_run + r.game.get() });
                }
                first_in_run = first_in_run.min(r.game.get());
            }
            // Runs follow the input order: the first run with the key holds the first game.
            if first_game.is_none() {
                tally.key = records[0].key();
                first_game = Some(SourceRef { source, game: first_of_run + first_in_run });
            }
        }
        tally.moves[usize::from(NO_MOVE >> 6)] &= !(1 << (NO_MOVE & 63));
        [_, tally.wins, tally.draws, tally.losses] = counts;
        tally.first_game = first_game.unwrap_or_default();
        // References in order are the games in input order.
        tally.last_of.sort_unstable();
        true
    }
}

/// Sorted pieces' records merged in key order into tallies (see [`Merge`]), whichever their
/// layout.
#[derive(Clone)]
pub(crate) enum Tallies<'a> {
    Numbered(Merge<'a, u32>),
    Unnumbered(Merge<'a, ()>),
}

impl<'a> Tallies<'a> {
    /// The merge of `pieces`, sorted by [`sort_pieces`].
    pub fn new(pieces: &'a [Piece]) -> Tallies<'a> {
        match pieces.first().map(|p| &p.records) {
            Some(Records::Unnumbered(_)) => Tallies::Unnumbered(Merge::new(pieces)),
            _ => Tallies::Numbered(Merge::new(pieces)),
        }
    }

    /// At most `parts` merges of consecutive ranges of keys, about equal in records, whose
    /// tallies one after the other are this merge's: every record of a key falls in one part.
    pub fn split(self, parts: usize) -> Vec<Tallies<'a>> {
        match self {
            Tallies::Numbered(m) => m.split(parts).into_iter().map(Tallies::Numbered).collect(),
            Tallies::Unnumbered(m) => m.split(parts).into_iter().map(Tallies::Unnumbered).collect(),
        }
    }

    /// Fills `tally` with the next position; `false` after the last.
    #[inline(always)]
    pub fn next_into(&mut self, tally: &mut Tally) -> bool {
        match self {
            Tallies::Numbered(m) => m.next_into(tally),
            Tallies::Unnumbered(m) => m.next_into(tally),
        }
    }

    /// The keys of the positions still to merge, in order.
    pub fn keys(mut self) -> Vec<Key> {
        let mut keys = Vec::new();
        let mut tally = Tally::default();
        while self.next_into(&mut tally) {
            keys.push(tally.key);
        }
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kvetka::KEY_LEN;

    fn key(first: u8, last: u8) -> Key {
        let mut key = [0; KEY_LEN];
        (key[0], key[KEY_LEN - 1]) = (first, last);
        Key(key)
    }

    #[test]
    fn records_keep_key_code_and_flags_apart() {
        let k = key(0xb6, 0xf0);
        let r = Record::<u32>::new(&k.to_words(), 0x11, Outcome::Loss, true, true, 9);
        assert_eq!((r.game, size_of::<Record<u32>>(), size_of::<Record<()>>()), (9, 32, 24));
        assert_eq!((r.key(), r.code(), r.outcome(), r.is_last(), r.is_repeat()), (k, 0x11, 3, true, true));
        // The code does not take part in the key: same key, same key words.
        let other = Record::<()>::new(&k.to_words(), NO_MOVE, Outcome::Win, false, false, 0);
        assert_eq!((r.key_words(), other.is_last(), other.is_repeat()), (other.key_words(), false, false));
        let smaller = Record::<u32>::new(&key(0xb6, 0xef).to_words(), 0xff, Outcome::Win, false, false, 0);
        assert!(smaller.key_words() < r.key_words());
    }

    #[test]
    fn tallies_count_a_game_once_and_unite_moves_across_pieces() {
        let (a, b) = (key(1, 0).to_words(), key(2, 0).to_words());
        let mut first = Piece { games: 2, ..Piece::new(0, true) };
        // Game 0 meets b twice (White to move, then Black to move: the second is a repeat).
        first.push(&b, 0x11, Outcome::Win, false, false, 0);
        first.push(&a, 0x20, Outcome::Loss, false, false, 0);
        first.push(&b, 0x29, Outcome::Loss, true, true, 0);
        first.push(&b, NO_MOVE, Outcome::Draw, true, false, 1);
        let mut second = Piece { games: 3, source: 1, first_game: 4, ..Piece::new(1, true) };
        second.push(&a, 0x0d, Outcome::Unknown, true, false, 2);
        second.push(&a, 0x0d, Outcome::Win, true, false, 1);
        let mut pieces = vec![first, second];
        sort_pieces(&mut pieces);
        let mut tallies = Tallies::new(&pieces);
        assert_eq!(tallies.clone().keys(), [Key::from_words(&a), Key::from_words(&b)]);
        let mut t = Tally::default();
        assert!(tallies.next_into(&mut t));
        assert_eq!((t.key, t.wins, t.draws, t.losses), (Key::from_words(&a), 1, 0, 1));
        let mut codes = Vec::new();
        t.codes(&mut codes);
        assert_eq!(codes, [0x0d, 0x20]);
        assert_eq!(t.first_game, SourceRef { source: 0, game: 0 });
        assert_eq!(t.last_of, [SourceRef { source: 1, game: 5 }, SourceRef { source: 1, game: 6 }]);
        assert!(tallies.next_into(&mut t));
        assert_eq!((t.key, t.wins, t.draws, t.losses), (Key::from_words(&b), 1, 1, 0));
        t.codes(&mut codes);
        assert_eq!(codes, [0x11, 0x29]);
        assert_eq!(t.last_of, [SourceRef { source: 0, game: 0 }, SourceRef { source: 0, game: 1 }]);
        assert!(!tallies.next_into(&mut t));
    }

    #[test]
    fn split_tallies_follow_one_another_as_the_whole_merge() {
        // Three pieces of random records over a few keys that share prefixes, with game numbers
        // or without.
        let pieces = |numbered| {
            let mut random = tabiya_testdata::Xorshift::new(0x5b1d);
            let mut pieces: Vec<Piece> = (0..3)
                .map(|p| {
                    let mut piece = Piece { games: 40, first_game: 40 * u32::from(p), ..Piece::new(p, numbered) };
                    for _ in 0..2000 {
                        let k = key(random.below(3) as u8, random.below(60) as u8);
                        let outcome = [Outcome::Unknown, Outcome::Win, Outcome::Draw, Outcome::Loss][random.below(4)];
                        let code = random.below(256) as u8;
                        let (last, repeat) = (random.below(9) == 0, random.below(5) == 0);
                        piece.push(&k.to_words(), code, outcome, last, repeat, random.below(40) as u32);
                    }
                    piece
                })
                .collect();
            sort_pieces(&mut pieces);
            pieces
        };
        let all = |tallies: Tallies<'_>| {
            let mut out = Vec::new();
            let mut t = Tally::default();
            let mut tallies = tallies;
            while tallies.next_into(&mut t) {
                out.push(t.clone());
            }
            out
        };
        let (numbered, unnumbered) = (pieces(true), pieces(false));
        let whole = all(Tallies::new(&numbered));
        assert_eq!(whole.len(), 180);
        for parts in [1, 2, 3, 7, 500] {
            let split = Tallies::new(&numbered).split(parts);
            assert!(split.len() <= parts);
            let split: Vec<_> = split.into_iter().flat_map(all).collect();
            assert_eq!(format!("{split:?}"), format!("{whole:?}"), "{parts} parts");
        }
        // Without game numbers: the same positions, statistics and moves.
        let counts = |tallies: &[Tally]| -> Vec<_> {
            tallies.iter().map(|t| (t.key, t.wins, t.draws, t.losses, t.moves)).collect()
        };
        for parts in [1, 7] {
            let split: Vec<_> = Tallies::new(&unnumbered).split(parts).into_iter().flat_map(all).collect();
            assert_eq!(counts(&split), counts(&whole), "{parts} parts without game numbers");
        }
    }
}
