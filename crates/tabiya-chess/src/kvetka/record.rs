//! Positions as the builder collects them: one fixed-size [`Record`] per position of a game,
//! kept in [`Piece`]s (runs of games of one source), sorted by key, then merged into one
//! [`Tally`] per position. Sorting records is cheaper than a hash map of positions (no
//! per-position allocation, sequential memory) and gives the book's order directly.

use rayon::prelude::*;

use super::{KEY_LEN, Key, SourceRef};
use crate::boardcode::BoardCoder;

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

/// One position of one game: its key, the move played from it, and where it was met.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Record {
    /// The key's 22 bytes big-endian in three words (comparing words compares keys byte by
    /// byte); the 16 bits after them hold the move code and, below it, the outcome (bits 0–1)
    /// and whether this is the game's last stored position (bit 2).
    words: [u64; 3],
    /// Place in the piece: games in file order, positions in game order.
    seq: u32,
    /// The game's number in its piece.
    game: u32,
}

impl Record {
    pub fn new(key: &Key, code: u8, outcome: Outcome, last: bool, seq: u32, game: u32) -> Record {
        let mut bytes = [0u8; 24];
        bytes[..KEY_LEN].copy_from_slice(&key.0);
        bytes[KEY_LEN] = code;
        bytes[KEY_LEN + 1] = outcome as u8 | u8::from(last) << 2;
        let word = |i: usize| u64::from_be_bytes(bytes[8 * i..8 * i + 8].try_into().expect("eight bytes"));
        Record { words: [word(0), word(1), word(2)], seq, game }
    }

    fn key_words(&self) -> (u64, u64, u64) {
        (self.words[0], self.words[1], self.words[2] >> 16)
    }

    fn key(&self) -> Key {
        let mut bytes = [0u8; 24];
        for (chunk, word) in bytes.chunks_exact_mut(8).zip(self.words) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        let mut key = [0; KEY_LEN];
        key.copy_from_slice(&bytes[..KEY_LEN]);
        Key(key)
    }

    fn code(&self) -> u8 {
        (self.words[2] >> 8) as u8
    }

    fn outcome(&self) -> u8 {
        self.words[2] as u8 & 3
    }

    fn is_last(&self) -> bool {
        self.words[2] & 4 != 0
    }
}

/// The records of a run of consecutive games of one source.
#[derive(Debug, Clone, Default)]
pub(crate) struct Piece {
    pub records: Vec<Record>,
    /// Board codes of the positions as they come, game after game.
    pub coder: BoardCoder,
    /// Games numbered in this piece.
    pub games: u32,
    /// The source of the games, and the number of the piece's first game in it (what a
    /// reference names).
    pub source: u16,
    pub first_game: u32,
}

impl Piece {
    /// Adds a record; `game` is the game's number in this piece.
    pub fn push(&mut self, key: &Key, code: u8, outcome: Outcome, last: bool, game: u32) {
        let seq = u32::try_from(self.records.len()).expect("fewer than 2^32 positions in a piece");
        self.records.push(Record::new(key, code, outcome, last, seq, game));
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

/// Sorts each piece's records by key, then by the order they were added (in parallel).
pub(crate) fn sort_pieces(pieces: &mut [Piece]) {
    pieces.par_iter_mut().for_each(|p| p.records.sort_unstable_by_key(|r| (r.key_words(), r.seq)));
}

/// The records of one piece still to merge.
#[derive(Debug, Clone)]
struct Run<'a> {
    records: &'a [Record],
    source: u16,
    first_game: u32,
    /// Number (across all pieces) of the piece's first game.
    base: u64,
}

/// Sorted pieces' records merged in key order into tallies: each position counted once per
/// game (its first occurrence decides the side to move), moves united. Records of one key are
/// met piece by piece and, within a piece, in the order they were added, so the result depends
/// on the order of the games only, not on how they were cut into pieces.
#[derive(Debug, Clone)]
pub(crate) struct Tallies<'a> {
    runs: Vec<Run<'a>>,
}

impl<'a> Tallies<'a> {
    /// The merge of `pieces`, sorted by [`sort_pieces`].
    pub fn new(pieces: &'a [Piece]) -> Tallies<'a> {
        let mut base = 0u64;
        let runs = pieces
            .iter()
            .map(|piece| {
                let run = Run { records: &piece.records, source: piece.source, first_game: piece.first_game, base };
                base += u64::from(piece.games);
                run
            })
            .collect();
        Tallies { runs }
    }

    /// At most `parts` merges of consecutive ranges of keys, about equal in records, whose
    /// tallies one after the other are this merge's: every record of a key falls in one part.
    pub fn split(self, parts: usize) -> Vec<Tallies<'a>> {
        let Some(largest) = self.runs.iter().map(|run| run.records).max_by_key(|records| records.len()) else {
            return vec![self];
        };
        let mut bounds: Vec<_> = (1..parts).map(|i| largest[i * largest.len() / parts].key_words()).collect();
        bounds.dedup();
        let mut rests = self.runs;
        let mut split = Vec::with_capacity(bounds.len() + 1);
        for bound in bounds {
            let mut part = Vec::with_capacity(rests.len());
            for rest in &mut rests {
                let (below, above) = rest.records.split_at(rest.records.partition_point(|r| r.key_words() < bound));
                part.push(Run { records: below, ..rest.clone() });
                rest.records = above;
            }
            split.push(Tallies { runs: part });
        }
        split.push(Tallies { runs: rests });
        split
    }

    /// The smallest key at the heads of the runs.
    fn next_key(&self) -> Option<(u64, u64, u64)> {
        self.runs.iter().filter_map(|run| run.records.first()).map(Record::key_words).min()
    }

