//! Apache Parquet tables (tabiya-arrow): chess games (PGN, JSON Lines, SCID) → a games or a
//! moves table; Wthor games → a games or a positions table; a T-BASE set → a problems table;
//! a games table (tabiya's own, or lichess's with a `movetext` column) → any chess games format.
//! The tables and their columns are tabiya-arrow's; this file picks them and prints.

use std::path::Path;
use std::process::ExitCode;

use indicatif::ProgressBar;
use tabiya_arrow::chess::{ChessTable, ChessWriter, ParquetGames};
use tabiya_arrow::othello::{OthelloTable, OthelloWriter};
use tabiya_arrow::{ArrowError, shogi};
use tabiya_chess::Format as C;
use tabiya_chess::games::{Sink, Source};
use tabiya_io::DiagnosticSink;
use tabiya_othello::Format as O;
use tabiya_shogi::Format as S;

use super::pgn::{Printer, holds_games};
use super::{Part, Role};
use crate::args::{ConvertArgs, Global, InfoArgs};
use crate::registry::Format;
use crate::report::{CliError, Output, Unit, counted, print_info, progress, summary};

/// What a row of the Parquet output is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RowsOf {
    /// One row per game (chess, Wthor) or problem (T-BASE).
    Games,
    /// One row per move of chess games.
    Moves,
    /// One row per position of Wthor games.
    Positions,
}

/// The options of writing Parquet.
#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {
    /// → Parquet: one row per `games` (the default), per `moves` (chess) or per `positions` (Wthor).
    #[arg(long, value_enum, value_name = "ROWS")]
    pub rows: Option<RowsOf>,
    /// → Parquet moves table: add the FEN of the position before each move.
    #[arg(long)]
    pub fen_column: bool,
}

/// True when `path` is a Parquet file (by its magic bytes).
pub fn is_parquet(path: &Path) -> bool {
    tabiya_io::Head::read(path).is_ok_and(|head| head.bytes.starts_with(tabiya_arrow::MAGIC))
}

/// Games formats that `convert` writes from a Parquet games table.
fn writes_games(format: Format) -> bool {
    matches!(format, Format::Chess(C::Pgn | C::JsonLines | C::Scid4 | C::Scid5))
}

/// Every conversion with Parquet on one side.
pub fn converts(from: Format, to: Format) -> Option<super::Conversion> {
    match (from, to) {
        (from, Format::Parquet) if holds_games(from) => Some(Box::new(chess_to_parquet)),
        (Format::Othello(O::WthorGames), Format::Parquet) => Some(Box::new(wthor_to_parquet)),
        (Format::Shogi(S::TbaseDiagrams), Format::Parquet) => Some(Box::new(tbase_to_parquet)),
        (Format::Parquet, to) if writes_games(to) => {
            Some(Box::new(move |args, global| super::pgn::convert_games(args, global, from, to)))
        }
        _ => None,
    }
}

fn output_error(path: &Path) -> impl Fn(ArrowError) -> CliError + '_ {
    move |e| CliError::output(path, e)
}

/// The table `--rows` asks for, among those `allowed` for the input.
fn rows(args: &ConvertArgs, allowed: &[RowsOf], input: &str) -> Result<RowsOf, CliError> {
    let rows = args.parquet.rows.unwrap_or(RowsOf::Games);
    if !allowed.contains(&rows) {
        let names: Vec<String> = allowed.iter().map(|r| format!("{r:?}").to_lowercase()).collect();
        return Err(CliError::Usage(format!("--rows for {input}: expected {}", names.join(" or "))));
    }
    Ok(rows)
}

