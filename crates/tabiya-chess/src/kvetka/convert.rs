//! Kvetka ↔ Polyglot, CTG → Kvetka, and a JSON Lines dump.
//!
//! A Kvetka key stands for a normalised position (White to move, maybe mirrored). Towards
//! Polyglot every orientation of it is written ([`Normalized::orientations`], the one place
//! that choice is made); from Polyglot, whose keys cannot be decoded, the real positions are
//! found by walking from the initial position through its moves, and positions no book move
//! reaches from there are counted, not converted.

use std::borrow::Cow;
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
use super::{Block, Book, BookReader, Header, Key};
use crate::boardcode::Normalized;
use crate::book::position_key;
use crate::polyglot::{self, Entry};

/// What a conversion reached and what it left behind.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ConvertReport {
    /// Positions converted.
    pub positions: u64,
    /// Moves converted.
    pub moves: u64,
    /// Book positions not reachable from the initial position through book moves.
    pub positions_not_reached: u64,
    /// Stored moves that are not legal in their position (or not encodable, towards Kvetka).
    pub moves_skipped: u64,
    /// Elements whose key is not a valid position.
    pub positions_invalid: u64,
}

/// Polyglot entries for a Kvetka book: every element in every orientation
/// ([`Normalized::orientations`]), each move weighing the mover's 2·wins + draws in the
/// element of the position it leads to (CTG's `Weights::Raw`, so that CTG → Kvetka → Polyglot
/// gives what CTG → Polyglot gives with raw weights), scaled to 16 bits per position; moves
/// of weight 0 (no won or drawn game, or the next position not in the book) are left out.
pub fn to_polyglot(kvetka: &Book) -> (Vec<Entry>, ConvertReport) {
    let block = |i: usize| Ok::<_, std::convert::Infallible>(Cow::Borrowed(&kvetka.blocks[i]));
    let Ok(converted) = entries_of_blocks(kvetka.blocks.len(), block);
    converted
}

/// [`to_polyglot`] for a book on disk, read block by block: what it holds at once is the
/// entries it makes and each position's key with its draws and losses (30 bytes a position),
/// never the book's elements (a 64 MB book of 2.2 M positions: 663 MB read whole, 380 MB so).
pub fn to_polyglot_from(reader: &BookReader) -> Result<(Vec<Entry>, ConvertReport), KvetkaError> {
    entries_of_blocks(reader.block_number() as usize, |i| reader.block(i as u32, &mut Vec::new()).map(Cow::Owned))
}

/// What an element's moves weigh for the side that plays them: the element's losses and
/// draws (the next position counts for the opponent), found by key.
struct Outcomes {
    keys: Vec<Key>,
    /// `(losses, draws)` of `keys[i]`.
    counts: Vec<(u32, u32)>,
}

impl Outcomes {
    fn weight(&self, key: &Key) -> Option<u64> {
        let i = self.keys.binary_search(key).ok()?;
        let (losses, draws) = self.counts[i];
        Some(2 * u64::from(losses) + u64::from(draws))
    }
}

/// Blocks in parallel, read twice (outcomes by key, then the entries), each read from
/// `block(index)` and dropped once used; entries in the order of the blocks before the sort.
fn entries_of_blocks<'b, E: Send>(
    blocks: usize,
    block: impl Fn(usize) -> Result<Cow<'b, Block>, E> + Sync,
) -> Result<(Vec<Entry>, ConvertReport), E> {
    use rayon::prelude::*;

    let read: Vec<Vec<(Key, (u32, u32))>> = (0..blocks)
        .into_par_iter()
        .map(|i| Ok(block(i)?.elements.iter().map(|e| (e.key, (e.losses, e.draws))).collect()))
        .collect::<Result<_, E>>()?;
    let mut outcomes: Vec<(Key, (u32, u32))> = read.into_iter().flatten().collect();
    // Books are in key order; a damaged one is looked up as if it were (the first of equal keys).
    if !outcomes.is_sorted_by_key(|(key, _)| *key) {
        outcomes.sort_by_key(|(key, _)| *key);
    }
    outcomes.dedup_by_key(|(key, _)| *key);
    let (keys, counts) = outcomes.into_iter().unzip();
    let outcomes = Outcomes { keys, counts };
    let made: Vec<(Vec<Entry>, ConvertReport)> = (0..blocks)
        .into_par_iter()
        .map(|i| {
            let mut made = (Vec::new(), ConvertReport::default());
            for element in &block(i)?.elements {
                element_entries(element, &outcomes, &mut made.0, &mut made.1);
            }
            Ok(made)
        })
        .collect::<Result<_, E>>()?;
    let mut report = ConvertReport::default();
    let mut entries = Vec::with_capacity(made.iter().map(|(entries, _)| entries.len()).sum());
    for (part, counts) in made {
        entries.extend_from_slice(&part);
        report.positions += counts.positions;
        report.moves += counts.moves;
        report.moves_skipped += counts.moves_skipped;
        report.positions_invalid += counts.positions_invalid;
    }
    polyglot::sort_entries(&mut entries);
    Ok((entries, report))
}

