//! Polyglot books: info, probe, verify, build, merge.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::registry::Format;
use shakmaty::Color;
use tabiya_chess::book::{self, BuildOptions};
use tabiya_chess::games;
use tabiya_chess::polyglot::{self, Entry, EntryRun, MakeOptions, MergeRule};

use super::books::PgnInput;
use crate::args::*;
use crate::report::{CliError, Output, Unit, counted, progress, summary, walking};

const FORMAT: Format = Format::Chess(tabiya_chess::Format::Polyglot);

#[derive(Debug, Default, Clone, Copy, clap::ValueEnum)]
pub enum MergeChoice {
    /// `polyglot merge-book` 2.0.4: weights of the same move are added.
    #[default]
    Sum,
    /// `polyglot merge-book` 1.4: a position in both books keeps the first book's moves.
    First,
}

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {
    /// Merging Polyglot books: what happens to a position several books hold.
    #[arg(long, value_enum, default_value_t = MergeChoice::Sum)]
    pub merge: MergeChoice,
}

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct BookOptions {
    /// Leave out moves played in fewer games (polyglot -min-game).
    #[arg(long, default_value_t = 3)]
    pub min_games: u32,
    /// Leave out moves scoring less than this percentage for their side (polyglot -min-score).
    #[arg(long, default_value_t = 0.0)]
    pub min_score: f64,
    /// Keep only White's moves.
    #[arg(long, conflicts_with = "only_black")]
    pub only_white: bool,
    /// Keep only Black's moves.
    #[arg(long)]
    pub only_black: bool,
    /// Every kept move weighs 1.
    #[arg(long)]
    pub uniform: bool,
}

impl BookOptions {
    /// The library's `make-book` rules these options ask for (books from games and from trees).
    pub fn make_options(&self) -> MakeOptions {
        let only = match (self.only_white, self.only_black) {
            (true, _) => Some(Color::White),
            (_, true) => Some(Color::Black),
            _ => None,
        };
        MakeOptions { min_games: self.min_games, min_score: self.min_score, only, uniform: self.uniform }
    }
}

fn read_book(path: &Path) -> Result<Vec<Entry>, CliError> {
    let bytes = tabiya_io::read_input(path).map_err(CliError::input)?;
    polyglot::read_entries(&bytes, Some(path)).map_err(CliError::input)
}

pub fn book(args: &BookArgs, global: &Global) -> Result<ExitCode, CliError> {
    let options = &args.polyglot;
    let build_options = BuildOptions {
        max_ply: args.books.max_ply.unwrap_or(BuildOptions::default().max_ply),
        elo: args.books.elo(),
        keep_positions: false,
    };
    let make = options.make_options();
    let mut built: Option<book::GamesBuild> = None;
    for input in &args.inputs {
        let (path, format) = super::input_format(input, None)?;
        let bar = progress(Unit::Records, 0, global.quiet, &format!("reading {}", path.display()));
        let this = match format {
            Format::Chess(tabiya_chess::Format::Pgn) => {
                let input = PgnInput::open(&path)?;
                if args.inputs.len() == 1 {
                    // One PGN file, the usual case: the book is made range by range, never
                    // whole, each range written as soon as those before it are.
                    let mut out = Output::create(&args.output)?;
                    let (mut written, mut failed) = (Written::default(), None);
                    let write_run = |run: &mut EntryRun| {
                        written.add(run);
                        if failed.is_none() {
                            failed = polyglot::write_entries(&run.entries, &mut out).err();
                        }
                    };
                    let made = walking(&bar, input.known_len(), || match input {
                        PgnInput::Mapped(bytes) => {
                            Ok(polyglot::make_from_pgn_with(&bytes, &build_options, &make, write_run))
                        }
                        PgnInput::Stream(mut data) => {
                            polyglot::make_from_pgn_stream_with(&mut data, &build_options, &make, write_run)
                        }
                    })
                    .map_err(CliError::input)?;
                    bar.finish_and_clear();
                    if let Some(e) = failed {
                        return Err(CliError::output(&args.output, e));
                    }
                    out.finish(&args.output)?;
                    return Ok(report_made(global, made.with_book(written)));
                }
                walking(&bar, input.known_len(), || match input {
                    PgnInput::Mapped(bytes) => Ok(book::build_from_pgn(&bytes, &build_options, None)),
                    PgnInput::Stream(mut data) => book::build_from_pgn_stream(&mut data, &build_options),
                })
                .map_err(CliError::input)?
            }
            Format::Chess(tabiya_chess::Format::Scid3)
            | Format::Chess(tabiya_chess::Format::Scid4)
            | Format::Chess(tabiya_chess::Format::Scid5)
            | Format::Chess(tabiya_chess::Format::JsonLines) => {
                let games = games::open(&path).map_err(CliError::input)?;
                book::build_from_games(games, &build_options)
            }
            other => return Err(CliError::unsupported(format!("building books from {other}"))),
        };
        bar.finish_and_clear();
        built = Some(match built {
            None => this,
            Some(earlier) => earlier.merge(this),
        });
    }
    let Some(built) = built else { return Err(CliError::Usage("no input".into())) };
    let whole = EntryRun::of_book(&built.book, &make);
    write_book(&args.output, &whole.entries)?;
    let mut written = Written::default();
    written.add(&whole);
    Ok(report_made(global, built.with_book(written)))
}

