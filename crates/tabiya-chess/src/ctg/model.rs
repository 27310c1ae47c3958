//! CTG → the book model ([`NormalizedBook`]): one position per record, as stored.

use shakmaty::Position;

use super::CtgError;
use super::key;
use super::probe::{Weights, resolve};
use super::read::Book;
use super::record::Stats;
use crate::book::{NormalizedBook, NormalizedMove, NormalizedPosition};

/// What reading a CTG book into the model met.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CtgReading {
    /// Records read.
    pub records: u64,
    /// Stored moves, or whole records, that do not decode.
    pub undecodable: u64,
}

/// The book's records as positions of the model, in the book's order: each with its W/D/L
/// (and games) for the side to move, its statistics block raw, and its moves with their
/// annotation byte and the weight `weights` gives them.
pub fn read_model(book: &Book, weights: Weights) -> Result<(NormalizedBook, CtgReading), CtgError> {
    let mut model = NormalizedBook::default();
    let mut reading = CtgReading::default();
    for record in book.records() {
        let record = record?;
        reading.records += 1;
        let Some((normalized, pos)) =
            key::decode(record.key).ok().and_then(|n| n.real_position().ok().map(|pos| (n, pos)))
        else {
            reading.undecodable += record.moves().len() as u64;
            continue;
        };
        let legal = pos.legal_moves();
        let mut moves = Vec::with_capacity(record.moves().len());
        for stored in record.moves() {
            let Some(shape) =
                resolve(&legal, &normalized, stored.code).into_move().and_then(|mv| normalized.shape_of(&mv))
            else {
                reading.undecodable += 1;
                continue;
            };
            moves.push(NormalizedMove { annotation: stored.annotation, ..NormalizedMove::new(shape) });
        }
        let stats = record.stats;
        let mut position = NormalizedPosition::new(&normalized);
        position.outcome = Some(stats.outcome());
        position.ctg_stats = Some(Box::new(stats.to_bytes()));
        model.push(position, moves);
    }
    model.weigh_by(|_, moves, children| {
        let marked: Vec<(u8, Option<Stats>)> = moves
            .iter()
            .zip(children)
            .map(|(m, child)| (m.annotation, child.and_then(|c| c.ctg_stats.as_deref()).map(Stats::parse)))
            .collect();
        weights.weigh(&marked)
    });
    Ok((model, reading))
}
