//! Looking positions up.

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use std::path::Path;

use serde_json::{Map, Value};
use tabiya_io::report::{Probe, ProbeMove};
use tabiya_io::{Diagnostic, Location, Unit};

use super::{ENTRY_SIZE, Entry, decode_move, key};

/// One entry found for a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeHit {
    /// The entry as stored.
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

/// The move field as UCI text, whatever the position (castling is the king taking its own
/// rook, `e1h1`, as stored).
pub(super) fn raw_uci(entry: Entry) -> String {
    let promotion = match entry.promotion() {
        Ok(Some(role)) => role.char().to_string(),
        Ok(None) => String::new(),
        Err(bits) => format!("?{bits}"),
    };
    format!("{}{}{promotion}", entry.from_square(), entry.to_square())
}

/// The `probe` answer for `pos` in the book read from `path`: its entries in book order, each
/// with its weight and raw fields; an entry whose move is not legal here is a problem
/// (`polyglot.illegal_move`: a key collision or a corrupt entry), not a move. Polyglot keeps
/// no game counts, so the W/D/L fields are empty.
pub fn probe_report(path: &Path, entries: &[Entry], pos: &Chess) -> Probe {
    let key = key(pos);
    let first = entries.partition_point(|e| e.key < key);
    let mut report = Probe {
        book: path.to_path_buf(),
        format: crate::Format::Polyglot.name(),
        fen: crate::book::fen_of(pos),
        found: false,
        position: Map::new(),
        moves: Vec::new(),
        problems: Vec::new(),
    };
    report.position.insert("key".into(), Value::from(format!("{key:016x}")));
    for (i, hit) in probe(entries, pos).into_iter().enumerate() {
        report.found = true;
        let Some(san) = hit.san else {
            let index = (first + i) as u64;
            report.problems.push(Diagnostic::warning(
                "polyglot.illegal_move",
                Location::file(path).with(Unit::Entry, index).with_offset(index * ENTRY_SIZE as u64),
                format!(
                    "entry {} (weight {}) is not a legal move here: a key collision or a corrupt entry",
                    hit.uci, hit.entry.weight
                ),
            ));
            continue;
        };
        let mut extra = Map::new();
        extra.insert("raw_move".into(), Value::from(format!("{:04x}", hit.entry.raw_move)));
        extra.insert("learn".into(), Value::from(hit.entry.learn));
        report.moves.push(ProbeMove {
            uci: hit.uci,
            san,
            weight: u64::from(hit.entry.weight),
            games: None,
            wins: None,
            draws: None,
            losses: None,
            annotation: None,
            extra,
        });
    }
    report
}
