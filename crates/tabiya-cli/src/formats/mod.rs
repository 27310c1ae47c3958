//! Dispatch from a command and the formats involved to the file that handles that format.
//! Each format's file owns its options (`ConvertOptions`, `BookOptions`, …) and its handlers;
//! adding a format means adding a file and a line in each table below.

pub mod books;
pub mod catalogue;
pub mod ctg;
pub mod kvetka;
pub mod parquet;
pub mod pgn;
pub mod polyglot;
pub mod scid;
pub mod select;
pub mod solve;
pub mod tbase;
pub mod tree;
pub mod wthor;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use shakmaty::Chess;
use tabiya_chess::Format as C;
use tabiya_othello::Format as O;
use tabiya_shogi::Format as S;

pub use crate::registry::Format;

use crate::args::{BookArgs, ConvertArgs, Global, InfoArgs, ProbeArgs, SolveArgs, VerifyArgs};
use crate::report::{CliError, print};

/// What a format does in a command, for the options it takes there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// An input of `convert` or `book`.
    Read,
    /// The output of `convert`.
    Write,
    /// The output of `book`.
    Build,
    /// The file of `info`.
    Info,
    /// The file of `verify`.
    Verify,
    /// The book of `probe`.
    Probe,
    /// An input of `select`.
    Select,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Read => "input",
            Role::Write => "output",
            Role::Build => "book output",
            Role::Info => "info",
            Role::Verify => "verify",
            Role::Probe => "probe",
            Role::Select => "select input",
        }
    }
}

/// One format of a command in its role; `other` is the format on the other side of a
/// conversion or book build (the output for an input, an input for an output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub format: Format,
    pub role: Role,
    pub other: Option<Format>,
}

impl Part {
    pub fn new(format: Format, role: Role, other: Option<Format>) -> Part {
        Part { format, role, other }
    }

    /// The options (clap ids) this part takes, as the format's file declares them.
    pub fn takes(self) -> &'static [&'static str] {
        if self.role == Role::Select {
            return select::takes(self);
        }
        match self.format {
            Format::Chess(C::Pgn | C::JsonLines) => pgn::takes(self),
            Format::Chess(C::Scid3 | C::Scid4 | C::Scid5) => scid::takes(self),
            Format::Chess(C::Polyglot) => polyglot::takes(self),
            Format::Chess(C::Ctg) => ctg::takes(self),
            Format::Chess(C::Kvetka) => kvetka::takes(self),
            Format::Chess(C::Tree) => tree::takes(self),
            Format::Othello(_) => wthor::takes(self),
            Format::Shogi(_) => tbase::takes(self),
            Format::Parquet => parquet::takes(self),
        }
    }
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.role, self.other) {
            (Role::Read | Role::Select, Some(to)) => write!(f, "{} → {to}", self.format),
            (Role::Write | Role::Build, Some(from)) => write!(f, "{from} → {}", self.format),
            _ => write!(f, "{}", self.format),
        }
    }
}

/// The options a command takes whatever the formats (inputs, output, `--from`, `--json`, …).
pub fn common_options(command: &str) -> &'static [&'static str] {
    match command {
        "convert" => &["inputs", "output", "from", "to", "quiet", "force"],
        "book" => &["inputs", "output", "to", "quiet", "force"],
        "probe" => &["book", "fen", "moves", "json", "quiet", "force"],
        "select" => &["inputs", "output", "count", "from", "to", "quiet", "force"],
        "info" | "verify" => &["path", "json", "from", "quiet", "force"],
        "tree" => &["inputs", "output", "max_ply", "memory", "solve_empties", "quiet", "force"],
        _ => &["quiet", "force"],
    }
}

