//! `tabiya select`: the games of any chess source that pass the filters, minus duplicates, to
//! any chess sink (or counted). The filters are the library's (`games::select`); this file
//! turns options into them.
//!
//! Every value option takes `not:` before its value to mean the opposite: `--player
//! not:Carlsen` (no game of Carlsen's), `--eco not:B20..B99`, `--moves "not:e4"`. An option
//! given several times keeps the games that match any of its values (`--result 1-0 --result
//! 0-1`: decisive games), and every `not:` value must not match; different options must all
//! hold.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tabiya_chess::Format as C;
use tabiya_chess::games::Source;
use tabiya_chess::games::index::PositionIndex;
use tabiya_chess::games::search::{MaterialQuery, PositionQuery};
use tabiya_chess::games::select::criteria::{
    DateIn, EcoIn, PliesIn, Range, RatingIn, ResultIs, StartsWith, TagEquals, TagPrefix, TagRegex, VariantIs,
};
use tabiya_chess::games::select::{
    AllOf, AnyOf, Duplicates, GameFilter, GameRef, Not, Rules, SelectSummary, Selection, count_from,
    removal_diagnostic, select_from,
};
use tabiya_io::{Access, DiagnosticSink};
use tabiya_othello::Format as O;

use super::pgn::{Printer, holds_games, write_games};
use super::{Part, Role, check_options, input_format, output_format, wthor};
use crate::args::{ConvertArgs, Global, IndexArgs, SelectArgs};
use crate::output::{self, Output};
use crate::registry::Format;
use crate::report::{CliError, SourceProgress, Unit, counted, progress, summary};

/// The filters and duplicate rules of `select`.
#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct SelectOptions {
    /// Games of a player of either colour: the name starts with this (any case), as pgn-extract's
    /// tag criteria match. Repeatable; `not:NAME` leaves the player's games out.
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// Games where White's name starts with this.
    #[arg(long, value_name = "NAME")]
    pub white: Vec<String>,
    /// Games where Black's name starts with this.
    #[arg(long, value_name = "NAME")]
    pub black: Vec<String>,
    /// Games whose Event starts with this.
    #[arg(long, value_name = "NAME")]
    pub event: Vec<String>,
    /// Games whose Site starts with this.
    #[arg(long, value_name = "NAME")]
    pub site: Vec<String>,
    /// Games played in a range of dates: `1990..1995.06`, `2000..`, `1972` (unknown years left out).
    #[arg(long, value_name = "RANGE")]
    pub date: Vec<String>,
    /// Both players' ratings in a range: `2500..`, `2000..2199`.
    #[arg(long, value_name = "RANGE")]
    pub elo: Vec<String>,
    /// White's rating in a range.
    #[arg(long, value_name = "RANGE")]
    pub white_elo: Vec<String>,
    /// Black's rating in a range.
    #[arg(long, value_name = "RANGE")]
    pub black_elo: Vec<String>,
    /// Games with this result: 1-0, 0-1, 1/2-1/2 (or 1/2), *.
    #[arg(long, value_name = "RESULT")]
    pub result: Vec<String>,
    /// Games whose ECO tag lies in a range of codes: `B20..B99`, `C42`.
    #[arg(long, value_name = "RANGE")]
    pub eco: Vec<String>,
    /// Games with this TimeControl tag (`180+2`).
    #[arg(long, value_name = "TC")]
    pub time_control: Vec<String>,
    /// Games of this variant (the Variant tag; `standard` also takes games without one).
    #[arg(long, value_name = "VARIANT")]
    pub variant: Vec<String>,
    /// Any tag: `NAME=VALUE` (the whole value) or `NAME~REGEX` (a regular expression found in it).
    #[arg(long, value_name = "NAME=VALUE")]
    pub tag: Vec<String>,
    /// Games whose main line has a number of plies in a range: `40..`, `..20`.
    #[arg(long, value_name = "RANGE")]
    pub plies: Vec<String>,
    /// Games that open with this line, in this move order: "e4 c5 Nf3" (Othello: "f5 d6 c3").
    #[arg(long, value_name = "MOVES")]
    pub moves: Vec<String>,
    /// Games whose main line reaches this position by any move order (pieces, side to move,
    /// castling rights, and an en-passant square only when the capture is legal). Othello: the
    /// 64 squares a1…h8 (`X`, `O`, `-`) and the side to move, as `tabiya solve` takes them.
    #[arg(long, value_name = "FEN", allow_hyphen_values = true)]
    pub fen: Vec<String>,
    /// Games whose main line reaches this material, White's pieces in capitals: `KRPkr`.
    #[arg(long, value_name = "PIECES")]
    pub material: Vec<String>,
    /// Leave out a game with the same moves, players, result and date as one before it.
    #[arg(long)]
    pub dedup: bool,
    /// Leave out SCID's twins (same players, event, site, round, year and month; moves that
    /// start the other game's), and say which games merged.
    #[arg(long)]
    pub twins: bool,
    /// Leave out a game whose moves start another game by the same players.
    #[arg(long)]
    pub contained: bool,
}

