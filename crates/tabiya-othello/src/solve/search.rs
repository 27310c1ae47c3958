//! The exact search: principal-variation alpha-beta with null windows, fail-soft, over
//! bitboards. Near the end of the game (few empties) a lean search without move lists or
//! table; above it the transposition table, enhanced transposition cut-offs, stability
//! cut-offs and fastest-first ordering; from 14 empties the order also weighs shallow searches
//! (depth 0–3) with the pattern evaluation of `crate::eval`, as Edax does; high in the tree the
//! younger brothers of a node are searched in parallel once the two eldest are done (young
//! brothers wait).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::Relaxed};

use rayon::prelude::*;

use super::last_flip::last_flip_count;
use super::moves::MoveList;
use super::stability::stable_discs;
use super::table::Table;
use crate::board::{Board, flips, legal_moves};
use crate::eval::{UNITS_PER_DISC, Weights};

/// At most this many empties: the lean search (no table, no move list, parity order).
const LEAN_EMPTIES: u32 = 6;
/// How many discs short of the bare minimum for a stability cut-off the opponent must be
/// before one is tried, in the lean search and above it.
const SLACK_LEAN: i32 = 4;
const SLACK_HIGH: i32 = 0;
/// From this many empties on: the transposition table (below, the memory it would touch costs
/// more time than the nodes it saves).
const TABLE_EMPTIES: u32 = 10;
/// From this many empties on: enhanced transposition cut-offs.
const ETC_EMPTIES: u32 = 12;
/// From this many empties on: nodes check whether their search has been called off.
const STOP_EMPTIES: u32 = 10;
/// From this many empties on: a node may search its younger moves in parallel.
const SPLIT_EMPTIES: u32 = 13;
/// How many moves a node searches alone before it splits. Two, not one: a node whose first
/// move did not cut off often cuts on its second, and splitting earlier searched those
/// brothers for nothing (FFO #40–#49 on 2 threads, idle: +33 % nodes over one thread when
/// splitting after one move, +9–10 % after two, and 20–29 % less wall time).
const SPLIT_AFTER: usize = 2;
/// From this many empties on: moves are ordered by shallow searches with the pattern
/// evaluation as well.
const EVAL_ORDER_EMPTIES: u32 = 14;

/// The depth of the shallow search that orders the moves of a node with `empties` empties,
/// and the weight of its score (order-key units per evaluation unit; a reply is 256).
fn shallow_depth(empties: u32) -> (u32, i32) {
    // Tuned on FFO #40–#44 (nodes): one disc of evaluation is worth 1/8 of a reply at depth 0,
    // 1/4 at depths 1–2, 1/2 at depth 3; a fourth ply (from 20 or 22 empties) did not pay.
    match empties {
        ..15 => (0, 1),
        15..17 => (1, 2),
        17..19 => (2, 2),
        _ => (3, 4),
    }
}

/// Beyond any evaluation.
const INFINITY: i32 = 1 << 20;

/// The four 4×4 quadrants: playing first in a quadrant with an odd number of empties tends
/// to leave the last move there to us (parity).
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0f0f_0f0f, 0x0000_0000_f0f0_f0f0, 0x0f0f_0f0f_0000_0000, 0xf0f0_f0f0_0000_0000];

/// Squares other than the ones next to corners (X- and C-squares), tried first within each
/// parity group (FFO #40–#44: 3 % fewer nodes).
const GOOD_SQUARES: u64 = !0x42c3_0000_0000_c342;

/// The (up to 8) squares around each square.
static NEIGHBOURS: [u64; 64] = neighbours();

const fn neighbours() -> [u64; 64] {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let (column, row) = ((square % 8) as i32, (square / 8) as i32);
        let mut dc = -1;
        while dc <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (c, r) = (column + dc, row + dr);
                if (dc != 0 || dr != 0) && c >= 0 && c < 8 && r >= 0 && r < 8 {
                    table[square] |= 1 << (r * 8 + c);
                }
                dr += 1;
            }
            dc += 1;
        }
        square += 1;
    }
    table
}

