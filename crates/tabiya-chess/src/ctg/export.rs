//! CTG → Polyglot: every position a CTG probe answers, with the moves and weights it gives.

use std::collections::HashMap;

use shakmaty::{Color, File, Position};

use super::CtgError;
use super::dump::lookup;
use super::key;
use super::probe::{Weights, resolve};
use super::read::Book;
use super::record::Stats;
use crate::boardcode::{Frame, MoveShape, Normalized};
use crate::polyglot::{Entry, encode_move, key as polyglot_key};

/// The Polyglot entries of a CTG book and what did not make it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolyglotExport {
    /// Sorted by key, then weight descending, then the CTG order.
    pub entries: Vec<Entry>,
    /// Records converted.
    pub records: u64,
    /// Distinct Polyglot positions written (each record stands for 2 or 4 real positions).
    pub positions: u64,
    /// Stored moves left out because their weight is 0 (red, `?`/`??`, child not in the book).
    pub zero_weight: u64,
    /// Stored moves, or whole records, that do not decode.
    pub undecodable: u64,
}

/// Converts a book. A CTG record answers for every real position that normalises to it:
/// the stored position and its colour flip, and, when nobody can castle, their left–right
/// mirrors too; each gets the record's moves, mapped to its orientation. Weights follow
/// `weights`, scaled down per position to fit 16 bits when needed (a positive weight stays ≥ 1).
pub fn to_polyglot(book: &Book, weights: Weights) -> Result<PolyglotExport, CtgError> {
    let records = book.records().collect::<Result<Vec<_>, _>>()?;
    let by_key: HashMap<&[u8], usize> = records.iter().enumerate().rev().map(|(i, r)| (r.key, i)).collect();
    let mut export = PolyglotExport::default();
    for record in &records {
        export.records += 1;
        let Some((normalized, pos)) =
            key::decode(record.key).ok().and_then(|n| n.real_position().ok().map(|pos| (n, pos)))
        else {
            export.undecodable += record.moves().len() as u64;
            continue;
        };
        let mut shapes: Vec<MoveShape> = Vec::new();
        let mut weighed: Vec<(u8, Option<Stats>)> = Vec::new();
        for stored in record.moves() {
            let Some(mv) = resolve(&pos, &normalized, stored.code).into_move() else {
                export.undecodable += 1;
                continue;
            };
            let Some(shape) = normalized.shape_of(&mv) else { continue };
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let child_stats = lookup(&by_key, &Normalized::new(&child)).map(|i| records[i].stats);
            shapes.push(shape);
            weighed.push((stored.annotation, child_stats));
        }
        let weights = fit_u16(weights.weigh(&weighed));
        export.zero_weight += weights.iter().filter(|&&w| w == 0).count() as u64;
        if weights.iter().all(|&w| w == 0) {
            continue;
        }
        for frame in frames(&normalized) {
            let view = Normalized { frame, ..normalized.clone() };
            let Ok(real) = view.real_position() else { continue };
            let key = polyglot_key(&real);
            export.positions += 1;
            for (&shape, &weight) in shapes.iter().zip(&weights) {
                if weight == 0 {
                    continue;
                }
                if let Some(mv) = view.real_move(&real, shape) {
                    export.entries.push(Entry { key, raw_move: encode_move(mv), weight, learn: 0 });
                }
            }
        }
    }
    export.entries.sort_by_key(|e| (e.key, std::cmp::Reverse(e.weight)));
    Ok(export)
}

/// The orientations under which real positions normalise to this stored one.
fn frames(normalized: &Normalized) -> Vec<Frame> {
    let mut frames = vec![Frame { flipped: false, mirrored: false }, Frame { flipped: true, mirrored: false }];
    let king_on_e_to_h = normalized.board.king_of(Color::White).is_some_and(|k| k.file() >= File::E);
    if normalized.castling.is_empty() && king_on_e_to_h {
        frames.push(Frame { flipped: false, mirrored: true });
        frames.push(Frame { flipped: true, mirrored: true });
    }
    frames
}

/// Scales weights down proportionally when the largest exceeds 65,535.
fn fit_u16(weights: Vec<u64>) -> Vec<u16> {
    let max = weights.iter().copied().max().unwrap_or(0);
    weights
        .into_iter()
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
        assert_eq!(fit_u16(vec![462, 0, 3]), [462, 0, 3]);
        assert_eq!(fit_u16(vec![8_000_000, 100, 0]), [65_535, 1, 0]);
        assert_eq!(fit_u16(vec![131_070, 65_535]), [65_535, 32_767]);
    }
}
