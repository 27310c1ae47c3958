//! What the book formats (Polyglot, CTG, Kvetka) share on the command line: `info`, `verify`
//! and `probe` open the book through the library's [`BookFile`] and print its report.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use tabiya_chess::book::BookFile;
use tabiya_io::report::write_json;

use super::Format;
use crate::args::{InfoArgs, ProbeArgs, VerifyArgs};
use crate::report::CliError;

fn open(path: &Path, format: Format) -> Result<BookFile, CliError> {
    let Format::Chess(format) = format else { unreachable!("book formats are chess formats") };
    BookFile::open_as(path, format).map_err(CliError::input)
}

fn printed(result: std::io::Result<()>) -> Result<(), CliError> {
    result.map_err(|e| CliError::output(Path::new("-"), e))
}

/// `tabiya info BOOK`.
pub fn info(path: &Path, args: &InfoArgs, format: Format) -> Result<ExitCode, CliError> {
    let mut info = open(path, format)?.info().map_err(CliError::input)?;
    info.path = path.to_path_buf();
    let mut out = std::io::stdout().lock();
    printed(if args.json { write_json(&mut out, &info) } else { info.write_text(&mut out) })?;
    Ok(ExitCode::SUCCESS)
}

/// `tabiya verify BOOK`: exit 1 when an error is found; a book that cannot be opened is one.
pub fn verify(path: &Path, args: &VerifyArgs, format: Format) -> Result<ExitCode, CliError> {
    let mut verification = match open(path, format) {
        Ok(book) => book.verify(),
        Err(e) => {
            let Format::Chess(chess) = format else { unreachable!("book formats are chess formats") };
            let mut v = tabiya_io::report::Verification::new(path, chess.name());
            let location = tabiya_io::Location::file(path);
            v.problem(tabiya_io::Diagnostic::error("book.open", location, e.to_string()));
            v
        }
    };
    verification.path = path.to_path_buf();
    let mut out = std::io::stdout().lock();
    printed(if args.json { write_json(&mut out, &verification) } else { verification.write_text(&mut out) })?;
    Ok(if verification.ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `tabiya probe BOOK`: in plain text, what the look-up met goes to standard error.
pub fn probe(path: &Path, args: &ProbeArgs, format: Format) -> Result<ExitCode, CliError> {
    let pos = super::probe_position(args)?;
    let book = open(path, format)?.with_ctg_weights(args.ctg.weights.into());
    let mut probe = book.probe(&pos).map_err(CliError::input)?;
    probe.book = path.to_path_buf();
    let mut out = std::io::stdout().lock();
    if args.json {
        printed(write_json(&mut out, &probe))?;
    } else {
        printed(probe.write_text(&mut out))?;
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