/// Refuses an option given on the command line that none of the command's parts takes: exit
/// 2, naming the option and the formats that do take it in this command.
pub fn check_options(command: &str, given: &[String], parts: &[Part]) -> Result<(), CliError> {
    for id in given {
        let id = id.as_str();
        if common_options(command).contains(&id) || parts.iter().any(|p| p.takes().contains(&id)) {
            continue;
        }
        let takers = takers_of(command, id, parts);
        let mut at_hand: Vec<String> = parts.iter().map(ToString::to_string).collect();
        at_hand.dedup();
        let flag = format!("--{}", id.replace('_', "-"));
        let applies = if takers.is_empty() { String::new() } else { format!("; it applies to {}", takers.join(", ")) };
        return Err(CliError::Usage(format!(
            "{flag} does not apply to {} in `{command}`{applies}",
            at_hand.join(", ")
        )));
    }
    Ok(())
}

/// The formats that take option `id` in the roles of `parts`: a format that takes it whatever
/// the other side is named alone (`kvetka (book output)`), else each pair that takes it.
fn takers_of(command: &str, id: &str, parts: &[Part]) -> Vec<String> {
    let mut takers: Vec<String> = Vec::new();
    let mut roles: Vec<Role> = parts.iter().map(|p| p.role).collect();
    roles.dedup();
    for role in roles {
        for format in all_formats() {
            let pair = matches!(role, Role::Read | Role::Write | Role::Build | Role::Select);
            let others: Vec<Option<Format>> = if pair {
                all_formats().filter(|&other| pair_exists(command, role, format, other)).map(Some).collect()
            } else {
                vec![None]
            };
            let taking: Vec<Part> = others
                .iter()
                .map(|&other| Part::new(format, role, other))
                .filter(|part| part.takes().contains(&id))
                .collect();
            if !others.is_empty() && taking.len() == others.len() {
                takers.push(format!("{format} ({})", role.name()));
            } else {
                takers.extend(taking.iter().map(ToString::to_string));
            }
        }
    }
    takers
}

/// True when `command` does something with `format` in `role` beside `other`: only such
/// pairs are named where an option applies (a book's inputs are not convert's).
fn pair_exists(command: &str, role: Role, format: Format, other: Format) -> bool {
    let (from, to) = match role {
        Role::Read | Role::Select => (format, other),
        _ => (other, format),
    };
    match command {
        "book" => builds(from, to),
        "convert" | "select" => conversion(from, to).is_some(),
        _ => true,
    }
}

/// Every format of every family.
pub fn all_formats() -> impl Iterator<Item = Format> {
    C::ALL
        .into_iter()
        .map(Format::Chess)
        .chain(O::ALL.into_iter().map(Format::Othello))
        .chain(S::ALL.into_iter().map(Format::Shogi))
        .chain([Format::Parquet])
}

/// The format of an input: `--from`, else the file's magic bytes and extension. A path that
/// does not exist may be the stem of a multi-file format (`games` for `games.si4`).
pub fn input_format(path: &Path, explicit: Option<&str>) -> Result<(PathBuf, Format), CliError> {
    if let Some(name) = explicit {
        let f = Format::from_name(name, None).ok_or_else(|| unknown_format("--from", name))?;
        return Ok((path.to_path_buf(), f));
    }
    let stdin = path.as_os_str() == "-";
    if !path.exists() && !stdin {
        return match Format::find_by_stem(path) {
            Some(file) => input_format(&file, None),
            None => Err(CliError::Input(format!("{}: no such file", path.display()))),
        };
    }
    match tabiya_io::Head::read(path) {
        Ok(head) => match Format::sniff(&head) {
            Some(f) => Ok((path.to_path_buf(), f)),
            None => Err(CliError::Input(match Format::from_name(&head.extension, None) {
                Some(named) => format!(
                    "{}: .{} names {named}, but the file does not look like one (use --from if it is)",
                    path.display(),
                    head.extension
                ),
                None if stdin => "standard input: not a format tabiya knows (use --from)".into(),
                None => format!("{}: not a format tabiya knows (use --from)", path.display()),
            })),
        },
        Err(e) => Err(CliError::Input(format!("{}: {e}", path.display()))),
    }
}