/// Chess games of every input → one games or moves table. A game that cannot be read is an
/// error, printed, and makes the exit status 1.
fn chess_to_parquet(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let table = match rows(args, &[RowsOf::Games, RowsOf::Moves], "chess games")? {
        RowsOf::Moves => ChessTable::Moves { fen: args.parquet.fen_column },
        _ if args.parquet.fen_column => return Err(CliError::Usage("--fen-column goes with --rows moves".into())),
        _ => ChessTable::Games,
    };
    let mut printer = Printer { quiet: global.quiet, errors: 0, warnings: 0 };
    let bar = progress(Unit::Records, 0, global.quiet, "games");
    let mut out = Output::create(&args.output)?;
    let mut writer = ChessWriter::new(&mut out, table).map_err(output_error(&args.output))?;
    for input in &args.inputs {
        let source = Source::open(input).map_err(CliError::input)?;
        writer.add_source(&source, &mut printer, |n| bar.inc(n)).map_err(output_error(&args.output))?;
    }
    let (written, _) = writer.finish().map_err(output_error(&args.output))?;
    out.finish(&args.output)?;
    bar.finish_and_clear();
    let Printer { errors, warnings, .. } = printer;
    summary(
        global.quiet,
        format!(
            "{}: {} written as {}, {}, {}",
            args.output.display(),
            counted(written.games, "game"),
            counted(written.rows, "row"),
            counted(errors, "error"),
            counted(warnings, "warning")
        ),
    );
    Ok(if errors == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Wthor games (after the game filters, names from WTHOR.JOU/.TRN) → a games or positions
/// table. A game whose moves do not replay is skipped with an error: exit status 1.
fn wthor_to_parquet(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let table = match rows(args, &[RowsOf::Games, RowsOf::Positions], "Wthor games")? {
        RowsOf::Positions => OthelloTable::Positions,
        _ => OthelloTable::Games,
    };
    let mut out = Output::create(&args.output)?;
    let mut writer = OthelloWriter::new(&mut out, table).map_err(output_error(&args.output))?;
    let mut skipped = 0u64;
    let damaged = super::wthor::each_game(args, global, |game, at| {
        if let Err(e) = writer.push(game).map_err(output_error(&args.output))? {
            skipped += 1;
            summary(global.quiet, format!("error: {}: {e}; game skipped", at()));
        }
        Ok(true)
    })?
    .unwrap_or(false);
    let (games, rows, _) = writer.finish().map_err(output_error(&args.output))?;
    out.finish(&args.output)?;
    summary(
        global.quiet,
        format!(
            "{}: {} written as {}, {} skipped",
            args.output.display(),
            counted(games, "game"),
            counted(rows, "row"),
            skipped
        ),
    );
    Ok(if damaged || skipped > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// A T-BASE set → a problems table; records that do not decode and solutions that do not
/// replay are warnings, as in the other T-BASE exports.
fn tbase_to_parquet(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let [input] = args.inputs.as_slice() else {
        return Err(CliError::Usage("a T-BASE set converts to Parquet alone (one .dia)".into()));
    };
    rows(args, &[RowsOf::Games], "T-BASE problems")?;
    let mut out = Output::create(&args.output)?;
    let (written, _) = shogi::write_problems(input, &mut out).map_err(|e| match e {
        ArrowError::NotGames { .. } => CliError::input(e),
        other => CliError::output(&args.output, other),
    })?;
    out.finish(&args.output)?;
    for d in &written.diagnostics {
        summary(global.quiet, d);
    }
    summary(global.quiet, format!("{}: {}", args.output.display(), counted(written.problems, "problem")));
    Ok(ExitCode::SUCCESS)
}

/// Adds the games of the Parquet games table `input` to `sink` (for `convert games.parquet -o
/// games.pgn`, in pgn.rs's conversion of every games format).
pub fn fill<W: std::io::Write + Send>(
    sink: &mut Sink<W>,
    input: &Path,
    printer: &mut Printer,
    bar: &ProgressBar,
) -> Result<(), CliError> {
    for row in ParquetGames::open(input).map_err(CliError::input)? {
        bar.inc(1);
        match row {
            Ok((game, found)) => {
                found.into_iter().for_each(|d| printer.report(d));
                sink.add(&game, printer).map_err(|e| CliError::Output(e.to_string()))?;
            }
            Err(e) => printer.report(e.diagnostic()),
        }
    }
    Ok(())
}

/// `tabiya info` of a Parquet file: rows, row groups and columns, from its footer.
pub fn info(path: &Path, args: &InfoArgs) -> Result<ExitCode, CliError> {
    let table = tabiya_arrow::describe(path).map_err(CliError::input)?;
    let mut report = tabiya_io::Info::new(path, Format::Parquet.name());
    report
        .count("rows", table.rows)
        .count("row_groups", table.row_groups as u64)
        .count("columns", table.columns.len() as u64);
    report.header("columns", table.columns.join(" "));
    print_info(&report, args.json)
}

/// The options of Parquet: `--rows` wherever a table is written (and `--fen-column` for chess,
/// the Wthor filters and name files for Wthor); read back, the options of the games format
/// written, as when it is written from PGN.
pub fn takes(part: Part) -> &'static [&'static str] {
    const WTHOR: &[&str] = &["rows", "names", "years", "players", "tournaments", "exclude_programs"];
    match (part.role, part.other) {
        (Role::Write, Some(from)) if holds_games(from) => &["rows", "fen_column"],
        (Role::Write, Some(Format::Othello(O::WthorGames))) => WTHOR,
        (Role::Write, Some(Format::Shogi(S::TbaseDiagrams))) => &["rows"],
        (Role::Read, Some(to)) if writes_games(to) => Part::new(to, Role::Write, Some(Format::Chess(C::Pgn))).takes(),
        _ => &[],
    }
}
