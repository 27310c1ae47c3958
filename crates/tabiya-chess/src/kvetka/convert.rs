//! Kvetka ↔ the format-neutral [`crate::book`] model and Polyglot, and a JSON Lines dump.
//!
//! A Kvetka key stands for a normalised position (White to move, maybe mirrored), so the real
//! positions a book holds are found by walking from the initial position through its moves;
//! positions no book move reaches from there (games from a FEN) are counted, not converted.

use std::collections::HashSet;

use serde_json::{Value, json};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use super::build::KeyMap;
use super::element::Element;
use super::error::KvetkaError;
use super::key;
use super::moves::{decode_move, encode_move};
use super::{Book, Header, Key};
use crate::book::{self, MoveStats, position_key};
use crate::polyglot::{self, Entry};

/// What a conversion reached and what it left behind.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ConvertReport {
    pub positions: u64,
    pub moves: u64,
    /// Book positions not reachable from the initial position through book moves.
    pub positions_not_reached: u64,
    /// Stored moves that are not legal in their position (or not encodable, towards Kvetka).
    pub moves_skipped: u64,
    /// Records whose key is not a valid position (CTG).
    pub positions_invalid: u64,
}

/// The book as positions reachable from the initial position, each move with the W/D/L of
/// the position it leads to seen from the side that plays it.
pub fn to_book_model(kvetka: &Book) -> (book::Book, ConvertReport) {
    let mut model = book::BookBuilder::new(book::BuildOptions::default());
    let mut report = ConvertReport::default();
    let mut reached: HashSet<Key, std::hash::BuildHasherDefault<super::build::KeyHasher>> = HashSet::default();
    let mut stack = vec![Chess::default()];
    let mut seen: HashSet<u64> = HashSet::new();
    while let Some(pos) = stack.pop() {
        let zobrist = position_key(&pos);
        if !seen.insert(zobrist) {
            continue;
        }
        let Ok((key, norm)) = key::encode(&pos) else { continue };
        let Some(element) = kvetka.find(&key) else { continue };
        reached.insert(key);
        report.positions += 1;
        let mut moves = Vec::with_capacity(element.moves.len());
        for &code in &element.moves {
            let Some(mv) = decode_move(&norm, &pos, code) else {
                report.moves_skipped += 1;
                continue;
            };
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let mut stats = MoveStats::new(mv);
            if let Some(after) = key::encode(&next).ok().and_then(|(k, _)| kvetka.find(&k)) {
                (stats.wins, stats.draws, stats.losses) = (after.losses, after.draws, after.wins);
                stats.games = after.wins.saturating_add(after.draws).saturating_add(after.losses);
            }
            moves.push(stats);
            stack.push(next);
        }
        report.moves += moves.len() as u64;
        for stats in &moves {
            model.add_stats(&pos, stats);
        }
    }
    report.positions_not_reached = kvetka.elements().filter(|e| !reached.contains(&e.key)).count() as u64;
    (model.finish(), report)
}

/// Polyglot entries for a Kvetka book: weight 2·wins + draws of the mover (make-book's rule),
/// moves without a won or drawn game left out.
pub fn to_polyglot(kvetka: &Book) -> (Vec<Entry>, ConvertReport) {
    let (model, report) = to_book_model(kvetka);
    let options = polyglot::MakeOptions { min_games: 1, ..polyglot::MakeOptions::default() };
    (polyglot::entries_from_book(&model, &options), report)
}

