//! Position trees: `tabiya tree` builds one from chess games or Wthor games; `convert` merges
//! trees, dumps a chess tree as JSON Lines or makes a Polyglot book of it; `info`, `verify`
//! and `probe` go through the library's `BookFile` like every book (an Othello tree through
//! `tabiya_othello::tree`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tabiya_chess::games::Source;
use tabiya_chess::games::select::{Duplicates, Rules, removal_diagnostic};
use tabiya_chess::polyglot::{self, EntryRun};
use tabiya_chess::tree::{self, Tree, TreeBuilder};
use tabiya_othello::tree::Tree as OthelloTree;

use super::pgn::Printer;
use crate::args::{ConvertArgs, Global, InfoArgs, ProbeArgs, TreeArgs, VerifyArgs};
use crate::registry::Format;
use crate::report::{CliError, Output, counted, print, print_info, summary, verdict};

const FORMAT: Format = Format::Chess(tabiya_chess::Format::Tree);

/// The options of `tabiya tree`.
#[derive(Debug, clap::Args)]
#[group(skip)]
pub struct TreeOptions {
    /// Count the moves of the first N plies of each game (default: every move).
    #[arg(long, value_name = "PLIES")]
    pub max_ply: Option<u32>,
    /// Memory for counting before sorted runs are spilled to disk beside the output (K, M, G).
    #[arg(long, default_value = "1G", value_parser = parse_size)]
    pub memory: u64,
    /// Othello: each move of a position with at most N empty squares gets its exact score
    /// from the endgame solver.
    #[arg(long, value_name = "N", default_value_t = tabiya_othello::tree::build::SOLVE_EMPTIES)]
    pub solve_empties: u32,
}

/// `1G`, `512M`, `64K` or a number of bytes.
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("{text:?}: a size is a number with K, M, G or T")),
    };
    let n: u64 = digits.parse().map_err(|_| format!("{text:?}: a size is a number with K, M, G or T"))?;
    n.checked_mul(1 << shift).filter(|&n| n > 0).ok_or_else(|| format!("{text:?}: out of range"))
}

fn open(path: &Path) -> Result<Tree, CliError> {
    Tree::open(path).map_err(CliError::input)
}

fn open_othello(path: &Path) -> Result<OthelloTree, CliError> {
    OthelloTree::open(path).map_err(CliError::input)
}

/// True when `path` is a tree of Othello positions.
fn is_othello(path: &Path) -> bool {
    tabiya_io::tree::game_of(path) == Some(tabiya_othello::tree::GAME)
}

pub fn info(path: &Path, args: &InfoArgs, _global: &Global) -> Result<ExitCode, CliError> {
    if is_othello(path) {
        let mut info = open_othello(path)?.info();
        info.path = path.to_path_buf();
        return print_info(&info, args.json);
    }
    super::books::info(path, args, tabiya_chess::Format::Tree)
}

pub fn verify(path: &Path, args: &VerifyArgs, _global: &Global) -> Result<ExitCode, CliError> {
    if is_othello(path) {
        let verification = open_othello(path)?.verify();
        print(&verification, args.json)?;
        return Ok(verdict(&verification));
    }
    super::books::verify(path, args, tabiya_chess::Format::Tree)
}

pub fn probe(path: &Path, args: &ProbeArgs, global: &Global) -> Result<ExitCode, CliError> {
    if is_othello(path) {
        let position = othello_position(args)?;
        print(&open_othello(path)?.probe(&position).map_err(CliError::input)?, args.json)?;
        return Ok(ExitCode::SUCCESS);
    }
    super::books::probe(path, args, global, tabiya_chess::Format::Tree)
}

/// The Othello position of `--moves f5 d6 …` from the start, forced passes put in.
fn othello_position(args: &ProbeArgs) -> Result<tabiya_othello::board::Position, CliError> {
    if args.fen.is_some() {
        return Err(CliError::Usage("an Othello tree is probed with --moves (squares from the start, f5 d6 …)".into()));
    }
    let mut position = tabiya_othello::board::Position::start();
    for token in args.moves.as_deref().unwrap_or_default().split_whitespace() {
        let square: tabiya_othello::board::Square =
            token.parse().map_err(|e: tabiya_othello::board::ParseSquareError| CliError::Usage(e.0))?;
        position = position
            .play_after_forced_pass(square)
            .map_err(|_| CliError::Usage(format!("{token} is not a legal move here")))?;
    }
    Ok(position)
}

