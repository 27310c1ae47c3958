//! Dispatch from a command and the formats involved to the file that handles that format.
//! Each format's file owns its options (`ConvertOptions`, `BookOptions`, …) and its handlers;
//! adding a format means adding a file and a line in each table below.

pub mod ctg;
pub mod kvetka;
pub mod pgn;
pub mod polyglot;
pub mod scid;
pub mod solve;
pub mod tbase;
pub mod wthor;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use shakmaty::Chess;
use tabiya_io::Format;

use crate::args::{BookArgs, ConvertArgs, Global, InfoArgs, ProbeArgs, SolveArgs, VerifyArgs};
use crate::report::{CliError, InfoReport};

/// The format of an input: `--from`, else the file's magic bytes and extension. A path that
/// does not exist may be the stem of a multi-file format (`games` for `games.si4`).
pub fn input_format(path: &Path, explicit: Option<&str>) -> Result<(PathBuf, Format), CliError> {
    if let Some(name) = explicit {
        let f = Format::from_name(name).ok_or_else(|| CliError::Usage(format!("unknown format '{name}'")))?;
        return Ok((path.to_path_buf(), f));
    }
    if path.as_os_str() == "-" {
        return Err(CliError::Usage("standard input needs --from FORMAT".into()));
    }
    if !path.exists() {
        for ext in ["si4", "si5", "si3", "ctg", "kob", "dia", "wtb", "pgn", "bin"] {
            let candidate = path.with_extension(ext);
            let stem_0 = PathBuf::from(format!("{}_0.kob", path.display()));
            // `book.kob` names the Kvetka book whose first part is `book_0.kob`.
            let kob_0 = PathBuf::from(format!("{}_0.kob", path.with_extension("").display()));
            for c in [candidate, stem_0, kob_0] {
                if c.is_file() {
                    return input_format(&c, None);
                }
            }
        }
        return Err(CliError::Input(format!("{}: no such file", path.display())));
    }
    match tabiya_io::sniff_path(path) {
        Ok(Some(f)) => Ok((path.to_path_buf(), f)),
        Ok(None) => Err(CliError::Input(format!("{}: not a format tabiya knows (use --from)", path.display()))),
        Err(e) => Err(CliError::Input(format!("{}: {e}", path.display()))),
    }
}

/// The format of an output: `--to`, else the extension.
pub fn output_format(path: &Path, explicit: Option<&str>) -> Result<Format, CliError> {
    let name = match explicit {
        Some(n) => n.to_owned(),
        None => path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_owned(),
    };
    Format::from_name(&name)
        .ok_or_else(|| CliError::Usage(format!("{}: cannot tell the output format (use --to)", path.display())))
}

pub fn info(args: &InfoArgs, global: &Global) -> Result<ExitCode, CliError> {
    let (path, format) = input_format(&args.path, None)?;
    match format {
        Format::Pgn => pgn::info(&path, args, global),
        Format::Polyglot => polyglot::info(&path, args, global),
        Format::Scid3 | Format::Scid4 | Format::Scid5 => scid::info(&path, format, args, global),
        Format::Ctg => ctg::info(&path, args, global),
        Format::Kvetka => kvetka::info(&path, args, global),
        Format::WthorGames
        | Format::WthorGames10
        | Format::WthorSolitaires
        | Format::WthorPlayers
        | Format::WthorTournaments
        | Format::OthelloTranscript
        | Format::Ggf
        | Format::Obf => wthor::info(&path, format, args, global),
        Format::TbaseDiagrams
        | Format::TbaseSolutions
        | Format::TbaseComments
        | Format::Kif
        | Format::Ki2
        | Format::Csa
        | Format::Sfen => tbase::info(&path, format, args, global),
        Format::JsonLines | Format::Csv => basic_info(&path, format, args),
    }
}

/// What `info` says of a format whose reader does not exist yet: its name and size.
pub fn basic_info(path: &Path, format: Format, args: &InfoArgs) -> Result<ExitCode, CliError> {
    let mut report = InfoReport::new(path, format);
    let size = std::fs::metadata(path).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?.len();
    report.count("bytes", size);
    report.header("reader", "not available yet");
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(ExitCode::SUCCESS)
}

type Converter = fn(&ConvertArgs, &Global, Format, Format) -> Option<Result<ExitCode, CliError>>;

/// Tried in order; the first that claims the (input, output) pair does the conversion.
const CONVERTERS: &[Converter] = &[
    scid::convert,
    pgn::convert,
    polyglot::convert,
    ctg::convert,
    kvetka::convert,
    wthor::convert,
    solve::convert,
    tbase::convert,
];

pub fn convert(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let (_, from) = input_format(&args.inputs[0], args.from.as_deref())?;
    let to = output_format(&args.output, args.to.as_deref())?;
    for converter in CONVERTERS {
        if let Some(result) = converter(args, global, from, to) {
            return result;
        }
    }
    Err(CliError::unsupported(format!("converting {from} to {to}")))
}

pub fn probe(args: &ProbeArgs, global: &Global) -> Result<ExitCode, CliError> {
    let (path, format) = input_format(&args.book, None)?;
    match format {
        Format::Polyglot => polyglot::probe(&path, args, global),
        Format::Ctg => ctg::probe(&path, args, global),
        Format::Kvetka => kvetka::probe(&path, args, global),
        other => Err(CliError::Usage(format!("{}: {other} is not an opening book", path.display()))),
    }
}

/// The position `tabiya probe` looks up: `--fen`, else `--moves` from the start position.
pub fn probe_position(args: &ProbeArgs) -> Result<Chess, CliError> {
    tabiya_chess::book::probe_position(args.fen.as_deref(), args.moves.as_deref()).map_err(CliError::Usage)
}

pub fn book(args: &BookArgs, global: &Global) -> Result<ExitCode, CliError> {
    match output_format(&args.output, args.to.as_deref())? {
        Format::Polyglot => polyglot::book(args, global),
        Format::Kvetka => kvetka::book(args, global),
        other => Err(CliError::Usage(format!("tabiya builds Polyglot (.bin) and Kvetka (.kob) books, not {other}"))),
    }
}

pub fn verify(args: &VerifyArgs, global: &Global) -> Result<ExitCode, CliError> {
    if args.path.is_dir() {
        return wthor::verify_dir(&args.path, args, global);
    }
    let (path, format) = input_format(&args.path, None)?;
    match format {
        Format::Pgn => pgn::verify(&path, args, global),
        Format::Polyglot => polyglot::verify(&path, args, global),
        Format::Scid3 | Format::Scid4 | Format::Scid5 => scid::verify(&path, format, args, global),
        Format::Ctg => ctg::verify(&path, args, global),
        Format::Kvetka => kvetka::verify(&path, args, global),
        Format::WthorGames
        | Format::WthorGames10
        | Format::WthorSolitaires
        | Format::WthorPlayers
        | Format::WthorTournaments => wthor::verify(&path, format, args, global),
        Format::TbaseDiagrams | Format::TbaseSolutions | Format::TbaseComments => {
            tbase::verify(&path, format, args, global)
        }
        other => Err(CliError::unsupported(format!("verifying {other}"))),
    }
}

pub fn solve(args: &SolveArgs, global: &Global) -> Result<ExitCode, CliError> {
    solve::solve(&args.solve, global)
}
