//! Kvetka ↔ the book model ([`NormalizedBook`]), and a JSON Lines dump.
//!
//! A Kvetka key stands for a normalised position (White to move, maybe mirrored), as the
//! model's positions do: reading and writing choose no orientation (the `book` module says
//! where that choice is made).

use std::borrow::Cow;

use serde_json::{Value, json};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Position};

use super::build::KeyMap;
use super::element::Element;
use super::error::KvetkaError;
use super::key;
use super::moves::{code, decode_move, shape};
use super::{Block, Book, BookReader, Header};
use crate::boardcode::BoardCoder;
use crate::book::{ChildKeys, MoveOrder, NormalizedBook, NormalizedMove, NormalizedPosition, Outcome, results_weight};

/// What reading a Kvetka book into the model met.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct KvetkaReading {
    /// Elements read into the model.
    pub positions: u64,
    /// Stored moves that are not legal in their position.
    pub moves_skipped: u64,
    /// Elements whose key is not a valid position.
    pub positions_invalid: u64,
}

/// The elements of a book in memory as positions of the model ([`read_model_from`]).
pub fn read_model(kvetka: &Book) -> (NormalizedBook, KvetkaReading) {
    let block = |i: usize| Ok::<_, std::convert::Infallible>(Cow::Borrowed(&kvetka.blocks[i]));
    let Ok(read) = model_of_blocks(kvetka.blocks.len(), block);
    read
}

/// The elements of a book on disk as positions of the model, in key order, blocks read in
/// parallel and dropped once read: each with its W/D/L for the side to move (games = W + D +
/// L) and its comment, each move weighing [`results_weight`] (Kvetka has no weights of its
/// own; CTG's `Weights::Raw` is the same rule, so CTG → Kvetka → Polyglot gives what CTG →
/// Polyglot gives with raw weights). Game references point into the book's `.ksf`, which no
/// other format has: they stay out of the model.
pub fn read_model_from(reader: &BookReader) -> Result<(NormalizedBook, KvetkaReading), KvetkaError> {
    model_of_blocks(reader.block_number() as usize, |i| reader.block(i as u32, &mut Vec::new()).map(Cow::Owned))
}

fn model_of_blocks<'b, E: Send>(
    blocks: usize,
    block: impl Fn(usize) -> Result<Cow<'b, Block>, E> + Sync,
) -> Result<(NormalizedBook, KvetkaReading), E> {
    use rayon::prelude::*;

    // A wave of blocks at a time, in parallel, put into the model before the next: the
    // model is held once, not beside all the blocks' positions.
    const WAVE: usize = 256;
    let mut model = NormalizedBook::default();
    let mut child_keys = ChildKeys::default();
    let mut reading = KvetkaReading::default();
    for wave in (0..blocks).collect::<Vec<_>>().chunks(WAVE) {
        let parts: Vec<BlockPart> = wave
            .par_iter()
            .map(|&i| {
                let mut part = BlockPart::default();
                let mut coder = BoardCoder::default();
                for element in &block(i)?.elements {
                    match position_of(element, &mut coder, &mut part) {
                        Some(position) => part.positions.push(position),
                        None => part.reading.positions_invalid += 1,
                    }
                }
                Ok(part)
            })
            .collect::<Result<_, E>>()?;
        for part in parts {
            for (position, moves) in part.positions {
                model.push(position, moves);
            }
            child_keys.append(part.child_keys);
            reading.moves_skipped += part.reading.moves_skipped;
            reading.positions_invalid += part.reading.positions_invalid;
        }
    }
    reading.positions = model.positions().len() as u64;
    model.weigh_by_child_keys(&child_keys, |_, _, children| {
        children.iter().map(|&child| results_weight(child)).collect()
    });
    Ok((model, reading))
}

/// An element as a position of the model and its moves, before it goes into the model.
type ElementPosition = (NormalizedPosition, Vec<NormalizedMove>);

