//! Polyglot ↔ the book model ([`NormalizedBook`]).
//!
//! Towards Polyglot, one position of the model becomes a Polyglot position in every
//! orientation ([`Normalized::orientations`]), all with the same moves and weights. From
//! Polyglot, whose keys are hashes, a position is known only by playing to it: the reader
//! walks from the initial position through the book's moves (see the `book` module's
//! orientation rule).

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use shakmaty::{Chess, Move, Position};

use super::{Entry, encode_move, key, probe};
use crate::boardcode::{Frame, Normalized};
use crate::book::{MoveOrder, NormalizedBook, NormalizedMove, NormalizedPosition, stored_form};

/// What reading a Polyglot book into the model met.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolyglotReading {
    /// Polyglot positions (distinct keys) the walk from the initial position does not reach.
    pub positions_not_reached: u64,
    /// Entries whose move is not legal in their position.
    pub moves_illegal: u64,
}

/// The positions reachable from the initial position through the book's moves, each folded
/// into its normalised form (two real positions of one form share it, their moves together,
/// each once); every move keeps its stored weight and learn field. The positions the last
/// moves lead to are in the model too, without moves, so that a book keyed by positions
/// knows where each line ends. Moves come [`MoveOrder::Unordered`].
pub fn read_model(entries: &[Entry]) -> (NormalizedBook, PolyglotReading) {
    let mut reading = PolyglotReading::default();
    // Moves arrive for a position whenever the walk meets one of its real forms: kept per
    // position here, put into the model at the end.
    let mut positions: Vec<(NormalizedPosition, Vec<NormalizedMove>)> = Vec::new();
    let mut by_form: HashMap<Normalized, usize> = HashMap::new();
    let mut leaves: Vec<Normalized> = Vec::new();
    // Each position with whether a book move led to it.
    let mut stack = vec![(Chess::default(), false)];
    let (mut seen, mut used_keys) = (HashSet::new(), HashSet::new());
    while let Some((pos, by_move)) = stack.pop() {
        let zobrist = key(&pos);
        if !seen.insert(zobrist) {
            continue;
        }
        let hits = probe(entries, &pos);
        // The frame names the real position's moves; the stored form is the key.
        let framed = Normalized::new(&pos);
        let normalized = stored_form(&framed);
        if hits.is_empty() {
            if by_move {
                leaves.push(normalized);
            }
            continue;
        }
        used_keys.insert(zobrist);
        let index = *by_form.entry(normalized).or_insert_with_key(|form| {
            positions.push((NormalizedPosition::new(form), Vec::new()));
            positions.len() - 1
        });
        let moves = &mut positions[index].1;
        for hit in &hits {
            let Some(mv) = hit.mv else {
                reading.moves_illegal += 1;
                continue;
            };
            if let Some(shape) = framed.shape_of(&mv)
                && !moves.iter().any(|m| m.shape == shape)
            {
                let (weight, learn) = (u64::from(hit.entry.weight), hit.entry.learn);
                moves.push(NormalizedMove { weight, learn, ..NormalizedMove::new(shape) });
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            stack.push((next, true));
        }
    }
    for leaf in leaves {
        if !by_form.contains_key(&leaf) {
            by_form.insert(leaf.clone(), positions.len());
            positions.push((NormalizedPosition::new(&leaf), Vec::new()));
        }
    }
    let mut model = NormalizedBook::new(MoveOrder::Unordered);
    for (position, moves) in positions {
        model.push(position, moves);
    }
    let distinct: HashSet<u64> = entries.iter().map(|e| e.key).collect();
    reading.positions_not_reached = distinct.difference(&used_keys).count() as u64;
    (model, reading)
}

/// What writing the model as Polyglot entries made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolyglotWriting {
    /// Sorted by key, then weight descending, then the model's order.
    pub entries: Vec<Entry>,
    /// Distinct Polyglot positions written (each position of the model stands for 2 or 4).
    pub positions: u64,
    /// Moves left out because they weigh 0.
    pub zero_weight: u64,
}

