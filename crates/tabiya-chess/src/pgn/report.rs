//! `info` and `verify` of a PGN file: every game read, every move replayed.

use std::path::Path;

use tabiya_io::report::{Info, Verification};
use tabiya_io::{Diagnostic, Location};

use super::read::{count_games, count_stream};
use super::variants::SkippedVariants;
use super::{PgnError, ReadOptions};
use crate::Format;

/// What reading a whole PGN file found: what `info` counts, game by game.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    /// Games read, variant games included.
    games: u64,
    unreadable: u64,
    variants: SkippedVariants,
    errors: u64,
    warnings: u64,
    plies: u64,
}

/// Bytes read between two reports of progress: a report per game (to a progress bar, hidden or
/// not) cost 2 % of `verify`'s instructions.
const PROGRESS_STEP: u64 = 1 << 16;

/// Reads every game of `path` (with the repairs of [`super::PgnReader::repairing`]), handing each
/// problem to `on_problem`; `progress` gets (bytes read, file size) every [`PROGRESS_STEP`]
/// bytes or so, and once at the end. A regular file is mapped and read whole; compressed data
/// and streams are read as they come (decoded on a thread of their own), and their progress
/// has no total.
fn read_all(
    path: &Path,
    progress: &mut dyn FnMut(u64, u64),
    mut on_problem: impl FnMut(Diagnostic),
) -> Result<Tally, PgnError> {
    let data_error = |e: tabiya_io::Error| match e {
        tabiya_io::Error::Io { source, .. } => PgnError::Io { location: Location::file(path), source },
        tabiya_io::Error::Data(d) => PgnError::Io {
            location: d.location.clone(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, d.to_string()),
        },
    };
    let options = ReadOptions { file: Some(path.to_path_buf()), ..ReadOptions::default() };
    let mut tally = Tally::default();
    let mut reported = 0;
    let mut report = |done: u64, size: u64| {
        if done >= reported + PROGRESS_STEP {
            reported = done;
            progress(done, size);
        }
    };
    let data = tabiya_io::open_decompressed(path).map_err(data_error)?;
    let size = if data.compression().is_some() || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        // Progress in bytes of the file taken (compressed bytes of a compressed file).
        let position = data.position();
        let size = position.size().unwrap_or(0);
        count_stream(data.decoding_ahead(), options, |item| {
            tally.add(item.map(|counted| (counted.plies, counted.diagnostics)), &mut on_problem);
            report(position.taken(), size);
        });
        size
    } else {
        drop(data);
        let bytes = tabiya_io::read_input(path).map_err(data_error)?;
        let size = bytes.len() as u64;
        // Held whole, the text is read in one go: no look for where each game ends before
        // reading it, no copy into a reader's buffer.
        count_games(&bytes, options, |item| {
            let done = item.as_ref().map(|counted| counted.offset).ok();
            tally.add(item.map(|counted| (counted.plies, counted.diagnostics)), &mut on_problem);
            if let Some(done) = done {
                report(done, size);
            }
        });
        size
    };
    tally.finish(path, &mut on_problem);
    progress(size, size);
    Ok(tally)
}

impl Tally {
    /// Counts a game read (the plies of its main line and what reading it found, each handed
    /// to `on_problem`) or one that could not be read (a variant game is counted as a game and
    /// summed up by [`Tally::finish`]).
    pub(crate) fn add(
        &mut self,
        item: Result<(usize, Vec<Diagnostic>), PgnError>,
        on_problem: &mut impl FnMut(Diagnostic),
    ) {
        match item {
            Ok((plies, diagnostics)) => {
                self.games += 1;
                self.plies += plies as u64;
                for d in diagnostics {
                    if d.is_error() {
                        self.errors += 1;
                    } else {
                        self.warnings += 1;
                    }
                    on_problem(d);
                }
            }
            Err(e) => match self.variants.count(e) {
                Some(e) => {
                    self.unreadable += 1;
                    on_problem(e.diagnostic());
                }
                None => self.games += 1,
            },
        }
    }

    /// Ends the count: the warning that sums up the variant games, if there were any.
    pub(crate) fn finish(&mut self, path: &Path, on_problem: &mut impl FnMut(Diagnostic)) {
        if let Some(d) = self.variants.diagnostic(path) {
            self.warnings += 1;
            on_problem(d);
        }
    }

    /// What `info` says of a file with these counts; `lost` are its error-severity problems.
    pub(crate) fn info(&self, path: &Path, lost: Vec<Diagnostic>) -> Info {
        let mut info = Info::new(path, Format::Pgn.name());
        info.problems = lost;
        info.count("games", self.games).count("unreadable_games", self.unreadable);
        if self.variants.total() > 0 {
            info.count("variant_games", self.variants.by_variant());
        }
        info.count("errors", self.errors).count("warnings", self.warnings).count("plies", self.plies);
        info
    }
}

/// What a PGN file holds: games (variant games included, which `variant_games` counts by
/// variant), unreadable games, errors and warnings of the games read
/// (lost and repaired moves), plies of the main lines. `progress` gets (bytes read, file size).
pub fn info(path: &Path, progress: &mut dyn FnMut(u64, u64)) -> Result<Info, PgnError> {
    // Warnings are only counted; what was lost (errors) is listed, as `verify` lists it.
    let mut lost = Vec::new();
    let tally = read_all(path, progress, |d| {
        if d.is_error() {
            lost.push(d)
        }
    })?;
    Ok(tally.info(path, lost))
}

/// Checks a PGN file: every game is read and every move replayed. A game that cannot be read,
/// and an illegal or ambiguous move (which ends its line: the moves after it are lost), are
/// errors; a deviation the reader repaired is a warning. `progress` gets (bytes read, file
/// size).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("games.pgn");
/// std::fs::write(&path, "1. e4 e5 2. Ke3 Nc6 *\n\n1. d4, d5 *\n")?;
/// let v = tabiya_chess::pgn::report::verify(&path, &mut |_, _| {});
/// assert!(!v.ok);
/// let codes: Vec<&str> = v.problems.iter().map(|d| d.code).collect();
/// assert_eq!(codes, ["pgn.illegal_move", "pgn.repaired_token"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify(path: &Path, progress: &mut dyn FnMut(u64, u64)) -> Verification {
    let mut v = Verification::new(path, Format::Pgn.name());
    let mut problems = Vec::new();
    match read_all(path, progress, |d| problems.push(d)) {
        Ok(tally) => {
            v.checked("games", tally.games).checked("plies", tally.plies);
        }
        Err(e) => problems.push(e.diagnostic()),
    }
    v.problems(problems);
    v
}
