//! PGN: info, verify, and PGN → PGN conversion (re-layout).

use std::path::Path;
use std::process::ExitCode;

use crate::registry::Format;
use tabiya_chess::pgn::{LineEnding, Notation, PgnReader, ReadOptions, WriterOptions, write_game};

use crate::args::*;
use crate::report::{CliError, InfoReport, Output, Severity, VerifyReport, progress, summary};

const FORMAT: Format = Format::Chess(tabiya_chess::Format::Pgn);

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {
    /// PGN output: longest movetext line (0: no wrapping).
    #[arg(long, default_value_t = 80)]
    pub pgn_line_width: usize,
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
    pub fn writer_options(&self) -> WriterOptions {
        WriterOptions {
            line_width: self.pgn_line_width,
            comments: !self.pgn_no_comments,
            variations: !self.pgn_no_variations,
            nags: !self.pgn_no_nags,
            notation: if self.pgn_long { Notation::Long } else { Notation::San },
            line_ending: if self.pgn_crlf { LineEnding::CrLf } else { LineEnding::Lf },
            ..WriterOptions::default()
        }
    }
}

/// What reading a whole PGN file found.
#[derive(Debug, Default)]
struct Tally {
    games: u64,
    errors: u64,
    warnings: u64,
    plies: u64,
}

fn read_all(path: &Path, quiet: bool, mut on_problem: impl FnMut(Severity, String, String)) -> Result<Tally, CliError> {
    let bytes = tabiya_io::read_input(path).map_err(CliError::input)?;
    let bar = progress(bytes.len() as u64, quiet, "reading");
    let options = ReadOptions { file: Some(path.to_path_buf()), ..ReadOptions::default() };
    let mut tally = Tally::default();
    for item in PgnReader::from_bytes(&bytes, options) {
        match item {
            Ok(read) => {
                tally.games += 1;
                tally.plies += read.game.ply_count() as u64;
                tally.warnings += read.warnings.len() as u64;
                for w in read.warnings.iter() {
                    on_problem(Severity::Warning, w.location.to_string(), w.message.clone());
                }
                bar.set_position(read.offset);
            }
            Err(e) => {
                tally.errors += 1;
                on_problem(Severity::Error, e.location().to_string(), e.to_string());
            }
        }
    }
    bar.finish_and_clear();
    Ok(tally)
}

pub fn info(path: &Path, args: &InfoArgs, global: &Global) -> Result<ExitCode, CliError> {
    let tally = read_all(path, global.quiet, |_, _, _| {})?;
    let mut report = InfoReport::new(path, FORMAT);
    report.count("games", tally.games).count("unreadable_games", tally.errors);
    report.count("warnings", tally.warnings).count("plies", tally.plies);
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(ExitCode::SUCCESS)
}

/// Every game is read and every move checked; unreadable games are errors, repairs warnings.
pub fn verify(path: &Path, args: &VerifyArgs, global: &Global) -> Result<ExitCode, CliError> {
    let mut report = VerifyReport::new(path, FORMAT);
    let tally = read_all(path, global.quiet, |severity, location, what| report.problem(severity, location, what))?;
    report.checked("games", tally.games).checked("plies", tally.plies);
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(report.exit_code())
}

pub fn convert(args: &ConvertArgs, global: &Global, from: Format, to: Format) -> Option<Result<ExitCode, CliError>> {
    (from == FORMAT && to == FORMAT).then(|| rewrite(args, global))
}

fn rewrite(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let options = args.pgn.writer_options();
    let mut out = Output::create(&args.output)?;
    let (mut games, mut skipped) = (0u64, 0u64);
    for input in &args.inputs {
        let bytes = tabiya_io::read_input(input).map_err(CliError::input)?;
        let read_options = ReadOptions { file: Some(input.clone()), ..ReadOptions::default() };
        for item in PgnReader::from_bytes(&bytes, read_options) {
            match item {
                Ok(read) => {
                    for w in read.warnings.iter() {
                        summary(global.quiet, format_args!("warning: {w}"));
                    }
                    write_game(&read.game, &options, &mut out).map_err(|e| CliError::output(&args.output, e))?;
                    games += 1;
                }
                Err(e) => {
                    summary(global.quiet, format_args!("skipped: {e}"));
                    skipped += 1;
                }
            }
        }
    }
    out.finish(&args.output)?;
    summary(global.quiet, format_args!("{games} games written, {skipped} unreadable games skipped"));
    Ok(ExitCode::SUCCESS)
}

/// The options PGN takes: the writer's layout when PGN is rewritten as PGN.
pub fn takes(part: super::Part) -> &'static [&'static str] {
    use super::Role;
    const LAYOUT: &[&str] =
        &["pgn_line_width", "pgn_no_comments", "pgn_no_variations", "pgn_no_nags", "pgn_long", "pgn_crlf"];
    match (part.role, part.other) {
        (Role::Write, Some(from)) if from == part.format && part.format == FORMAT => LAYOUT,
        _ => &[],
    }
}
