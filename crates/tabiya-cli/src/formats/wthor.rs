//! Wthor (.wtb .wtd .pzz WTHOR.JOU WTHOR.TRN) and Othello text formats: info, verify, conversion.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tabiya_io::report::Verification;
use tabiya_io::{AtomicFile, Diagnostic, Location};

use crate::registry::Format;
use tabiya_othello::Format as O;
use tabiya_othello::board::{Position, Square};
use tabiya_othello::game::{Game, TextExport};
use tabiya_othello::report::VerifyOptions;
use tabiya_othello::text;
use tabiya_othello::wthor::{
    self, GameContext, GameFile, GameFilter, GameStats, GamesFile, Header, Importer, NameFile, NameKind, Names,
    NewGame, SolitaireFile, TheoreticalPolicy,
};

use crate::args::*;
use crate::output;
use crate::report::{CliError, Output, Unit, counted, print, print_info, progress, summary};

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {
    /// Wthor export: keep games of these years, `1990` or `1990-2000`.
    #[arg(long, value_name = "YEARS")]
    pub years: Option<String>,
    /// Wthor export: keep games of players whose names contain this (repeatable).
    #[arg(long = "player", value_name = "NAME")]
    pub players: Vec<String>,
    /// Wthor export: keep games of tournaments whose names contain this (repeatable).
    #[arg(long = "tournament", value_name = "NAME")]
    pub tournaments: Vec<String>,
    /// Wthor export: drop games played by programs (`Logistello (buro)`).
    #[arg(long)]
    pub exclude_programs: bool,
    /// Wthor → OBF: the position at this many empty squares; Wthor → .pzz: the solitaires' empties.
    #[arg(long, value_name = "N")]
    pub empties: Option<u8>,
    /// Games → .wtb: how to fill theoretical scores.
    #[arg(long, value_enum)]
    pub theoretical: Option<Theoretical>,
    /// `select --moves`: keep games that open with one of these lines.
    #[arg(skip)]
    pub lines: Vec<Vec<Square>>,
    /// `select --fen`: keep games that reach one of these positions.
    #[arg(skip)]
    pub positions: Vec<Position>,
}

/// `--theoretical`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Theoretical {
    /// Solve the position at 24 empties exactly (with a cache of solved positions).
    Solve,
    /// Copy the real score (wrong for most games; what Edax writes).
    CopyReal,
    /// Store 0, meaning "not computed".
    Unknown,
}

/// The bytes of an Othello file, decompressed when compressed (the text formats' are, as
/// `games.ggf.gz`).
fn read(path: &Path) -> Result<tabiya_io::FileBytes, CliError> {
    wthor::recover(dir_of(path)).map_err(CliError::input)?;
    tabiya_io::read_decompressed(path).map_err(CliError::input)
}

fn input_error(path: &Path, e: impl Into<tabiya_io::DataError>) -> CliError {
    CliError::input(e.into().in_file(path))
}

/// Prints what reading found on stderr; true when any of it is an error (the exit status
/// must show it).
fn diagnostics_to_stderr(path: &Path, found: Vec<Diagnostic>, quiet: bool) -> bool {
    let errors = tabiya_io::any_error(&found);
    for d in found {
        summary(quiet, d.in_file(path));
    }
    errors
}

pub fn info(path: &Path, format: Format, args: &InfoArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let Format::Othello(format) = format else { return Err(CliError::unsupported(format!("info of {format}"))) };
    let data = read(path)?;
    let names = match format {
        O::WthorGames | O::WthorGames10 => load_names(dir_of(path), args.names.as_deref())?,
        _ => None,
    };
    let names_ref = names.as_ref().map(|(players, tournaments)| Names { players, tournaments });
    let info = tabiya_othello::report::info(path, format, &data, names_ref).map_err(|e| input_error(path, e))?;
    print_info(&info, args.json)
}

