//! Decoding every record of a book, each in its real orientation where the book's own moves
//! lead to it from the start position.

use std::collections::{HashMap, VecDeque};

use serde_json::{Value, json};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::CtgError;
use super::key::{self, Key, hex};
use super::probe::{Resolved, resolve};
use super::read::Book;
use super::record::{Record, StoredMove, annotation_symbol, evaluation_symbol};
use crate::boardcode::Normalized;

/// One record, decoded.
#[derive(Debug, Clone)]
pub struct DumpedPosition<'a> {
    pub record: Record<'a>,
    /// The position: in its real orientation when `reached`, else as stored (White to move,
    /// maybe mirrored). `None` when the key does not decode to a valid position.
    pub position: Option<Chess>,
    /// Whether the book's moves lead here from the start position, which tells the real
    /// orientation (colour and side of the board); otherwise it cannot be known.
    pub reached: bool,
    pub moves: Vec<DumpedMove>,
    /// Why the key or a move could not be decoded.
    pub problems: Vec<String>,
}

/// One stored move, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpedMove {
    pub stored: StoredMove,
    /// The legal move on `position`, `None` when the code names none.
    pub mv: Option<Move>,
    pub san: Option<String>,
    /// Legal only with the other reading of 0x1A/0xF9.
    pub alternative_reading: bool,
}

/// Decodes every record in page order. Real orientations come from a breadth-first walk of
/// the book's moves from the start position; the rest keep the stored orientation.
pub fn dump(book: &Book) -> Result<Vec<DumpedPosition<'_>>, CtgError> {
    let records = book.records().collect::<Result<Vec<_>, _>>()?;
    let by_key: HashMap<&[u8], usize> = records.iter().enumerate().rev().map(|(i, r)| (r.key, i)).collect();
    let mut positions: Vec<Option<(Chess, Normalized)>> = vec![None; records.len()];

    let mut queue = VecDeque::from([Chess::default()]);
    while let Some(pos) = queue.pop_front() {
        let normalized = Normalized::new(&pos);
        let Some(index) = lookup(&by_key, &normalized) else { continue };
        if positions[index].is_some() {
            continue;
        }
        for stored in records[index].moves() {
            if let Some(mv) = resolve(&pos, &normalized, stored.code).into_move() {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                queue.push_back(child);
            }
        }
        positions[index] = Some((pos, normalized));
    }

    let mut dumped = Vec::with_capacity(records.len());
    for (record, reached) in records.into_iter().zip(positions) {
        let mut problems = Vec::new();
        let reached_flag = reached.is_some();
        let position = match reached {
            Some(found) => Some(found),
            None => match key::decode(record.key) {
                Ok(normalized) => match normalized.real_position() {
                    Ok(pos) => Some((pos, normalized)),
                    Err(e) => {
                        problems.push(format!("the key is not a valid position: {e}"));
                        None
                    }
                },
                Err(expected) => {
                    problems.push(format!("the key does not decode: expected {expected}"));
                    None
                }
            },
        };
        let moves = record
            .moves()
            .map(|stored| {
                let Some((pos, normalized)) = &position else {
                    return DumpedMove { stored, mv: None, san: None, alternative_reading: false };
                };
                let resolved = resolve(pos, normalized, stored.code);
                if let Some(problem) = resolved.problem() {
                    problems.push(format!("move code {:#04x}: {problem}", stored.code));
                }
                let alternative_reading = matches!(resolved, Resolved::Alternative(_));
                let mv = resolved.into_move();
                let san = mv.map(|mv| SanPlus::from_move(pos.clone(), mv).to_string());
                DumpedMove { stored, mv, san, alternative_reading }
            })
            .collect();
        dumped.push(DumpedPosition {
            record,
            position: position.map(|(pos, _)| pos),
            reached: reached_flag,
            moves,
            problems,
        });
    }
    Ok(dumped)
}

/// The record of a normalised position, with the en-passant retry of the probe.
pub(super) fn lookup(by_key: &HashMap<&[u8], usize>, normalized: &Normalized) -> Option<usize> {
    let found = Key::encode(normalized).and_then(|key| by_key.get(key.as_bytes()).copied());
    found.or_else(|| {
        let without_ep = Normalized { ep_file: None, ..normalized.clone() };
        normalized.ep_file.and(Key::encode(&without_ep)).and_then(|key| by_key.get(key.as_bytes()).copied())
    })
}

impl DumpedPosition<'_> {
    /// The JSON Lines object of `tabiya convert book.ctg -o book.jsonl`: the FEN, where the
    /// record lies, its key, the statistics for the side to move, and the moves.
    pub fn to_json(&self) -> Value {
        let stats = &self.record.stats;
        let moves: Vec<Value> = self
            .moves
            .iter()
            .map(|m| {
                json!({
                    "uci": m.mv.map(|mv| mv.to_uci(CastlingMode::Standard).to_string()),
                    "san": m.san,
                    "code": m.stored.code,
                    "annotation": annotation_symbol(m.stored.annotation),
                    "annotation_byte": m.stored.annotation,
                })
            })
            .collect();
        let mut line = json!({
            "fen": self.position.as_ref().map(|p| Fen::from_position(p, EnPassantMode::Legal).to_string()),
            "reached": self.reached,
            "page": self.record.page,
            "offset": self.record.offset,
            "key": hex(self.record.key),
            "games": stats.games,
            "wins": stats.wins,
            "draws": stats.draws,
            "losses": stats.losses,
            "unknown_12": stats.unknown_12,
            "own_ratings": stats.own_ratings,
            "opponent_ratings": stats.opponent_ratings,
            "recommendation": stats.recommendation,
            "unknown_31": stats.unknown_31,
            "evaluation": stats.evaluation,
            "evaluation_symbol": evaluation_symbol(stats.evaluation),
            "moves": moves,
        });
        if !self.problems.is_empty()
            && let Some(object) = line.as_object_mut()
        {
            object.insert("problems".into(), json!(self.problems));
        }
        line
    }
}