/// The options of `select`'s filters and rules (clap ids).
const CHESS: &[&str] = &[
    "player",
    "white",
    "black",
    "event",
    "site",
    "date",
    "elo",
    "white_elo",
    "black_elo",
    "result",
    "eco",
    "time_control",
    "variant",
    "tag",
    "plies",
    "moves",
    "fen",
    "material",
    "dedup",
    "twins",
    "contained",
];

/// The filter and duplicate options among the options given (clap ids).
pub fn given_filters(given: &[String]) -> impl Iterator<Item = &str> {
    given.iter().map(String::as_str).filter(|id| CHESS.contains(id))
}

/// The options a part of `select` takes: every filter for chess games; for Othello games, the
/// filters their records can answer (Wthor games, GGF, JSON Lines and CSV name players,
/// tournaments and years; transcripts name nothing; every game has moves and positions), and
/// the name files' directory for Wthor.
pub fn takes(part: Part) -> &'static [&'static str] {
    match (part.role, part.format) {
        (Role::Select, format) if holds_games(format) => CHESS,
        (Role::Select, Format::Othello(O::WthorGames)) => &["player", "event", "date", "moves", "fen", "names"],
        (Role::Select, Format::Othello(O::Ggf | O::JsonLines | O::Csv)) => &["player", "event", "date", "moves", "fen"],
        (Role::Select, Format::Othello(O::Transcript)) => &["moves", "fen"],
        _ => &[],
    }
}

/// The Othello formats `select` reads games from.
fn othello_games(format: Format) -> bool {
    matches!(format, Format::Othello(O::WthorGames | O::Ggf | O::Transcript | O::JsonLines | O::Csv))
}

/// One option's values as a filter: the games that match any plain value and none of the
/// `not:` values; `None` when the option was not given.
fn option_filter(
    values: &[String],
    filter: impl Fn(&str) -> Result<Box<dyn GameFilter>, String>,
    option: &str,
) -> Result<Option<Box<dyn GameFilter>>, CliError> {
    let usage = |e: String| CliError::Usage(format!("--{option}: {e}"));
    let mut any = Vec::new();
    let mut none = Vec::new();
    for value in values {
        match value.strip_prefix("not:") {
            Some(value) => none.push(filter(value).map_err(usage)?),
            None => any.push(filter(value).map_err(usage)?),
        }
    }
    let mut all: Vec<Box<dyn GameFilter>> = none.into_iter().map(|f| Box::new(Not(f)) as Box<dyn GameFilter>).collect();
    match any.len() {
        0 => {}
        1 => all.push(any.pop().expect("one")),
        _ => all.push(Box::new(AnyOf(any))),
    }
    Ok(match all.len() {
        0 => None,
        1 => all.pop(),
        _ => Some(Box::new(AllOf(all))),
    })
}