/// A node's permission to go on: set when a sibling running in parallel has already cut it
/// off, or when an ancestor has been called off.
pub struct Stop<'a> {
    flag: AtomicBool,
    parent: Option<&'a Stop<'a>>,
}

impl<'a> Stop<'a> {
    pub fn root() -> Stop<'static> {
        Stop { flag: AtomicBool::new(false), parent: None }
    }

    fn child(parent: &'a Stop<'a>) -> Stop<'a> {
        Stop { flag: AtomicBool::new(false), parent: Some(parent) }
    }

    fn is_set(&self) -> bool {
        let mut stop = Some(self);
        while let Some(s) = stop {
            if s.flag.load(Relaxed) {
                return true;
            }
            stop = s.parent;
        }
        false
    }
}

/// One thread's search: the shared table and this thread's node count.
pub struct Search<'t> {
    table: &'t Table,
    weights: &'static Weights,
    parallel: bool,
    pub nodes: u64,
}

/// The squares of the quadrants holding an odd number of empties.
#[inline]
fn odd_quadrants(empty: u64) -> u64 {
    // Fold rows 0–3 onto row 0 and rows 4–7 onto row 4, then each half row onto its first
    // square: bits 0, 4, 32 and 36 are the quadrants' parities, and multiplying spreads each
    // over its quadrant.
    let mut parity = empty ^ (empty >> 8);
    parity ^= parity >> 16;
    parity ^= parity >> 2;
    parity ^= parity >> 1;
    (parity & 0x0000_0011_0000_0011).wrapping_mul(QUADRANTS[0])
}

