//! The explorer's position tree file, for any game: positions are opaque keys of a fixed size
//! (the game's crate makes them), moves 16-bit codes, and each move carries what the explorer
//! shows ([`TreeMove`]: games, wins/draws/losses from the mover's view, ratings, years, the
//! best-rated games, an exact value when solved); game records are opaque bytes.
//!
//! * [`RunBuilder`] counts within a memory budget, spilling sorted runs and merging them.
//! * [`TreeWriter`] writes the file in one pass; [`TreeFile`] reads it from a memory map.
//! * [`merge_trees`] merges trees: the same bytes as the tree built from all their games.

mod file;
mod merge;
mod record;
mod runs;
mod sort;

use std::io::{self, Read, Write};

pub use file::{BLOCK, Footer, HEADER_BYTES, MAGIC, TreeError, TreeFile, TreeSource, TreeWriter, VERSION};
pub use record::{Decoder, Outcome, Played, TOP_GAMES, TopGame, TreeMove, add_moves, encode_position, write_varint};
pub use runs::RunBuilder;
pub use sort::OccurrenceChunk;

/// The game of the tree in `path` (the number its crate gives its trees), when it is a tree.
pub fn game_of(path: &std::path::Path) -> Option<u8> {
    let mut head = [0u8; HEADER_BYTES as usize];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).ok()?;
    head.starts_with(MAGIC).then_some(head[15])
}

/// Merges trees of `game` into `out`: every position's moves added up, the game tables
/// joined in the order of `trees` (the game numbers of each moved up by the games before it),
/// the sources likewise. The same bytes as the tree built from all their games in that order.
pub fn merge_trees<W: Write, const K: usize>(trees: &[&TreeFile<K>], out: W, game: u8) -> Result<W, TreeError> {
    let output_error = |e: io::Error| TreeError::Io { path: "<output>".into(), source: e };
    let mut writer = TreeWriter::<W, K>::new(out, game).map_err(output_error)?;
    let mut shift = 0;
    let mut streams = Vec::with_capacity(trees.len());
    for tree in trees {
        let stream = merge::Stream::new(tree.records(), shift);
        streams.push(stream.map_err(|e| tree.damaged(format!("the first record: {e}")))?);
        shift += tree.footer().games;
    }
    // A stream that cannot be read is a damaged input; `verify` of each tells which.
    merge::merge(streams, |key, moves| writer.position(key, moves)).map_err(|e| TreeError::Damaged {
        path: trees.iter().map(|t| t.path().display().to_string()).collect::<Vec<_>>().join(" + ").into(),
        what: format!("merging: {e}"),
    })?;
    let mut bytes_before = 0;
    let mut offsets = Vec::new();
    let mut tables: Box<dyn Read> = Box::new(io::empty());
    let mut sources: Vec<TreeSource> = Vec::new();
    for tree in trees {
        let (bytes, theirs) = tree.game_table();
        offsets.extend(theirs.map(|o| o + bytes_before));
        bytes_before += bytes.len() as u64;
        tables = Box::new(tables.chain(bytes));
        sources.extend_from_slice(tree.sources());
    }
    let (out, _) = writer.finish(&mut tables, &offsets, &sources).map_err(output_error)?;
    Ok(out)
}
