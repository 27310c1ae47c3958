//! Looking a position up (spec 9): key, block, element, then each move code decoded into a
//! real move with the statistics of the position it leads to.

use shakmaty::{Chess, Move, Position};

use super::element::Element;
use super::error::KvetkaError;
use super::key;
use super::moves::decode_move;
use super::read::BookReader;
use super::{SourceRef, Sources};
use serde_json::{Map, Value, json};
use shakmaty::CastlingMode;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use tabiya_io::report;
use tabiya_io::{Diagnostic, Location};

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
    /// The key of the position, or the bits it would need (over 176).
    pub key: key::KeyOrTooLong,
    /// The position's element, when the book has it.
    pub element: Option<Element>,
    /// Its moves, in the element's order.
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

/// The `probe` answer for `pos`: the element's W/D/L (the side to move's), comment and game
/// references (with players and results from the `.ksf`), then its moves in the element's
/// order, each with the W/D/L of the position it leads to seen from the side that plays it.
/// Kvetka keeps no weights: a move weighs the games of the position it leads to.
pub fn probe_report(reader: &BookReader, pos: &Chess) -> Result<report::Probe, KvetkaError> {
    let found = probe(reader, pos)?;
    let part = reader.files().part(0);
    let mut problems: Vec<Diagnostic> = reader.problems().to_vec();
    let sources = reader.sources(&mut problems).unwrap_or_else(|e| {
        problems.push(Diagnostic::warning("kvetka.ksf", Location::file(&part), format!("{e}; games not shown")));
        None
    });
    let mut position = Map::new();
    if let Ok(key) = found.key {
        position.insert("key".into(), json!(key.to_hex()));
    }
    if let Some(e) = &found.element {
        position.insert("games".into(), json!(e.games()));
        position.insert("wins".into(), json!(e.wins));
        position.insert("draws".into(), json!(e.draws));
        position.insert("losses".into(), json!(e.losses));
        if let Some(c) = &e.comment {
            position.insert("comment".into(), json!(c));
        }
        if let Some(r) = e.some_source {
            position.insert("some_game".into(), game_json(sources.as_ref(), r));
        }
        if !e.links().is_empty() {
            let games: Vec<Value> = e.links().iter().map(|&r| game_json(sources.as_ref(), r)).collect();
            position.insert("games_ending_here".into(), json!(games));
        }
    }
    let mut moves = Vec::new();
    for m in &found.moves {
        let Some(mv) = m.mv else {
            let message = format!("move code {:#04x} is not a legal move here", m.code);
            problems.push(Diagnostic::warning("kvetka.move_code", Location::file(&part), message));
            continue;
        };
        let stats = m.stats();
        let games = stats.map(|(w, d, l)| u64::from(w) + u64::from(d) + u64::from(l));
        let mut extra = Map::new();
        extra.insert("code".into(), json!(format!("{:02x}", m.code)));
        if let Some(c) = m.after.as_ref().and_then(|e| e.comment.as_ref()) {
            extra.insert("comment".into(), json!(c));
        }
        moves.push(report::ProbeMove {
            uci: UciMove::from_move(mv, CastlingMode::Standard).to_string(),
            san: SanPlus::from_move(pos.clone(), mv).to_string(),
            weight: games.unwrap_or(0),
            games,
            wins: stats.map(|s| u64::from(s.0)),
            draws: stats.map(|s| u64::from(s.1)),
            losses: stats.map(|s| u64::from(s.2)),
            annotation: None,
            extra,
        });
    }
    Ok(report::Probe {
        book: part,
        format: crate::Format::Kvetka.name(),
        fen: crate::book::fen_of(pos),
        found: found.element.is_some(),
        position,
        moves,
        problems,
    })
}

/// A referenced game with its players and result from the `.ksf`, or just the reference.
fn game_json(sources: Option<&Sources>, r: SourceRef) -> Value {
    let mut value = json!({"source": r.source, "game": r.game});
    if let Some((source, game)) = sources.and_then(|s| s.game(r)) {
        value["file"] = json!(source.address);
        value["offset"] = json!(game.address);
        value["length"] = json!(game.length);
        value["white"] = json!(game.white_name());
        value["black"] = json!(game.black_name());
        value["white_elo"] = json!(game.white_elo);
        value["black_elo"] = json!(game.black_elo);
        value["result"] = json!(game.result_pgn());
    }
    value
}