/// The selection the options describe.
pub fn selection(o: &SelectOptions) -> Result<Selection, CliError> {
    fn boxed(f: impl GameFilter + 'static) -> Box<dyn GameFilter> {
        Box::new(f)
    }
    let prefix = |tags: &'static [&'static str]| move |v: &str| Ok(boxed(TagPrefix::new(tags, v)));
    let rating = |tags: &'static [&'static str]| move |v: &str| RatingIn::parse(tags, v).map(boxed);
    let tag = |v: &str| -> Result<Box<dyn GameFilter>, String> {
        match v.find(['=', '~']) {
            Some(at) if v.as_bytes()[at] == b'=' => Ok(boxed(TagEquals::new(&v[..at], &v[at + 1..]))),
            Some(at) => TagRegex::new(&v[..at], &v[at + 1..]).map(boxed),
            None => Err(format!("{v}: expected NAME=VALUE or NAME~REGEX")),
        }
    };
    let filters = [
        option_filter(&o.player, prefix(&["White", "Black"]), "player")?,
        option_filter(&o.white, prefix(&["White"]), "white")?,
        option_filter(&o.black, prefix(&["Black"]), "black")?,
        option_filter(&o.event, prefix(&["Event"]), "event")?,
        option_filter(&o.site, prefix(&["Site"]), "site")?,
        option_filter(&o.date, |v| DateIn::parse(v).map(boxed), "date")?,
        option_filter(&o.elo, rating(&["WhiteElo", "BlackElo"]), "elo")?,
        option_filter(&o.white_elo, rating(&["WhiteElo"]), "white-elo")?,
        option_filter(&o.black_elo, rating(&["BlackElo"]), "black-elo")?,
        option_filter(&o.result, |v| ResultIs::parse_result(v).map(|r| boxed(ResultIs(vec![r]))), "result")?,
        option_filter(&o.eco, |v| EcoIn::parse(v).map(boxed), "eco")?,
        option_filter(&o.time_control, |v| Ok(boxed(TagEquals::new("TimeControl", v))), "time-control")?,
        option_filter(&o.variant, |v| Ok(boxed(VariantIs::new(v))), "variant")?,
        option_filter(&o.tag, tag, "tag")?,
        option_filter(&o.plies, |v| PliesIn::parse(v).map(boxed), "plies")?,
        option_filter(&o.moves, |v| StartsWith::parse(v).map(boxed), "moves")?,
        option_filter(&o.fen, |v| PositionQuery::from_fen(v).map(boxed).map_err(|e| e.to_string()), "fen")?,
        option_filter(&o.material, |v| MaterialQuery::parse(v).map(boxed).map_err(|e| e.to_string()), "material")?,
    ];
    let mut selection = Selection::all();
    for filter in filters.into_iter().flatten() {
        selection.push(filter);
    }
    Ok(selection)
}