/// The entries of one element, in every orientation.
fn element_entries(element: &Element, outcomes: &Outcomes, entries: &mut Vec<Entry>, report: &mut ConvertReport) {
    let Some((norm, pos)) = key::decode(&element.key).ok().and_then(|n| n.real_position().ok().map(|p| (n, p))) else {
        report.positions_invalid += 1;
        return;
    };
    let mut moves = Vec::with_capacity(element.moves.len());
    for &code in &element.moves {
        let Some((mv, shape)) = decode_move(&norm, &pos, code).and_then(|mv| Some((mv, norm.shape_of(&mv)?))) else {
            report.moves_skipped += 1;
            continue;
        };
        let mut next = pos.clone();
        next.play_unchecked(mv);
        let weight = Normalized::new(&next)
            .lookup_forms()
            .find_map(|form| key::key_of(&form).ok().and_then(|k| outcomes.weight(&k)));
        moves.push((shape, weight.unwrap_or(0)));
    }
    report.moves += moves.len() as u64;
    report.positions += polyglot::push_entries(&norm, &moves, entries);
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

/// A Kvetka book of a CTG book and what did not make it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CtgConversion {
    /// One element per record, in key order.
    pub book: Book,
    /// Records whose board code does not fit Kvetka's 176 bits.
    pub too_long: u64,
    /// Stored moves, or whole records, that do not decode.
    pub undecodable: u64,
    /// Games without a result: CTG counts them, a Kvetka element has only W/D/L.
    pub games_without_result: u64,
}

/// CTG → Kvetka, record by record: both formats key the same normalised positions (same board
/// code, colour flip and mirror), so each record becomes the element of its position as
/// stored (no orientation is chosen here), with the W/D/L of the side to move and its moves
/// re-coded (every CTG move has a Kvetka code). Ratings, annotations, recommendation and
/// evaluation bytes have no place in a Kvetka element.
pub fn from_ctg(ctg: &crate::ctg::Book, header: Header) -> Result<CtgConversion, KvetkaError> {
    let unreadable =
        |e: crate::ctg::CtgError| KvetkaError::unrepresentable(format!("the CTG book cannot be read: {e}"));
    let mut export = CtgConversion::default();
    let mut elements = Vec::new();
    for record in ctg.records() {
        let record = record.map_err(unreadable)?;
        let Some((normalized, pos)) =
            crate::ctg::key::decode(record.key).ok().and_then(|n| n.real_position().ok().map(|pos| (n, pos)))
        else {
            export.undecodable += record.moves().len() as u64;
            continue;
        };
        let Ok(key) = key::key_of(&normalized) else {
            export.too_long += 1;
            continue;
        };
        let stats = record.stats;
        let mut element = Element::new(key);
        (element.wins, element.draws, element.losses) = (stats.wins, stats.draws, stats.losses);
        let results = u64::from(stats.wins) + u64::from(stats.draws) + u64::from(stats.losses);
        export.games_without_result += u64::from(stats.games).saturating_sub(results);
        let legal = pos.legal_moves();
        for stored in record.moves() {
            let code = crate::ctg::decode_move(&legal, &normalized, stored.code)
                .and_then(|mv| normalized.shape_of(&mv))
                .and_then(super::moves::code);
            match code {
                Some(code) if !element.moves.contains(&code) => element.moves.push(code),
                Some(_) => {}
                None => export.undecodable += 1,
            }
        }
        elements.push(element);
    }
    export.book = Book::from_elements(header, elements)?;
    Ok(export)
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
