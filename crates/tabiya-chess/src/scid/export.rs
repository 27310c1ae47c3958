//! SCID → PGN for a whole database, games decoded and laid out on all cores, written in order.

use std::io::{self, Write};

use rayon::prelude::*;

use super::{Database, ScidError};
use crate::pgn::{WriterOptions, write_game};

/// Games handed to the thread pool at a time: enough to keep the cores busy, small enough to
/// keep memory flat.
const BATCH: usize = 512;

/// What an export did.
#[derive(Debug, Default)]
pub struct ExportSummary {
    pub exported: u64,
    /// Games that could not be decoded, with the error.
    pub failed: Vec<ScidError>,
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
        let texts: Vec<Result<Vec<u8>, ScidError>> = (start..end)
            .into_par_iter()
            .map(|n| {
                let game = db.game(n)?;
                let mut text = Vec::with_capacity(1024);
                write_game(&game, options, &mut text).map_err(|e| ScidError::io(&db.paths.games, e))?;
                Ok(text)
            })
            .collect();
        for text in texts {
            match text {
                Ok(text) => {
                    out.write_all(&text)?;
                    summary.exported += 1;
                }
                Err(e) => summary.failed.push(e),
            }
        }
        progress((end - start) as u64);
    }
    Ok(summary)
}
