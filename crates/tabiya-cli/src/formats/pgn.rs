//! Chess games (PGN, JSON Lines; SCID through scid.rs): info, verify, and conversion between
//! any two of them through the library's `games::Source` and `games::Sink`. The PGN-writing
//! options here act for every source written as PGN.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::registry::Format;
use tabiya_chess::Format as C;
use tabiya_chess::games::{self, Sink, Source};
use tabiya_chess::pgn::{LineEnding, Notation, WriterOptions};
use tabiya_chess::scid::{DatabaseWriter, Version};
use tabiya_io::{Diagnostic, DiagnosticSink};

use crate::args::*;
use crate::report::{CliError, Output, SourceProgress, Unit, counted, print, print_info, progress, summary};
use indicatif::ProgressBar;

/// What is done to every game on its way from any games format to any other.
#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct GamesOptions {
    /// Set each game's ECO and Opening tags from the last position of its main line that the
    /// chess-openings table names (transpositions included); games it names none keep theirs.
    #[arg(long)]
    pub add_eco: bool,
}

impl GamesOptions {
    /// `sink` with the edits asked for.
    fn apply<W: Write + Send>(&self, sink: Sink<W>) -> Sink<W> {
        if self.add_eco {
            sink.editing(|game| {
                tabiya_chess::openings::add_eco(game);
            })
        } else {
            sink
        }
    }
}

/// How games are written as PGN, whatever they are read from.
#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {
    /// PGN output: movetext layout, `standard` (PGN export format: `1. e4`, 80 columns) or
    /// `scid` (byte-identical to SCID 5.0.2's export, 75 columns). Default: `scid` when the
    /// input is a SCID database, else `standard`.
    #[arg(long, value_name = "LAYOUT")]
    pub pgn_layout: Option<String>,
    /// PGN output: longest movetext line (0: no wrapping). Default: the layout's.
    #[arg(long)]
    pub pgn_line_width: Option<usize>,
    /// PGN output: leave out comments.
    #[arg(long)]
    pub pgn_no_comments: bool,
    /// PGN output: leave out variations.
    #[arg(long)]
    pub pgn_no_variations: bool,
    /// PGN output: leave out NAGs.
    #[arg(long)]
    pub pgn_no_nags: bool,
    /// PGN output: long algebraic (UCI) moves instead of SAN.
    #[arg(long)]
    pub pgn_long: bool,
    /// PGN output: CR LF line ends.
    #[arg(long)]
    pub pgn_crlf: bool,
}

impl ConvertOptions {
    /// The PGN layout for games read from `from`.
    pub fn writer_options(&self, from: Format) -> Result<WriterOptions, CliError> {
        let from_scid = matches!(from, Format::Chess(C::Scid3 | C::Scid4 | C::Scid5));
        let mut w = match self.pgn_layout.as_deref() {
            None if from_scid => WriterOptions::scid(),
            None | Some("standard") => WriterOptions::default(),
            Some("scid") => WriterOptions::scid(),
            Some(other) => {
                return Err(CliError::Usage(format!("--pgn-layout: expected standard or scid, found {other}")));
            }
        };
        if let Some(width) = self.pgn_line_width {
            w.line_width = width;
        }
        w.comments &= !self.pgn_no_comments;
        w.variations &= !self.pgn_no_variations;
        w.nags &= !self.pgn_no_nags;
        if self.pgn_long {
            w.notation = Notation::Long;
        }
        if self.pgn_crlf {
            w.line_ending = LineEnding::CrLf;
        }
        Ok(w)
    }
}

/// The chess formats that hold games: every one is read; all but SCID 3 are written.
pub fn holds_games(format: Format) -> bool {
    matches!(format, Format::Chess(C::Pgn | C::JsonLines | C::Scid3 | C::Scid4 | C::Scid5))
}

/// What the games library's progress counts for `path`: bytes of PGN and JSON Lines, games
/// of a SCID database.
fn progress_unit(path: &Path) -> Unit {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    match C::from_extension(extension) {
        Some(C::Scid3 | C::Scid4 | C::Scid5) => Unit::Records,
        _ => Unit::Bytes,
    }
}

/// `tabiya info` of PGN or a SCID database: the library's answer, printed.
pub fn info(path: &Path, args: &InfoArgs, global: &Global) -> Result<ExitCode, CliError> {
    let bar = progress(progress_unit(path), 0, global.quiet, "reading");
    let info = games::info(path, &mut |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })
    .map_err(CliError::input)?;
    bar.finish_and_clear();
    print_info(&info, args.json)
}