/// The format of an output: `--to`, else the extension; a name several families share
/// (`jsonl`) is the input's family's.
pub fn output_format(path: &Path, explicit: Option<&str>, input: Option<Format>) -> Result<Format, CliError> {
    let name = match explicit {
        Some(n) => n.to_owned(),
        // `subset.pgn.zst` is PGN, written compressed (`Output`).
        None => {
            let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
            let inner = Path::new(tabiya_io::compression::strip_compression_extension(&name).0);
            inner.extension().and_then(|e| e.to_str()).unwrap_or_default().to_owned()
        }
    };
    Format::from_name(&name, input.map(Format::family)).ok_or_else(|| match explicit {
        Some(name) => unknown_format("--to", name),
        None => CliError::Usage(format!(
            "{}: cannot tell the output format (use --to with one of: {})",
            path.display(),
            catalogue::known_names()
        )),
    })
}

/// A name given to `--from`/`--to` that is no format's: exit 2, listing the names there are.
fn unknown_format(option: &str, name: &str) -> CliError {
    CliError::Usage(format!("{option} {name}: unknown format; the formats are {}", catalogue::known_names()))
}

pub fn info(args: &InfoArgs, global: &Global) -> Result<ExitCode, CliError> {
    let (path, format) = input_format(&args.path, args.from.as_deref())?;
    check_options("info", &global.given, &[Part::new(format, Role::Info, None)])?;
    if info_depth(format) == InfoDepth::Size {
        return basic_info(&path, format, args);
    }
    match format {
        Format::Chess(C::Pgn | C::JsonLines | C::Scid3 | C::Scid4 | C::Scid5) => pgn::info(&path, args, global),
        Format::Chess(book @ (C::Polyglot | C::Ctg | C::Kvetka)) => books::info(&path, args, book),
        Format::Chess(C::Tree) => tree::info(&path, args, global),
        Format::Othello(_) => wthor::info(&path, format, args, global),
        Format::Shogi(_) => tbase::info(&path, format, args, global),
        Format::Parquet => parquet::info(&path, args),
    }
}

/// What `info` says of a format whose reader does not exist yet: its name and size.
pub fn basic_info(path: &Path, format: Format, args: &InfoArgs) -> Result<ExitCode, CliError> {
    let mut report = tabiya_io::Info::new(path, format.name());
    let size = std::fs::metadata(path).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?.len();
    report.count("bytes", size);
    report.header("reader", "not available yet");
    print(&report, args.json)?;
    Ok(ExitCode::SUCCESS)
}

/// How one (input, output) pair is converted, given the command line.
pub type Conversion = Box<dyn FnOnce(&ConvertArgs, &Global) -> Result<ExitCode, CliError>>;

/// A format file's claim on a pair: its conversion, when it does that one.
type Converter = fn(Format, Format) -> Option<Conversion>;

/// Tried in order; the first that claims the (input, output) pair does the conversion.
const CONVERTERS: &[Converter] = &[
    parquet::converts,
    scid::converts,
    pgn::converts,
    polyglot::converts,
    ctg::converts,
    kvetka::converts,
    wthor::converts,
    solve::converts,
    tbase::converts,
    tree::converts,
];

/// The conversion of `from` to `to`, when `convert` does it: the one source of truth for
/// `convert` and for `tabiya formats`.
pub fn conversion(from: Format, to: Format) -> Option<Conversion> {
    CONVERTERS.iter().find_map(|converts| converts(from, to))
}

/// True when `book` builds a book of `to` from files of `from`.
pub fn builds(from: Format, to: Format) -> bool {
    pgn::holds_games(from) && matches!(to, Format::Chess(C::Polyglot | C::Kvetka))
}

/// How far `info` reads a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InfoDepth {
    /// The format's reader: version, counts, header fields.
    Contents,
    /// Only the name and the size: the format has no reader yet.
    Size,
}