    /// Fills `tally` with the next position; `false` after the last.
    pub fn next_into(&mut self, tally: &mut Tally) -> bool {
        let Some(key) = self.next_key() else { return false };
        (tally.wins, tally.draws, tally.losses, tally.moves) = (0, 0, 0, [0; 4]);
        tally.last_of.clear();
        let mut last_game = None;
        // The key's records piece after piece, each piece's in the order they were added.
        for run in &mut self.runs {
            while let Some((r, rest)) = run.records.split_first().filter(|(r, _)| r.key_words() == key) {
                run.records = rest;
                let reference = SourceRef { source: run.source, game: run.first_game + r.game };
                let game = run.base + u64::from(r.game);
                if last_game != Some(game) {
                    if last_game.is_none() {
                        tally.key = r.key();
                        tally.first_game = reference;
                    }
                    last_game = Some(game);
                    let stat = match r.outcome() {
                        1 => Some(&mut tally.wins),
                        2 => Some(&mut tally.draws),
                        3 => Some(&mut tally.losses),
                        _ => None,
                    };
                    if let Some(stat) = stat {
                        *stat = stat.saturating_add(1);
                    }
                }
                let code = r.code();
                if code != NO_MOVE {
                    tally.moves[usize::from(code >> 6)] |= 1 << (code & 63);
                }
                if r.is_last() {
                    tally.last_of.push(reference);
                }
            }
        }
        true
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

    fn key(first: u8, last: u8) -> Key {
        let mut key = [0; KEY_LEN];
        (key[0], key[KEY_LEN - 1]) = (first, last);
        Key(key)
    }

    #[test]
    fn records_keep_key_code_and_flags_apart() {
        let k = key(0xb6, 0xf0);
        let r = Record::new(&k, 0x11, Outcome::Loss, true, 5, 9);
        assert_eq!((r.key(), r.code(), r.outcome(), r.is_last()), (k, 0x11, 3, true));
        // The code does not take part in the order: same key, same words.
        assert_eq!(r.key_words(), Record::new(&k, NO_MOVE, Outcome::Win, false, 0, 0).key_words());
        assert!(Record::new(&key(0xb6, 0xef), 0xff, Outcome::Win, false, 0, 0).key_words() < r.key_words());
    }

    #[test]
    fn tallies_count_a_game_once_and_unite_moves_across_pieces() {
        let (a, b) = (key(1, 0), key(2, 0));
        let mut first = Piece { games: 2, ..Piece::default() };
        // Game 0 meets b twice (White to move, then Black to move: the first counts).
        first.push(&b, 0x11, Outcome::Win, false, 0);
        first.push(&a, 0x20, Outcome::Loss, false, 0);
        first.push(&b, 0x29, Outcome::Loss, true, 0);
        first.push(&b, NO_MOVE, Outcome::Draw, true, 1);
        let mut second = Piece { games: 1, source: 1, first_game: 4, ..Piece::default() };
        second.push(&a, 0x0d, Outcome::Unknown, true, 0);
        let mut pieces = vec![first, second];
        sort_pieces(&mut pieces);
        let mut tallies = Tallies::new(&pieces);
        assert_eq!(tallies.clone().keys(), [a, b]);
        let mut t = Tally::default();
        assert!(tallies.next_into(&mut t));
        assert_eq!((t.key, t.wins, t.draws, t.losses), (a, 0, 0, 1));
        let mut codes = Vec::new();
        t.codes(&mut codes);
        assert_eq!(codes, [0x0d, 0x20]);
        assert_eq!(t.first_game, SourceRef { source: 0, game: 0 });
        assert_eq!(t.last_of, [SourceRef { source: 1, game: 4 }]);
        assert!(tallies.next_into(&mut t));
        assert_eq!((t.key, t.wins, t.draws, t.losses), (b, 1, 1, 0));
        t.codes(&mut codes);
        assert_eq!(codes, [0x11, 0x29]);
        assert_eq!(t.last_of, [SourceRef { source: 0, game: 0 }, SourceRef { source: 0, game: 1 }]);
        assert!(!tallies.next_into(&mut t));
    }

    #[test]
    fn split_tallies_follow_one_another_as_the_whole_merge() {
        // Three pieces of random records over a few keys that share prefixes.
        let mut random = tabiya_io::corpus::Xorshift::new(0x5b1d);
        let mut pieces: Vec<Piece> = (0..3)
            .map(|p| {
                let mut piece = Piece { games: 40, source: p, first_game: 40 * u32::from(p), ..Piece::default() };
                for _ in 0..2000 {
                    let k = key(random.below(3) as u8, random.below(60) as u8);
                    let outcome = [Outcome::Unknown, Outcome::Win, Outcome::Draw, Outcome::Loss][random.below(4)];
                    let code = random.below(256) as u8;
                    piece.push(&k, code, outcome, random.below(9) == 0, random.below(40) as u32);
                }
                piece
            })
            .collect();
        sort_pieces(&mut pieces);
        let all = |tallies: Tallies<'_>| {
            let mut out = Vec::new();
            let mut t = Tally::default();
            let mut tallies = tallies;
            while tallies.next_into(&mut t) {
                out.push(format!("{t:?}"));
            }
            out
        };
        let whole = all(Tallies::new(&pieces));
        assert_eq!(whole.len(), 180);
        for parts in [1, 2, 3, 7, 500] {
            let split = Tallies::new(&pieces).split(parts);
            assert!(split.len() <= parts);
            assert_eq!(split.into_iter().flat_map(all).collect::<Vec<_>>(), whole, "{parts} parts");
        }
    }
}
