//! SCID → PGN for a whole database, games decoded and laid out on all cores, written in order.

use std::io::{self, Write};

use rayon::prelude::*;

use super::{Database, ScidError};
use crate::pgn::WriterOptions;
use crate::pgn::write::push_game_with_san;

/// Games handed to the thread pool at a time: enough to keep the cores busy, small enough to
/// keep memory flat.
const BATCH: usize = 512;

/// Games one task lays out into one buffer: fewer, larger buffers than one per game.
const CHUNK: usize = 32;

/// What an export did.
#[derive(Debug, Default)]
pub struct ExportSummary {
    pub exported: u64,
    /// Games that could not be decoded, with the error.
    pub failed: Vec<ScidError>,
}

/// Games `start..end` laid out as PGN, with the errors of those that could not be decoded.
fn export_chunk(db: &Database, options: &WriterOptions, start: usize, end: usize) -> (Vec<u8>, u64, Vec<ScidError>) {
    let (mut text, mut exported, mut failed) = (Vec::with_capacity(CHUNK * 1024), 0, Vec::new());
    for n in start..end {
        match db.game_with_san(n) {
            Ok((game, san)) => {
                push_game_with_san(&game, san.as_deref().unwrap_or_default(), options, &mut text);
                exported += 1;
            }
            Err(e) => failed.push(e),
        }
    }
    (text, exported, failed)
}

/// Writes every game of `db` as PGN; `progress` is called with the number of games done.
pub fn export_pgn(
    db: &Database,
    options: &WriterOptions,
    out: &mut impl Write,
    mut progress: impl FnMut(u64),
) -> io::Result<ExportSummary> {
    let mut summary = ExportSummary::default();
    for start in (0..db.len()).step_by(BATCH) {
        let end = (start + BATCH).min(db.len());
        let chunks: Vec<_> = (start..end)
            .into_par_iter()
            .step_by(CHUNK)
            .map(|from| export_chunk(db, options, from, (from + CHUNK).min(end)))
            .collect();
        for (text, exported, failed) in chunks {
            out.write_all(&text)?;
            summary.exported += exported;
            summary.failed.extend(failed);
        }
        progress((end - start) as u64);
    }
    Ok(summary)
}
