//! SCID → PGN for a whole database, games decoded and laid out on all cores, written in order.

use std::io::{self, Write};

use rayon::prelude::*;
use tabiya_io::Diagnostic;

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
    /// Games written.
    pub exported: u64,
    /// Games that could not be decoded, with the error.
    pub failed: Vec<ScidError>,
    /// What decoding the games written forgave.
    pub diagnostics: Vec<Diagnostic>,
}

/// Games laid out as PGN by one task, with the errors of those that could not be decoded.
struct Chunk {
    text: Vec<u8>,
    exported: u64,
    failed: Vec<ScidError>,
    diagnostics: Vec<Diagnostic>,
}

/// Games `start..end` laid out as PGN.
fn export_chunk(db: &Database, options: &WriterOptions, start: usize, end: usize) -> Chunk {
    let mut chunk =
        Chunk { text: Vec::with_capacity(CHUNK * 1024), exported: 0, failed: Vec::new(), diagnostics: Vec::new() };
    for n in start..end {
        match db.game_with_san(n, &mut chunk.diagnostics) {
            Ok((game, san)) => {
                push_game_with_san(&game, san.as_deref().unwrap_or_default(), options, &mut chunk.text);
                chunk.exported += 1;
            }
            Err(e) => chunk.failed.push(e),
        }
    }
    chunk
}

/// Games `start..end` laid out on all cores, in order.
fn export_batch(db: &Database, options: &WriterOptions, start: usize, end: usize) -> Vec<Chunk> {
    (start..end)
        .into_par_iter()
        .step_by(CHUNK)
        .map(|from| export_chunk(db, options, from, (from + CHUNK).min(end)))
        .collect()
}

/// Writes laid-out chunks in order and counts them in `summary`.
fn write_batch(chunks: Vec<Chunk>, out: &mut impl Write, summary: &mut ExportSummary) -> io::Result<()> {
    for chunk in chunks {
        out.write_all(&chunk.text)?;
        summary.exported += chunk.exported;
        summary.failed.extend(chunk.failed);
        summary.diagnostics.extend(chunk.diagnostics);
    }
    Ok(())
}

/// Writes every game of `db` as PGN; `progress` is called with the number of games done.
pub fn export_pgn(
    db: &Database,
    options: &WriterOptions,
    out: &mut (impl Write + Send),
    mut progress: impl FnMut(u64),
) -> io::Result<ExportSummary> {
    let mut summary = ExportSummary::default();
    // Each batch is written while the next one is laid out: the writing thread then joins in.
    let (mut laid_out, mut games) = (Vec::new(), 0);
    for start in (0..db.len()).step_by(BATCH) {
        let end = (start + BATCH).min(db.len());
        let (next, written) = rayon::join(
            || export_batch(db, options, start, end),
            || write_batch(std::mem::take(&mut laid_out), out, &mut summary),
        );
        written?;
        progress(games);
        (laid_out, games) = (next, (end - start) as u64);
    }
    write_batch(laid_out, out, &mut summary)?;
    progress(games);
    Ok(summary)
}
