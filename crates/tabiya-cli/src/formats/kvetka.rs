//! Kvetka books: info, probe, verify, build (with --append), merge, conversions.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Map, Value, json};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, EnPassantMode};
use tabiya_chess::games;
use tabiya_chess::kvetka::build::{BuildReport, Builder, OpeningNames};
use tabiya_chess::kvetka::conventions::ReadOptions;
use tabiya_chess::kvetka::{self, Book, BookReader, Header, KinState, KvetkaError, Sources, key, probe};
use tabiya_io::read_input;

use crate::registry::Format;

use crate::args::*;
use crate::report::{CliError, InfoReport, Output, ProbeMove, ProbeReport, Severity, VerifyReport, progress, summary};

const FORMAT: Format = Format::Chess(tabiya_chess::Format::Kvetka);

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {}

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct BookOptions {
    /// Kvetka: minimum White Elo of a game (0 = no filter).
    #[arg(long, default_value_t = 0, value_name = "ELO")]
    pub min_white_elo: u16,
    /// Kvetka: minimum Black Elo of a game (0 = no filter).
    #[arg(long, default_value_t = 0, value_name = "ELO")]
    pub min_black_elo: u16,
    /// Kvetka: minimum Elo of the stronger player (0 = no filter).
    #[arg(long, default_value_t = 0, value_name = "ELO")]
    pub min_strong_elo: u16,
    /// Kvetka: minimum Elo of the weaker player (0 = no filter).
    #[arg(long, default_value_t = 0, value_name = "ELO")]
    pub min_weak_elo: u16,
    /// Kvetka: plies of each game added (1–254; 255, the default, = the whole game).
    #[arg(long, default_value_t = 255, value_name = "PLIES")]
    pub max_move: u8,
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

pub fn info(path: &Path, args: &InfoArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let opened = kvetka::open(path, ReadOptions::default()).map_err(input_error)?;
    let book = &opened.book;
    let mut report = InfoReport::new(path, FORMAT);
    report.version = json!(1);
    report
        .count("parts", opened.parts.len())
        .count("blocks", book.blocks.len())
        .count("positions", book.element_count())
        .count("moves", book.elements().map(|e| e.moves.len()).sum::<usize>())
        .count("comments", book.elements().filter(|e| e.comment.is_some()).count());
    if let Some(sources) = &book.sources {
        report
            .count("sources", sources.sources.len())
            .count("games", sources.sources.iter().map(|s| s.games.len()).sum::<usize>());
    }
    let h = &book.header;
    report
        .header("caption", h.caption.clone())
        .header("least_white_elo", h.min_white_elo)
        .header("least_black_elo", h.min_black_elo)
        .header("least_strong_elo", h.min_strong_elo)
        .header("least_weak_elo", h.min_weak_elo)
        .header("max_move", h.max_move)
        .header("element_type", h.element_type)
        .header("links", h.links)
        .header("block_number", book.blocks.len())
        .header("kin", kin_name(opened.kin));
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(ExitCode::SUCCESS)
}

fn kin_name(kin: KinState) -> &'static str {
    match kin {
        KinState::Absent => "absent",
        KinState::Agrees => "agrees",
        KinState::Ignored => "ignored (disagrees with the .kob)",
    }
}

pub fn verify(path: &Path, args: &VerifyArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let mut report = VerifyReport::new(path, FORMAT);
    let opened = match kvetka::open(path, ReadOptions { strict: true, ..ReadOptions::default() }) {
        Ok(o) => o,
        Err(e) => {
            report.problem(Severity::Error, path.display(), e.to_string());
            report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
            return Ok(report.exit_code());
        }
    };
    for p in &opened.problems {
        report.problem(if p.error { Severity::Error } else { Severity::Warning }, &p.location, p.message.clone());
    }
    let mut moves = 0u64;
    for (b, block) in opened.book.blocks.iter().enumerate() {
        for e in &block.elements {
            let position = key::check(&e.key);
            // Blocks are numbered across all parts, as the .kob stream counts them.
            let location = format!("{} block {b}", opened.files.stem.display());
            match position {
                Err(why) => report.problem(Severity::Error, &location, format!("key {}: {why}", e.key.to_hex())),
                Ok(pos) => {
                    let norm = tabiya_chess::boardcode::Normalized::new(&pos);
                    for &code in &e.moves {
                        moves += 1;
                        if kvetka::moves::decode_move(&norm, &pos, code).is_none() {
                            report.problem(
                                Severity::Error,
                                &location,
                                format!("key {}: move code {code:#04x} is not a legal move there", e.key.to_hex()),
                            );
                        }
                    }
                }
            }
        }
    }
    report
        .checked("parts", opened.parts.len())
        .checked("blocks", opened.book.blocks.len())
        .checked("positions", opened.book.element_count())
        .checked("moves", moves)
        .checked("kin", kin_name(opened.kin));
    if let Some(sources) = &opened.book.sources {
        report.checked("games", sources.sources.iter().map(|s| s.games.len()).sum::<usize>());
    }
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(report.exit_code())
}

