//! Polyglot's weights for a [`Book`]: what `polyglot make-book` writes for the same games.

use shakmaty::Color;

use super::{Entry, encode_move};
use crate::book::Book;

/// `polyglot make-book`'s counters are 16 bits: when a move reaches this many games, all
/// counters of its position are halved.
const COUNT_MAX: u32 = 16384;

/// The filters and weight rule of `polyglot make-book`.
#[derive(Debug, Clone)]
pub struct MakeOptions {
    /// `-min-game` (default 3): moves played in fewer games are left out.
    pub min_games: u32,
    /// `-min-score` in percent: moves scoring less for their side are left out.
    pub min_score: f64,
    /// `-only-white` / `-only-black`: keep the moves of one side.
    pub only: Option<Color>,
    /// `-uniform`: every kept move weighs 1.
    pub uniform: bool,
}

impl Default for MakeOptions {
    fn default() -> MakeOptions {
        MakeOptions { min_games: 3, min_score: 0.0, only: None, uniform: false }
    }
}

/// The entries `polyglot make-book` writes: weight = 2·wins + draws of the mover, games with
/// an unknown result counting as draws; moves with weight 0 are left out; sorted by key, then
/// weight descending, then the order the moves were first played.
///
/// make-book halves a position's counters (rounding up) each time a move reaches 16,384
/// games while it reads; here the halving is applied to the final counts until every move
/// is below 16,384, which gives the same weights up to rounding.
pub fn entries_from_book(book: &Book, options: &MakeOptions) -> Vec<Entry> {
    let mut entries = Vec::with_capacity(book.move_count());
    let mut counts: Vec<(u32, u32)> = Vec::new();
    for position in book.positions() {
        let key = position.key;
        if options.only.is_some_and(|side| side != position.turn()) {
            continue;
        }
        counts.clear();
        counts.extend(position.moves.iter().map(|m| (m.games, 2 * m.wins + (m.games - m.wins - m.losses))));
        while counts.iter().any(|&(n, _)| n >= COUNT_MAX) {
            for (n, sum) in &mut counts {
                *n = n.div_ceil(2);
                *sum = sum.div_ceil(2);
            }
        }
        let first = entries.len();
        for (stats, &(n, sum)) in position.moves.iter().zip(&counts) {
            let score = f64::from(sum) / f64::from(n) / 2.0;
            if n < options.min_games || sum == 0 || score < options.min_score / 100.0 {
                continue;
            }
            let weight = if options.uniform { 1 } else { sum as u16 };
            entries.push(Entry { key, raw_move: encode_move(stats.mv), weight, learn: 0 });
        }
        // Stable: equal weights keep the order the moves were first played.
        if entries.len() - first > 1 {
            entries[first..].sort_by_key(|e| std::cmp::Reverse(e.weight));
        }
    }
    entries
}
