//! Looking a position up: its record, its moves mapped back to the real board, each move's
//! child statistics, and the weights an engine plays by.

use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move, Position};

use super::CtgError;
use super::codes;
use super::key::{Key, hex};
use super::read::{Book, Lookup};
use super::record::{Record, Stats, StoredMove, annotation_symbol, evaluation_symbol};
use crate::boardcode::Normalized;
use serde_json::{Map, Value, json};
use tabiya_io::report;
use tabiya_io::{Diagnostic, Location, Unit};

/// What a book says about one position.
#[derive(Debug, Clone)]
pub struct Probe<'a> {
    /// The position as normalised for the key.
    pub normalized: Normalized,
    /// The key looked up; `None` when the position cannot have one (board code over 30 bytes).
    pub key: Option<Key>,
    /// The record found, if any.
    pub record: Option<Record<'a>>,
    /// The stored moves that are legal, in the book's order, mapped back to the real board.
    pub moves: Vec<BookMove>,
    /// What did not go as the format says (unused or illegal codes, the 0x1A/0xF9 fallback,
    /// the look-up without the en-passant file), each at its record's page.
    pub problems: Vec<Diagnostic>,
}

/// One book move of a probed position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookMove {
    /// The move on the real board.
    pub mv: Move,
    /// Standard algebraic notation with check marks.
    pub san: String,
    /// The stored code and annotation byte.
    pub stored: StoredMove,
    /// The record of the position after the move, as stored: its side to move is the
    /// opponent of the mover. `None` when the book lacks it.
    pub child: Option<Stats>,
}

impl BookMove {
    /// The move in UCI (castling as `e1g1`).
    pub fn uci(&self) -> String {
        self.mv.to_uci(CastlingMode::Standard).to_string()
    }

    /// The child statistics seen from the player who makes the move.
    pub fn mover_stats(&self) -> Option<Stats> {
        self.child.map(|c| c.from_opponent())
    }
}

/// How moves are weighted for play (and for conversion to Polyglot).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Weights {
    /// DroidFish's rule with its options on: the mover's 2·wins + draws from the child record,
    /// times the annotation factor (none 1, `!` 8, `!!` 32, `!?` 1/2, `?!` 1/8, `?` and `??` 0,
    /// only move 1,000,000, other bytes 1), times 10 for a green child (main move); 0 for a
    /// red child (do not play) or a child the book lacks. Rounded to integers, never rounding a
    /// positive weight to 0. When no move of the position has a positive 2·wins + draws (a book
    /// without results, like `simple`), that base is taken as 1 for every move, so the
    /// annotations and colours alone decide.
    #[default]
    Play,
    /// The mover's 2·wins + draws from the child record, and nothing else.
    Raw,
}

impl Weights {
    /// Weights of the moves of one position, in order.
    pub fn weights(self, moves: &[BookMove]) -> Vec<u64> {
        let moves: Vec<(u8, Option<Stats>)> = moves.iter().map(|m| (m.stored.annotation, m.child)).collect();
        self.weigh(&moves)
    }

    /// Weights of moves given as (annotation byte, child statistics as stored).
    pub(super) fn weigh(self, moves: &[(u8, Option<Stats>)]) -> Vec<u64> {
        let base = |child: &Option<Stats>| child.map_or(0, |c| c.outcome().from_opponent().score());
        match self {
            Weights::Raw => moves.iter().map(|(_, child)| base(child)).collect(),
            Weights::Play => {
                let without_results = moves.iter().all(|(_, child)| base(child) == 0);
                moves
                    .iter()
                    .map(|(annotation, child)| {
                        play_weight(*annotation, *child, if without_results { 1 } else { base(child) })
                    })
                    .collect()
            }
        }
    }
}

/// Annotation factors in eighths.
fn annotation_factor(annotation: u8) -> u64 {
    match annotation {
        0x01 => 64,
        0x02 | 0x04 => 0,
        0x03 => 256,
        0x05 => 4,
        0x06 => 1,
        0x08 => 8_000_000,
        _ => 8,
    }
}