/// What the runs of entries written came from, and how many entries they held.
#[derive(Default)]
struct Written {
    positions: usize,
    moves: usize,
    entries: usize,
}

impl Written {
    fn add(&mut self, run: &EntryRun) {
        self.positions += run.positions;
        self.moves += run.moves;
        self.entries += run.entries.len();
    }
}

/// Says what was done, and exits 1 when some game is not wholly in the book.
fn report_made(global: &Global, made: book::GamesBuild<Written>) -> ExitCode {
    let book::GamesBuild { book: written, summary: counts, unreadable, warnings, cut } = made;
    summary(
        global.quiet,
        format_args!(
            "{} used ({} cut at an illegal move; {} Chess960, {} below the Elo filter, {} unreadable skipped; {}), {}, {}, {} written",
            counted(counts.games_added, "game"),
            cut,
            counts.games_chess960,
            counts.games_below_min_elo,
            unreadable,
            counted(warnings, "warning"),
            counted(written.positions as u64, "position"),
            counted(written.moves as u64, "move"),
            counted(written.entries as u64, "entry")
        ),
    );
    // A game that could not be read, or whose moves after an illegal one are not, is not
    // wholly in the book: a script must see it.
    if unreadable + cut > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// Writes a book's entries.
fn write_book(path: &Path, entries: &[Entry]) -> Result<(), CliError> {
    let mut out = Output::create(path)?;
    polyglot::write_entries(entries, &mut out).map_err(|e| CliError::output(path, e))?;
    out.finish(path)
}

pub fn converts(from: Format, to: Format) -> Option<super::Conversion> {
    match (from, to) {
        (FORMAT, FORMAT) => Some(Box::new(merge_books)),
        (FORMAT, Format::Chess(tabiya_chess::Format::JsonLines)) => Some(Box::new(dump)),
        _ => None,
    }
}

/// Polyglot → JSON Lines: one object per entry, in file order ([`Entry::to_json`]).
fn dump(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let mut out = Output::create(&args.output)?;
    let mut written = 0usize;
    for input in &args.inputs {
        for entry in read_book(input)? {
            serde_json::to_writer(&mut out, &entry.to_json()).map_err(|e| CliError::output(&args.output, e))?;
            out.write_all(b"\n").map_err(|e| CliError::output(&args.output, e))?;
            written += 1;
        }
    }
    out.finish(&args.output)?;
    summary(global.quiet, format_args!("{} written", counted(written as u64, "entry")));
    Ok(ExitCode::SUCCESS)
}

/// One book is copied as it is; several are merged in order.
fn merge_books(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let rule = match args.polyglot.merge {
        MergeChoice::First => MergeRule::FirstWins,
        MergeChoice::Sum => MergeRule::SumWeights,
    };
    let mut merged: Option<Vec<Entry>> = None;
    for input in &args.inputs {
        let entries = read_book(input)?;
        merged = Some(match merged {
            None => entries,
            Some(previous) => polyglot::merge(&previous, &entries, rule),
        });
    }
    let entries = merged.unwrap_or_default();
    let written = entries.len();
    write_book(&args.output, &entries)?;
    summary(global.quiet, format_args!("{} written", counted(written as u64, "entry")));
    Ok(ExitCode::SUCCESS)
}

/// The options Polyglot takes: every book's ([`super::books::BookOptions`]) and `make-book`'s
/// own weight rules when a book is built, `--merge` when books are
/// merged.
pub fn takes(part: super::Part) -> &'static [&'static str] {
    use super::Role;
    match (part.role, part.other) {
        (Role::Build, _) => &[
            "max_ply",
            "min_elo",
            "min_white_elo",
            "min_black_elo",
            "min_strong_elo",
            "min_games",
            "min_score",
            "only_white",
            "only_black",
            "uniform",
        ],
        (Role::Write, Some(FORMAT)) => &["merge"],
        _ => &[],
    }
}
