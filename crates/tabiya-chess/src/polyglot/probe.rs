//! Looking positions up.

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use super::{Entry, decode_move, key};

/// One entry found for a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeHit {
    pub entry: Entry,
    /// The legal move the entry stands for; `None` for an entry whose move is not legal in
    /// the position (a key collision or a corrupt entry).
    pub mv: Option<Move>,
    /// UCI of the legal move (castling as `e1g1`), or of the raw field for illegal entries.
    pub uci: String,
    /// SAN of the legal move.
    pub san: Option<String>,
}

/// The entries with `key`: a binary search over a sorted book.
pub fn find(entries: &[Entry], key: u64) -> &[Entry] {
    let start = entries.partition_point(|e| e.key < key);
    let len = entries[start..].partition_point(|e| e.key == key);
    &entries[start..start + len]
}

/// Every entry of `pos`, in book order, with its move decoded.
pub fn probe(entries: &[Entry], pos: &Chess) -> Vec<ProbeHit> {
    find(entries, key(pos))
        .iter()
        .map(|&entry| {
            let mv = decode_move(entry.raw_move, pos);
            let uci = match mv {
                Some(m) => UciMove::from_move(m, CastlingMode::Standard).to_string(),
                None => raw_uci(entry),
            };
            let san = mv.map(|m| SanPlus::from_move(pos.clone(), m).to_string());
            ProbeHit { entry, mv, uci, san }
        })
        .collect()
}

/// The move field as UCI text, whatever the position.
fn raw_uci(entry: Entry) -> String {
    let promotion = match entry.promotion() {
        Ok(Some(role)) => role.char().to_string(),
        Ok(None) => String::new(),
        Err(bits) => format!("?{bits}"),
    };
    format!("{}{}{promotion}", entry.from_square(), entry.to_square())
}
