//! Wthor (.wtb .wtd .pzz WTHOR.JOU WTHOR.TRN) and Othello text formats: info, verify, conversion.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;
use tabiya_io::{Codepage, Location, Warnings};

use crate::registry::Format;
use tabiya_othello::text::{ggf, obf, transcript};
use tabiya_othello::wthor::{
    self, GameContext, GameFile, GameFile10, GameFilter, GameStats, Header, Importer, NameFile, NameKind, Names,
    NewGame, SolitaireFile, TheoreticalPolicy, Verification,
};

use crate::args::*;
use crate::report::{CliError, InfoReport, Output, Severity, VerifyReport, progress, summary};

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

fn read(path: &Path) -> Result<tabiya_io::FileBytes, CliError> {
    tabiya_io::read_input(path).map_err(CliError::input)
}

fn input_error(path: &Path, e: impl Into<tabiya_io::DataError>) -> CliError {
    CliError::input(e.into().in_file(path))
}

fn header_fields(report: &mut InfoReport, h: &Header) {
    let (y, m, d) = h.date();
    report
        .header("created", format!("{y:04}-{m:02}-{d:02}"))
        .header("century_byte", h.century)
        .header("n1", h.n1)
        .header("n2", h.n2)
        .header("game_year", h.game_year)
        .header("p1_board_size", h.board_size)
        .header("p2_game_type", h.game_type)
        .header("p3_depth", h.depth)
        .header("reserved", h.reserved);
}

fn warnings_to_stderr(path: &Path, warnings: &Warnings, quiet: bool) {
    for w in warnings.iter() {
        summary(quiet, format!("warning: {}: {}", w.location.clone().in_file(path), w.message));
    }
}

/// The text of a text input: UTF-8, else Windows-1252 (older GGF files).
fn text_of(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => Codepage::Windows1252.decode(bytes).into_owned(),
    }
}

pub fn info(path: &Path, format: Format, args: &InfoArgs, global: &Global) -> Result<ExitCode, CliError> {
    let data = read(path)?;
    let mut report = InfoReport::new(path, format);
    let mut warnings = Warnings::default();
    match format {
        Format::Othello(tabiya_othello::Format::WthorGames) => {
            let file = GameFile::read(&data, &mut warnings).map_err(|e| input_error(path, e))?;
            header_fields(&mut report, &file.header);
            report.count("games", file.games.len());
        }
        Format::Othello(tabiya_othello::Format::WthorGames10) => {
            let file = GameFile10::read(&data, &mut warnings).map_err(|e| input_error(path, e))?;
            header_fields(&mut report, &file.header);
            report.count("games", file.games.len());
        }
        Format::Othello(tabiya_othello::Format::WthorSolitaires) => {
            let file = SolitaireFile::read(&data, &mut warnings).map_err(|e| input_error(path, e))?;
            header_fields(&mut report, &file.header);
            report.count("solitaires", file.solitaires.len()).count("empties", file.header.n2);
        }
        Format::Othello(tabiya_othello::Format::WthorPlayers)
        | Format::Othello(tabiya_othello::Format::WthorTournaments) => {
            let kind = if format == Format::Othello(tabiya_othello::Format::WthorPlayers) {
                NameKind::Players
            } else {
                NameKind::Tournaments
            };
            let file = NameFile::read(kind, &data, &mut warnings).map_err(|e| input_error(path, e))?;
            header_fields(&mut report, &file.header);
            report.count("names", file.len());
        }
        Format::Othello(tabiya_othello::Format::Transcript) => {
            let text = text_of(&data);
            let (mut games, mut errors) = (0u64, 0u64);
            for (_, game) in transcript::parse(&text) {
                if game.is_ok() { games += 1 } else { errors += 1 }
            }
            report.count("games", games).count("unreadable_lines", errors);
        }
        Format::Othello(tabiya_othello::Format::Ggf) => {
            let text = text_of(&data);
            let (mut games, mut errors) = (0u64, 0u64);
            for game in ggf::parse(&text) {
                if game.is_ok() { games += 1 } else { errors += 1 }
            }
            report.count("games", games).count("unreadable_games", errors);
        }
        _ => {
            let text = text_of(&data);
            let (mut positions, mut errors) = (0u64, 0u64);
            for (_, line) in obf::parse(&text) {
                if line.is_ok() { positions += 1 } else { errors += 1 }
            }
            report.count("positions", positions).count("unreadable_lines", errors);
        }
    }
    report.count("warnings", warnings.len());
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    warnings_to_stderr(path, &warnings, global.quiet);
    Ok(ExitCode::SUCCESS)
}

