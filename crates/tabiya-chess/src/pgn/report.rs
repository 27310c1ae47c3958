//! `info` and `verify` of a PGN file: every game read, every move replayed.

use std::path::Path;

use tabiya_io::report::{Info, Verification};
use tabiya_io::{Diagnostic, Location};

use super::variants::SkippedVariants;
use super::{PgnError, PgnReader, ReadGame, ReadOptions};
use crate::Format;

/// What reading a whole PGN file found.
#[derive(Debug, Default)]
struct Tally {
    /// Games read, variant games included.
    games: u64,
    unreadable: u64,
    variants: SkippedVariants,
    errors: u64,
    warnings: u64,
    plies: u64,
}

/// Reads every game of `path` (with the repairs of [`PgnReader::repairing`]), handing each
/// problem to `on_problem`; `progress` gets (bytes read, file size). A regular file is mapped;
/// compressed data and streams are read as they come (decoded on a thread of their own), and
/// their progress has no total.
fn read_all(
    path: &Path,
    progress: &mut dyn FnMut(u64, u64),
    on_problem: impl FnMut(Diagnostic),
) -> Result<Tally, PgnError> {
    let data_error = |e: tabiya_io::Error| match e {
        tabiya_io::Error::Io { source, .. } => PgnError::Io { location: Location::file(path), source },
        tabiya_io::Error::Data(d) => PgnError::Io {
            location: d.location.clone(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, d.to_string()),
        },
    };
    let options = ReadOptions { file: Some(path.to_path_buf()), ..ReadOptions::default() };
    let data = tabiya_io::open_decompressed(path).map_err(data_error)?;
    if data.compression().is_some() || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        // Progress in bytes of the file taken (compressed bytes of a compressed file).
        let position = data.position();
        let games = PgnReader::with_options(data.decoding_ahead(), options).repairing();
        let size = position.size().unwrap_or(0);
        return Ok(tally(games, size, |_| position.taken(), path, progress, on_problem));
    }
    drop(data);
    let bytes = tabiya_io::read_input(path).map_err(data_error)?;
    let size = bytes.len() as u64;
    Ok(tally(PgnReader::from_bytes(&bytes, options), size, |read| read.offset, path, progress, on_problem))
}

/// Reads every game `games` gives (see [`read_all`]); `size` is the total for `progress`.
fn tally<R: std::io::Read>(
    games: PgnReader<R>,
    size: u64,
    done: impl Fn(&ReadGame) -> u64,
    path: &Path,
    progress: &mut dyn FnMut(u64, u64),
    mut on_problem: impl FnMut(Diagnostic),
) -> Tally {
    let mut tally = Tally::default();
    for item in games {
        match item {
            Ok(read) => {
                tally.games += 1;
                tally.plies += read.game.ply_count() as u64;
                let done = done(&read);
                for d in read.diagnostics {
                    if d.is_error() {
                        tally.errors += 1;
                    } else {
                        tally.warnings += 1;
                    }
                    on_problem(d);
                }
                progress(done, size);
            }
            Err(e) => match tally.variants.count(e) {
                Some(e) => {
                    tally.unreadable += 1;
                    on_problem(e.diagnostic());
                }
                None => tally.games += 1,
            },
        }
    }
    if let Some(d) = tally.variants.diagnostic(path) {
        tally.warnings += 1;
        on_problem(d);
    }
    progress(size, size);
    tally
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
    let mut info = Info::new(path, Format::Pgn.name());
    info.problems = lost;
    info.count("games", tally.games).count("unreadable_games", tally.unreadable);
    if tally.variants.total() > 0 {
        info.count("variant_games", tally.variants.by_variant());
    }
    info.count("errors", tally.errors).count("warnings", tally.warnings).count("plies", tally.plies);
    Ok(info)
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
