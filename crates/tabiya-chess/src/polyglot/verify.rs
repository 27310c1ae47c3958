//! Integrity checks of a book.

use std::collections::HashSet;

use super::{ENTRY_SIZE, Entry};

/// A problem found in a book: the entry's index and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub entry: usize,
    pub offset: u64,
    pub what: String,
}

/// Checks that keys ascend (lookups binary-search), that no key holds a move twice, and that
/// every move field is well-formed.
pub fn verify(entries: &[Entry]) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut report = |entry: usize, what: String| {
        findings.push(Finding { entry, offset: (entry * ENTRY_SIZE) as u64, what });
    };
    let mut moves_of_key = HashSet::new();
    for (i, entry) in entries.iter().enumerate() {
        let previous = i.checked_sub(1).and_then(|p| entries.get(p));
        match previous {
            Some(p) if p.key > entry.key => report(
                i,
                format!("key {:016x} is lower than the previous entry's {:016x}: not sorted", entry.key, p.key),
            ),
            Some(p) if p.key == entry.key => {}
            _ => moves_of_key.clear(),
        }
        if !moves_of_key.insert(entry.raw_move) {
            report(i, format!("key {:016x} holds move {:04x} twice", entry.key, entry.raw_move));
        }
        if !entry.move_is_well_formed() {
            report(i, format!("move field {:04x} is not a move", entry.raw_move));
        }
    }
    findings
}