impl<'t> Search<'t> {
    pub fn new(table: &'t Table, parallel: bool) -> Search<'t> {
        Search { table, weights: Weights::shipped(), parallel, nodes: 0 }
    }

    /// The exact score of `board` for the side to move if it lies strictly between `alpha`
    /// and `beta`; otherwise a bound on the same side of the window (fail-soft).
    pub fn search(&mut self, board: Board, alpha: i32, beta: i32, stop: &Stop) -> i32 {
        let empties = board.empties();
        if empties <= LEAN_EMPTIES {
            return self.lean(board, alpha, beta);
        }
        self.nodes += 1;
        let checks_stop = empties >= STOP_EMPTIES;
        if checks_stop && stop.is_set() {
            return 0;
        }
        if let Some(bound) = stability_cutoff(board, alpha, SLACK_HIGH) {
            return bound;
        }
        let mut first = None;
        let uses_table = empties >= TABLE_EMPTIES;
        if let Some(entry) = if uses_table { self.table.probe(board) } else { None } {
            if entry.lower >= beta || entry.lower == entry.upper {
                return entry.lower;
            }
            if entry.upper <= alpha {
                return entry.upper;
            }
            first = entry.best_move;
        }
        let moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            if passed.moves() == 0 {
                return board.final_score();
            }
            return -self.search(passed, -beta, -alpha, stop);
        }
        let mut list = MoveList::new(board, moves, first);
        if empties >= ETC_EMPTIES {
            for m in list.as_slice() {
                if let Some(entry) = self.table.probe(m.child)
                    && -entry.upper >= beta
                {
                    return -entry.upper;
                }
            }
        }
        if empties >= EVAL_ORDER_EMPTIES && list.len() > 1 {
            let (depth, weight) = shallow_depth(empties);
            list.add_to_keys(|child| -weight * self.shallow(child, depth, -INFINITY, INFINITY));
        }

        let mut best = -65;
        let mut best_move = None;
        let mut low = alpha;
        for i in 0..list.len() {
            if self.parallel && i == SPLIT_AFTER && empties >= SPLIT_EMPTIES && list.len() > SPLIT_AFTER + 1 {
                let (score, square) = self.search_younger_in_parallel(&mut list, low, beta, stop);
                if checks_stop && stop.is_set() {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_move = square;
                }
                break;
            }
            let m = list.select(i);
            let score = if i == 0 {
                -self.search(m.child, -beta, -low, stop)
            } else {
                let probe = -self.search(m.child, -low - 1, -low, stop);
                if probe > low && probe < beta { -self.search(m.child, -beta, -low, stop) } else { probe }
            };
            if checks_stop && stop.is_set() {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m.square);
                if score >= beta {
                    break;
                }
                low = low.max(score);
            }
        }
        let (lower, upper) = if best >= beta {
            (best, 64)
        } else if best > alpha {
            (best, best)
        } else {
            (-64, best)
        };
        if uses_table {
            self.table.store(board, empties, lower, upper, best_move);
        }
        best
    }

    /// The score of `board` for the side to move by a `depth`-move alpha-beta search with the
    /// pattern evaluation at its leaves, in evaluation units (fail-soft). Each position it
    /// visits counts as a node.
    fn shallow(&mut self, board: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return self.weights.evaluate(board);
        }
        let mut moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            if passed.moves() == 0 {
                return board.final_score() * UNITS_PER_DISC;
            }
            return -self.shallow(passed, depth, -beta, -alpha);
        }
        let mut best = -INFINITY;
        while moves != 0 {
            let square = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let child = board.play_flips(1 << square, flips(board.player, board.opponent, square));
            let score = -self.shallow(child, depth - 1, -beta, -alpha.max(best));
            if score > best {
                best = score;
                if best >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Searches the moves after the [`SPLIT_AFTER`] eldest of `list` on the thread pool, each with a null window on the
    /// best score so far, re-searching those that beat it. Returns the best score and move
    /// (score -65 when every result was called off).
    fn search_younger_in_parallel(
        &mut self,
        list: &mut MoveList,
        alpha: i32,
        beta: i32,
        stop: &Stop,
    ) -> (i32, Option<u8>) {
        let younger = list.sort_from(SPLIT_AFTER);
        let cut = Stop::child(stop);
        let shared_alpha = AtomicI32::new(alpha);
        let table = self.table;
        let results: Vec<(i32, Option<u8>, u64)> = younger
            .par_iter()
            .map(|m| {
                let mut search = Search::new(table, true);
                let low = shared_alpha.load(Relaxed);
                if cut.is_set() || low >= beta {
                    return (-65, None, 0);
                }
                let mut score = -search.search(m.child, -low - 1, -low, &cut);
                if score > low && score < beta && !cut.is_set() {
                    let low = shared_alpha.load(Relaxed).max(low);
                    score = -search.search(m.child, -beta, -low, &cut);
                }
                if cut.is_set() {
                    return (-65, None, search.nodes);
                }
                shared_alpha.fetch_max(score, Relaxed);
                if score >= beta {
                    cut.flag.store(true, Relaxed);
                }
                (score, Some(m.square), search.nodes)
            })
            .collect();
        let mut best = (-65, None);
        for (score, square, nodes) in results {
            self.nodes += nodes;
            if square.is_some() && score > best.0 {
                best = (score, square);
            }
        }
        best
    }

    /// The search for the last few empties: squares tried in parity order, squares next to
    /// corners last, straight from the empty-square bitboard (no move list, no table).
    fn lean(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        let empty = board.empty();
        // The empty squares but the lowest: none left means one empty square, one left two.
        let others = empty & (empty - 1);
        if others == 0 {
            return self.last_move(board);
        }
        if others & (others - 1) == 0 {
            return self.two_empties(board, alpha, beta);
        }
        self.nodes += 1;
        if let Some(bound) = stability_cutoff(board, alpha, SLACK_LEAN) {
            return bound;
        }
        let odd = odd_quadrants(empty);
        let mut best = -65;
        for squares in [
            empty & odd & GOOD_SQUARES,
            empty & odd & !GOOD_SQUARES,
            empty & !odd & GOOD_SQUARES,
            empty & !odd & !GOOD_SQUARES,
        ] {
            let mut remaining = squares;
            while remaining != 0 {
                let square = remaining.trailing_zeros() as usize;
                remaining &= remaining - 1;
                // A move must touch an opponent disc: a cheap test before computing flips.
                if NEIGHBOURS[square] & board.opponent == 0 {
                    continue;
                }
                let flipped = flips(board.player, board.opponent, square);
                if flipped == 0 {
                    continue;
                }
                let score = -self.lean(board.play_flips(1 << square, flipped), -beta, -alpha.max(best));
                if score > best {
                    best = score;
                    if score >= beta {
                        return best;
                    }
                }
            }
        }
        if best == -65 {
            let passed = board.pass();
            if legal_moves(passed.player, passed.opponent) == 0 {
                return board.final_score();
            }
            return -self.lean(passed, -beta, -alpha);
        }
        best
    }

    /// The search with two empty squares, unrolled: each side tries both squares in turn.
    #[inline]
    fn two_empties(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let empty = board.empty();
        let squares = [empty.trailing_zeros() as usize, 63 - empty.leading_zeros() as usize];
        if let Some(score) = self.two_empties_moves(board, squares, beta) {
            return score;
        }
        // A pass: the opponent tries both squares against the negated window.
        match self.two_empties_moves(board.pass(), squares, -alpha) {
            Some(score) => {
                self.nodes += 1;
                -score
            }
            None => board.final_score(),
        }
    }

    /// The best score of the side to move playing one of `squares` (stopping at `beta`), or
    /// `None` when it can play neither.
    #[inline(always)]
    fn two_empties_moves(&mut self, board: Board, squares: [usize; 2], beta: i32) -> Option<i32> {
        let mut best = None;
        for square in squares {
            if NEIGHBOURS[square] & board.opponent == 0 {
                continue;
            }
            let flipped = flips(board.player, board.opponent, square);
            if flipped != 0 {
                let score = -self.last_move(board.play_flips(1 << square, flipped));
                if score >= beta {
                    return Some(score);
                }
                best = best.max(Some(score));
            }
        }
        best
    }

    /// The score with one empty square: whoever can play there does (the side to move first).
    #[inline]
    fn last_move(&mut self, board: Board) -> i32 {
        self.nodes += 1;
        let square = board.empty().trailing_zeros() as usize;
        let player = board.player.count_ones() as i32;
        let flipped = last_flip_count(board.player, square);
        if flipped != 0 {
            return 2 * (player + flipped + 1) - 64;
        }
        let flipped = last_flip_count(board.opponent, square);
        if flipped != 0 {
            return 2 * (player - flipped) - 64;
        }
        board.final_score()
    }
}

/// The stability cut-off: the side to move can score at most 64 minus twice the opponent's
/// stable discs. Only possible when the opponent holds fewer than `(64 - alpha) / 2` discs,
/// and tried only when it holds `slack` discs fewer than that: on FFO #41 with 3–6 empties,
/// fewer than 2 % of the tries with less room cut off, against 6–15 % with 4–7 discs.
#[inline]
fn stability_cutoff(board: Board, alpha: i32, slack: i32) -> Option<i32> {
    if alpha < 64 - 2 * board.opponent.count_ones() as i32 + 2 * slack {
        return None;
    }
    let bound = 64 - 2 * stable_discs(board.opponent, board.player).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn odd_quadrants_are_those_with_an_odd_number_of_empties(empty: u64) {
            let expected = QUADRANTS.iter().filter(|&&q| (empty & q).count_ones() % 2 == 1).fold(0, |a, q| a | q);
            proptest::prop_assert_eq!(odd_quadrants(empty), expected);
        }
    }
}