/// The directory a file is in (`.` for a bare file name).
fn dir_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// The name files in `--names DIR`, else in `dir`; `None` when there are none.
fn load_names(dir: &Path, names_dir: Option<&Path>) -> Result<Option<(NameFile, NameFile)>, CliError> {
    let dir = names_dir.unwrap_or(dir);
    let Some((jou, trn)) = wthor::name_files_in(dir) else {
        if names_dir.is_some() {
            return Err(CliError::Input(format!("{}: no WTHOR.JOU and WTHOR.TRN here", dir.display())));
        }
        return Ok(None);
    };
    let load = |kind, p: &Path| -> Result<NameFile, CliError> {
        let mut warnings = Warnings::default();
        let data = read(p)?;
        NameFile::read(kind, &data, &mut warnings).map_err(|e| input_error(p, e))
    };
    Ok(Some((load(NameKind::Players, &jou)?, load(NameKind::Tournaments, &trn)?)))
}

fn add_verification(report: &mut VerifyReport, v: &Verification) {
    for p in &v.problems {
        report.problem(p.severity, &p.location, p.what.clone());
    }
}

fn add_stats(report: &mut VerifyReport, stats: &GameStats) {
    if let Ok(Value::Object(map)) = serde_json::to_value(stats) {
        for (k, v) in map {
            report.checked(&k, v);
        }
    }
}

fn no_names_warning(report: &mut VerifyReport, path: &Path) {
    report.problem(
        Severity::Warning,
        path.display(),
        "no WTHOR.JOU/WTHOR.TRN beside the file or in --names: name indices not checked",
    );
}

pub fn verify(path: &Path, format: Format, args: &VerifyArgs, global: &Global) -> Result<ExitCode, CliError> {
    let data = read(path)?;
    let mut report = VerifyReport::new(path, format);
    match format {
        Format::Othello(tabiya_othello::Format::WthorGames) => {
            let names = load_names(dir_of(path), args.names.as_deref())?;
            let names_ref = names.as_ref().map(|(players, tournaments)| Names { players, tournaments });
            if names_ref.is_none() {
                no_names_warning(&mut report, path);
            }
            let mut deep = args.deep.then(super::solve::theoretical_solver).transpose()?;
            let solver = deep.as_mut().map(|s| s as &mut dyn wthor::EndgameSolver);
            let v = wthor::verify_games(path, &data, names_ref, solver);
            add_verification(&mut report, &v);
            add_stats(&mut report, &v.stats);
            if let Some(solver) = &deep {
                super::solve::report_solver(&mut report, solver);
            }
        }
        Format::Othello(tabiya_othello::Format::WthorGames10) => {
            let v = wthor::verify_games_10(path, &data);
            add_verification(&mut report, &v);
            report.checked("games", v.stats.games);
        }
        _ => {
            let mut warnings = Warnings::default();
            let count = match format {
                Format::Othello(tabiya_othello::Format::WthorSolitaires) => {
                    let file = SolitaireFile::read(&data, &mut warnings).map_err(|e| input_error(path, e))?;
                    super::solve::check_solitaires(path, &file, &mut report, global)?;
                    file.solitaires.len()
                }
                Format::Othello(tabiya_othello::Format::WthorPlayers) => {
                    NameFile::read(NameKind::Players, &data, &mut warnings).map_err(|e| input_error(path, e))?.len()
                }
                _ => {
                    NameFile::read(NameKind::Tournaments, &data, &mut warnings).map_err(|e| input_error(path, e))?.len()
                }
            };
            report.checked("records", count);
            for w in warnings.iter() {
                // Sizes and counts that disagree mean damage; the rest are deviations.
                let severity = if w.location.offset.unwrap_or(0) == 4 { Severity::Error } else { Severity::Warning };
                report.problem(severity, w.location.clone().in_file(path), w.message.clone());
            }
        }
    }
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    summary(
        global.quiet || args.json,
        format!("{}: {}", path.display(), if report.ok { "ok" } else { "problems found" }),
    );
    Ok(report.exit_code())
}

