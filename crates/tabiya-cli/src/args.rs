//! The command-line contract of design.md. Each format adds its own options through the
//! `*Options` structs of its file in `formats/`, flattened here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::formats::{books, ctg, kvetka, parquet, pgn, polyglot, scid, solve, tbase, wthor};

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
    /// Othello endgame solving (positions, OBF files).
    Solve(SolveArgs),
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
    /// Directory with the name files (WTHOR.JOU/.TRN) when they are not beside the input.
    #[arg(long)]
    pub names: Option<PathBuf>,
}

#[derive(Debug, Args)]
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
pub struct VerifyArgs {
    /// A file, a multi-file format by any of its files, or a directory.
    pub path: PathBuf,
    /// Checks that take long (e.g. solving Othello endgames).
    #[arg(long)]
    pub deep: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Directory with the name files (WTHOR.JOU/.TRN) when they are not beside the input.
    #[arg(long)]
    pub names: Option<PathBuf>,
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
