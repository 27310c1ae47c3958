//! The transposition table: bounds on the exact score of positions already searched, shared
//! by every search thread without locks.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::board::Board;

/// What the table knows of a position: `lower <= score <= upper`, and the move that was best
/// (or refuted the window) when it was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub lower: i32,
    pub upper: i32,
    pub best_move: Option<u8>,
}

/// Each slot stores the position XOR-ed with its data, and the data: a slot torn by two
/// threads writing at once no longer matches its position and is ignored (Hyatt's lockless
/// hashing).
#[derive(Default)]
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

pub struct Table {
    slots: Box<[Slot]>,
    mask: usize,
}

const NO_MOVE: u64 = 0xff;

impl Table {
    /// A table of `2^bits` slots (24 bytes each).
    pub fn new(bits: u32) -> Table {
        let slots = (0..1usize << bits).map(|_| Slot::default()).collect();
        Table { slots, mask: (1 << bits) - 2 }
    }

    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.player.store(0, Relaxed);
            slot.opponent.store(0, Relaxed);
            slot.data.store(0, Relaxed);
        }
    }

    /// The first of the two slots of this position's bucket.
    #[inline]
    fn bucket(&self, board: Board) -> usize {
        let h = (board.player ^ (board.player >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (board.opponent ^ (board.opponent >> 29)).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        (h ^ (h >> 32)) as usize & self.mask
    }

    #[inline]
    fn read(&self, index: usize, board: Board) -> Option<u64> {
        let slot = &self.slots[index];
        let data = slot.data.load(Relaxed);
        (slot.player.load(Relaxed) ^ data == board.player && slot.opponent.load(Relaxed) ^ data == board.opponent)
            .then_some(data)
    }

    #[inline]
    pub fn probe(&self, board: Board) -> Option<Entry> {
        let bucket = self.bucket(board);
        let data = self.read(bucket, board).or_else(|| self.read(bucket + 1, board))?;
        let best = (data >> 16) & 0xff;
        Some(Entry {
            lower: (data & 0xff) as i32 - 64,
            upper: ((data >> 8) & 0xff) as i32 - 64,
            best_move: (best != NO_MOVE).then_some(best as u8),
        })
    }

    /// Records `lower <= score <= upper` for a position with `empties` empty squares,
    /// narrowing what is already known of it. Of two other positions in the bucket, the one
    /// nearer the end of the game (cheaper to search again) makes way.
    pub fn store(&self, board: Board, empties: u32, mut lower: i32, mut upper: i32, best_move: Option<u8>) {
        let bucket = self.bucket(board);
        let known = self.read(bucket, board).map(|d| (bucket, d));
        let index = match known.or_else(|| self.read(bucket + 1, board).map(|d| (bucket + 1, d))) {
            Some((index, data)) => {
                let narrowed = (lower.max((data & 0xff) as i32 - 64), upper.min(((data >> 8) & 0xff) as i32 - 64));
                // Bounds crossing can only come from a slot torn by a race: keep the new ones.
                if narrowed.0 <= narrowed.1 {
                    (lower, upper) = narrowed;
                }
                index
            }
            None => {
                let empties_at = |i: usize| (self.slots[i].data.load(Relaxed) >> 24) & 0xff;
                if empties_at(bucket) <= empties_at(bucket + 1) { bucket } else { bucket + 1 }
            }
        };
        let data = (lower + 64) as u64
            | ((upper + 64) as u64) << 8
            | u64::from(best_move.unwrap_or(NO_MOVE as u8)) << 16
            | u64::from(empties) << 24;
        let slot = &self.slots[index];
        slot.player.store(board.player ^ data, Relaxed);
        slot.opponent.store(board.opponent ^ data, Relaxed);
        slot.data.store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_narrows_bounds() {
        let table = Table::new(10);
        let board = Board { player: 0x0000_0008_1000_0000, opponent: 0x0000_0010_0800_0000 };
        assert_eq!(table.probe(board), None);
        table.store(board, 60, -64, 10, Some(19));
        table.store(board, 60, 4, 64, Some(37));
        assert_eq!(table.probe(board), Some(Entry { lower: 4, upper: 10, best_move: Some(37) }));
        assert_eq!(table.probe(board.pass()), None);
        table.clear();
        assert_eq!(table.probe(board), None);
    }
}
