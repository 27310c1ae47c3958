//! `info` of a book: entries, positions, and whether it is sorted.

use std::path::Path;

use tabiya_io::report::Info;

use super::Entry;

/// What the book in `path`, read as `entries`, holds.
pub fn info(path: &Path, entries: &[Entry]) -> Info {
    let mut info = Info::new(path, crate::Format::Polyglot.name());
    let positions = entries.iter().enumerate().filter(|(i, e)| *i == 0 || entries[i - 1].key != e.key).count();
    info.count("entries", entries.len()).count("positions", positions);
    info.count("zero_weight_entries", entries.iter().filter(|e| e.weight == 0).count());
    info.count("entries_with_learn", entries.iter().filter(|e| e.learn != 0).count());
    info.header("sorted", entries.windows(2).all(|w| w[0].key <= w[1].key));
    info
}
