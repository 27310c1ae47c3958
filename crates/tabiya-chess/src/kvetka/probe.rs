//! Looking a position up (spec 9): key, block, element, then each move code decoded into a
//! real move with the statistics of the position it leads to.

use shakmaty::{Chess, Move, Position};

use super::element::Element;
use super::error::KvetkaError;
use super::key;
use super::moves::decode_move;
use super::read::BookReader;

/// A move of a probed position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbedMove {
    /// The byte as stored.
    pub code: u8,
    /// The legal move it stands for; `None` when the code names no legal move here.
    pub mv: Option<Move>,
    /// The element of the position after the move, when the book has it.
    pub after: Option<Element>,
}

impl ProbedMove {
    /// Wins, draws, losses for the side that plays the move (the position after it counts
    /// them for the opponent).
    pub fn stats(&self) -> Option<(u32, u32, u32)> {
        self.after.as_ref().map(|e| (e.losses, e.draws, e.wins))
    }
}

/// What the book knows about a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    pub key: key::KeyOrTooLong,
    pub element: Option<Element>,
    pub moves: Vec<ProbedMove>,
}

/// Probes `pos`; the moves come in the element's order.
pub fn probe(reader: &BookReader, pos: &Chess) -> Result<Probe, KvetkaError> {
    let (key, norm) = match key::encode(pos) {
        Ok(found) => found,
        Err(bits) => return Ok(Probe { key: Err(bits), element: None, moves: Vec::new() }),
    };
    let element = reader.find(&key)?;
    let mut moves = Vec::new();
    for &code in element.iter().flat_map(|e| &e.moves) {
        let mv = decode_move(&norm, pos, code);
        let after = match mv {
            Some(mv) => {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                match key::encode(&next) {
                    Ok((k, _)) => reader.find(&k)?,
                    Err(_) => None,
                }
            }
            None => None,
        };
        moves.push(ProbedMove { code, mv, after });
    }
    Ok(Probe { key: Ok(key), element, moves })
}
