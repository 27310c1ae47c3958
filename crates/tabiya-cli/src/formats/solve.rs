//! `tabiya solve`: exact Othello endgame scores for positions and OBF files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::registry::Format;
use tabiya_othello::solve::{CachedSolver, Goal, SolitaireSolver, Solved, Solver, find_solitaires};
use tabiya_othello::text::obf::{self, ObfLine};
use tabiya_othello::wthor::{self, GameFile, Header, SolitaireFile};

use crate::args::{ConvertArgs, Global};
use crate::report::{CliError, Unit, progress, summary};

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct SolveOptions {
    /// An OBF position ("<64 squares X/O/-> <side X/O>", quoted) or an OBF file (one position a line;
    /// `-` reads standard input).
    #[arg(value_name = "POSITION|FILE.obf", allow_hyphen_values = true)]
    pub target: Option<String>,
    /// One JSON object per position (JSON Lines).
    #[arg(long = "json")]
    pub solve_json: bool,
    /// Search threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Only win, draw or loss (score -1, 0, +1): faster than the exact score.
    #[arg(long)]
    pub wld: bool,
    /// Report every best move, not only the first found (a little more search).
    #[arg(long)]
    pub all_best: bool,
}

pub fn solve(options: &SolveOptions, global: &Global) -> Result<ExitCode, CliError> {
    let target =
        options.target.as_deref().ok_or_else(|| CliError::Usage("solve needs a POSITION or FILE.obf".into()))?;
    let lines = read_positions(target)?;
    let threads = options.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let goal = if options.wld { Goal::WinDrawLoss } else { Goal::Exact };
    let solver = Solver::new()
        .goal(goal)
        .all_best_moves(options.all_best)
        .threads(threads)
        .map_err(|e| CliError::Usage(format!("cannot start {threads} threads: {e}")))?;

    let bar = progress(Unit::Records, lines.len() as u64, global.quiet || lines.len() < 2, "solving");
    let mut stdout = std::io::stdout().lock();
    let (mut disagreements, mut total_nodes, mut total_seconds) = (0, 0u64, 0.0);
    for (number, line) in &lines {
        let solution = solver.solve(line.position.board);
        let solved = Solved::new(*number, line, &solution, goal);
        disagreements += usize::from(solved.agrees == Some(false));
        total_nodes += solved.nodes;
        total_seconds += solved.seconds;
        let text = if options.solve_json {
            serde_json::to_string(&solved).map_err(|e| CliError::output(Path::new("-"), e))?
        } else {
            solved.text()
        };
        bar.suspend(|| writeln!(stdout, "{text}")).map_err(|e| CliError::output(Path::new("-"), e))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    summary(
        global.quiet,
        format_args!(
            "{} position(s), {total_nodes} nodes in {total_seconds:.3} s ({:.0} nodes/s){}",
            lines.len(),
            total_nodes as f64 / total_seconds.max(1e-9),
            if disagreements > 0 {
                format!(", {disagreements} disagree with the listed scores")
            } else {
                String::new()
            }
        ),
    );
    Ok(if disagreements > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The OBF lines of a file, or the single position given on the command line (line 0).
fn read_positions(target: &str) -> Result<Vec<(u64, ObfLine)>, CliError> {
    let path = PathBuf::from(target);
    if target != "-" && !path.is_file() {
        // A name with an extension or a directory is a file that is not there, not a
        // position (an OBF position has neither a dot nor a slash).
        if path.extension().is_some() || target.contains(std::path::MAIN_SEPARATOR) {
            return Err(CliError::Input(format!("{target}: no such file")));
        }
        let line = obf::parse_line(target.trim(), 1).map_err(|e| {
            CliError::Usage(format!(
                "'{target}' is neither a file nor an OBF position: expected {} at byte {}",
                e.expected,
                e.location.offset.unwrap_or(0)
            ))
        })?;
        return Ok(vec![(0, line)]);
    }
    let bytes = tabiya_io::read_input(&path).map_err(|e| CliError::Input(format!("{target}: {e}")))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        CliError::Input(format!("{target}@{at:#x} (line {line}): not UTF-8 text"))
    })?;
    obf::parse(text)
        .map(|(number, line)| {
            line.map(|l| (number, l)).map_err(|mut e| {
                e.location.file = Some(path.clone());
                CliError::input(e)
            })
        })
        .collect()
}

/// The solver behind Wthor theoretical scores (`verify --deep`, writing `.wtb`): every core,
/// with a cache of solved positions.
pub fn theoretical_solver() -> Result<CachedSolver, CliError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let solver = Solver::new().threads(threads).map_err(|e| CliError::Usage(format!("cannot start threads: {e}")))?;
    Ok(CachedSolver::new(solver))
}

/// The solver of solitaires (`verify`, writing `.pzz`): every core.
pub fn solitaire_solver() -> Result<SolitaireSolver, CliError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    SolitaireSolver::new(threads).map_err(|e| CliError::Usage(format!("cannot start threads: {e}")))
}

/// `tabiya convert WTH_*.wtb -o SOLITAIRES_NN.pzz [--empties NN]`: the positions of the games
/// at NN empties where the side to move has exactly one move keeping its result.
pub fn converts(from: Format, to: Format) -> Option<super::Conversion> {
    (from == Format::Othello(tabiya_othello::Format::WthorGames)
        && to == Format::Othello(tabiya_othello::Format::WthorSolitaires))
    .then(|| -> super::Conversion { Box::new(write_solitaires) })
}

fn write_solitaires(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let from_name = wthor::number_in_file_name(&args.output).and_then(|n| u8::try_from(n).ok());
    let empties = args.wthor.empties.or(from_name).filter(|n| (1..=60).contains(n)).ok_or_else(|| {
        CliError::Usage("solitaires need --empties N (1..60), or an output named SOLITAIRES_N.pzz".into())
    })?;
    let (files, damaged) = super::wthor::read_all(args, global, GameFile::read)?;
    let solver = solitaire_solver()?;
    let games = files.iter().flat_map(|f| f.games.iter().map(move |g| (f.header.game_year, g)));
    let mut out = SolitaireFile::new(Header::today(), empties);
    out.solitaires = find_solitaires(&solver, games, empties);
    out.write(&args.output).map_err(|e| CliError::output(&args.output, e))?;
    let games: usize = files.iter().map(|f| f.games.len()).sum();
    summary(
        global.quiet,
        format!(
            "{}: {} solitaires at {empties} empties from {games} games",
            args.output.display(),
            out.solitaires.len()
        ),
    );
    Ok(if damaged { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
