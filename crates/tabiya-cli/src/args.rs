//! The command-line contract of design.md. Each format adds its own options through the
//! `*Options` structs of its file in `formats/`, flattened here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::formats::{books, ctg, kvetka, parquet, pgn, polyglot, scid, select, solve, tbase, tree, wthor};

#[derive(Debug, Parser)]
#[command(
    name = "tabiya",
    version,
    about = "Open, verify, convert, probe and build chess, Othello and shogi databases and books"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args)]
pub struct Global {
    /// No progress bars and no summary on stderr.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Replace an output that exists (without it, an existing output is refused: exit 2).
    #[arg(long, global = true)]
    pub force: bool,
    /// The clap ids of the options given on the command line (not defaulted), for the check
    /// that each applies to the formats at hand.
    #[arg(skip)]
    pub given: Vec<String>,
}

// Made once a run: the size of its largest variant (select's filters) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// What a file is: format, version, counts, header fields.
    Info(InfoArgs),
    /// Every conversion; formats from extensions or --from/--to.
    Convert(ConvertArgs),
    /// Book look-up: moves with statistics, weights, annotations.
    Probe(ProbeArgs),
    /// Build an opening book from games.
    Book(BookArgs),
    /// Integrity check; exit status 1 when problems are found.
    Verify(VerifyArgs),
    /// The games that match tags, ratings, dates, an opening line; without duplicates or twins.
    Select(SelectArgs),
    /// The position index of a SCID database (`DB.tpx` beside it), which `select --fen` searches.
    Index(IndexArgs),
    /// The explorer's position tree of games (mergeable: `convert a.tree b.tree -o ab.tree`).
    Tree(TreeArgs),
    /// Othello endgame solving (positions, OBF files).
    Solve(SolveArgs),
    /// The local web explorer: a board and one table per book or games file, with a JSON API.
    Serve(ServeArgs),
    /// Every format: names for --from/--to, extensions, and what each command does with it.
    Formats(FormatsArgs),
    /// Shell completions for bash, zsh, fish, elvish or PowerShell, on standard output.
    Completions(CompletionsArgs),
    /// A manual page (roff) on standard output: `tabiya man > tabiya.1`, `tabiya man convert > tabiya-convert.1`.
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (the whole program's when absent).
    pub command: Option<String>,
}

#[derive(Debug, Args)]
pub struct FormatsArgs {
    /// Print one JSON array.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The file, or a multi-file format by any of its files or its stem.
    pub path: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Input format, when the file name does not say it (a stream of a binary format).
    #[arg(long)]
    pub from: Option<String>,
    /// Directory with the name files (WTHOR.JOU/.TRN) when they are not beside the input.
    #[arg(long)]
    pub names: Option<PathBuf>,
}

#[derive(Debug, Default, Args)]
pub struct ConvertArgs {
    /// Input files (`-` is standard input).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output file (`-` is standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Input format, when the file name does not say it.
    #[arg(long)]
    pub from: Option<String>,
    /// Output format, when the file name does not say it.
    #[arg(long)]
    pub to: Option<String>,
    /// Directory with the name files (WTHOR.JOU/.TRN) when they are not beside the input.
    #[arg(long)]
    pub names: Option<PathBuf>,
    #[command(flatten)]
    pub games: pgn::GamesOptions,
    #[command(flatten)]
    pub pgn: pgn::ConvertOptions,
    #[command(flatten)]
    pub polyglot: polyglot::ConvertOptions,
    #[command(flatten)]
    pub scid: scid::ConvertOptions,
    #[command(flatten)]
    pub ctg: ctg::ConvertOptions,
    #[command(flatten)]
    pub kvetka: kvetka::ConvertOptions,
    #[command(flatten)]
    pub wthor: wthor::ConvertOptions,
    #[command(flatten)]
    pub tbase: tbase::ConvertOptions,
    /// `make-book`'s weight rules, for a tree made into a Polyglot book.
    #[command(flatten)]
    pub book: polyglot::BookOptions,
    #[command(flatten)]
    pub parquet: parquet::ConvertOptions,
}

#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The book (.bin, .ctg, .kob).
    pub book: PathBuf,
    /// The position to look up.
    #[arg(long, conflicts_with = "moves")]
    pub fen: Option<String>,
    /// Moves from the start position, SAN or UCI, e.g. "e4 c5".
    #[arg(long)]
    pub moves: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub ctg: ctg::ProbeOptions,
}

#[derive(Debug, Args)]
pub struct BookArgs {
    /// Game files (PGN, SCID).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The book to write (.bin Polyglot, .kob Kvetka).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Book format, when the file name does not say it.
    #[arg(long)]
    pub to: Option<String>,
    #[command(flatten)]
    pub books: books::BookOptions,
    #[command(flatten)]
    pub polyglot: polyglot::BookOptions,
    #[command(flatten)]
    pub kvetka: kvetka::BookOptions,
}

#[derive(Debug, Args)]
pub struct TreeArgs {
    /// Game files (PGN, SCID 3/4/5, JSON Lines), counted in this order.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The tree to write (`.tree`).
    #[arg(short, long)]
    pub output: PathBuf,
    #[command(flatten)]
    pub tree: tree::TreeOptions,
    /// `select`'s filters: only the games they keep are counted (chess games).
    #[command(flatten)]
    pub select: select::SelectOptions,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A file, a multi-file format by any of its files, or a directory.
    pub path: PathBuf,
    /// Checks that take long (e.g. solving Othello endgames).
    #[arg(long)]
    pub deep: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Input format, when the file name does not say it (a stream of a binary format).
    #[arg(long)]
    pub from: Option<String>,
    /// Directory with the name files (WTHOR.JOU/.TRN) when they are not beside the input.
    #[arg(long)]
    pub names: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Books (.bin, .ctg, .kob), trees, or games files (PGN, SCID, JSON Lines: counted in
    /// memory at start).
    #[arg(required = true)]
    pub sources: Vec<PathBuf>,
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8765)]
    pub port: u16,
    /// The address to listen on; only this machine by default.
    #[arg(long, default_value_t = crate::serve::loopback())]
    pub host: std::net::IpAddr,
    /// Allow a --host other than this machine's loopback.
    #[arg(long)]
    pub public: bool,
}

#[derive(Debug, Args)]
pub struct SelectArgs {
    /// Game files (PGN, JSON Lines, compressed or not; SCID) or directories of them (`-` is
    /// standard input).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Where the games go (.pgn, .jsonl, .si4, .si5; `.pgn.zst` compressed; `-` is standard output).
    #[arg(short, long, required_unless_present = "count")]
    pub output: Option<PathBuf>,
    /// Print the number of games selected instead of writing them.
    #[arg(long, conflicts_with = "output")]
    pub count: bool,
    /// Input format, when the file name does not say it.
    #[arg(long)]
    pub from: Option<String>,
    /// Output format, when the file name does not say it.
    #[arg(long)]
    pub to: Option<String>,
    /// Othello: the directory with the name files (WTHOR.JOU/.TRN) when they are not beside the input.
    #[arg(long)]
    pub names: Option<PathBuf>,
    #[command(flatten)]
    pub select: select::SelectOptions,
    #[command(flatten)]
    pub games: pgn::GamesOptions,
    #[command(flatten)]
    pub pgn: pgn::ConvertOptions,
}

#[derive(Debug, Args)]
pub struct IndexArgs {
    /// The SCID database, by any of its files or its stem.
    pub database: PathBuf,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub solve: solve::SolveOptions,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn command_line_is_consistent() {
        // Catches two formats declaring the same option.
        super::Cli::command().debug_assert();
    }
}
