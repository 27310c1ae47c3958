//! The opening-book model every book format reads into and writes from: positions, each
//! with the moves played from it and their statistics, from the point of view of the side
//! that plays the move.
//!
//! Positions are identified by their Polyglot Zobrist key (shakmaty's `Zobrist64`, which is
//! Polyglot's) and carry the position itself, so that formats keyed differently (CTG, Kvetka)
//! can encode it. Format-specific weight rules live with their format (`polyglot::weights`).
//!
//! ```
//! use tabiya_chess::book::{BookBuilder, BuildOptions};
//! use tabiya_chess::pgn::PgnReader;
//!
//! let pgn = b"1. e4 e5 2. Nf3 1-0\n\n1. e4 c5 1/2-1/2\n\n1. d4 d5 0-1\n";
//! let mut builder = BookBuilder::new(BuildOptions::default());
//! for game in PgnReader::new(&pgn[..]) {
//!     builder.add_game(&game?.game);
//! }
//! let book = builder.finish();
//! let start = book.get(&shakmaty::Chess::default()).expect("the start position is in the book");
//! assert_eq!(start.games(), 3);
//! let e4 = &start.moves[0];
//! assert_eq!((e4.games, e4.wins, e4.draws, e4.losses), (2, 1, 1, 0));
//! # Ok::<(), tabiya_chess::pgn::PgnError>(())
//! ```

mod build;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

pub use build::{BookBuilder, BuildOptions, BuildSummary};

/// The Polyglot key of a position: shakmaty's `Zobrist64` uses Polyglot's Random64 table, and
/// Polyglot counts an en-passant square only when a pawn of the side to move stands beside
/// the pawn that just moved, whether or not the capture is legal (`PseudoLegal`).
pub fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

/// One move of a book position with the games that played it, counted from the point of view
/// of the side that plays it. `games - wins - draws - losses` games had no known result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveStats {
    pub mv: Move,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl MoveStats {
    pub fn new(mv: Move) -> MoveStats {
        MoveStats { mv, games: 0, wins: 0, draws: 0, losses: 0 }
    }
}

/// A position of the book and its moves, in the order they were first met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookPosition {
    pub position: Chess,
    pub moves: Vec<MoveStats>,
}

impl BookPosition {
    pub fn games(&self) -> u64 {
        self.moves.iter().map(|m| u64::from(m.games)).sum()
    }

    /// Wins of the side to move in this position.
    pub fn wins(&self) -> u64 {
        self.moves.iter().map(|m| u64::from(m.wins)).sum()
    }

    pub fn draws(&self) -> u64 {
        self.moves.iter().map(|m| u64::from(m.draws)).sum()
    }

    pub fn losses(&self) -> u64 {
        self.moves.iter().map(|m| u64::from(m.losses)).sum()
    }

    /// The statistics of `mv`, added if the position has no such move yet.
    pub fn stats_mut(&mut self, mv: Move) -> &mut MoveStats {
        match self.moves.iter().position(|m| m.mv == mv) {
            Some(i) => &mut self.moves[i],
            None => {
                self.moves.push(MoveStats::new(mv));
                let last = self.moves.len() - 1;
                &mut self.moves[last]
            }
        }
    }
}

/// Zobrist keys are uniformly distributed already: hashing them again is wasted time.
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

pub type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// Positions with their moves, keyed by [`position_key`].
#[derive(Debug, Clone, Default)]
pub struct Book {
    pub positions: KeyMap<BookPosition>,
}

impl Book {
    pub fn get(&self, pos: &Chess) -> Option<&BookPosition> {
        self.positions.get(&position_key(pos))
    }

    /// The entry of `pos`, created empty if the book does not hold it yet.
    pub fn position_mut(&mut self, key: u64, pos: &Chess) -> &mut BookPosition {
        self.positions.entry(key).or_insert_with(|| BookPosition { position: pos.clone(), moves: Vec::new() })
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Number of (position, move) pairs.
    pub fn move_count(&self) -> usize {
        self.positions.values().map(|p| p.moves.len()).sum()
    }

    /// Positions in ascending key order: the order of Polyglot books, and a stable order for
    /// every writer.
    pub fn sorted(&self) -> Vec<(u64, &BookPosition)> {
        let mut positions: Vec<(u64, &BookPosition)> = self.positions.iter().map(|(k, p)| (*k, p)).collect();
        positions.sort_unstable_by_key(|(k, _)| *k);
        positions
    }
}