pub fn probe(path: &Path, args: &ProbeArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let pos = super::probe_position(args)?;
    let reader = BookReader::open(path, ReadOptions::default()).map_err(input_error)?;
    let found = probe::probe(&reader, &pos).map_err(input_error)?;
    let mut warnings = tabiya_io::Warnings::default();
    let sources = reader.sources(&mut warnings).unwrap_or_else(|e| {
        warnings.push(tabiya_io::Location::default(), format!("{e}; games not shown"));
        None
    });
    let mut report = ProbeReport {
        book: path.to_path_buf(),
        format: FORMAT.name(),
        fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        found: found.element.is_some(),
        position: Map::new(),
        moves: Vec::new(),
        warnings: warnings.iter().map(ToString::to_string).collect(),
    };
    if let Ok(key) = found.key {
        report.position.insert("key".into(), json!(key.to_hex()));
    }
    if let Some(e) = &found.element {
        let p = &mut report.position;
        p.insert("games".into(), json!(e.games()));
        p.insert("wins".into(), json!(e.wins));
        p.insert("draws".into(), json!(e.draws));
        p.insert("losses".into(), json!(e.losses));
        if let Some(c) = &e.comment {
            p.insert("comment".into(), json!(c));
        }
        if let Some(r) = e.some_source {
            p.insert("some_game".into(), game_json(sources.as_ref(), r));
        }
        if !e.links().is_empty() {
            let games: Vec<Value> = e.links().iter().map(|&r| game_json(sources.as_ref(), r)).collect();
            p.insert("games_ending_here".into(), json!(games));
        }
    }
    for m in &found.moves {
        let Some(mv) = m.mv else {
            report.warnings.push(format!("move code {:#04x} is not a legal move here", m.code));
            continue;
        };
        let stats = m.stats();
        let games = stats.map(|(w, d, l)| u64::from(w) + u64::from(d) + u64::from(l));
        let mut extra = Map::new();
        extra.insert("code".into(), json!(format!("{:02x}", m.code)));
        if let Some(c) = m.after.as_ref().and_then(|e| e.comment.as_ref()) {
            extra.insert("comment".into(), json!(c));
        }
        report.moves.push(ProbeMove {
            uci: UciMove::from_move(mv, CastlingMode::Standard).to_string(),
            san: SanPlus::from_move(pos.clone(), mv).to_string(),
            weight: games.unwrap_or(0),
            games,
            wins: stats.map(|s| u64::from(s.0)),
            draws: stats.map(|s| u64::from(s.1)),
            losses: stats.map(|s| u64::from(s.2)),
            annotation: None,
            extra,
        });
    }
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(ExitCode::SUCCESS)
}

/// A referenced game with its players and result from the `.ksf`, or just the reference.
fn game_json(sources: Option<&Sources>, r: kvetka::SourceRef) -> Value {
    let mut value = json!({"source": r.source, "game": r.game});
    if let Some((source, game)) = sources.and_then(|s| s.game(r)) {
        value["file"] = json!(source.address);
        value["offset"] = json!(game.address);
        value["length"] = json!(game.length);
        value["white"] = json!(game.white_name());
        value["black"] = json!(game.black_name());
        value["white_elo"] = json!(game.white_elo);
        value["black_elo"] = json!(game.black_elo);
        value["result"] = json!(game.result_pgn());
    }
    value
}

