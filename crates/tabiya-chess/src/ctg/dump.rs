//! Decoding every record of a book, each in its real orientation where the book's own moves
//! lead to it from the start position.

use std::collections::{HashMap, VecDeque};

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::CtgError;
use super::key::{self, Key, hex};
use super::probe::{Resolved, resolve};
use super::read::Book;
use super::record::{RatingBlock, Record, StoredMove, annotation_symbol, evaluation_symbol};
use crate::boardcode::Normalized;

/// One record, decoded.
#[derive(Debug, Clone)]
pub struct DumpedPosition<'a> {
    /// The record as stored.
    pub record: Record<'a>,
    /// The position: in its real orientation when `reached`, else as stored (White to move,
    /// maybe mirrored). `None` when the key does not decode to a valid position.
    pub position: Option<Chess>,
    /// Whether the book's moves lead here from the start position, which tells the real
    /// orientation (colour and side of the board); otherwise it cannot be known.
    pub reached: bool,
    /// Its moves, in the record's order.
    pub moves: Vec<DumpedMove>,
    /// Why the key or a move could not be decoded.
    pub problems: Vec<String>,
}

/// One stored move, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpedMove {
    /// The stored code and annotation byte.
    pub stored: StoredMove,
    /// The legal move on `position`, `None` when the code names none.
    pub mv: Option<Move>,
    /// SAN in the real position, for a legal move.
    pub san: Option<String>,
    /// Legal only with the other reading of 0x1A/0xF9.
    pub alternative_reading: bool,
}

/// Decodes every record in page order. Real orientations come from a breadth-first walk of
/// the book's moves from the start position; the rest keep the stored orientation.
pub fn dump(book: &Book) -> Result<Vec<DumpedPosition<'_>>, CtgError> {
    let records = book.records().collect::<Result<Vec<_>, _>>()?;
    let by_key: HashMap<&[u8], usize> = records.iter().enumerate().rev().map(|(i, r)| (r.key, i)).collect();
    let mut decoded: Vec<Option<Decoded>> = vec![None; records.len()];

    let mut queue = VecDeque::from([Chess::default()]);
    while let Some(pos) = queue.pop_front() {
        let normalized = Normalized::new(&pos);
        let Some(index) = lookup(&by_key, &normalized) else { continue };
        if decoded[index].is_some() {
            continue;
        }
        let (found, children) = decode_moves(pos, &normalized, &records[index], true);
        queue.extend(children);
        decoded[index] = Some(found);
    }

    let mut dumped = Vec::with_capacity(records.len());
    for (record, found) in records.into_iter().zip(decoded) {
        let reached = found.is_some();
        let found = found.unwrap_or_else(|| match key::decode(record.key) {
            Ok(normalized) => match normalized.real_position() {
                Ok(pos) => decode_moves(pos, &normalized, &record, false).0,
                Err(e) => Decoded::failed(&record, format!("the key is not a valid position: {e}")),
            },
            Err(expected) => Decoded::failed(&record, format!("the key does not decode: expected {expected}")),
        });
        dumped.push(DumpedPosition {
            record,
            position: found.position,
            reached,
            moves: found.moves,
            problems: found.problems,
        });
    }
    Ok(dumped)
}

/// A record's position and moves, decoded.
#[derive(Debug, Clone)]
struct Decoded {
    position: Option<Chess>,
    moves: Vec<DumpedMove>,
    problems: Vec<String>,
}

impl Decoded {
    /// A record whose key gives no position: its moves stay undecoded.
    fn failed(record: &Record<'_>, problem: String) -> Decoded {
        let moves = record
            .moves()
            .map(|stored| DumpedMove { stored, mv: None, san: None, alternative_reading: false })
            .collect();
        Decoded { position: None, moves, problems: vec![problem] }
    }
}

