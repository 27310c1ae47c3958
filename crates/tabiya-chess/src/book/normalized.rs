//! The model every book → book conversion passes through: positions keyed by their
//! normalised form (the one CTG and Kvetka share), each with its results, its moves and the
//! formats' raw fields. Readers: `ctg::read_model`, `kvetka::convert::read_model`,
//! `polyglot::read_model`; writers: `polyglot::entries_of_model`,
//! `kvetka::convert::write_model`.

use std::collections::HashMap;

use rayon::prelude::*;
use shakmaty::Position;

use crate::boardcode::{MoveShape, Normalized};

/// Games of a position, counted for its side to move. `games - wins - draws - losses` games
/// had no known result (CTG counts them; Kvetka keeps W/D/L only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Games that reached the position.
    pub games: u32,
    /// Wins of the side to move.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Losses of the side to move.
    pub losses: u32,
}

impl Outcome {
    /// The same games seen by the other side: wins and losses swap.
    pub fn from_opponent(self) -> Outcome {
        Outcome { wins: self.losses, losses: self.wins, ..self }
    }

    /// 2·wins + draws: what the results are worth to the side they count for.
    pub fn score(self) -> u64 {
        2 * u64::from(self.wins) + u64::from(self.draws)
    }
}

/// A normalised position as a book stores it under its key: without the frame that leads
/// back to the real position it was made from, so that every real position of one form gives
/// the same value (the one its key decodes to).
pub fn stored_form(normalized: &Normalized) -> Normalized {
    Normalized::from_key_parts(normalized.board.clone(), normalized.castling, normalized.ep_file)
}

/// The weight a book's results give a move: the mover's 2·wins + draws in the position the
/// move leads to (whose results count for the opponent); 0 when the book lacks that position
/// or its results. The one rule for weights from results: Kvetka → Polyglot, and CTG →
/// Polyglot before CTG's own marks (`ctg::Weights`), so that both agree.
pub fn results_weight(child: Option<&NormalizedPosition>) -> u64 {
    child.and_then(|c| c.outcome).map_or(0, |o| o.from_opponent().score())
}

/// One move of a [`NormalizedPosition`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NormalizedMove {
    /// The move in the normalised position.
    pub shape: MoveShape,
    /// What the move weighs for play: Polyglot's stored weight, or what the reader worked out
    /// from the book's results ([`results_weight`], CTG's annotations and colours).
    pub weight: u64,
    /// CTG's annotation byte (`!`, `?`, …); 0 elsewhere.
    pub annotation: u8,
    /// Polyglot's learn field; 0 elsewhere.
    pub learn: u32,
}

impl NormalizedMove {
    /// A move with no weight and no raw field.
    pub fn new(shape: MoveShape) -> NormalizedMove {
        NormalizedMove { shape, weight: 0, annotation: 0, learn: 0 }
    }
}

/// One position of a [`NormalizedBook`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalizedPosition {
    /// The position, normalised (White to move, maybe mirrored), as stored: its frame is the
    /// identity ([`stored_form`]), as for a position read from a key.
    pub normalized: Normalized,
    /// Its results for the side to move; `None` where the book keeps none (Polyglot).
    pub outcome: Option<Outcome>,
    /// Its moves, in the book's order.
    pub moves: Vec<NormalizedMove>,
    /// CTG: the record's 33-byte statistics block as stored (ratings, the recommendation
    /// colours, the evaluation and the bytes of unknown meaning).
    pub ctg_stats: Option<[u8; 33]>,
    /// Kvetka: the element's comment (an opening name, for example).
    pub comment: Option<String>,
}

impl NormalizedPosition {
    /// A position with no results, moves or raw fields.
    pub fn new(normalized: Normalized) -> NormalizedPosition {
        NormalizedPosition { normalized, outcome: None, moves: Vec::new(), ctg_stats: None, comment: None }
    }
}

/// Whether a position's moves are in an order the book chose.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MoveOrder {
    /// In the book's order (CTG records, Kvetka elements).
    #[default]
    AsStored,
    /// In no meaningful order: a Polyglot book's real positions folded into normalised ones,
    /// several positions' moves together. Writers choose their own order.
    Unordered,
}

/// A book as positions keyed by their normalised form, in the order the reader met them.
/// Two positions may share a form (a damaged book); look-ups take the first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NormalizedBook {
    /// The positions.
    pub positions: Vec<NormalizedPosition>,
    /// What the order of each position's moves means.
    pub move_order: MoveOrder,
}

impl NormalizedBook {
    /// Sets every move's weight to `rule(position, children)`, where `children[i]` is the
    /// position the `i`-th move leads to, if the book holds it (found under any of its forms,
    /// [`Normalized::lookup_forms`]). Positions are weighed in parallel.
    pub fn weigh_by<F>(&mut self, rule: F)
    where
        F: Fn(&NormalizedPosition, &[Option<&NormalizedPosition>]) -> Vec<u64> + Sync,
    {
        let index = self.index();
        let weights: Vec<Vec<u64>> = self
            .positions
            .par_iter()
            .map(|position| {
                let children: Vec<Option<&NormalizedPosition>> =
                    self.children(position, &index).into_iter().map(|c| c.map(|i| &self.positions[i])).collect();
                rule(position, &children)
            })
            .collect();
        drop(index);
        for (position, weights) in self.positions.iter_mut().zip(weights) {
            for (mv, weight) in position.moves.iter_mut().zip(weights) {
                mv.weight = weight;
            }
        }
    }

    /// Every position's first index, by form.
    fn index(&self) -> HashMap<&Normalized, usize> {
        let mut index = HashMap::with_capacity(self.positions.len());
        for (i, position) in self.positions.iter().enumerate() {
            index.entry(&position.normalized).or_insert(i);
        }
        index
    }

    /// The index of the position each move of `position` leads to, if the book holds it.
    fn children(&self, position: &NormalizedPosition, index: &HashMap<&Normalized, usize>) -> Vec<Option<usize>> {
        let Ok(real) = position.normalized.real_position() else { return vec![None; position.moves.len()] };
        let legal = real.legal_moves();
        position
            .moves
            .iter()
            .map(|m| {
                let mv = position.normalized.find_move(&legal, m.shape)?;
                let mut child = real.clone();
                child.play_unchecked(mv);
                stored_form(&Normalized::new(&child)).lookup_forms().find_map(|form| index.get(&form).copied())
            })
            .collect()
    }
}
