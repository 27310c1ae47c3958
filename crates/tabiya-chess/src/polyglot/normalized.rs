//! Polyglot entries for the positions of a book keyed by normalised positions (CTG, Kvetka):
//! one stored position becomes a Polyglot position in every orientation
//! ([`Normalized::orientations`]), all with the same moves and weights.

use shakmaty::Position;

use super::{Entry, encode_move, key};
use crate::boardcode::{MoveShape, Normalized};

/// Appends the entries of one normalised position whose moves are `moves` (shape and weight,
/// in the book's order) and returns how many real positions received entries. Weights are
/// scaled down proportionally to fit 16 bits when the largest exceeds 65,535 (a positive
/// weight stays ≥ 1); moves of weight 0 are left out, and a position whose moves all weigh 0
/// has no entries.
pub fn push_entries(normalized: &Normalized, moves: &[(MoveShape, u64)], out: &mut Vec<Entry>) -> u64 {
    let weights = fit_u16(moves.iter().map(|&(_, w)| w));
    if weights.iter().all(|&w| w == 0) {
        return 0;
    }
    let mut positions = 0;
    for view in normalized.orientations() {
        let Ok(real) = view.real_position() else { continue };
        let key = key(&real);
        let legal = real.legal_moves();
        positions += 1;
        for (&(shape, _), &weight) in moves.iter().zip(&weights) {
            if weight == 0 {
                continue;
            }
            if let Some(mv) = view.find_move(&legal, shape) {
                out.push(Entry { key, raw_move: encode_move(mv), weight, learn: 0 });
            }
        }
    }
    positions
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
