//! Kvetka books: info, probe, verify, build (with --append), merge, conversions.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tabiya_chess::games;
use tabiya_chess::kvetka::build::{BuildReport, Builder, OpeningNames};
use tabiya_chess::kvetka::conventions::ReadOptions;
use tabiya_chess::kvetka::{self, Book, BookFiles, Header, KvetkaError};
use tabiya_io::read_input;

use crate::registry::Format;

use super::books::PgnInput;
use crate::args::*;
use crate::output;
use crate::report::{CliError, Output, Unit, progress, summary, walking};

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {}

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct BookOptions {
    /// Kvetka: also add every legal move between two positions of the book (transpositions).
    #[arg(long)]
    pub links: bool,
    /// Kvetka: keep references to the games (.ksf with the PGN files, players, results; PGN inputs only).
    #[arg(long)]
    pub game_links: bool,
    /// Kvetka: opening names as comments, from an ECO file in PGN form (pgn-extract's eco.pgn).
    #[arg(long, value_name = "FILE")]
    pub eco: Option<PathBuf>,
    /// Kvetka: add the games to the existing book (its own header settings apply).
    #[arg(long)]
    pub append: bool,
    /// Kvetka: the book's caption.
    #[arg(long, default_value = "")]
    pub caption: String,
}

fn input_error(e: KvetkaError) -> CliError {
    CliError::input(e)
}

/// Writing errors are output errors; a refused element or name is an input problem.
fn write_error(e: KvetkaError) -> CliError {
    match e {
        KvetkaError::Io { path, source } => CliError::output(&path, source),
        other => CliError::input(other),
    }
}