/// How far `info` reads `format`.
pub fn info_depth(format: Format) -> InfoDepth {
    match format {
        Format::Shogi(S::JsonLines) => InfoDepth::Size,
        _ => InfoDepth::Contents,
    }
}

/// True when `verify` checks files of `format`.
pub fn verifies(format: Format) -> bool {
    !matches!(format, Format::Shogi(S::Sfen | S::JsonLines) | Format::Parquet)
}

/// True when `probe` looks positions up in `format`.
pub fn probes(format: Format) -> bool {
    matches!(format, Format::Chess(C::Polyglot | C::Ctg | C::Kvetka | C::Tree))
}

pub fn convert(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let (_, from) = input_format(&args.inputs[0], args.from.as_deref())?;
    let to = output_format(&args.output, args.to.as_deref(), Some(from))?;
    check_options(
        "convert",
        &global.given,
        &[Part::new(from, Role::Read, Some(to)), Part::new(to, Role::Write, Some(from))],
    )?;
    match conversion(from, to) {
        Some(run) => run(args, global),
        None if builds(from, to) => Err(books::build_with_book(to)),
        None => Err(CliError::unsupported(format!("converting {from} to {to}"))),
    }
}

pub fn probe(args: &ProbeArgs, global: &Global) -> Result<ExitCode, CliError> {
    let (path, format) = input_format(&args.book, None)?;
    check_options("probe", &global.given, &[Part::new(format, Role::Probe, None)])?;
    if !probes(format) {
        return Err(CliError::Usage(format!("{}: {format} is not an opening book", path.display())));
    }
    match format {
        Format::Chess(book @ (C::Polyglot | C::Ctg | C::Kvetka)) => books::probe(&path, args, global, book),
        Format::Chess(C::Tree) => tree::probe(&path, args, global),
        other => Err(CliError::Usage(format!("{}: {other} is not an opening book", path.display()))),
    }
}

/// The position `tabiya probe` looks up: `--fen`, else `--moves` from the start position.
/// Castling may be written with zeros (`0-0`, `0-0-0`), as many books and players do.
pub fn probe_position(args: &ProbeArgs) -> Result<Chess, CliError> {
    let moves = args.moves.as_deref().map(castling_with_letters);
    tabiya_chess::book::probe_position(args.fen.as_deref(), moves.as_deref()).map_err(CliError::Usage)
}

/// `moves` with each castling written with zeros (`0-0`, `0-0-0+`) written with letters.
fn castling_with_letters(moves: &str) -> String {
    let tokens = moves.split_whitespace().map(|token| {
        let (body, check) = token.split_at(token.trim_end_matches(['+', '#', '!', '?']).len());
        match body {
            "0-0" => format!("O-O{check}"),
            "0-0-0" => format!("O-O-O{check}"),
            _ => token.to_owned(),
        }
    });
    tokens.collect::<Vec<_>>().join(" ")
}

pub fn book(args: &BookArgs, global: &Global) -> Result<ExitCode, CliError> {
    let to = output_format(&args.output, args.to.as_deref(), None)?;
    let mut parts = vec![];
    for input in &args.inputs {
        let (_, from) = input_format(input, None)?;
        if !builds(from, to) {
            return Err(CliError::unsupported(format!("building {to} books from {from}")));
        }
        parts.extend([Part::new(from, Role::Read, Some(to)), Part::new(to, Role::Build, Some(from))]);
    }
    check_options("book", &global.given, &parts)?;
    match to {
        Format::Chess(C::Polyglot) => polyglot::book(args, global),
        Format::Chess(C::Kvetka) => kvetka::book(args, global),
        other => Err(CliError::Usage(format!("tabiya builds Polyglot (.bin) and Kvetka (.kob) books, not {other}"))),
    }
}