fn play_weight(annotation: u8, child: Option<Stats>, base: u64) -> u64 {
    if child.is_some_and(|c| c.is_red()) {
        return 0;
    }
    let green = if child.is_some_and(|c| c.is_green()) { 10 } else { 1 };
    let eighths = base * annotation_factor(annotation) * green;
    if eighths == 0 { 0 } else { ((eighths + 4) / 8).max(1) }
}

impl Book {
    /// Looks `pos` up: the key with the en-passant file by adjacency, then without it; the
    /// stored moves mapped back to the real board; each child's statistics.
    pub fn probe(&self, pos: &Chess) -> Result<Probe<'_>, CtgError> {
        let mut problems = Vec::new();
        let (normalized, key, record) = self.find_position(pos, &mut problems)?;
        let mut moves = Vec::new();
        if let Some(record) = &record {
            let legal = pos.legal_moves();
            for stored in record.moves() {
                let Some(mv) = self.real_move(&legal, &normalized, stored, record, &mut problems) else { continue };
                let mut child_pos = pos.clone();
                let san = SanPlus::from_move_and_play_unchecked(&mut child_pos, mv).to_string();
                let child = self.find_position(&child_pos, &mut Vec::new())?.2.map(|r| r.stats);
                moves.push(BookMove { mv, san, stored, child });
            }
        }
        Ok(Probe { normalized, key, record, moves, problems })
    }

    /// The record of a position, trying without the en-passant file when the key with it is
    /// not in the book.
    fn find_position(
        &self,
        pos: &Chess,
        problems: &mut Vec<Diagnostic>,
    ) -> Result<(Normalized, Option<Key>, Option<Record<'_>>), CtgError> {
        let normalized = Normalized::new(pos);
        let Some(key) = Key::encode(&normalized) else { return Ok((normalized, None, None)) };
        let mut find = |key: &Key| -> Result<Option<Record<'_>>, CtgError> {
            let found = self.find(key)?;
            if let Some((record, Lookup::Legacy)) = &found {
                problems.push(Diagnostic::warning(
                    "ctg.legacy_lookup",
                    self.record_location(record),
                    format!(
                        "key {}: found in data page {} only by the legacy walk; the .ctb/.cto tree leads elsewhere",
                        hex(key.as_bytes()),
                        record.page
                    ),
                ));
            }
            Ok(found.map(|(record, _)| record))
        };
        if let Some(record) = find(&key)? {
            return Ok((normalized, Some(key), Some(record)));
        }
        if normalized.ep_file.is_some() {
            let without_ep = Normalized { ep_file: None, ..normalized.clone() };
            if let Some(other) = Key::encode(&without_ep)
                && let Some(record) = find(&other)?
            {
                problems.push(Diagnostic::warning(
                    "ctg.en_passant_lookup",
                    self.record_location(&record),
                    format!(
                        "key {} not in the book; found the position stored without its en-passant file",
                        hex(key.as_bytes())
                    ),
                ));
                return Ok((without_ep, Some(other), Some(record)));
            }
        }
        Ok((normalized, Some(key), None))
    }

    /// The legal move a stored code names, with a warning when it needed the other reading of
    /// 0x1A/0xF9 or names none.
    fn real_move(
        &self,
        legal: &[Move],
        normalized: &Normalized,
        stored: StoredMove,
        record: &Record<'_>,
        problems: &mut Vec<Diagnostic>,
    ) -> Option<Move> {
        let resolved = resolve(legal, normalized, stored.code);
        if let Some(problem) = resolved.problem() {
            let message = format!("move code {:#04x}: {problem}", stored.code);
            problems.push(Diagnostic::warning("ctg.move_code", self.record_location(record), message));
        }
        resolved.into_move()
    }

    /// Where a record is: the `.ctg`, its byte offset, its data page.
    pub(super) fn record_location(&self, record: &Record<'_>) -> Location {
        Location::file(&self.paths().ctg).with(Unit::Page, u64::from(record.page)).with_offset(record.offset)
    }
}

/// What a stored move code turned out to be in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Resolved {
    Move(Move),
    /// Legal only with the other reading of 0x1A/0xF9 (ctg.md 10.1).
    Alternative(Move),
    Unused,
    Illegal,
}

