//! CTG → Polyglot: every position a CTG probe answers, with the moves and weights it gives.

use std::collections::HashMap;

use shakmaty::Position;

use super::CtgError;
use super::dump::lookup;
use super::key;
use super::probe::{Weights, resolve};
use super::read::Book;
use super::record::Stats;
use crate::boardcode::{MoveShape, Normalized};
use crate::polyglot::{self, Entry};

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

/// Converts a book. A CTG record answers for every real position that normalises to it
/// ([`Normalized::orientations`]); each gets the record's moves, mapped to its orientation.
/// Weights follow `weights`, scaled down per position to fit 16 bits when needed
/// ([`polyglot::push_entries`]).
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
        let legal = pos.legal_moves();
        for stored in record.moves() {
            let Some(mv) = resolve(&legal, &normalized, stored.code).into_move() else {
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
        let weighed: Vec<(MoveShape, u64)> = shapes.into_iter().zip(weights.weigh(&weighed)).collect();
        export.zero_weight += weighed.iter().filter(|&&(_, w)| w == 0).count() as u64;
        export.positions += polyglot::push_entries(&normalized, &weighed, &mut export.entries);
    }
    polyglot::sort_entries(&mut export.entries);
    Ok(export)
}