/// `tabiya verify DIR`: every `.wtb` file of a directory against the directory's name files,
/// in parallel, and the other Wthor files one by one.
pub fn verify_dir(path: &Path, args: &VerifyArgs, global: &Global) -> Result<ExitCode, CliError> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    entries.sort();
    let is_wtb = |p: &PathBuf| p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
    let games: Vec<PathBuf> = entries.iter().filter(|p| is_wtb(p)).cloned().collect();
    let mut report = VerifyReport::new(path, Format::Othello(tabiya_othello::Format::WthorGames));
    let names = load_names(path, args.names.as_deref())?;
    let names_ref = names.as_ref().map(|(players, tournaments)| Names { players, tournaments });
    if names_ref.is_none() {
        no_names_warning(&mut report, path);
    }
    let bar = progress(0, global.quiet, "verifying");
    bar.tick();
    let mut total = GameStats::default();
    for result in wthor::verify_game_files(&games, names_ref) {
        let v = result.map_err(CliError::input)?;
        add_verification(&mut report, &v);
        total += v.stats;
    }
    bar.finish_and_clear();
    report.checked("files", games.len());
    add_stats(&mut report, &total);
    for other in entries.iter().filter(|p| !is_wtb(p)) {
        let Some(format) = tabiya_io::Head::read(other).ok().and_then(|h| Format::sniff(&h)) else { continue };
        if matches!(
            format,
            Format::Othello(tabiya_othello::Format::WthorGames10)
                | Format::Othello(tabiya_othello::Format::WthorSolitaires)
        ) {
            let data = read(other)?;
            let mut warnings = Warnings::default();
            if format == Format::Othello(tabiya_othello::Format::WthorGames10) {
                add_verification(&mut report, &wthor::verify_games_10(other, &data));
            } else if let Err(e) = SolitaireFile::read(&data, &mut warnings) {
                report.problem(Severity::Error, e.location.in_file(other), format!("expected {}", e.expected));
            }
        }
    }
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(report.exit_code())
}

pub fn convert(args: &ConvertArgs, global: &Global, from: Format, to: Format) -> Option<Result<ExitCode, CliError>> {
    let text_out = matches!(
        to,
        Format::Othello(tabiya_othello::Format::Transcript)
            | Format::Othello(tabiya_othello::Format::Ggf)
            | Format::Othello(tabiya_othello::Format::Obf)
            | Format::Othello(tabiya_othello::Format::JsonLines)
            | Format::Othello(tabiya_othello::Format::Csv)
    );
    match (from, to) {
        (Format::Othello(tabiya_othello::Format::WthorGames), _) if text_out => Some(export(args, global, to)),
        (
            Format::Othello(tabiya_othello::Format::Transcript) | Format::Othello(tabiya_othello::Format::Ggf),
            Format::Othello(tabiya_othello::Format::WthorGames),
        ) => Some(import(args, global, from)),
        _ => None,
    }
}

fn filter(options: &ConvertOptions) -> Result<GameFilter, CliError> {
    let years = match options.years.as_deref() {
        None => None,
        Some(text) => {
            let bad = || CliError::Usage(format!("--years {text}: expected a year or a range such as 1990-2000"));
            let (a, b) = text.split_once('-').unwrap_or((text, text));
            Some(a.trim().parse::<u16>().map_err(|_| bad())?..=b.trim().parse::<u16>().map_err(|_| bad())?)
        }
    };
    Ok(GameFilter {
        years,
        players: options.players.clone(),
        tournaments: options.tournaments.clone(),
        exclude_programs: options.exclude_programs,
    })
}

/// Wthor games → transcripts, GGF, OBF, JSON Lines or CSV.
fn export(args: &ConvertArgs, global: &Global, to: Format) -> Result<ExitCode, CliError> {
    let options = &args.wthor;
    let filter = filter(options)?;
    let empties = match (to, options.empties) {
        (Format::Othello(tabiya_othello::Format::Obf), None) => {
            return Err(CliError::Usage("OBF output needs --empties N (the position at N empties)".into()));
        }
        (_, e) => e,
    };
    let names = load_names(dir_of(&args.inputs[0]), args.names.as_deref())?;
    let names_ref = names.as_ref().map(|(players, tournaments)| Names { players, tournaments });
    if names_ref.is_none() && (!filter.players.is_empty() || !filter.tournaments.is_empty() || filter.exclude_programs)
    {
        return Err(CliError::Usage("name filters need WTHOR.JOU/WTHOR.TRN beside the input or in --names".into()));
    }
    let mut out = Output::create(&args.output)?;
    let write_err = |e: std::io::Error| CliError::output(&args.output, e);
    if to == Format::Othello(tabiya_othello::Format::Csv) {
        writeln!(out, "{}", GameContext::CSV_HEADER).map_err(write_err)?;
    }
    let (mut written, mut skipped) = (0u64, 0u64);
    let mut line = String::new();
    for input in &args.inputs {
        let data = read(input)?;
        let mut warnings = Warnings::default();
        let file = GameFile::read(&data, &mut warnings).map_err(|e| input_error(input, e))?;
        warnings_to_stderr(input, &warnings, global.quiet);
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
            let result = match to {
                Format::Othello(tabiya_othello::Format::Transcript) => context.transcript().map(Some),
                Format::Othello(tabiya_othello::Format::Ggf) => context.ggf().map(|g| Some(g.format())),
                Format::Othello(tabiya_othello::Format::Obf) => context.obf_at(empties.unwrap_or(0)),
                Format::Othello(tabiya_othello::Format::JsonLines) => context.json().map(|j| Some(j.to_string())),
                _ => context.csv_row().map(Some),
            };
            match result {
                Ok(Some(text)) => {
                    line.clear();
                    line.push_str(&text);
                    line.push('\n');
                    match out.write_all(line.as_bytes()) {
                        // A reader such as `head` closed the pipe: it has what it wants.
                        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
                        other => other.map_err(write_err)?,
                    }
                    written += 1;
                }
                Ok(None) => skipped += 1,
                Err(e) => {
                    skipped += 1;
                    let at = Location::at((16 + record * 68) as u64).in_file(input).with_record(record as u64);
                    summary(global.quiet, format!("warning: {at}: {e}; game skipped"));
                }
            }
        }
    }
    out.finish(&args.output)?;
    summary(global.quiet, format!("{}: {written} written, {skipped} skipped", args.output.display()));
    Ok(ExitCode::SUCCESS)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Transcripts or GGF → a new `.wtb`, names appended to copies of the name files.