pub fn book(args: &BookArgs, global: &Global) -> Result<ExitCode, CliError> {
    let o = &args.kvetka;
    if o.append && args.books.any() {
        return Err(CliError::Usage(
            "--append adds games under the book's own header settings (Elo filters, plies); \
             --max-ply and the Elo options cannot change them"
                .into(),
        ));
    }
    permit_outputs(&args.output, o.append)?;
    // Locked before the old book is read, so that two appends at once both land.
    let files = BookFiles::new(&args.output);
    let transaction = files.begin().map_err(write_error)?;
    let existing = if o.append && files.part(0).exists() {
        Some(kvetka::open(&args.output, ReadOptions::default()).map_err(input_error)?.book)
    } else {
        None
    };
    let header = match &existing {
        Some(book) => book.header.clone(),
        None => {
            let shared = &args.books;
            let max_move = match shared.max_ply {
                None => 0xff,
                Some(plies @ 1..=254) => plies as u8,
                Some(other) => {
                    return Err(CliError::Usage(format!(
                        "--max-ply {other}: a Kvetka book keeps 1 to 254 plies of each game, or the whole game \
                         (without --max-ply)"
                    )));
                }
            };
            Header {
                caption: o.caption.clone(),
                min_white_elo: shared.min_white_elo.unwrap_or(0),
                min_black_elo: shared.min_black_elo.unwrap_or(0),
                min_strong_elo: shared.min_strong_elo.unwrap_or(0),
                min_weak_elo: shared.min_elo.unwrap_or(0),
                max_move,
                element_type: u8::from(o.game_links),
                links: u8::from(o.links),
            }
        }
    };
    let names = match &o.eco {
        Some(path) => {
            let bytes = read_input(path).map_err(CliError::input)?;
            let names = OpeningNames::from_pgn(path, &bytes);
            if names.is_empty() {
                return Err(CliError::Input(format!(
                    "{}: no opening names (games with ECO and Opening tags) found",
                    path.display()
                )));
            }
            summary(global.quiet, format!("{}: {} opening names", path.display(), names.len()));
            Some(names)
        }
        None => None,
    };
    let references = header.references();
    let mut builder = Builder::new(header);
    for input in &args.inputs {
        let (path, format) = super::input_format(input, None)?;
        // One bar an input: PGN shows the bytes walked of its size, SCID the time taken.
        let bar = progress(Unit::Records, 0, global.quiet, &format!("reading {}", path.display()));
        match format {
            Format::Chess(tabiya_chess::Format::Pgn) => {
                let input = PgnInput::open(&path)?;
                walking(&bar, input.known_len(), || match input {
                    PgnInput::Mapped(bytes) => builder.add_pgn(&path, &bytes),
                    PgnInput::Stream(mut data) => builder.add_pgn_stream(&path, &mut data),
                })
                .map_err(input_error)?;
            }
            // Game links point at a game's byte offset in a PGN file; a SCID or JSON Lines
            // game has none.
            Format::Chess(
                from @ (tabiya_chess::Format::Scid3
                | tabiya_chess::Format::Scid4
                | tabiya_chess::Format::Scid5
                | tabiya_chess::Format::JsonLines),
            ) if references => {
                return Err(CliError::Usage(format!(
                    "{}: Kvetka game links refer to games in PGN files; build from {from} without \
                     --game-links (or from its PGN export)",
                    path.display()
                )));
            }
            Format::Chess(
                tabiya_chess::Format::Scid3
                | tabiya_chess::Format::Scid4
                | tabiya_chess::Format::Scid5
                | tabiya_chess::Format::JsonLines,
            ) => {
                builder.add_games(games::open(&path).map_err(CliError::input)?).map_err(input_error)?;
            }
            other => return Err(CliError::unsupported(format!("building Kvetka books from {other}"))),
        }
        bar.finish_and_clear();
    }
    let report = match existing {
        Some(mut book) => {
            let (built, mut report) = builder.finish(names.as_ref()).map_err(input_error)?;
            kvetka::merge::append(&mut book, built, &mut report).map_err(input_error)?;
            report.blocks = book.blocks.len() as u64;
            book.write_in(transaction, &Default::default()).map_err(write_error)?;
            report
        }
        // A new book is written as its elements come, never held whole.
        None => builder.write_in(names.as_ref(), transaction, &Default::default()).map_err(write_error)?,
    };
    summary(global.quiet, build_summary(&args.output, &report));
    // A game left unread or cut at an illegal move, or a name the book holds other than it was
    // written in the games, is a change of data.
    let changed = report.names_altered + report.games_unreadable + report.games_cut;
    Ok(if changed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn build_summary(path: &Path, r: &BuildReport) -> String {
    let mut text = format!(
        "{}: {} positions in {} blocks from {} of {} games ({} cut at an illegal move; {} filtered by Elo, {} Chess960, {} unreadable)",
        path.display(),
        r.positions,
        r.blocks,
        r.games_added,
        r.games_read,
        r.games_cut,
        r.games_filtered,
        r.games_chess960,
        r.games_unreadable
    );
    let skipped = [
        (r.positions_too_long, "positions over 176 bits"),
        (r.moves_underpromotion, "under-promotions"),
        (r.moves_without_code, "moves without a code"),
        (r.links_dropped, "game links dropped at 682 bytes"),
        (r.comments_dropped, "comments dropped at 682 bytes"),
    ];
    for (n, what) in skipped.into_iter().filter(|(n, _)| *n > 0) {
        text.push_str(&format!("; skipped {n} {what}"));
    }
    if r.link_moves > 0 {
        text.push_str(&format!("; {} link moves", r.link_moves));
    }
    if r.names_altered > 0 {
        text.push_str(&format!(
            "\nwarning: {} player names of the game links are not Windows-1251 and were written without \
             their accents or with '?' (exit status 1):",
            r.names_altered
        ));
        for example in &r.altered_names {
            text.push_str(&format!("\n  {example}"));
        }
    }
    text
}

/// Refuses `-` (a book is several files) and any existing file of the book unless `--force`
/// or `append` allows it.
fn permit_outputs(path: &Path, append: bool) -> Result<(), CliError> {
    Output::require_file(path, "a Kvetka book")?;
    let files = BookFiles::new(path);
    let set = files.parts_from(0).into_iter().chain([files.kin(), files.ksf()]);
    set.into_iter().try_for_each(|p| output::permit(&p, append))
}

fn read_books(inputs: &[PathBuf]) -> Result<Vec<Book>, CliError> {
    inputs.iter().map(|p| Book::read(p).map_err(input_error)).collect()
}

pub fn converts(from: Format, to: Format) -> Option<super::Conversion> {
    let run = match (from, to) {
        (Format::Chess(tabiya_chess::Format::Kvetka), Format::Chess(tabiya_chess::Format::Kvetka)) => merge_books,
        (Format::Chess(tabiya_chess::Format::Kvetka), Format::Chess(tabiya_chess::Format::Polyglot)) => to_polyglot,
        (Format::Chess(tabiya_chess::Format::Polyglot), Format::Chess(tabiya_chess::Format::Kvetka)) => from_polyglot,
        (Format::Chess(tabiya_chess::Format::Kvetka), Format::Chess(tabiya_chess::Format::JsonLines)) => dump,
        _ => return None,
    };
    Some(Box::new(run))
}

fn merge_books(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let (book, report) = kvetka::merge::merge(read_books(&args.inputs)?).map_err(input_error)?;
    permit_outputs(&args.output, false)?;
    book.write(&args.output, &Default::default()).map_err(write_error)?;
    summary(
        global.quiet,
        format!("{}: {} positions merged from {} books", args.output.display(), report.positions, args.inputs.len()),
    );
    Ok(ExitCode::SUCCESS)
}

fn to_polyglot(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let [input] = args.inputs.as_slice() else {
        return Err(CliError::Usage("converting to Polyglot takes one Kvetka book".into()));
    };
    let reader = kvetka::BookReader::open(input, ReadOptions::default()).map_err(input_error)?;
    let (model, reading) = kvetka::convert::read_model_from(&reader).map_err(input_error)?;
    drop(reader);
    let written = tabiya_chess::polyglot::entries_of_model(model);
    let mut out = Output::create(&args.output)?;
    tabiya_chess::polyglot::write_entries(&written.entries, &mut out).map_err(|e| CliError::output(&args.output, e))?;
    out.finish(&args.output)?;
    summary(
        global.quiet,
        format!(
            "{}: {} entries for {} positions (every orientation of each element); {} invalid elements, {} undecodable moves",
            args.output.display(),
            written.entries.len(),
            written.positions,
            reading.positions_invalid,
            reading.moves_skipped
        ),
    );
    Ok(ExitCode::SUCCESS)
}

fn from_polyglot(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let [input] = args.inputs.as_slice() else {
        return Err(CliError::Usage("converting from Polyglot takes one book".into()));
    };
    let bytes = read_input(input).map_err(CliError::input)?;
    let entries = tabiya_chess::polyglot::read_entries(&bytes, Some(input)).map_err(CliError::input)?;
    let (model, reading) = tabiya_chess::polyglot::read_model(&entries);
    let written = kvetka::convert::write_model(&model, Header::default()).map_err(input_error)?;
    permit_outputs(&args.output, false)?;
    written.book.write(&args.output, &Default::default()).map_err(write_error)?;
    summary(
        global.quiet,
        format!(
            "{}: {} positions, {} moves (statistics 0: Polyglot weights are not game results); {} Polyglot positions not reachable from the initial position",
            args.output.display(),
            written.book.element_count(),
            written.moves,
            reading.positions_not_reached
        ),
    );
    Ok(ExitCode::SUCCESS)
}

fn dump(args: &ConvertArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let mut out = Output::create(&args.output)?;
    for book in read_books(&args.inputs)? {
        for e in book.elements() {
            serde_json::to_writer(&mut out, &kvetka::convert::element_json(e))
                .map_err(|e| CliError::output(&args.output, e))?;
            out.write_all(b"\n").map_err(|e| CliError::output(&args.output, e))?;
        }
    }
    out.finish(&args.output)?;
    Ok(ExitCode::SUCCESS)
}

/// The options Kvetka takes when a book is built: every book's ([`super::books::BookOptions`])
/// and its own (links, game links, ECO comments, append, caption).
pub fn takes(part: super::Part) -> &'static [&'static str] {
    match part.role {
        super::Role::Build => &[
            "max_ply",
            "min_elo",
            "min_white_elo",
            "min_black_elo",
            "min_strong_elo",
            "links",
            "game_links",
            "eco",
            "append",
            "caption",
        ],
        _ => &[],
    }
}