/// What one block gives the model: its elements' positions, their moves' children, counts.
#[derive(Default)]
struct BlockPart {
    positions: Vec<ElementPosition>,
    child_keys: ChildKeys,
    reading: KvetkaReading,
}

/// The position of one element and its moves, each move's child recorded in `part`'s
/// [`ChildKeys`] (the position is decoded here once, its moves generated once); `None` when
/// its key is not a valid position.
fn position_of(element: &Element, coder: &mut BoardCoder, part: &mut BlockPart) -> Option<ElementPosition> {
    let norm = key::decode(&element.key).ok()?;
    let pos = norm.real_position().ok()?;
    let legal = pos.legal_moves();
    let mut moves = Vec::with_capacity(element.moves.len());
    for &code in &element.moves {
        let found =
            shape(code).and_then(|shape| norm.find_move(&legal, shape)).and_then(|mv| Some((mv, norm.shape_of(&mv)?)));
        let Some((mv, shape)) = found else {
            part.reading.moves_skipped += 1;
            continue;
        };
        moves.push(NormalizedMove::new(shape));
        let mut child = pos.clone();
        child.play_unchecked(mv);
        part.child_keys.push(key::lookup_keys(coder, &child));
    }
    let (wins, draws, losses) = (element.wins, element.draws, element.losses);
    let games = wins.saturating_add(draws).saturating_add(losses);
    let mut position = NormalizedPosition::of_kvetka_key(element.key);
    position.outcome = Some(Outcome { games, wins, draws, losses });
    position.comment = element.comment.as_deref().map(Box::from);
    Some((position, moves))
}

/// What writing the model as a Kvetka book made and left behind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KvetkaWriting {
    /// The book: one element per key, in key order.
    pub book: Book,
    /// Moves written.
    pub moves: u64,
    /// Positions whose board code does not fit Kvetka's 176 bits.
    pub too_long: u64,
    /// Moves without a Kvetka code (under-promotions).
    pub moves_without_code: u64,
    /// Games without a result: the model counts them, a Kvetka element has only W/D/L.
    pub games_without_result: u64,
}

/// A Kvetka book of the model: each position becomes the element of its key (no orientation
/// is chosen: Kvetka keys the normalised positions the model holds), with its W/D/L (0
/// without results), its comment, and its moves re-coded, each code once. Positions sharing
/// a key share an element, the first one's results and comment, their moves together. Moves
/// keep the model's order, or are sorted by code when it has none ([`MoveOrder::Unordered`]).
pub fn write_model(model: &NormalizedBook, header: Header) -> Result<KvetkaWriting, KvetkaError> {
    let mut writing = KvetkaWriting::default();
    let mut elements: KeyMap<Element> = KeyMap::default();
    for position in model.positions() {
        let Some(&key) = position.kvetka_key() else {
            writing.too_long += 1;
            continue;
        };
        let element = elements.entry(key).or_insert_with(|| {
            let mut element = Element::new(key);
            if let Some(o) = position.outcome {
                (element.wins, element.draws, element.losses) = (o.wins, o.draws, o.losses);
                let results = u64::from(o.wins) + u64::from(o.draws) + u64::from(o.losses);
                writing.games_without_result += u64::from(o.games).saturating_sub(results);
            }
            element.set_comment(position.comment.as_deref().map(String::from));
            element
        });
        for m in model.moves_of(position) {
            match code(m.shape) {
                Some(code) if !element.moves.contains(&code) => element.moves.push(code),
                Some(_) => {}
                None => writing.moves_without_code += 1,
            }
        }
    }
    let mut elements: Vec<Element> = elements.into_values().collect();
    for e in &mut elements {
        if model.move_order == MoveOrder::Unordered {
            e.moves.sort_unstable();
        }
        writing.moves += e.moves.len() as u64;
    }
    writing.book = Book::from_elements(header, elements)?;
    Ok(writing)
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