fn import(args: &ConvertArgs, global: &Global, from: Format) -> Result<ExitCode, CliError> {
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
    let source = load_names(out_dir, args.names.as_deref())?;
    let (players, tournaments) = match source {
        Some((p, t)) => (p, t),
        None => {
            let today = Header::today();
            let mut players = NameFile::new(NameKind::Players, today);
            let mut tournaments = NameFile::new(NameKind::Tournaments, today);
            players.append("???").map_err(CliError::input)?;
            tournaments.append("Diverses parties").map_err(CliError::input)?;
            (players, tournaments)
        }
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
    for input in &args.inputs {
        let text = text_of(&read(input)?);
        // Each game with where it is (`file game N` / `file line N`); errors are full messages.
        let mut games: Vec<(String, Result<NewGame, String>)> = Vec::new();
        let located = |e: tabiya_othello::text::TextError| {
            format!("{}: expected {}, found {:?}", e.location.in_file(input), e.expected, e.found)
        };
        if from == Format::Othello(tabiya_othello::Format::Ggf) {
            for (n, game) in ggf::parse(&text).enumerate() {
                let at = format!("{} game {}", input.display(), n + 1);
                let new = game.map_err(located).and_then(|g| NewGame::from_ggf(&g).map_err(|e| format!("{at}: {e}")));
                games.push((at, new));
            }
        } else {
            for (line, moves) in transcript::parse(&text) {
                let new = moves.map(|moves| NewGame { moves, ..NewGame::default() }).map_err(located);
                games.push((format!("{} line {line}", input.display()), new));
            }
        }
        for (at, game) in games {
            match game.and_then(|g| importer.add(&g).map_err(|e| format!("{at}: {e}"))) {
                Ok(_) => added += 1,
                Err(e) => {
                    skipped += 1;
                    summary(global.quiet, format!("warning: {e}; skipped"));
                }
            }
        }
    }
    // Name files first: the game file's indices must always resolve.
    let copying = args.names.as_deref().is_some_and(|dir| !same_dir(dir, out_dir));
    for (file, old) in [(&importer.players, old_players), (&importer.tournaments, old_tournaments)] {
        if copying || file.len() > old || !out_dir.join(file.kind.file_name()).exists() {
            let path = out_dir.join(file.kind.file_name());
            let mut file = file.clone();
            if file.len() > old {
                file.header = Header::today();
            }
            file.write(&path).map_err(|e| CliError::output(&path, e))?;
        }
    }
    importer.games.write(&args.output).map_err(|e| CliError::output(&args.output, e))?;
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
/// read or written, the game filters and `--empties` when Wthor games are exported, the
/// theoretical-score rule when a `.wtb` is written, `--empties` for solitaires, `--deep` when Wthor games are verified.
pub fn takes(part: super::Part) -> &'static [&'static str] {
    use super::Role;
    use tabiya_othello::Format as O;
    const EXPORT: &[&str] = &["names", "years", "players", "tournaments", "exclude_programs"];
    const EXPORT_OBF: &[&str] = &["names", "years", "players", "tournaments", "exclude_programs", "empties"];
    let Format::Othello(format) = part.format else { return &[] };
    match (part.role, format, part.other) {
        (Role::Info, O::WthorGames, _) => &["names"],
        (Role::Verify, O::WthorGames, _) => &["names", "deep"],
        (Role::Read, O::WthorGames, Some(Format::Othello(O::Obf))) => EXPORT_OBF,
        (Role::Read, O::WthorGames, Some(Format::Othello(O::WthorSolitaires))) => &["empties"],
        (Role::Read, O::WthorGames, Some(Format::Othello(O::Transcript | O::Ggf | O::JsonLines | O::Csv))) => EXPORT,
        (Role::Write, O::WthorGames, _) => &["names", "theoretical"],
        _ => &[],
    }
}