/// The inputs, each directory replaced by the games files in it and below (PGN, JSON Lines,
/// SCID index files), in name order.
fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            files.push(input.clone());
            continue;
        }
        let mut found = Vec::new();
        let mut dirs = vec![input.clone()];
        while let Some(dir) = dirs.pop() {
            let entries = std::fs::read_dir(&dir).map_err(|e| CliError::Input(format!("{}: {e}", dir.display())))?;
            for entry in entries {
                let path = entry.map_err(|e| CliError::Input(format!("{}: {e}", dir.display())))?.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if games_file(&path) {
                    found.push(path);
                }
            }
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// A file of chess games in a directory: PGN or JSON Lines (compressed or not), a SCID
/// database by its index file.
fn games_file(path: &Path) -> bool {
    let Ok(head) = tabiya_io::Head::read(path) else { return false };
    match C::sniff(&head) {
        Some(C::Pgn | C::JsonLines) => true,
        Some(C::Scid3 | C::Scid4 | C::Scid5) => matches!(head.extension.as_str(), "si3" | "si4" | "si5"),
        _ => false,
    }
}

/// `tabiya select INPUT... (-o OUTPUT | --count)`.
pub fn select(args: &SelectArgs, global: &Global) -> Result<ExitCode, CliError> {
    let inputs = expand(&args.inputs)?;
    if inputs.is_empty() {
        return Err(CliError::Input("no games files in the inputs".into()));
    }
    let mut formats = Vec::new();
    for input in &inputs {
        let (_, format) = input_format(input, args.from.as_deref())?;
        if !holds_games(format) && !othello_games(format) {
            return Err(CliError::unsupported(format!("selecting games from {format} ({})", input.display())));
        }
        formats.push(format);
    }
    if let Format::Othello(from) = formats[0] {
        return othello(args, global, &inputs, from);
    }
    let to = match &args.output {
        Some(output) => Some(output_format(output, args.to.as_deref(), Some(formats[0]))?),
        None => None,
    };
    let mut parts: Vec<Part> = formats.iter().map(|&f| Part::new(f, Role::Select, to)).collect();
    if let Some(to) = to {
        if !holds_games(to) || to == Format::Chess(C::Scid3) {
            return Err(CliError::unsupported(format!("writing selected games as {to}")));
        }
        parts.push(Part::new(to, Role::Write, Some(formats[0])));
    }
    check_options("select", &global.given, &parts)?;
    let selection = selection(&args.select)?;
    let rules = Rules { dedup: args.select.dedup, twins: args.select.twins, contained: args.select.contained };
    let mut printer = Printer::new(global.quiet);
    let bar = progress(Unit::Records, 0, global.quiet, "games");
    let mut total = SelectSummary::default();
    let mut removed = Vec::new();
    let kept = match (&args.output, to) {
        (Some(output), Some(to)) => {
            let layout = || args.pgn.writer_options(formats[0]);
            let written = write_games(output, to, layout, &args.games, false, &mut printer, |sink, printer| {
                let mut duplicates = Duplicates::new(rules);
                for (n, input) in inputs.iter().enumerate() {
                    let source = Source::open(input).map_err(CliError::input)?.with_access(Access::Map);
                    let shown = SourceProgress::new(&bar, &source);
                    let done = sink
                        .add_selected(&source, n, &selection, &mut duplicates, printer, |k| shown.update(&source, k))
                        .map_err(|e| CliError::Output(e.to_string()))?;
                    total += done;
                }
                removed =
                    sink.finish_selected(duplicates, &inputs, printer).map_err(|e| CliError::Output(e.to_string()))?;
                Ok(())
            })?;
            written.written
        }
        _ => {
            let mut kept = 0u64;
            let mut duplicates = Duplicates::<()>::new(rules);
            for (n, input) in inputs.iter().enumerate() {
                let source = Source::open(input).map_err(CliError::input)?.with_access(Access::Map);
                let shown = SourceProgress::new(&bar, &source);
                let progress = |k| shown.update(&source, k);
                let done = if duplicates.is_active() {
                    let count = |_: GameRef, (), _: &mut dyn DiagnosticSink| {
                        kept += 1;
                        Ok(())
                    };
                    select_from(&source, n, &selection, |_| (), &mut duplicates, &mut printer, progress, count)
                } else {
                    // Nothing is made of the games: those the position index finds are not read.
                    count_from(&source, &selection, &mut printer, progress).inspect(|done| kept += done.selected)
                }
                .map_err(CliError::input)?;
                total += done;
            }
            let (held, dropped) = duplicates.finish();
            removed = dropped;
            kept += held.len() as u64;
            println!("{kept}");
            kept
        }
    };
    bar.finish_and_clear();
    for removal in &removed {
        summary(global.quiet, removal_diagnostic(removal, &inputs));
    }
    let Printer { errors, warnings, .. } = printer;
    summary(
        global.quiet,
        format!(
            "{} kept of {} read ({} selected, {} left out as repeated), {}, {}",
            counted(kept, "game"),
            total.read,
            total.selected,
            removed.len(),
            counted(errors, "error"),
            counted(warnings, "warning")
        ),
    );
    Ok(if errors == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `tabiya index DB`: the position index of a SCID database, written beside it (`DB.tpx`), which
/// `select --fen` then searches instead of replaying games. An index there already is replaced
/// only with `--force` (a stale one is not used: `select` says so).
pub fn index(args: &IndexArgs, global: &Global) -> Result<ExitCode, CliError> {
    let Source::Scid(db) = Source::open(&args.database).map_err(CliError::input)? else {
        return Err(CliError::Usage(format!(
            "{}: only a SCID database has a position index (select --fen replays other files)",
            args.database.display()
        )));
    };
    let path = PositionIndex::path_for(&db);
    output::configure(global.force, std::slice::from_ref(&args.database));
    let mut out = Output::create(&path)?;
    let index = PositionIndex::build(&db);
    let bytes = index.as_bytes();
    std::io::Write::write_all(&mut out, bytes).map_err(|e| CliError::output(&path, e))?;
    out.finish(&path)?;
    summary(
        global.quiet,
        format!(
            "{}: {} indexed, {} positions, {} bytes ({:.1} a game)",
            path.display(),
            counted(db.len() as u64, "game"),
            index.positions(),
            bytes.len(),
            bytes.len() as f64 / db.len().max(1) as f64
        ),
    );
    Ok(ExitCode::SUCCESS)
}

/// `select` of Othello games: `convert` with its game filters (`--player` and `--event` match
/// anywhere in the name, any case, as Wthor exports do; `--date` takes whole years; `--moves`
/// and `--fen` compare lines and positions up to the start position's symmetries, as Wthor
/// stores games), to any Othello games output, or counted.
fn othello(args: &SelectArgs, global: &Global, inputs: &[PathBuf], from_othello: O) -> Result<ExitCode, CliError> {
    let from = Format::Othello(from_othello);
    let to = match &args.output {
        Some(output) => Some(output_format(output, args.to.as_deref(), Some(from))?),
        None => None,
    };
    check_options("select", &global.given, &[Part::new(from, Role::Select, to)])?;
    let o = &args.select;
    let years = match o.date.as_slice() {
        [] => None,
        [range] => {
            let year = |s: &str| {
                s.parse::<u16>().map_err(|_| format!("{s}: expected a year (Othello games are dated by year)"))
            };
            let range = Range::parse(range, year).map_err(|e| CliError::Usage(format!("--date: {e}")))?;
            Some(format!("{}-{}", range.low.unwrap_or(0), range.high.unwrap_or(u16::MAX)))
        }
        _ => return Err(CliError::Usage("--date: one range of years for Othello games".into())),
    };
    let negated = o.player.iter().chain(&o.event).chain(&o.moves).chain(&o.fen).any(|v| v.starts_with("not:"));
    if negated {
        return Err(CliError::Usage("not: applies to chess games; Othello filters keep what they name".into()));
    }
    let lines = o.moves.iter().map(|line| {
        tabiya_othello::text::transcript::parse_line(line, 1)
            .map_err(|e| CliError::Usage(format!("--moves {line}: expected {}, found {:?}", e.expected, e.found)))
    });
    let positions = o.fen.iter().map(|board| {
        tabiya_othello::text::obf::parse_line(board, 1).map(|line| line.position).map_err(|e| {
            CliError::Usage(format!(
                "--fen {board}: an Othello position is 64 squares a1…h8 (X, O, -) and the side to move; \
                 expected {}, found {:?}",
                e.expected, e.found
            ))
        })
    });
    let convert = ConvertArgs {
        inputs: inputs.to_vec(),
        output: args.output.clone().unwrap_or_default(),
        from: args.from.clone(),
        to: args.to.clone(),
        names: args.names.clone(),
        wthor: wthor::ConvertOptions {
            years,
            players: o.player.clone(),
            tournaments: o.event.clone(),
            lines: lines.collect::<Result<_, _>>()?,
            positions: positions.collect::<Result<_, _>>()?,
            ..Default::default()
        },
        ..Default::default()
    };
    let Some(to) = to else {
        let (kept, damaged) = wthor::count_games(&convert, global, from_othello)?;
        println!("{kept}");
        return Ok(if damaged { ExitCode::from(1) } else { ExitCode::SUCCESS });
    };
    match super::conversion(from, to) {
        Some(run) => run(&convert, global),
        None => Err(CliError::unsupported(format!("writing {from} games as {to}"))),
    }
}