impl Resolved {
    pub(super) fn into_move(self) -> Option<Move> {
        match self {
            Resolved::Move(mv) | Resolved::Alternative(mv) => Some(mv),
            Resolved::Unused | Resolved::Illegal => None,
        }
    }

    /// What to warn about, if anything.
    pub(super) fn problem(&self) -> Option<&'static str> {
        match self {
            Resolved::Move(_) => None,
            Resolved::Alternative(_) => Some("illegal as the table reads it; read as the other 6-square queen move"),
            Resolved::Unused => Some("not a code of the move table; skipped"),
            Resolved::Illegal => Some("names no legal move; skipped"),
        }
    }
}

/// Decodes a stored code among the legal moves of a position (normalised as `normalized`),
/// trying the other reading of 0x1A/0xF9 when the table's reading is illegal.
pub(super) fn resolve(legal: &[Move], normalized: &Normalized, code: u8) -> Resolved {
    let Some(shape) = codes::decode(code) else { return Resolved::Unused };
    if let Some(mv) = normalized.find_move(legal, shape) {
        return Resolved::Move(mv);
    }
    match codes::alternative(code).and_then(|other| normalized.find_move(legal, other)) {
        Some(mv) => Resolved::Alternative(mv),
        None => Resolved::Illegal,
    }
}

impl Book {
    /// The `probe` answer for `pos`: the record's statistics and raw fields, then its moves in
    /// the book's order, weighted by `weights`, with W/D/L of the position each leads to seen
    /// from the side that plays it.
    pub fn probe_report(&self, pos: &Chess, weights: Weights) -> Result<report::Probe, CtgError> {
        let probe = self.probe(pos)?;
        let mut position = Map::new();
        if let Some(record) = &probe.record {
            position.insert("page".into(), json!(record.page));
            position.insert("offset".into(), json!(record.offset));
            position.insert("key".into(), json!(hex(record.key)));
            stats_fields(&mut position, &record.stats);
        }
        position.insert("flipped".into(), json!(probe.normalized.frame.flipped));
        position.insert("mirrored".into(), json!(probe.normalized.frame.mirrored));
        let moves = probe
            .moves
            .iter()
            .zip(weights.weights(&probe.moves))
            .map(|(m, weight)| {
                let mover = m.mover_stats();
                let mut extra = Map::new();
                extra.insert("code".into(), json!(m.stored.code));
                extra.insert("annotation_byte".into(), json!(m.stored.annotation));
                extra.insert("child_in_book".into(), json!(m.child.is_some()));
                if let Some(stats) = &mover {
                    let mut child = Map::new();
                    stats_fields(&mut child, stats);
                    extra.insert("child".into(), Value::Object(child));
                }
                report::ProbeMove {
                    uci: m.uci(),
                    san: m.san.clone(),
                    weight,
                    games: mover.map(|s| u64::from(s.games)),
                    wins: mover.map(|s| u64::from(s.wins)),
                    draws: mover.map(|s| u64::from(s.draws)),
                    losses: mover.map(|s| u64::from(s.losses)),
                    annotation: annotation_symbol(m.stored.annotation).map(str::to_owned),
                    extra,
                }
            })
            .collect();
        Ok(report::Probe {
            book: self.paths().ctg.clone(),
            format: crate::Format::Ctg.name(),
            fen: crate::book::fen_of(pos),
            found: probe.record.is_some(),
            position,
            moves,
            problems: self.warnings().iter().cloned().chain(probe.problems).collect(),
        })
    }
}

/// Statistics as JSON fields: results for the side to move, both rating blocks, the raw bytes.
fn stats_fields(map: &mut Map<String, Value>, stats: &Stats) {
    if let Ok(Value::Object(fields)) = serde_json::to_value(stats) {
        map.extend(fields);
    }
    map.insert("evaluation_symbol".into(), json!(evaluation_symbol(stats.evaluation)));
}

/// The legal move a stored code names in a position (normalised as `normalized`), reading
/// 0x1A/0xF9 the other way when the table's reading is illegal; `None` for an unused code or
/// one that names no legal move.
pub fn decode_move(legal: &[Move], normalized: &Normalized, code: u8) -> Option<Move> {
    resolve(legal, normalized, code).into_move()
}