/// A Kvetka book with the positions and moves of a Polyglot book, walked from the initial
/// position. Polyglot weights are not game counts, so every W/D/L is 0.
pub fn from_polyglot(entries: &[Entry], header: Header) -> Result<(Book, ConvertReport), KvetkaError> {
    let mut report = ConvertReport::default();
    let mut elements: KeyMap<Element> = KeyMap::default();
    let mut stack = vec![Chess::default()];
    let mut seen: HashSet<u64> = HashSet::new();
    let mut used_keys: HashSet<u64> = HashSet::new();
    while let Some(pos) = stack.pop() {
        let zobrist = position_key(&pos);
        if !seen.insert(zobrist) {
            continue;
        }
        let hits = polyglot::probe(entries, &pos);
        if hits.is_empty() {
            continue;
        }
        used_keys.insert(zobrist);
        let Ok((key, norm)) = key::encode(&pos) else {
            report.moves_skipped += hits.len() as u64;
            continue;
        };
        let element = elements.entry(key).or_insert_with(|| Element::new(key));
        for mv in hits.iter().filter_map(|h| h.mv) {
            match encode_move(&norm, &mv) {
                Some(code) if !element.moves.contains(&code) => element.moves.push(code),
                Some(_) => {}
                None => report.moves_skipped += 1,
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            stack.push(next);
        }
        report.moves_skipped += hits.iter().filter(|h| h.mv.is_none()).count() as u64;
    }
    // Positions reached only as the last move's target are in the book too, without moves.
    let mut elements: Vec<Element> = elements.into_values().collect();
    for e in &mut elements {
        e.moves.sort_unstable();
        report.moves += e.moves.len() as u64;
    }
    let keys: HashSet<Key> = elements.iter().map(|e| e.key).collect();
    let mut targets = Vec::new();
    for e in &elements {
        let Ok(norm) = key::decode(&e.key) else { continue };
        let Ok(pos) = norm.real_position() else { continue };
        for &code in &e.moves {
            if let Some(mv) = decode_move(&norm, &pos, code) {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                if let Ok((k, _)) = key::encode(&next)
                    && !keys.contains(&k)
                {
                    targets.push(k);
                }
            }
        }
    }
    targets.sort_unstable();
    targets.dedup();
    elements.extend(targets.into_iter().map(Element::new));
    report.positions = elements.len() as u64;
    let distinct: HashSet<u64> = entries.iter().map(|e| e.key).collect();
    report.positions_not_reached = distinct.difference(&used_keys).count() as u64;
    Ok((Book::from_elements(header, elements)?, report))
}

/// A Kvetka book with every record of a CTG book: CTG normalises positions exactly like Kvetka
/// (same board code, colour flip and mirror), so each record becomes the element of the same
/// position, with the record's W/D/L for the side to move and its moves recoded.
pub fn from_ctg(ctg: &crate::ctg::Book, header: Header) -> Result<(Book, ConvertReport), KvetkaError> {
    let dumped =
        crate::ctg::dump(ctg).map_err(|e| KvetkaError::unrepresentable(format!("the CTG book cannot be read: {e}")))?;
    let mut report = ConvertReport::default();
    let mut elements: KeyMap<Element> = KeyMap::default();
    for record in dumped {
        let Some(pos) = &record.position else {
            report.positions_invalid += 1;
            continue;
        };
        let Ok((key, norm)) = key::encode(pos) else {
            report.moves_skipped += record.moves.len() as u64;
            continue;
        };
        let e = elements.entry(key).or_insert_with(|| Element::new(key));
        let stats = &record.record.stats;
        e.wins = e.wins.saturating_add(stats.wins);
        e.draws = e.draws.saturating_add(stats.draws);
        e.losses = e.losses.saturating_add(stats.losses);
        for m in &record.moves {
            match m.mv.and_then(|mv| encode_move(&norm, &mv)) {
                Some(code) if !e.moves.contains(&code) => e.moves.push(code),
                Some(_) => {}
                None => report.moves_skipped += 1,
            }
        }
    }
    let mut elements: Vec<Element> = elements.into_values().collect();
    for e in &mut elements {
        e.moves.sort_unstable();
        report.moves += e.moves.len() as u64;
    }
    report.positions = elements.len() as u64;
    Ok((Book::from_elements(header, elements)?, report))
}

/// One JSON object per element: key, the normalised position as FEN, statistics, moves
/// (code, UCI and SAN in the normalised position), comment and references.
pub fn element_json(e: &Element) -> Value {
    let position = key::decode(&e.key).ok().and_then(|n| n.real_position().ok().map(|p| (n, p)));
    let moves: Vec<Value> = e
        .moves
        .iter()
        .map(|&code| {
            let mv = position.as_ref().and_then(|(n, p)| decode_move(n, p, code).map(|m| (p, m)));
            json!({
                "code": format!("{code:02x}"),
                "uci": mv.map(|(_, m)| UciMove::from_move(m, CastlingMode::Standard).to_string()),
                "san": mv.map(|(p, m)| SanPlus::from_move(p.clone(), m).to_string()),
            })
        })
        .collect();
    let reference = |r: &super::SourceRef| json!({"source": r.source, "game": r.game});
    json!({
        "key": e.key.to_hex(),
        "fen": position.map(|(_, p)| shakmaty::fen::Fen::from_position(&p, shakmaty::EnPassantMode::Legal).to_string()),
        "wins": e.wins,
        "draws": e.draws,
        "losses": e.losses,
        "moves": moves,
        "flags": e.flags,
        "comment": e.comment,
        "some_source": e.some_source.as_ref().map(reference),
        "game_links": e.links().iter().map(reference).collect::<Vec<_>>(),
    })
}