/// The directory a file is in (`.` for a bare file name).
fn dir_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// The name files in `--names DIR`, else in `dir`; `None` when there are none.
fn load_names(dir: &Path, names_dir: Option<&Path>) -> Result<Option<(NameFile, NameFile)>, CliError> {
    wthor::recover(names_dir.unwrap_or(dir)).map_err(CliError::input)?;
    match wthor::load_name_files(names_dir.unwrap_or(dir)).map_err(CliError::input)? {
        None if names_dir.is_some() => {
            Err(CliError::Input(format!("{}: no WTHOR.JOU and WTHOR.TRN here", names_dir.unwrap_or(dir).display())))
        }
        found => Ok(found),
    }
}

pub fn verify(path: &Path, format: Format, args: &VerifyArgs, global: &Global) -> Result<ExitCode, CliError> {
    let Format::Othello(format) = format else { return Err(CliError::unsupported(format!("verifying {format}"))) };
    let data = read(path)?;
    let games = matches!(format, O::WthorGames | O::WthorGames10);
    let names = if games { load_names(dir_of(path), args.names.as_deref())? } else { None };
    let solitaires = (format == O::WthorSolitaires).then(super::solve::solitaire_solver).transpose()?;
    // One tick a record: a game solved at the header's depth, or a solitaire.
    let records = format.records_in(data.len() as u64).unwrap_or(0);
    let solving = args.deep || solitaires.is_some();
    let bar = progress(Unit::Records, records, global.quiet || !solving, "solving");
    let ticking = bar.clone();
    let mut deep = args
        .deep
        .then(super::solve::theoretical_solver)
        .transpose()?
        .map(|solver| solver.with_tick(move || ticking.inc(1)));
    let tick = || bar.inc(1);
    let options = VerifyOptions {
        names: names.as_ref().map(|(players, tournaments)| Names { players, tournaments }),
        deep: deep.as_mut(),
        solitaires: solitaires.as_ref(),
        progress: Some(&tick),
    };
    let report = tabiya_othello::report::verify(path, format, &data, options);
    bar.finish_and_clear();
    print(&report, args.json)?;
    summary(
        global.quiet || args.json,
        format!("{}: {}", path.display(), if report.ok { "ok" } else { "problems found" }),
    );
    Ok(if report.ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `tabiya verify DIR`: every `.wtb` file of a directory against the directory's name files,
/// in parallel, and the `.wtd` and `.pzz` files one by one.
pub fn verify_dir(path: &Path, args: &VerifyArgs, global: &Global) -> Result<ExitCode, CliError> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    entries.sort();
    let is_wtb = |p: &PathBuf| p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
    let games: Vec<PathBuf> = entries.iter().filter(|p| is_wtb(p)).cloned().collect();
    let mut report = Verification::new(path, O::WthorGames.name());
    let names = load_names(path, args.names.as_deref())?;
    let names_ref = names.as_ref().map(|(players, tournaments)| Names { players, tournaments });
    if names_ref.is_none() {
        report.problem(tabiya_othello::report::no_names(path));
    }
    let bar = progress(Unit::Records, 0, global.quiet, "verifying");
    bar.tick();
    let mut total = GameStats::default();
    for result in wthor::verify_game_files(&games, names_ref) {
        let v = result.map_err(CliError::input)?;
        report.problems(v.problems);
        total += v.stats;
    }
    bar.finish_and_clear();
    report.checked("files", games.len());
    tabiya_othello::report::add_stats(&mut report, &total);
    for other in entries.iter().filter(|p| !is_wtb(p)) {
        let Some(format) = tabiya_io::Head::read(other).ok().and_then(|h| O::sniff(&h)) else { continue };
        if matches!(format, O::WthorGames10 | O::WthorSolitaires) {
            let options = VerifyOptions { names: names_ref, ..VerifyOptions::default() };
            let v = tabiya_othello::report::verify(other, format, &read(other)?, options);
            report.problems(v.problems);
        }
    }
    print(&report, args.json)?;
    Ok(if report.ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

pub fn converts(from: Format, to: Format) -> Option<super::Conversion> {
    let (Format::Othello(from), Format::Othello(to)) = (from, to) else { return None };
    let text_out = matches!(to, O::Transcript | O::Ggf | O::Obf | O::JsonLines | O::Csv);
    let text_games = matches!(from, O::Transcript | O::Ggf | O::JsonLines | O::Csv);
    match (from, to) {
        (O::WthorGames, _) if text_out => Some(Box::new(move |args, global| export(args, global, to))),
        (_, O::WthorGames) if text_games => Some(Box::new(move |args, global| import(args, global, from))),
        (O::WthorGames | O::WthorGames10 | O::WthorPlayers | O::WthorTournaments | O::WthorSolitaires, _)
            if from == to =>
        {
            Some(Box::new(move |args, global| copy(args, global, from)))
        }
        (O::WthorSolitaires, O::Obf) => Some(Box::new(solitaires_to_obf)),
        (O::Obf, O::Obf) => Some(Box::new(copy_positions)),
        (_, _) if text_games && text_out => Some(Box::new(move |args, global| export_text(args, global, from, to))),
        _ => None,
    }
}

/// Reads a Wthor file of any kind, its diagnostics on stderr; `Err` when the header is
/// unreadable, and the flag says whether reading found an error.
fn read_wthor<T>(
    input: &Path,
    global: &Global,
    reader: impl FnOnce(&[u8], &mut Vec<Diagnostic>) -> Result<T, tabiya_io::DataError>,
) -> Result<(T, bool), CliError> {
    let data = read(input)?;
    let mut found = Vec::new();
    let file = reader(&data, &mut found).map_err(|e| input_error(input, e))?;
    Ok((file, diagnostics_to_stderr(input, found, global.quiet)))
}

/// A Wthor file to a file of its own kind: byte for byte when nothing is filtered; game files
/// keep the games the filters select (header kept, N1 set) and get the name files beside them.
fn copy(args: &ConvertArgs, global: &Global, format: O) -> Result<ExitCode, CliError> {
    let mut damaged = false;
    let out = &args.output;
    let write_err = |e: std::io::Error| CliError::output(out, e);
    let single = || match args.inputs.as_slice() {
        [input] => Ok(input),
        _ => Err(CliError::Usage(format!("{format} copies one file at a time"))),
    };
    let written = match format {
        O::WthorGames | O::WthorGames10 => {
            let filter = filter(&args.wthor)?;
            let names = load_names(dir_of(&args.inputs[0]), args.names.as_deref())?;
            let names_ref = names.as_ref().map(|(players, tournaments)| Names { players, tournaments });
            if names_ref.is_none() && filter.uses_names() {
                return Err(CliError::Usage(
                    "name filters need WTHOR.JOU/WTHOR.TRN beside the input or in --names".into(),
                ));
            }
            let (count, errors) = if format == O::WthorGames {
                copy_games::<60>(args, global, &filter, names_ref)?
            } else {
                copy_games::<96>(args, global, &filter, names_ref)?
            };
            damaged |= errors;
            // The indices of the games written point into these name files: put them beside.
            if let Some((players, tournaments)) = &names {
                for file in [players, tournaments] {
                    let path = dir_of(out).join(file.kind.file_name());
                    if !path.exists() {
                        file.write(&path).map_err(|e| CliError::output(&path, e))?;
                    }
                }
            }
            format!("{count} games")
        }
        O::WthorPlayers | O::WthorTournaments => {
            let kind = if format == O::WthorPlayers { NameKind::Players } else { NameKind::Tournaments };
            let (file, errors) = read_wthor(single()?, global, |d, s| NameFile::read(kind, d, s))?;
            damaged |= errors;
            file.write(out).map_err(write_err)?;
            format!("{} names", file.len())
        }
        _ => {
            let (file, errors) = read_wthor(single()?, global, SolitaireFile::read)?;
            damaged |= errors;
            file.write(out).map_err(write_err)?;
            format!("{} solitaires", file.solitaires.len())
        }
    };
    summary(global.quiet, format!("{}: {written}", out.display()));
    Ok(if damaged { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The games of the inputs that `filter` keeps, written to one game file of their kind; the
/// count written, and whether reading found an error.
fn copy_games<const M: usize>(
    args: &ConvertArgs,
    global: &Global,
    filter: &GameFilter,
    names: Option<Names<'_>>,
) -> Result<(usize, bool), CliError> {
    let (files, damaged) = read_all(args, global, GamesFile::<M>::read)?;
    let file = filter.select(&files, names).map_err(|e| CliError::Usage(e.to_string()))?;
    let file = file.ok_or_else(|| CliError::Usage("no input".into()))?;
    file.write(&args.output).map_err(|e| CliError::output(&args.output, e))?;
    Ok((file.games.len(), damaged))
}

/// Every input read with `reader`, what reading found on stderr; the flag says whether
/// reading any of them found an error.
pub fn read_all<T>(
    args: &ConvertArgs,
    global: &Global,
    reader: impl Fn(&[u8], &mut Vec<Diagnostic>) -> Result<T, tabiya_io::DataError>,
) -> Result<(Vec<T>, bool), CliError> {
    let mut damaged = false;
    let mut files = Vec::new();
    for input in &args.inputs {
        let (file, errors) = read_wthor(input, global, &reader)?;
        damaged |= errors;
        files.push(file);
    }
    Ok((files, damaged))
}

/// OBF → OBF: every line checked, and the text written as it is (comments, the writer's own
/// spelling of scores), so a file converts to itself byte for byte; a line that does not
/// parse is an error in the exit status, and is kept.
fn copy_positions(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let mut out = Output::create(&args.output)?;
    let mut damaged = false;
    for input in &args.inputs {
        let data = read(input)?;
        let check = tabiya_othello::report::verify(input, O::Obf, &data, VerifyOptions::default());
        damaged |= diagnostics_to_stderr(input, check.problems, global.quiet);
        out.write_all(&data).map_err(|e| CliError::output(&args.output, e))?;
    }
    out.finish(&args.output)?;
    Ok(if damaged { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Solitaires → OBF, one line each with its stored solution (`tabiya solve` checks it).
fn solitaires_to_obf(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let (files, mut damaged) = read_all(args, global, SolitaireFile::read)?;
    let mut out = Output::create(&args.output)?;
    let mut written = 0u64;
    for (input, file) in args.inputs.iter().zip(&files) {
        for (record, solitaire) in file.solitaires.iter().enumerate() {
            match solitaire.obf_line() {
                Some(line) => {
                    writeln!(out, "{line}").map_err(|e| CliError::output(&args.output, e))?;
                    written += 1;
                }
                None => {
                    damaged = true;
                    let at = Location::record(record as u64).in_file(input);
                    summary(
                        global.quiet,
                        format!("error: {at}: side to move {} (1 Black, 2 White); skipped", solitaire.side_to_move),
                    );
                }
            }
        }
    }
    out.finish(&args.output)?;
    summary(global.quiet, format!("{}: {}", args.output.display(), counted(written, "position")));
    Ok(if damaged { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn filter(options: &ConvertOptions) -> Result<GameFilter, CliError> {
    let years =
        match options.years.as_deref() {
            None => None,
            Some(text) => Some(GameFilter::parse_years(text).ok_or_else(|| {
                CliError::Usage(format!("--years {text}: expected a year or a range such as 1990-2000"))
            })?),
        };
    Ok(GameFilter {
        years,
        players: options.players.clone(),
        tournaments: options.tournaments.clone(),
        exclude_programs: options.exclude_programs,
        lines: options.lines.clone(),
        positions: options.positions.clone(),
    })
}

/// Where the text exports write: one line a game, with what was written, skipped and lost.
struct Lines<'a> {
    out: Output,
    path: &'a Path,
    format: O,
    empties: u8,
    written: u64,
    skipped: u64,
    /// A game could not be written: the exit status must show it.
    damaged: bool,
}

impl<'a> Lines<'a> {
    /// The output of `args` in `format`, its CSV header written; OBF needs `--empties`.
    fn create<T: TextExport>(args: &'a ConvertArgs, format: O) -> Result<Lines<'a>, CliError> {
        if format == O::Obf && args.wthor.empties.is_none() {
            return Err(CliError::Usage("OBF output needs --empties N (the position at N empties)".into()));
        }
        let mut lines = Lines {
            out: Output::create(&args.output)?,
            path: &args.output,
            format,
            empties: args.wthor.empties.unwrap_or(0),
            written: 0,
            skipped: 0,
            damaged: false,
        };
        if format == O::Csv {
            writeln!(lines.out, "{}", T::CSV_HEADER).map_err(|e| CliError::output(lines.path, e))?;
        }
        Ok(lines)
    }

    /// Writes one game; a game that cannot be written is skipped with an error at `at`.
    /// `Ok(false)` when the reader closed the pipe (`head`): it has what it wants.
    fn write(&mut self, game: &impl TextExport, at: &dyn Fn() -> String, quiet: bool) -> Result<bool, CliError> {
        match game.line(self.format, self.empties) {
            Ok(Some(line)) => {
                match writeln!(self.out, "{line}") {
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(false),
                    other => other.map_err(|e| CliError::output(self.path, e))?,
                }
                self.written += 1;
            }
            Ok(None) => self.skipped += 1,
            Err(e) => self.lost(format!("error: {}: {e}; game skipped", at()), quiet),
        }
        Ok(true)
    }

    /// A game that could not be read or written.
    fn lost(&mut self, message: impl std::fmt::Display, quiet: bool) {
        self.skipped += 1;
        self.damaged = true;
        summary(quiet, message);
    }

    fn finish(self, read_errors: bool, quiet: bool) -> Result<ExitCode, CliError> {
        self.out.finish(self.path)?;
        summary(quiet, format!("{}: {} written, {} skipped", self.path.display(), self.written, self.skipped));
        Ok(if self.damaged || read_errors { ExitCode::from(1) } else { ExitCode::SUCCESS })
    }
}

/// Wthor games → transcripts, GGF, OBF, JSON Lines or CSV.
fn export(args: &ConvertArgs, global: &Global, to: O) -> Result<ExitCode, CliError> {
    let mut lines = Lines::create::<GameContext>(args, to)?;
    let damaged = each_game(args, global, |context, at| lines.write(context, at, global.quiet))?;
    match damaged {
        Some(damaged) => lines.finish(damaged, global.quiet),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Hands every game of the Wthor inputs that the filters keep, with its names, to `each`
/// (with where it is, for messages); `each` returns false to stop (the reader of the output
/// went away). `Some(true)` when reading found an error, `None` when `each` stopped.
pub fn each_game(
    args: &ConvertArgs,
    global: &Global,
    mut each: impl FnMut(&GameContext<'_>, &dyn Fn() -> String) -> Result<bool, CliError>,
) -> Result<Option<bool>, CliError> {
    let filter = filter(&args.wthor)?;
    let names = load_names(dir_of(&args.inputs[0]), args.names.as_deref())?;
    let names_ref = names.as_ref().map(|(players, tournaments)| Names { players, tournaments });
    if names_ref.is_none() && filter.uses_names() {
        return Err(CliError::Usage("name filters need WTHOR.JOU/WTHOR.TRN beside the input or in --names".into()));
    }
    let mut damaged = false;
    for input in &args.inputs {
        let (file, errors) = read_wthor(input, global, GameFile::read)?;
        damaged |= errors;
        for (record, game) in file.games.iter().enumerate() {
            let context = GameContext {
                game,
                year: file.header.game_year,
                record,
                depth: file.header.effective_depth(),
                names: names_ref,
            };
            if !filter.matches(&context) {
                continue;
            }
            let at = || Location::at((16 + record * 68) as u64).in_file(input).with_record(record as u64).to_string();
            if !each(&context, &at)? {
                return Ok(None);
            }
        }
    }
    Ok(Some(damaged))
}

/// Text games (transcripts, GGF, JSON Lines, CSV) → transcripts, GGF, OBF, JSON Lines or
/// CSV, through the game model, after the game filters (GGF, JSON Lines and CSV records name
/// players, tournament and year; transcripts do not).
fn export_text(args: &ConvertArgs, global: &Global, from: O, to: O) -> Result<ExitCode, CliError> {
    let mut lines = Lines::create::<Game>(args, to)?;
    let finished = each_text_game(args, from, |game, at| match game {
        Ok(game) => lines.write(&game, &|| at.to_string(), global.quiet),
        Err(d) => {
            lines.lost(d, global.quiet);
            Ok(true)
        }
    })?;
    if finished { lines.finish(false, global.quiet) } else { Ok(ExitCode::SUCCESS) }
}

/// The games of the inputs (Wthor or text) that the filters keep, counted; the flag says
/// whether a game or file could not be read (named on stderr).
pub fn count_games(args: &ConvertArgs, global: &Global, from: O) -> Result<(u64, bool), CliError> {
    let mut kept = 0u64;
    if from == O::WthorGames {
        let damaged = each_game(args, global, |_, _| {
            kept += 1;
            Ok(true)
        })?;
        return Ok((kept, damaged.unwrap_or(false)));
    }
    let mut damaged = false;
    each_text_game(args, from, |game, _| {
        match game {
            Ok(_) => kept += 1,
            Err(d) => {
                damaged = true;
                summary(global.quiet, d);
            }
        }
        Ok(true)
    })?;
    Ok((kept, damaged))
}

/// Hands every game of the text inputs that the filters keep to `each`, with where it is, and
/// every game that cannot be read as its diagnostic (located in its file); `each` returns false
/// to stop (the reader of the output went away). False when `each` stopped.
pub fn each_text_game(
    args: &ConvertArgs,
    from: O,
    mut each: impl FnMut(Result<Game, Diagnostic>, &Location) -> Result<bool, CliError>,
) -> Result<bool, CliError> {
    let filter = filter(&args.wthor)?;
    for input in &args.inputs {
        let data = read(input)?;
        let text = text::decode(&data);
        let games = text::read_games(from, &text).ok_or_else(|| CliError::unsupported(format!("games from {from}")))?;
        for (at, game) in games {
            let at = at.in_file(input);
            let game = match game {
                Ok(game) if !filter.keeps_game(&game) => continue,
                other => other.map_err(|d| d.in_file(input)),
            };
            if !each(game, &at)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// A file of a set, written but not yet in place.
fn staged(path: &Path, bytes: &[u8]) -> Result<AtomicFile, CliError> {
    AtomicFile::with_bytes(path, bytes).map_err(|e| CliError::output(path, e))
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Text games (transcripts, GGF, JSON Lines, CSV) → a new `.wtb`, names appended to copies of
/// the name files.
fn import(args: &ConvertArgs, global: &Global, from: O) -> Result<ExitCode, CliError> {
    let mut solver =
        (args.wthor.theoretical == Some(Theoretical::Solve)).then(super::solve::theoretical_solver).transpose()?;
    let policy = match (args.wthor.theoretical, solver.as_mut()) {
        (Some(Theoretical::CopyReal), _) => TheoreticalPolicy::CopyReal,
        (Some(Theoretical::Unknown), _) => TheoreticalPolicy::Unknown,
        (Some(Theoretical::Solve), Some(solver)) => TheoreticalPolicy::Solve(solver),
        _ => {
            return Err(CliError::Usage(
                "choose how to fill theoretical scores: --theoretical solve (exact, at 24 empties), \
                 copy-real (copy the real score) or unknown (store 0)"
                    .into(),
            ));
        }
    };
    let out_dir = dir_of(&args.output);
    Output::require_file(&args.output, "a Wthor game file with its name files")?;
    // Locked before the name files are read, so that a second import waits and adds to ours.
    let transaction = wthor::begin_write(out_dir).map_err(|e| CliError::output(out_dir, e))?;
    let source = load_names(out_dir, args.names.as_deref())?;
    let (players, tournaments) = match source {
        Some((p, t)) => (p, t),
        None => (
            NameFile::with_unknown_entry(NameKind::Players, Header::today()),
            NameFile::with_unknown_entry(NameKind::Tournaments, Header::today()),
        ),
    };
    let (old_players, old_tournaments) = (players.len(), tournaments.len());
    let mut importer = Importer::new(
        GameFile::new(
            Header::today(),
            wthor::year_in_file_name(&args.output).unwrap_or_else(|| Header::today().date().0),
        ),
        players,
        tournaments,
        policy,
    );
    let (mut added, mut skipped) = (0u64, 0u64);
    each_text_game(args, from, |game, at| {
        let stored = game
            .map_err(|d| format!("{}: {}", d.location, d.message))
            .and_then(|game| importer.add(&NewGame::from_game(&game)).map_err(|e| format!("{at}: {e}")));
        match stored {
            Ok(_) => added += 1,
            Err(e) => {
                skipped += 1;
                summary(global.quiet, format!("warning: {e}; skipped"));
            }
        }
        Ok(true)
    })?;
    // Name files and game file in one commit: the game file's indices always resolve.
    let copying = args.names.as_deref().is_some_and(|dir| !same_dir(dir, out_dir));
    let mut files = Vec::new();
    for (file, old) in [(&importer.players, old_players), (&importer.tournaments, old_tournaments)] {
        if copying || file.len() > old || !out_dir.join(file.kind.file_name()).exists() {
            let path = out_dir.join(file.kind.file_name());
            let mut file = file.clone();
            if file.len() > old {
                file.header = Header::today();
            }
            output::permit(&path, true)?;
            files.push(staged(&path, &file.to_bytes())?);
        }
    }
    files.push(staged(&args.output, &importer.games.to_bytes())?);
    transaction.commit(files).map_err(|e| CliError::output(&args.output, e))?;
    summary(
        global.quiet,
        format!(
            "{}: {added} games, {skipped} skipped; {} new players, {} new tournaments",
            args.output.display(),
            importer.players.len() - old_players,
            importer.tournaments.len() - old_tournaments
        ),
    );
    if args.wthor.theoretical == Some(Theoretical::Unknown) {
        summary(global.quiet, "theoretical scores of games that reach 24 empties are 0 (not computed)");
    }
    Ok(ExitCode::SUCCESS)
}

/// The options the Othello formats take: the name files' directory wherever Wthor games are
/// read or written; the game filters when Wthor games are exported or copied (`.wtb`/`.wtd` to
/// their own kind) and when GGF, JSON Lines or CSV games (which name players, place and date)
/// are converted; `--empties` for OBF positions and solitaires; the theoretical-score rule
/// when games are imported into a `.wtb`; `--deep` when `.wtb` games are verified.
pub fn takes(part: super::Part) -> &'static [&'static str] {
    use super::Role;
    const FILTERS: &[&str] = &["names", "years", "players", "tournaments", "exclude_programs"];
    const EXPORT_OBF: &[&str] = &["names", "years", "players", "tournaments", "exclude_programs", "empties"];
    const TEXT_FILTERS: &[&str] = &["years", "players", "tournaments", "exclude_programs"];
    const TEXT_OBF: &[&str] = &["years", "players", "tournaments", "exclude_programs", "empties"];
    let Format::Othello(format) = part.format else { return &[] };
    let other = match part.other {
        Some(Format::Othello(other)) => Some(other),
        _ => None,
    };
    match (part.role, format, other) {
        (Role::Info | Role::Verify, O::WthorGames10, _) | (Role::Info, O::WthorGames, _) => &["names"],
        (Role::Verify, O::WthorGames, _) => &["names", "deep"],
        (Role::Read, O::WthorGames, Some(O::Obf)) => EXPORT_OBF,
        (Role::Read, O::WthorGames, Some(O::WthorSolitaires)) => &["empties"],
        (Role::Read, O::WthorGames, Some(O::Transcript | O::Ggf | O::JsonLines | O::Csv | O::WthorGames)) => FILTERS,
        (Role::Read, O::WthorGames10, Some(O::WthorGames10)) => FILTERS,
        (Role::Read, O::Ggf | O::JsonLines | O::Csv, Some(O::Obf)) => TEXT_OBF,
        (Role::Read, O::Ggf | O::JsonLines | O::Csv, Some(O::Transcript | O::Ggf | O::JsonLines | O::Csv)) => {
            TEXT_FILTERS
        }
        (Role::Read, O::Transcript, Some(O::Obf)) => &["empties"],
        (Role::Write, O::WthorGames, Some(O::Transcript | O::Ggf | O::JsonLines | O::Csv)) => &["names", "theoretical"],
        _ => &[],
    }
}