/// The Polyglot entries of the model: every position in every orientation, each move with
/// its weight ([`NormalizedMove::weight`], scaled down per position to fit 16 bits when the
/// largest exceeds 65,535; a positive weight stays ≥ 1) and learn field. Moves of weight 0
/// are left out, and a position whose moves all weigh 0 has no entries. Positions are made
/// in parallel, in the model's order before the sort. The model is dropped before the sort,
/// whose scratch (half the entries) would otherwise come on top of it.
pub fn entries_of_model(model: NormalizedBook) -> PolyglotWriting {
    // Made a wave of chunks at a time and appended, so that the entries are held about once
    // (a wave's parts beside the whole), not all parts beside their concatenation: the
    // entries are most of what a conversion holds (90 MB for a 2.2 M-position Kvetka book).
    const CHUNK: usize = 4096;
    const WAVE: usize = 64 * CHUNK;
    let mut writing = PolyglotWriting::default();
    for wave in model.positions().chunks(WAVE) {
        let parts: Vec<PolyglotWriting> = wave
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut part = PolyglotWriting::default();
                for position in chunk {
                    let moves = model.moves_of(position);
                    part.zero_weight += moves.iter().filter(|m| m.weight == 0).count() as u64;
                    part.positions += push_entries(position, moves, &mut part.entries);
                }
                part
            })
            .collect();
        for part in parts {
            writing.entries.extend_from_slice(&part.entries);
            writing.positions += part.positions;
            writing.zero_weight += part.zero_weight;
        }
    }
    drop(model);
    sort_entries(&mut writing.entries);
    writing
}

/// Appends the entries of one position of the model, with its `moves`, and returns how many
/// real positions received entries.
fn push_entries(position: &NormalizedPosition, moves: &[NormalizedMove], out: &mut Vec<Entry>) -> u64 {
    let weights = fit_u16(moves.iter().map(|m| m.weight));
    if weights.iter().all(|&w| w == 0) {
        return 0;
    }
    let Some(normalized) = position.normalized() else { return 0 };
    // Each move in the normalised frame, found once, among the legal moves of the first
    // orientation that is a valid position: the orientations are one position seen from each
    // side and in the mirror, so their legal moves are the same moves with their squares
    // mapped (`Frame::square`), and each orientation takes its own by mapping them.
    let mut normal_moves: Option<Vec<Option<Move>>> = None;
    let mut positions = 0;
    for view in normalized.orientations() {
        let Ok(real) = view.real_position() else { continue };
        let key = key(&real);
        positions += 1;
        let normal_moves = normal_moves.get_or_insert_with(|| {
            let legal = real.legal_moves();
            moves.iter().map(|m| view.find_move(&legal, m.shape).map(|mv| framed(mv, view.frame))).collect()
        });
        for ((m, &weight), mv) in moves.iter().zip(&weights).zip(normal_moves.iter()) {
            if let Some(mv) = mv
                && weight > 0
            {
                out.push(Entry { key, raw_move: encode_move(framed(*mv, view.frame)), weight, learn: m.learn });
            }
        }
    }
    positions
}

/// A move of a real position in the normalised frame `frame` maps it to, or the other way
/// round (the map is its own inverse).
fn framed(mv: Move, frame: Frame) -> Move {
    let square = |sq| frame.square(sq);
    match mv {
        Move::Normal { role, from, capture, to, promotion } => {
            Move::Normal { role, from: square(from), capture, to: square(to), promotion }
        }
        Move::EnPassant { from, to } => Move::EnPassant { from: square(from), to: square(to) },
        Move::Castle { king, rook } => Move::Castle { king: square(king), rook: square(rook) },
        Move::Put { role, to } => Move::Put { role, to: square(to) },
    }
}

/// Sorts entries as Polyglot books are: by key, then weight descending, equal weights in the
/// order they were pushed.
pub fn sort_entries(entries: &mut [Entry]) {
    entries.sort_by_key(|e| (e.key, std::cmp::Reverse(e.weight)));
}

/// Scales weights down proportionally when the largest exceeds 65,535.
fn fit_u16(weights: impl Iterator<Item = u64> + Clone) -> Vec<u16> {
    let max = weights.clone().max().unwrap_or(0);
    weights
        .map(|w| {
            let scaled = if max > u64::from(u16::MAX) { (u128::from(w) * 65_535 / u128::from(max)) as u64 } else { w };
            if w > 0 { scaled.max(1) as u16 } else { 0 }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::fit_u16;

    #[test]
    fn weights_fit_16_bits() {
        assert_eq!(fit_u16([462, 0, 3].into_iter()), [462, 0, 3]);
        assert_eq!(fit_u16([8_000_000, 100, 0].into_iter()), [65_535, 1, 0]);
        assert_eq!(fit_u16([131_070, 65_535].into_iter()), [65_535, 32_767]);
    }
}
