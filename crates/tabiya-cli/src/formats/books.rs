//! What the book formats (Polyglot, CTG, Kvetka) share on the command line: `info`, `verify`
//! and `probe` open the book through the library's [`BookFile`] and print its report.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use tabiya_chess::book::{BookFile, EloFilter};

use tabiya_chess::Format as ChessFormat;

use super::Format;
use crate::args::{Global, InfoArgs, ProbeArgs, VerifyArgs};
use crate::report::{CliError, print, print_info, verdict};

/// The PGN text a book is built from: a regular file that is not compressed is mapped (the
/// build cuts it into one piece per thread); compressed data and streams are read a piece at a
/// time while the pieces already read are built, so they are never held whole.
pub enum PgnInput {
    /// The mapped file.
    Mapped(tabiya_io::FileBytes),
    /// The data, decompressed as it is read.
    Stream(tabiya_io::Decompressed),
}

impl PgnInput {
    /// Opens the PGN input at `path`.
    pub fn open(path: &Path) -> Result<PgnInput, CliError> {
        let data = tabiya_io::open_decompressed(path).map_err(CliError::input)?;
        if data.compression().is_none() && std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
            drop(data);
            return Ok(PgnInput::Mapped(tabiya_io::read_input(path).map_err(CliError::input)?));
        }
        Ok(PgnInput::Stream(data))
    }

    /// The bytes the build will walk, when known (for a progress bar; 0: not known).
    pub fn known_len(&self) -> usize {
        match self {
            PgnInput::Mapped(bytes) => bytes.len(),
            PgnInput::Stream(_) => 0,
        }
    }
}

fn open(path: &Path, format: ChessFormat) -> Result<BookFile, CliError> {
    BookFile::open_as(path, format).map_err(CliError::input)
}

fn printed(result: std::io::Result<()>) -> Result<(), CliError> {
    result.map_err(|e| CliError::output(Path::new("-"), e))
}

/// `tabiya info BOOK`.
pub fn info(path: &Path, args: &InfoArgs, format: ChessFormat) -> Result<ExitCode, CliError> {
    let mut info = open(path, format)?.info().map_err(CliError::input)?;
    info.path = path.to_path_buf();
    print_info(&info, args.json)
}

/// `tabiya verify BOOK`: exit 1 when an error is found; a book that cannot be opened is one.
pub fn verify(path: &Path, args: &VerifyArgs, format: ChessFormat) -> Result<ExitCode, CliError> {
    let mut verification = match open(path, format) {
        Ok(book) => book.verify(),
        Err(e) => {
            let mut v = tabiya_io::report::Verification::new(path, format.name());
            let location = tabiya_io::Location::file(path);
            v.problem(tabiya_io::Diagnostic::error("book.open", location, e.to_string()));
            v
        }
    };
    verification.path = path.to_path_buf();
    print(&verification, args.json)?;
    Ok(verdict(&verification))
}

/// `tabiya probe BOOK`: what the look-up met also goes to standard error (unless `--quiet`).
pub fn probe(path: &Path, args: &ProbeArgs, global: &Global, format: ChessFormat) -> Result<ExitCode, CliError> {
    let pos = super::probe_position(args)?;
    let book = open(path, format)?.with_ctg_weights(args.ctg.weights.into());
    let mut probe = book.probe(&pos).map_err(CliError::input)?;
    probe.book = path.to_path_buf();
    print(&probe, args.json)?;
    if !global.quiet {
        let mut err = std::io::stderr().lock();
        for problem in &probe.problems {
            printed(writeln!(err, "{problem}"))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `convert` from games to a book: refused (exit 2), naming the command that builds books, so
/// that every book option (`--min-elo`, `--max-ply`, …) has one home.
pub fn build_with_book(book: Format) -> CliError {
    CliError::Usage(format!(
        "{book} books are built from games with `tabiya book GAMES... -o BOOK` (it takes the book options), not `convert`"
    ))
}

/// The options of `tabiya book` that mean the same for every book it writes (Polyglot and
/// Kvetka). Options only one format can honour are declared by that format's file.
#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct BookOptions {
    /// Count the moves of the first N plies of each game (polyglot -max-ply; Kvetka's header
    /// max_move, 1–254). Default: 1024 for Polyglot (make-book's), the whole game for Kvetka.
    #[arg(long, visible_alias = "max-move", value_name = "PLIES")]
    pub max_ply: Option<u32>,
    /// Only games where both players are rated at least this (polyglot -min-elo; Kvetka's
    /// least weak Elo). Ratings are the WhiteElo/BlackElo tags; a game without one counts 0.
    #[arg(long, visible_alias = "min-weak-elo", value_name = "ELO")]
    pub min_elo: Option<u16>,
    /// Only games whose White is rated at least this.
    #[arg(long, value_name = "ELO")]
    pub min_white_elo: Option<u16>,
    /// Only games whose Black is rated at least this.
    #[arg(long, value_name = "ELO")]
    pub min_black_elo: Option<u16>,
    /// Only games whose stronger player is rated at least this.
    #[arg(long, value_name = "ELO")]
    pub min_strong_elo: Option<u16>,
}

impl BookOptions {
    /// The games the rating options let in.
    pub fn elo(&self) -> EloFilter {
        let min = |elo: Option<u16>| elo.map_or(0, u32::from);
        EloFilter {
            white: min(self.min_white_elo),
            black: min(self.min_black_elo),
            strong: min(self.min_strong_elo),
            weak: min(self.min_elo),
        }
    }

    /// Whether any of them was given.
    pub fn any(&self) -> bool {
        self.max_ply.is_some() || self.elo() != EloFilter::default()
    }
}