/// `tabiya tree GAMES... -o TREE`: exit 1 when a game was left out (unreadable, Chess960, an
/// illegal start position) or cut at an illegal move, each named on standard error.
pub fn build(args: &TreeArgs, global: &Global) -> Result<ExitCode, CliError> {
    let mut sources = Vec::with_capacity(args.inputs.len());
    let mut othello = 0;
    for input in &args.inputs {
        let (path, format) = super::input_format(input, None)?;
        match format {
            Format::Chess(f) if f.holds_games() || f == tabiya_chess::Format::JsonLines => {}
            Format::Othello(tabiya_othello::Format::WthorGames) => othello += 1,
            other => {
                return Err(CliError::Usage(format!(
                    "{}: a tree is built from chess games or Wthor games (.wtb), not {other}",
                    path.display()
                )));
            }
        }
        sources.push(path);
    }
    if othello > 0 && othello < sources.len() {
        return Err(CliError::Usage(
            "a tree holds the positions of one game: chess or Othello inputs, not both".into(),
        ));
    }
    let temp_dir = match args.output.parent() {
        Some(dir) if args.output.as_os_str() != "-" && !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ if args.output.as_os_str() != "-" => PathBuf::from("."),
        _ => std::env::temp_dir(),
    };
    let filtered = super::select::given_filters(&global.given).next().is_some();
    if othello > 0 && filtered {
        return Err(CliError::Usage("select's filters apply to chess games in `tree`, not to Wthor games".into()));
    }
    if othello > 0 {
        return build_othello(args, global, &sources, temp_dir);
    }
    if global.given.iter().any(|id| id == "solve_empties") {
        return Err(CliError::Usage("--solve-empties applies to Othello trees (Wthor inputs), not chess".into()));
    }
    let options = tree::TreeOptions { max_ply: args.tree.max_ply, memory: args.tree.memory, temp_dir };
    let spill_error = |e| CliError::output(&options.temp_dir, e);
    let mut builder = TreeBuilder::new(options.clone()).map_err(spill_error)?;
    let names: Vec<String> = args.inputs.iter().map(|input| input.display().to_string()).collect();
    let mut printer = Printer::new(global.quiet);
    if filtered {
        add_selected(&mut builder, args, &sources, &names, &mut printer)?;
    } else {
        for (path, name) in sources.iter().zip(&names) {
            let source = Source::open(path).map_err(CliError::input)?;
            builder.add_source(&source, name).map_err(spill_error)?;
        }
    }
    let out = Output::create(&args.output)?;
    let (out, footer, done) = builder.finish(out).map_err(|e| CliError::output(&args.output, e))?;
    out.finish(&args.output)?;
    if !global.quiet {
        for problem in &done.problems {
            eprintln!("tabiya: {problem}");
        }
    }
    summary(
        global.quiet,
        format_args!(
            "{} counted ({} cut at an illegal move; {} Chess960, {} with an illegal start, {} unreadable left out), {}, {}, {} spilled",
            counted(done.games_added, "game"),
            done.games_cut,
            done.games_chess960,
            done.games_invalid_start,
            done.games_unreadable,
            counted(footer.positions, "position"),
            counted(footer.moves, "move"),
            counted(done.runs, "run"),
        ),
    );
    let lost = done.games_left_out() + done.games_cut;
    Ok(if lost > 0 || printer.errors > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Counts the games of `sources` that `select`'s filters keep, minus repeated games
/// (`--dedup`), as `select` reads them: what reading found goes to `printer`.
fn add_selected(
    builder: &mut TreeBuilder,
    args: &TreeArgs,
    sources: &[PathBuf],
    names: &[String],
    printer: &mut Printer,
) -> Result<(), CliError> {
    if args.select.twins || args.select.contained {
        return Err(CliError::Usage(
            "--twins and --contained hold every game to the end, beyond --memory: `select` the games first".into(),
        ));
    }
    let selection = super::select::selection(&args.select)?;
    let mut duplicates = Duplicates::new(Rules { dedup: args.select.dedup, twins: false, contained: false });
    let (mut read, mut selected) = (0, 0);
    for (n, (path, name)) in sources.iter().zip(names).enumerate() {
        let source = Source::open(path).map_err(CliError::input)?;
        let done =
            builder.add_selected(&source, n, name, &selection, &mut duplicates, printer).map_err(CliError::input)?;
        (read, selected) = (read + done.read, selected + done.selected);
    }
    // No rule that holds games is on: every game kept was counted, only removals are left.
    let (_, removed) = duplicates.finish();
    for removal in &removed {
        summary(printer.quiet, removal_diagnostic(removal, &args.inputs));
    }
    summary(printer.quiet, format_args!("{selected} of {read} games kept by the filters"));
    Ok(())
}

/// `tabiya tree WTH_*.wtb -o TREE`: the name files beside each input name the players.
fn build_othello(
    args: &TreeArgs,
    global: &Global,
    sources: &[PathBuf],
    temp_dir: PathBuf,
) -> Result<ExitCode, CliError> {
    use tabiya_othello::tree::{TreeBuilder as OthelloBuilder, TreeOptions as OthelloOptions};
    use tabiya_othello::wthor::{self, GameFile};

    let options = OthelloOptions {
        max_ply: args.tree.max_ply,
        memory: args.tree.memory,
        temp_dir,
        solve_empties: args.tree.solve_empties,
    };
    let spill_error = |e| CliError::output(&options.temp_dir, e);
    let mut builder = OthelloBuilder::new(options.clone()).map_err(spill_error)?;
    let mut damaged = 0;
    for (path, input) in sources.iter().zip(&args.inputs) {
        let bytes = tabiya_io::read_input(path).map_err(CliError::input)?;
        let mut found = Vec::new();
        let file =
            GameFile::read(&bytes, &mut found).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        damaged += found.iter().filter(|d| d.is_error()).count();
        if !global.quiet {
            found.iter().for_each(|d| eprintln!("{}", d.clone().in_file(path)));
        }
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let names = wthor::load_name_files(dir).map_err(CliError::input)?;
        let names = names.as_ref().map(|(players, tournaments)| (players, tournaments));
        builder.add_file(&file, &input.display().to_string(), names).map_err(spill_error)?;
    }
    let out = Output::create(&args.output)?;
    let (out, footer, done) = builder.finish(out).map_err(|e| CliError::output(&args.output, e))?;
    out.finish(&args.output)?;
    if !global.quiet {
        done.problems.iter().for_each(|problem| eprintln!("tabiya: {problem}"));
    }
    summary(
        global.quiet,
        format_args!(
            "{} counted ({} that do not replay left out), {}, {}, {} solved, {} spilled",
            counted(done.games_added, "game"),
            done.games_unreadable,
            counted(footer.positions, "position"),
            counted(footer.moves, "move"),
            counted(done.solved, "move"),
            counted(done.runs, "run"),
        ),
    );
    Ok(if done.games_unreadable > 0 || damaged > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

pub fn converts(from: Format, to: Format) -> Option<super::Conversion> {
    use tabiya_chess::Format as C;
    match (from, to) {
        (FORMAT, FORMAT) => Some(Box::new(merge)),
        (FORMAT, Format::Chess(C::JsonLines)) => Some(Box::new(dump)),
        (FORMAT, Format::Chess(C::Polyglot)) => Some(Box::new(to_polyglot)),
        (FORMAT, Format::Chess(C::Kvetka)) => Some(Box::new(refuse_kvetka)),
        _ => None,
    }
}

fn trees(args: &ConvertArgs) -> Result<Vec<Tree>, CliError> {
    args.inputs.iter().map(|input| open(input)).collect()
}

/// Trees merged in the order given: the same bytes as the tree of all their games.
fn merge(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let out = Output::create(&args.output)?;
    let out = if is_othello(&args.inputs[0]) {
        let trees = args.inputs.iter().map(|input| open_othello(input)).collect::<Result<Vec<_>, _>>()?;
        tabiya_othello::tree::merge_trees(&trees, out)
    } else {
        tree::merge_trees(&trees(args)?, out)
    };
    out.map_err(CliError::input)?.finish(&args.output)?;
    summary(global.quiet, format_args!("{} merged", counted(args.inputs.len() as u64, "tree")));
    Ok(ExitCode::SUCCESS)
}

/// Every position as a line of JSON.
fn dump(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let mut out = Output::create(&args.output)?;
    let mut written = 0;
    for tree in trees(args)? {
        written += tree.dump(&mut out).map_err(CliError::input)?;
    }
    out.finish(&args.output)?;
    summary(global.quiet, format_args!("{} written", counted(written, "position")));
    Ok(ExitCode::SUCCESS)
}

/// A Polyglot book with `make-book`'s rules (`--min-games`, `--min-score`, …) over the tree's
/// counts; several trees are merged first.
fn to_polyglot(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let make = args.book.make_options();
    let mut book: Option<tabiya_chess::book::Book> = None;
    for tree in trees(args)? {
        let this = tree.to_book().map_err(CliError::input)?;
        book = Some(match book {
            None => this,
            Some(earlier) => earlier.merge(this),
        });
    }
    let run = EntryRun::of_book(&book.unwrap_or_default(), &make);
    let mut out = Output::create(&args.output)?;
    polyglot::write_entries(&run.entries, &mut out).map_err(|e| CliError::output(&args.output, e))?;
    out.finish(&args.output)?;
    summary(
        global.quiet,
        format_args!(
            "{}, {}, {} written",
            counted(run.positions as u64, "position"),
            counted(run.moves as u64, "move"),
            counted(run.entries.len() as u64, "entry")
        ),
    );
    Ok(ExitCode::SUCCESS)
}

/// Why a tree cannot become a Kvetka book: an element's W/D/L counts each game that reached
/// its normalised position once, the game's last position included, where a tree counts the
/// moves played from each exact position (a repeated position as often as it was played, a
/// last position not at all); and its references name games by their place in a source,
/// which a tree keeps for its best-rated games only.
fn refuse_kvetka(_: &ConvertArgs, _: &Global) -> Result<ExitCode, CliError> {
    Err(CliError::Usage(
        "a tree cannot become a Kvetka book: a Kvetka element's wins/draws/losses count each game that \
         reached the position once (its last position included), a tree counts the moves played from it; \
         build the .kob from the games (tabiya book GAMES -o BOOK.kob)"
            .into(),
    ))
}

/// The options a tree takes: `make-book`'s weight rules when it becomes a Polyglot book.
pub fn takes(part: super::Part) -> &'static [&'static str] {
    use super::Role;
    match (part.role, part.other) {
        (Role::Read, Some(Format::Chess(tabiya_chess::Format::Polyglot))) => {
            &["min_games", "min_score", "only_white", "only_black", "uniform"]
        }
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("64KiB"), Ok(64 << 10));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("1X").is_err());
        assert!(parse_size("0").is_err());
    }
}
