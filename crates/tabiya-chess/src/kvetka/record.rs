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

/// The pieces' records merged in key order into tallies: each position counted once per game
/// (its first occurrence decides the side to move), moves united. Records of one key are met
/// piece by piece and, within a piece, in the order they were added, so the result depends on
/// the order of the games only, not on how they were cut into pieces.
pub(crate) struct Tallies {
    pieces: Vec<Piece>,
    heads: Vec<usize>,
    /// Number (across all pieces) of each piece's first game.
    bases: Vec<u64>,
}

impl Tallies {
    pub fn new(mut pieces: Vec<Piece>) -> Tallies {
        pieces.par_iter_mut().for_each(|p| p.records.sort_unstable_by_key(|r| (r.key_words(), r.seq)));
        let mut bases = Vec::with_capacity(pieces.len());
        let mut games = 0u64;
        for piece in &pieces {
            bases.push(games);
            games += u64::from(piece.games);
        }
        Tallies { heads: vec![0; pieces.len()], pieces, bases }
    }

    /// The smallest key at the heads of the pieces.
    fn next_key(&self) -> Option<(u64, u64, u64)> {
        let heads = self.pieces.iter().zip(&self.heads).filter_map(|(piece, &head)| piece.records.get(head));
        heads.map(Record::key_words).min()
    }

    /// Fills `tally` with the next position; `false` after the last.
    pub fn next_into(&mut self, tally: &mut Tally) -> bool {
        let Some(key) = self.next_key() else { return false };
        (tally.wins, tally.draws, tally.losses, tally.moves) = (0, 0, 0, [0; 4]);
        tally.last_of.clear();
        let mut last_game = None;
        // The key's records piece after piece, each piece's in the order they were added.
        for ((piece, head), &base) in self.pieces.iter().zip(&mut self.heads).zip(&self.bases) {
            while let Some(r) = piece.records.get(*head).filter(|r| r.key_words() == key) {
                *head += 1;
                let reference = SourceRef { source: piece.source, game: piece.first_game + r.game };
                let game = base + u64::from(r.game);
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

    /// The keys of all positions, in order (for `links`); the merge starts again afterwards.
    pub fn keys(&mut self) -> Vec<Key> {
        self.heads.iter_mut().for_each(|h| *h = 0);
        let mut keys = Vec::new();
        let mut tally = Tally::default();
        while self.next_into(&mut tally) {
            keys.push(tally.key);
        }
        self.heads.iter_mut().for_each(|h| *h = 0);
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
        let mut tallies = Tallies::new(vec![first, second]);
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
        assert_eq!(tallies.keys(), [a, b]);
    }
}