pub fn book(args: &BookArgs, global: &Global) -> Result<ExitCode, CliError> {
    let o = &args.kvetka;
    let existing = if o.append {
        Some(kvetka::open(&args.output, ReadOptions::default()).map_err(input_error)?.book)
    } else {
        None
    };
    let header = match &existing {
        Some(book) => book.header.clone(),
        None => Header {
            caption: o.caption.clone(),
            min_white_elo: o.min_white_elo,
            min_black_elo: o.min_black_elo,
            min_strong_elo: o.min_strong_elo,
            min_weak_elo: o.min_weak_elo,
            max_move: o.max_move,
            element_type: u8::from(o.game_links),
            links: u8::from(o.links),
        },
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
    let bar = progress(args.inputs.len() as u64, global.quiet, "adding games");
    for input in &args.inputs {
        let (path, format) = super::input_format(input, None)?;
        match format {
            Format::Chess(tabiya_chess::Format::Pgn) => {
                let bytes = read_input(&path).map_err(CliError::input)?;
                builder.add_pgn(&path, &bytes).map_err(input_error)?;
            }
            // Game links point at a game's byte offset in a PGN file; a SCID game has none.
            Format::Chess(tabiya_chess::Format::Scid3)
            | Format::Chess(tabiya_chess::Format::Scid4)
            | Format::Chess(tabiya_chess::Format::Scid5)
                if references =>
            {
                return Err(CliError::Usage(format!(
                    "{}: Kvetka game links refer to games in PGN files; build from SCID without \
                     --game-links (or from its PGN export)",
                    path.display()
                )));
            }
            Format::Chess(tabiya_chess::Format::Scid3)
            | Format::Chess(tabiya_chess::Format::Scid4)
            | Format::Chess(tabiya_chess::Format::Scid5) => {
                builder.add_games(games::open(&path).map_err(CliError::input)?).map_err(input_error)?;
            }
            other => return Err(CliError::unsupported(format!("building Kvetka books from {other}"))),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let report = match existing {
        Some(mut book) => {
            let (built, mut report) = builder.finish(names.as_ref()).map_err(input_error)?;
            kvetka::merge::append(&mut book, built, &mut report).map_err(input_error)?;
            report.blocks = book.blocks.len() as u64;
            book.write(&args.output, &Default::default()).map_err(write_error)?;
            report
        }
        // A new book is written as its elements come, never held whole.
        None => builder.write(names.as_ref(), &args.output, &Default::default()).map_err(write_error)?,
    };
    summary(global.quiet, build_summary(&args.output, &report));
    Ok(ExitCode::SUCCESS)
}

fn build_summary(path: &Path, r: &BuildReport) -> String {
    let mut text = format!(
        "{}: {} positions in {} blocks from {} of {} games ({} filtered by Elo, {} Chess960, {} unreadable)",
        path.display(),
        r.positions,
        r.blocks,
        r.games_added,
        r.games_read,
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
    text
}

fn read_books(inputs: &[PathBuf]) -> Result<Vec<Book>, CliError> {
    inputs.iter().map(|p| Book::read(p).map_err(input_error)).collect()
}

pub fn convert(args: &ConvertArgs, global: &Global, from: Format, to: Format) -> Option<Result<ExitCode, CliError>> {
    let run = match (from, to) {
        (Format::Chess(tabiya_chess::Format::Kvetka), Format::Chess(tabiya_chess::Format::Kvetka)) => merge_books,
        (Format::Chess(tabiya_chess::Format::Kvetka), Format::Chess(tabiya_chess::Format::Polyglot)) => to_polyglot,
        (Format::Chess(tabiya_chess::Format::Polyglot), Format::Chess(tabiya_chess::Format::Kvetka)) => from_polyglot,
        (Format::Chess(tabiya_chess::Format::Ctg), Format::Chess(tabiya_chess::Format::Kvetka)) => from_ctg,
        (Format::Chess(tabiya_chess::Format::Kvetka), Format::Chess(tabiya_chess::Format::JsonLines)) => dump,
        _ => return None,
    };
    Some(run(args, global))
}

fn merge_books(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let (book, report) = kvetka::merge::merge(read_books(&args.inputs)?).map_err(input_error)?;
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
    let book = Book::read(input).map_err(input_error)?;
    let (entries, report) = kvetka::convert::to_polyglot(&book);
    let mut out = Output::create(&args.output)?;
    tabiya_chess::polyglot::write_entries(&entries, &mut out).map_err(|e| CliError::output(&args.output, e))?;
    out.finish(&args.output)?;
    summary(
        global.quiet,
        format!(
            "{}: {} entries from {} positions reachable from the initial position ({} not reached)",
            args.output.display(),
            entries.len(),
            report.positions,
            report.positions_not_reached
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
    let (book, report) = kvetka::convert::from_polyglot(&entries, Header::default()).map_err(input_error)?;
    book.write(&args.output, &Default::default()).map_err(write_error)?;
    summary(
        global.quiet,
        format!(
            "{}: {} positions, {} moves (statistics 0: Polyglot weights are not game results); {} Polyglot positions not reachable from the initial position",
            args.output.display(),
            report.positions,
            report.moves,
            report.positions_not_reached
        ),
    );
    Ok(ExitCode::SUCCESS)
}

fn from_ctg(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let [input] = args.inputs.as_slice() else {
        return Err(CliError::Usage("converting from CTG takes one book".into()));
    };
    let ctg = tabiya_chess::ctg::Book::open(input).map_err(CliError::input)?;
    let (book, report) = kvetka::convert::from_ctg(&ctg, Header::default()).map_err(input_error)?;
    book.write(&args.output, &Default::default()).map_err(write_error)?;
    summary(
        global.quiet,
        format!(
            "{}: {} positions, {} moves from the CTG records; {} records with an invalid key, {} moves without a Kvetka code",
            args.output.display(),
            report.positions,
            report.moves,
            report.positions_invalid,
            report.moves_skipped
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

/// The options Kvetka takes when a book is built.
pub fn takes(part: super::Part) -> &'static [&'static str] {
    match part.role {
        super::Role::Build => &[
            "min_white_elo",
            "min_black_elo",
            "min_strong_elo",
            "min_weak_elo",
            "max_move",
            "links",
            "game_links",
            "eco",
            "append",
            "caption",
        ],
        _ => &[],
    }
}