/// Decodes the moves of `record` in `pos`; with `children`, also the positions they lead to.
fn decode_moves(pos: Chess, normalized: &Normalized, record: &Record<'_>, children: bool) -> (Decoded, Vec<Chess>) {
    let legal = pos.legal_moves();
    let mut next = Vec::new();
    let mut problems = Vec::new();
    let moves = record
        .moves()
        .map(|stored| {
            let resolved = resolve(&legal, normalized, stored.code);
            if let Some(problem) = resolved.problem() {
                problems.push(format!("move code {:#04x}: {problem}", stored.code));
            }
            let alternative_reading = matches!(resolved, Resolved::Alternative(_));
            let mv = resolved.into_move();
            let san = mv.map(|mv| {
                let mut child = pos.clone();
                let san = SanPlus::from_move_and_play_unchecked(&mut child, mv).to_string();
                if children {
                    next.push(child);
                }
                san
            });
            DumpedMove { stored, mv, san, alternative_reading }
        })
        .collect();
    (Decoded { position: Some(pos), moves, problems }, next)
}

/// The record of a normalised position, with the en-passant retry of the probe.
pub(super) fn lookup(by_key: &HashMap<&[u8], usize>, normalized: &Normalized) -> Option<usize> {
    normalized.lookup_forms().find_map(|form| Key::encode(&form).and_then(|key| by_key.get(key.as_bytes()).copied()))
}

impl DumpedPosition<'_> {
    /// The JSON Lines object of `tabiya convert book.ctg -o book.jsonl`: the FEN, where the
    /// record lies, its key, the statistics for the side to move, and the moves.
    pub fn json_line(&self) -> JsonLine<'_> {
        let stats = &self.record.stats;
        JsonLine {
            fen: self.position.as_ref().map(|p| Fen::from_position(p, EnPassantMode::Legal).to_string()),
            reached: self.reached,
            page: self.record.page,
            offset: self.record.offset,
            key: hex(self.record.key),
            games: stats.games,
            wins: stats.wins,
            draws: stats.draws,
            losses: stats.losses,
            unknown_12: stats.unknown_12,
            own_ratings: stats.own_ratings,
            opponent_ratings: stats.opponent_ratings,
            recommendation: stats.recommendation,
            unknown_31: stats.unknown_31,
            evaluation: stats.evaluation,
            evaluation_symbol: evaluation_symbol(stats.evaluation),
            moves: self
                .moves
                .iter()
                .map(|m| JsonMove {
                    uci: m.mv.map(|mv| mv.to_uci(CastlingMode::Standard).to_string()),
                    san: m.san.as_deref(),
                    code: m.stored.code,
                    annotation: annotation_symbol(m.stored.annotation),
                    annotation_byte: m.stored.annotation,
                })
                .collect(),
            problems: &self.problems,
        }
    }
}

/// One line of the JSON Lines dump (field names are stable; see [`DumpedPosition::json_line`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct JsonLine<'a> {
    /// The record's position (the stored orientation) as FEN; `null` for an invalid key.
    pub fen: Option<String>,
    /// Reached from the initial position through book moves.
    pub reached: bool,
    /// Data page.
    pub page: u32,
    /// Byte offset in the `.ctg`.
    pub offset: u64,
    /// The key in hexadecimal.
    pub key: String,
    /// Games of the position.
    pub games: u32,
    /// Wins of the side to move.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses of the side to move.
    pub losses: u32,
    /// Offset 12, meaning unknown; kept raw.
    pub unknown_12: u32,
    /// Ratings of the side to move's players.
    pub own_ratings: RatingBlock,
    /// Ratings of their opponents.
    pub opponent_ratings: RatingBlock,
    /// 0x80 green (main move), 0x40 red (do not play).
    pub recommendation: u8,
    /// Offset 31, meaning unknown; kept raw.
    pub unknown_31: u8,
    /// Evaluation byte.
    pub evaluation: u8,
    /// Its symbol (`+-`, `=`, …), when it has one.
    pub evaluation_symbol: Option<&'static str>,
    /// The moves.
    pub moves: Vec<JsonMove<'a>>,
    /// What did not decode.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub problems: &'a [String],
}

/// A move of a [`JsonLine`].
#[derive(Debug, Clone, serde::Serialize)]
pub struct JsonMove<'a> {
    /// UCI of the legal move.
    pub uci: Option<String>,
    /// SAN of the legal move.
    pub san: Option<&'a str>,
    /// The stored code.
    pub code: u8,
    /// The annotation's symbol (`!`, `?`, …), when it has one.
    pub annotation: Option<&'static str>,
    /// The annotation byte as stored.
    pub annotation_byte: u8,
}