/// `tabiya verify` of PGN or a SCID database: every game read and every move replayed; exit
/// status 1 when an error was found.
pub fn verify(path: &Path, args: &VerifyArgs, global: &Global) -> Result<ExitCode, CliError> {
    let bar = progress(progress_unit(path), 0, global.quiet, "verifying");
    let verification = games::verify(path, &mut |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    print(&verification, args.json)?;
    Ok(if verification.ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// PGN and JSON Lines to each other (pairs with SCID are claimed by scid.rs, for the same
/// conversion).
pub fn converts(from: Format, to: Format) -> Option<super::Conversion> {
    (holds_games(from) && holds_games(to))
        .then(|| -> super::Conversion { Box::new(move |args, global| convert_games(args, global, from, to)) })
}

/// Adds the games of every input to `sink`.
fn fill(sink: &mut GameSink<'_>, inputs: &[PathBuf], printer: &mut Printer, bar: &ProgressBar) -> Result<(), CliError> {
    for input in inputs {
        if super::parquet::is_parquet(input) {
            super::parquet::fill(sink, input, printer, bar)?;
            continue;
        }
        let source = Source::open(input).map_err(CliError::input)?;
        // A SCID database counts its games up front: a lone one gives the bar its total (PGN
        // does not count them, so a mix has none).
        if let (Source::Scid(db), 1) = (&source, inputs.len()) {
            bar.set_length(db.len() as u64);
        }
        let shown = SourceProgress::new(bar, &source);
        sink.add_source(&source, printer, |n| shown.update(&source, n)).map_err(|e| CliError::Output(e.to_string()))?;
    }
    Ok(())
}

/// Prints what reading and writing found as it comes, and counts it.
pub struct Printer {
    pub quiet: bool,
    pub errors: u64,
    pub warnings: u64,
}

impl Printer {
    pub fn new(quiet: bool) -> Printer {
        Printer { quiet, errors: 0, warnings: 0 }
    }
}

impl DiagnosticSink for Printer {
    fn report(&mut self, diagnostic: Diagnostic) {
        if diagnostic.is_error() {
            self.errors += 1;
        } else {
            self.warnings += 1;
        }
        summary(self.quiet, &diagnostic);
    }
}

/// A games sink of any format: text goes to the output, a SCID database writes its files.
pub type GameSink<'a> = Sink<Box<dyn Write + Send + 'a>>;

/// Writes games as `to` (PGN, JSON Lines, SCID 4/5) at `output`: the sink is made (for SCID
/// with `--append`, `append`), `fill` adds the games, and the output is finished. A game that
/// cannot be written is an error in `printer`.
pub fn write_games(
    output: &Path,
    to: Format,
    pgn_layout: impl FnOnce() -> Result<WriterOptions, CliError>,
    edits: &GamesOptions,
    append: bool,
    printer: &mut Printer,
    fill: impl FnOnce(&mut GameSink<'_>, &mut Printer) -> Result<(), CliError>,
) -> Result<games::SinkSummary, CliError> {
    let write_error = |e: games::GamesError| CliError::Output(e.to_string());
    match to {
        Format::Chess(C::Pgn | C::JsonLines) => {
            let mut out = Output::create(output)?;
            let written = {
                let text: Box<dyn Write + Send + '_> = Box::new(&mut out);
                let mut sink = edits.apply(match to {
                    Format::Chess(C::Pgn) => Sink::pgn(text, output, pgn_layout()?),
                    _ => Sink::json_lines(text, output),
                });
                fill(&mut sink, printer)?;
                sink.finish(printer).map_err(write_error)?
            };
            out.finish(output)?;
            Ok(written)
        }
        Format::Chess(C::Scid4 | C::Scid5) => {
            let version = if to == Format::Chess(C::Scid5) { Version::Scid5 } else { Version::Scid4 };
            super::scid::permit_outputs(output, append, version)?;
            let writer =
                if append { DatabaseWriter::append(output, version) } else { DatabaseWriter::create(output, version) }
                    .map_err(|e| CliError::output(output, e))?;
            let mut sink = edits.apply(GameSink::scid(writer));
            fill(&mut sink, printer)?;
            sink.finish(printer).map_err(write_error)
        }
        other => Err(CliError::Usage(format!("{other} is read-only: write pgn, jsonl, si4 or si5"))),
    }
}

/// Any games format to any writable one: every input is a `Source`, the output a `Sink`. A
/// game lost on the way (unreadable, not storable, moves after an illegal one) is an error,
/// printed, and makes the exit status 1.
pub fn convert_games(args: &ConvertArgs, global: &Global, from: Format, to: Format) -> Result<ExitCode, CliError> {
    let mut printer = Printer::new(global.quiet);
    let bar = progress(Unit::Records, 0, global.quiet, "games");
    let layout = || args.pgn.writer_options(from);
    let written =
        write_games(&args.output, to, layout, &args.games, args.scid.append, &mut printer, |sink, printer| {
            fill(sink, &args.inputs, printer, &bar)
        })?;
    bar.finish_and_clear();
    let Printer { errors, warnings, .. } = printer;
    summary(
        global.quiet,
        format!(
            "{} written ({} in the output), {}, {}",
            counted(written.written, "game"),
            written.total,
            counted(errors, "error"),
            counted(warnings, "warning")
        ),
    );
    Ok(if errors == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The options PGN and JSON Lines take: `--add-eco` wherever games are written, the PGN layout
/// wherever they are written as PGN.
pub fn takes(part: super::Part) -> &'static [&'static str] {
    use super::Role;
    const LAYOUT: &[&str] = &[
        "add_eco",
        "pgn_layout",
        "pgn_line_width",
        "pgn_no_comments",
        "pgn_no_variations",
        "pgn_no_nags",
        "pgn_long",
        "pgn_crlf",
    ];
    match (part.role, part.format, part.other) {
        (Role::Write, Format::Chess(C::Pgn), Some(from)) if holds_games(from) => LAYOUT,
        (Role::Write, Format::Chess(C::JsonLines), Some(from)) if holds_games(from) => &["add_eco"],
        _ => &[],
    }
}
