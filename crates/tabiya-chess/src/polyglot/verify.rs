//! Integrity checks of a book.

use std::collections::HashSet;
use std::path::Path;

use tabiya_io::report::Verification;
use tabiya_io::{Diagnostic, Location, Unit};

use super::{ENTRY_SIZE, Entry};

/// Checks that keys ascend (`polyglot.unsorted`: look-ups binary-search), that no key holds a
/// move twice (`polyglot.duplicate_move`), and that every move field is well-formed
/// (`polyglot.move_field`). Each problem names its entry (numbered from 0) and byte offset.
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
    found
}

/// `verify` of the book read from `path` as `entries`: [`verify`]'s problems in that file.
pub fn verification(path: &Path, entries: &[Entry]) -> Verification {
    let mut v = Verification::new(path, crate::Format::Polyglot.name());
    v.problems(verify(entries).into_iter().map(|d| d.in_file(path)));
    v.checked("entries", entries.len());
    v
}
