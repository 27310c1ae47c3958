//! Merging two books.

use super::Entry;

/// What happens to a position both books hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MergeRule {
    /// `polyglot merge-book`: the first book's entries for the position are kept and the
    /// second book's are dropped.
    #[default]
    FirstWins,
    /// Weights of the same move are added; if a position's largest sum does not fit in 16
    /// bits, all its weights are halved (rounding up) until it does. Learn values of the
    /// first book are kept.
    SumWeights,
}

/// Merges two books sorted by key.
pub fn merge(first: &[Entry], second: &[Entry], rule: MergeRule) -> Vec<Entry> {
    match rule {
        MergeRule::FirstWins => first_wins(first, second),
        MergeRule::SumWeights => sum_weights(first, second),
    }
}

/// merge-book's walk: the lower key goes first; on equal keys the second book's entry is
/// skipped.
fn first_wins(first: &[Entry], second: &[Entry]) -> Vec<Entry> {
    let mut out = Vec::with_capacity(first.len() + second.len());
    let (mut i, mut j) = (0, 0);
    loop {
        match (first.get(i), second.get(j)) {
            (None, None) => break,
            (Some(a), None) => {
                out.push(*a);
                i += 1;
            }
            (None, Some(b)) => {
                out.push(*b);
                j += 1;
            }
            (Some(a), Some(b)) => {
                if a.key < b.key {
                    out.push(*a);
                    i += 1;
                } else if a.key > b.key {
                    out.push(*b);
                    j += 1;
                } else {
                    j += 1;
                }
            }
        }
    }
    out
}

fn sum_weights(first: &[Entry], second: &[Entry]) -> Vec<Entry> {
    let mut all: Vec<(Entry, u32)> = first.iter().chain(second).map(|e| (*e, u32::from(e.weight))).collect();
    // Stable: the first book's entry of a move comes first.
    all.sort_by_key(|(e, _)| e.key);
    let mut out = Vec::with_capacity(all.len());
    let mut start = 0;
    while start < all.len() {
        let key = all[start].0.key;
        let end = start + all[start..].partition_point(|(e, _)| e.key == key);
        let mut moves: Vec<(Entry, u32)> = Vec::new();
        for &(entry, weight) in &all[start..end] {
            match moves.iter_mut().find(|(e, _)| e.raw_move == entry.raw_move) {
                Some((_, sum)) => *sum += weight,
                None => moves.push((entry, weight)),
            }
        }
        while moves.iter().any(|&(_, w)| w > u32::from(u16::MAX)) {
            moves.iter_mut().for_each(|(_, w)| *w = w.div_ceil(2));
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        out.extend(moves.into_iter().map(|(e, w)| Entry { weight: w as u16, ..e }));
        start = end;
    }
    out
}
