//! Move lists ordered for the endgame: the transposition table's move first, then "fastest
//! first" (the move that leaves the opponent the fewest replies, corners counting double),
//! then, worth a quarter of a reply each, our discs made stable around corners, and with
//! smaller weights the squares the opponent could soon move to and, from 12 empties (below,
//! generating our moves costs more than it saves), our own mobility. The last two cut FFO
//! #40–#44 from 358.6 M to 331.5 M nodes.

use crate::board::{Board, flips, legal_moves};

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// Room for every empty square: a reachable position has at most 33 legal moves, but OBF
/// input may be any arrangement of discs.
const MAX_MOVES: usize = 64;

#[derive(Debug, Clone, Copy, Default)]
pub struct Move {
    pub square: u8,
    /// The position after the move, seen from the opponent.
    pub child: Board,
    key: i32,
}

pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

/// Empty squares next to a disc of `discs`.
#[inline]
fn neighbours(discs: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let sideways = ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    let row = discs | sideways;
    sideways | (row << 8) | (row >> 8)
}

/// For each square next to a corner, that corner and the order-key penalty for playing there
/// while it is empty (it tends to give the corner away): two replies' worth on the diagonal
/// (X-squares), half a reply along the edges (C-squares). These cut FFO #40–#44 from
/// 321.4 M to 213.3 M nodes.
static CORNER_RISK: [(u64, i32); 64] = corner_risk();

const fn corner_risk() -> [(u64, i32); 64] {
    let mut table = [(0, 0); 64];
    let corners = [(0, 0), (7, 0), (0, 7), (7, 7)];
    let mut i = 0;
    while i < 4 {
        let (column, row) = corners[i];
        let corner = 1u64 << (row * 8 + column);
        // The neighbours one step towards the board's centre: across, along the row, along the column.
        let (c, r) = (if column == 0 { 1 } else { 6 }, if row == 0 { 1 } else { 6 });
        table[r * 8 + c] = (corner, 512);
        table[row * 8 + c] = (corner, 128);
        table[r * 8 + column] = (corner, 128);
        i += 1;
    }
    table
}

/// The corners of `own` and the discs of `own` on the edge next to them: a cheap part of
/// its stable discs.
#[inline]
fn corner_stable(own: u64) -> u64 {
    const NEXT_TO_CORNERS_ON_ROWS: u64 = 0x4200_0000_0000_0042;
    const NEXT_TO_CORNERS_ON_FILES: u64 = 0x0081_0000_0000_8100;
    let corners = own & CORNERS;
    let sideways = ((corners >> 1) | (corners << 1)) & NEXT_TO_CORNERS_ON_ROWS;
    let vertical = ((corners >> 8) | (corners << 8)) & NEXT_TO_CORNERS_ON_FILES;
    corners | (own & (sideways | vertical))
}

impl MoveList {
    /// Every legal move of `board` (`moves` is its move bitboard), with its child and order key.
    #[inline]
    pub fn new(board: Board, moves: u64, first: Option<u8>) -> MoveList {
        let mut list = MoveList { moves: [Move::default(); MAX_MOVES], len: 0 };
        let deep = board.empties() >= 12;
        let mut remaining = moves;
        while remaining != 0 && list.len < MAX_MOVES {
            let square = remaining.trailing_zeros() as u8;
            remaining &= remaining - 1;
            let bit = 1u64 << square;
            let child = board.play_flips(bit, flips(board.player, board.opponent, square as usize));
            let key = if first == Some(square) {
                i32::MAX
            } else if child.player == 0 {
                i32::MAX - 1 // a wipe-out
            } else {
                let replies = child.moves();
                let weighted_replies = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                let potential = (neighbours(child.opponent) & child.empty()).count_ones() as i32;
                let corner = i32::from(bit & CORNERS != 0);
                let stable = corner_stable(child.opponent).count_ones() as i32;
                let mobility = if deep { legal_moves(child.opponent, child.player).count_ones() as i32 } else { 0 };
                let (near_corner, risk) = CORNER_RISK[square as usize];
                let risk = if board.empty() & near_corner != 0 { risk } else { 0 };
                -(weighted_replies << 8) + (stable << 6) - (potential << 2) + (corner << 4) + (mobility << 4) - risk
            };
            list.moves[list.len] = Move { square, child, key };
            list.len += 1;
        }
        list
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Adds `bonus(child)` to the order key of every move but the table's move and
    /// wipe-outs, which stay first.
    pub fn add_to_keys(&mut self, mut bonus: impl FnMut(Board) -> i32) {
        for m in &mut self.moves[..self.len] {
            if m.key < i32::MAX - 1 {
                m.key += bonus(m.child);
            }
        }
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Brings the best remaining move to position `i` (selection sort, step by step: most
    /// nodes cut off after one or two moves).
    #[inline]
    pub fn select(&mut self, i: usize) -> Move {
        let mut best = i;
        for j in i + 1..self.len {
            if self.moves[j].key > self.moves[best].key {
                best = j;
            }
        }
        self.moves.swap(i, best);
        self.moves[i]
    }

    /// Sorts the moves from position `i` on, best first.
    pub fn sort_from(&mut self, i: usize) -> &[Move] {
        self.moves[i..self.len].sort_by_key(|m| std::cmp::Reverse(m.key));
        &self.moves[i..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Square, mask};

    #[test]
    fn corner_risk_marks_x_and_c_squares() {
        let at = |name: &str| CORNER_RISK[name.parse::<Square>().unwrap().index() as usize];
        assert_eq!(at("b2"), (mask(&["a1"]), 512));
        assert_eq!(at("g7"), (mask(&["h8"]), 512));
        assert_eq!(at("b8"), (mask(&["a8"]), 128));
        assert_eq!(at("h2"), (mask(&["h1"]), 128));
        assert_eq!(at("d4"), (0, 0));
        assert_eq!(at("c1"), (0, 0));
        assert_eq!(CORNER_RISK.iter().filter(|(corner, _)| *corner != 0).count(), 12);
    }

    #[test]
    fn corner_stable_discs_are_corners_and_their_edge_neighbours() {
        let own = mask(&["a1", "b1", "a2", "b2", "h1", "h2", "g8", "c1"]);
        assert_eq!(corner_stable(own), mask(&["a1", "b1", "a2", "h1", "h2"]));
        // No wrap-around from h1 to a2 or from a8 to h7.
        assert_eq!(corner_stable(mask(&["h1", "a2", "a8", "h7"])), mask(&["h1", "a8"]));
    }
}
