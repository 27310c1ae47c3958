//! Integrity checks of a book.

use std::collections::HashSet;
use std::path::Path;

use tabiya_io::report::Verification;
use tabiya_io::{Diagnostic, Location, Unit};

use super::entry::is_king_takes_rook_castling;
use super::{ENTRY_SIZE, Entry, is_king_move_castling};

/// Checks that keys ascend (`polyglot.unsorted`: look-ups binary-search), that no key holds a
/// move twice (`polyglot.duplicate_move`), and that every move field is well-formed
/// (`polyglot.move_field`). Each problem names its entry (numbered from 0) and byte offset.
/// Castling stored as the king's two-square move (`e1g1`, as python-chess writes it) is one
/// warning for the book (`polyglot.king_move_castling`, when no entry has Polyglot's castling
/// shape), at its first entry: probing reads it
/// as castling where the position allows it, and rewriting keeps the bytes.
pub fn verify(entries: &[Entry]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut report = |entry: usize, code: &'static str, what: String| {
        let location = Location::of(Unit::Entry, entry as u64).with_offset((entry * ENTRY_SIZE) as u64);
        found.push(Diagnostic::error(code, location, what));
    };
    let mut moves_of_key = HashSet::new();
    for (i, entry) in entries.iter().enumerate() {
        let previous = i.checked_sub(1).and_then(|p| entries.get(p));
        match previous {
            Some(p) if p.key > entry.key => report(
                i,
                "polyglot.unsorted",
                format!("key {:016x} is lower than the previous entry's {:016x}: not sorted", entry.key, p.key),
            ),
            Some(p) if p.key == entry.key => {}
            _ => moves_of_key.clear(),
        }
        if !moves_of_key.insert(entry.raw_move) {
            report(
                i,
                "polyglot.duplicate_move",
                format!("key {:016x} holds move {:04x} twice", entry.key, entry.raw_move),
            );
        }
        if !entry.move_is_well_formed() {
            report(i, "polyglot.move_field", format!("move field {:04x} is not a move", entry.raw_move));
        }
    }
    // Rook moves have those shapes too: a book is taken to store castling as the king's move
    // only when none of its entries has Polyglot's castling shape (`e1h1`), which any book
    // with castling holds.
    let mut king_moves = entries.iter().enumerate().filter(|(_, e)| is_king_move_castling(e.raw_move));
    if let Some((first, _)) = king_moves.next()
        && !entries.iter().any(|e| is_king_takes_rook_castling(e.raw_move))
    {
        let count = 1 + king_moves.count();
        let location = Location::of(Unit::Entry, first as u64).with_offset((first * ENTRY_SIZE) as u64);
        let message = format!(
            "{count} entries store e1g1, e1c1, e8g8 or e8c8 and none e1h1, e1a1, e8h8 or e8a8: castling stored as \
             the king's two-square move (as python-chess reads it), not as Polyglot's king taking its rook; read \
             as castling where the king may castle"
        );
        found.push(Diagnostic::warning("polyglot.king_move_castling", location, message));
    }
    found
}

/// `verify` of the book read from `path` as `entries`: [`verify`]'s problems in that file.
pub fn verification(path: &Path, entries: &[Entry]) -> Verification {
    let mut v = Verification::new(path, crate::Format::Polyglot.name());
    v.problems(verify(entries).into_iter().map(|d| d.in_file(path)));
    v.checked("entries", entries.len());
    v
}
