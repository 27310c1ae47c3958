//! Merging two books.

use super::Entry;

/// What happens to a position both books hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MergeRule {
    /// `polyglot merge-book` 2.0.4 (Debian's): the first book's moves in their order, each
    /// with the weight of the same move in the second book added, then the second book's other
    /// moves in their order; learn values of the first book. Polyglot adds in 16 bits and
    /// wraps around on overflow; tabiya stops at 65,535 instead.
    #[default]
    SumWeights,
    /// `polyglot merge-book` 1.4: the first book's entries for the position are kept and the
    /// second book's dropped.
    FirstWins,
}

/// Merges two books sorted by key.
pub fn merge(first: &[Entry], second: &[Entry], rule: MergeRule) -> Vec<Entry> {
    let mut out = Vec::with_capacity(first.len() + second.len());
    let (mut i, mut j) = (0, 0);
    while i < first.len() || j < second.len() {
        let a = group(first, i);
        let b = group(second, j);
        match (a.first(), b.first()) {
            (Some(x), Some(y)) if x.key == y.key => {
                match rule {
                    MergeRule::SumWeights => sum_position(a, b, &mut out),
                    MergeRule::FirstWins => out.extend_from_slice(a),
                }
                i += a.len();
                j += b.len();
            }
            (Some(x), Some(y)) if x.key > y.key => {
                out.extend_from_slice(b);
                j += b.len();
            }
            (Some(_), _) => {
                out.extend_from_slice(a);
                i += a.len();
            }
            (None, _) => {
                out.extend_from_slice(b);
                j += b.len();
            }
        }
    }
    out
}

/// The entries from `start` that share its key.
fn group(entries: &[Entry], start: usize) -> &[Entry] {
    let rest = entries.get(start..).unwrap_or_default();
    let len = rest.first().map_or(0, |head| rest.partition_point(|e| e.key == head.key));
    &rest[..len]
}

fn sum_position(first: &[Entry], second: &[Entry], out: &mut Vec<Entry>) {
    let mut used = vec![false; second.len()];
    for entry in first {
        let mut merged = *entry;
        if let Some(k) = (0..second.len()).find(|&k| !used[k] && second[k].raw_move == entry.raw_move) {
            used[k] = true;
            merged.weight = merged.weight.saturating_add(second[k].weight);
        }
        out.push(merged);
    }
    out.extend(second.iter().zip(&used).filter(|(_, used)| !**used).map(|(e, _)| *e));
}