pub fn verify(args: &VerifyArgs, global: &Global) -> Result<ExitCode, CliError> {
    if args.path.is_dir() {
        let games = Format::Othello(O::WthorGames);
        check_options("verify", &global.given, &[Part::new(games, Role::Verify, None)])?;
        return wthor::verify_dir(&args.path, args, global);
    }
    let (path, format) = input_format(&args.path, args.from.as_deref())?;
    check_options("verify", &global.given, &[Part::new(format, Role::Verify, None)])?;
    if !verifies(format) {
        return Err(CliError::unsupported(format!("verifying {format}")));
    }
    match format {
        Format::Chess(C::Pgn | C::JsonLines | C::Scid3 | C::Scid4 | C::Scid5) => pgn::verify(&path, args, global),
        Format::Chess(book @ (C::Polyglot | C::Ctg | C::Kvetka)) => books::verify(&path, args, book),
        Format::Chess(C::Tree) => tree::verify(&path, args, global),
        Format::Othello(_) => wthor::verify(&path, format, args, global),
        Format::Shogi(S::TbaseDiagrams | S::TbaseSolutions | S::TbaseComments | S::Kif | S::Ki2 | S::Csa) => {
            tbase::verify(&path, format, args, global)
        }
        other => Err(CliError::unsupported(format!("verifying {other}"))),
    }
}

pub fn solve(args: &SolveArgs, global: &Global) -> Result<ExitCode, CliError> {
    solve::solve(&args.solve, global)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// Every option of every command is taken by at least one format in that command (an
    /// option nobody takes would always be refused), and refused for every part that does not
    /// declare it.
    #[test]
    fn every_option_has_a_taker_and_is_refused_elsewhere() {
        let cli = crate::args::Cli::command();
        for (command, roles) in [
            ("convert", &[Role::Read, Role::Write][..]),
            ("book", &[Role::Read, Role::Build]),
            ("info", &[Role::Info]),
            ("verify", &[Role::Verify]),
            ("probe", &[Role::Probe]),
            ("select", &[Role::Select, Role::Write]),
        ] {
            let sub = cli.find_subcommand(command).unwrap();
            for arg in sub.get_arguments() {
                let id = arg.get_id().as_str();
                if common_options(command).contains(&id) || matches!(id, "help" | "version") {
                    continue;
                }
                let mut takers = 0;
                for &role in roles {
                    for format in all_formats() {
                        let others: Vec<Option<Format>> = match role {
                            Role::Read | Role::Write | Role::Build | Role::Select => all_formats().map(Some).collect(),
                            _ => vec![None],
                        };
                        for other in others {
                            let part = Part::new(format, role, other);
                            let taken = part.takes().contains(&id);
                            takers += usize::from(taken);
                            let checked = check_options(command, &[id.to_owned()], &[part]);
                            assert_eq!(checked.is_ok(), taken, "{command} --{id} for {part}");
                        }
                    }
                }
                assert!(takers > 0, "`{command} --{id}` is taken by no format");
            }
        }
    }

    #[test]
    fn castling_with_zeros() {
        assert_eq!(
            castling_with_letters("e4 e5 Nf3 Nc6 Bc4 Bc5 0-0 0-0-0+ O-O"),
            "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O O-O-O+ O-O"
        );
    }

    #[test]
    fn refusal_names_the_option_and_its_formats() {
        let pgn = Format::Chess(C::Pgn);
        let bin = Format::Chess(C::Polyglot);
        let err = check_options("book", &["caption".into()], &[Part::new(bin, Role::Build, Some(pgn))]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--caption does not apply to pgn → polyglot in `book`; it applies to kvetka (book output)"
        );
        let scid = Format::Chess(C::Scid4);
        let parts = [Part::new(pgn, Role::Read, Some(scid)), Part::new(scid, Role::Write, Some(pgn))];
        let err = check_options("convert", &["pgn_long".into()], &parts).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--pgn-long does not apply to pgn → scid4 in `convert`; it applies to parquet → pgn, pgn → pgn, \
             scid3 → pgn, scid4 → pgn, scid5 → pgn, jsonl → pgn"
        );
    }
}
