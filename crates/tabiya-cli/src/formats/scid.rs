//! SCID databases (.si3/.si4/.si5): info, verify, conversion to and from PGN and between versions.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::registry::Format;
use tabiya_chess::games::Source;
use tabiya_chess::pgn::{Notation, WriterOptions};
use tabiya_chess::scid::export::export_pgn;
use tabiya_chess::scid::verify::verify as verify_db;
use tabiya_chess::scid::{Database, DatabaseWriter, NameType, Version};

use crate::args::*;
use crate::report::{CliError, InfoReport, Output, Severity, VerifyReport, progress, summary};

/// How SCID databases are exported to PGN and how games are added to them.
#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {
    /// SCID → PGN: movetext layout: `scid` (byte-identical to SCID 5.0.2's export) or
    /// `standard` (PGN export format: `1. e4`, 80 columns).
    #[arg(long, value_name = "LAYOUT", default_value = "scid")]
    pub scid_layout: String,
    /// SCID → PGN: leave out comments and NAGs.
    #[arg(long)]
    pub scid_no_comments: bool,
    /// SCID → PGN: leave out variations.
    #[arg(long)]
    pub scid_no_variations: bool,
    /// SCID → PGN: long algebraic moves (`e2e4`) instead of SAN.
    #[arg(long)]
    pub scid_long_algebraic: bool,
    /// → SCID: add the games to the existing database instead of replacing it.
    #[arg(long)]
    pub append: bool,
}

fn version_of(format: Format) -> Version {
    match format {
        Format::Chess(tabiya_chess::Format::Scid3) => Version::Scid3,
        Format::Chess(tabiya_chess::Format::Scid5) => Version::Scid5,
        _ => Version::Scid4,
    }
}

fn open(path: &Path) -> Result<Database, CliError> {
    Database::open(path).map_err(CliError::input)
}

pub fn info(path: &Path, format: Format, args: &InfoArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let db = open(path)?;
    let mut report = InfoReport::new(path, format);
    report.version = db.version.number().into();
    report.count("games", db.len() as u64);
    for kind in NameType::ALL {
        report.count(kind.label(), db.names.len(kind) as u64);
    }
    report.count("deleted", db.entries.iter().filter(|e| e.flags & 8 != 0).count() as u64);
    let text = |b: &[u8]| tabiya_chess::scid::names::decode_text(b);
    report.header("description", text(&db.header.description));
    report.header("base_type", db.header.base_type);
    let auto = db.header.auto_load;
    report.header("auto_load", auto);
    report.header(
        "auto_load_meaning",
        format!(
            "SCID 5: {}; Scid vs PC / SCID ≤ 4.3: {}",
            match auto {
                0 => "none".to_owned(),
                n => format!("game {n}"),
            },
            match auto {
                0 | 1 => "first game".to_owned(),
                n => format!("game {}", n - 1),
            }
        ),
    );
    let flags: Vec<String> = db.header.flag_names.iter().map(|f| text(f)).collect();
    report.header("custom_flags", flags);
    let dates = db.entries.iter().map(|e| e.date).filter(|d| d.0 != 0);
    if let (Some(min), Some(max)) = (dates.clone().min(), dates.max()) {
        report.header("first_date", min.to_pgn());
        report.header("last_date", max.to_pgn());
    }
    report.header("warnings", db.warnings.len() as u64);
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(ExitCode::SUCCESS)
}

pub fn verify(path: &Path, format: Format, args: &VerifyArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let mut report = VerifyReport::new(path, format);
    let db = match Database::open(path) {
        Ok(db) => db,
        Err(e) => {
            report.problem(Severity::Error, path.display(), e.to_string());
            report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
            return Ok(report.exit_code());
        }
    };
    let v = verify_db(&db);
    report.checked("games", v.games);
    report.checked("decoded", v.decoded);
    report.checked("plies", v.plies);
    report.checked("names", v.names);
    for p in v.problems {
        report.problem(p.severity, &p.location, p.what);
    }
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(report.exit_code())
}

pub fn convert(args: &ConvertArgs, global: &Global, from: Format, to: Format) -> Option<Result<ExitCode, CliError>> {
    let scid = |f: Format| {
        matches!(
            f,
            Format::Chess(tabiya_chess::Format::Scid3)
                | Format::Chess(tabiya_chess::Format::Scid4)
                | Format::Chess(tabiya_chess::Format::Scid5)
        )
    };
    match (from, to) {
        (f, Format::Chess(tabiya_chess::Format::Pgn)) if scid(f) => Some(export(args, global)),
        (f, Format::Chess(tabiya_chess::Format::Scid4) | Format::Chess(tabiya_chess::Format::Scid5))
            if scid(f) || f == Format::Chess(tabiya_chess::Format::Pgn) =>
        {
            Some(import(args, global, to))
        }
        _ => None,
    }
}

fn writer_options(options: &ConvertOptions) -> Result<WriterOptions, CliError> {
    let mut w = match options.scid_layout.as_str() {
        "scid" => WriterOptions::scid(),
        "standard" => WriterOptions::default(),
        other => return Err(CliError::Usage(format!("--scid-layout: expected scid or standard, found {other}"))),
    };
    w.comments = !options.scid_no_comments;
    w.nags = !options.scid_no_comments;
    w.variations = !options.scid_no_variations;
    if options.scid_long_algebraic {
        w.notation = Notation::Long;
    }
    Ok(w)
}

/// SCID → PGN.
fn export(args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let options = writer_options(&args.scid)?;
    let mut out = Output::create(&args.output)?;
    let (mut games, mut failed) = (0u64, 0u64);
    for input in &args.inputs {
        let db = open(input)?;
        let bar = progress(db.len() as u64, global.quiet, "exporting");
        let done =
            export_pgn(&db, &options, &mut out, |n| bar.inc(n)).map_err(|e| CliError::output(&args.output, e))?;
        bar.finish_and_clear();
        games += done.exported;
        failed += done.failed.len() as u64;
        for e in done.failed {
            summary(global.quiet, format!("skipped: {e}"));
        }
    }
    out.flush().map_err(|e| CliError::output(&args.output, e))?;
    out.finish(&args.output)?;
    summary(global.quiet, format!("{games} games exported, {failed} unreadable"));
    Ok(ExitCode::SUCCESS)
}

/// PGN or SCID → SCID 4/5.
fn import(args: &ConvertArgs, global: &Global, to: Format) -> Result<ExitCode, CliError> {
    let version = version_of(to);
    let mut writer = if args.scid.append {
        DatabaseWriter::append(&args.output)
    } else {
        DatabaseWriter::create(&args.output, version)
    }
    .map_err(|e| CliError::output(&args.output, e))?;
    let bar = progress(0, global.quiet, "games");
    let mut unreadable = 0u64;
    for input in &args.inputs {
        let source = Source::open(input).map_err(CliError::input)?;
        writer
            .add_games(
                &source,
                |e| {
                    unreadable += 1;
                    summary(global.quiet, format!("unreadable game: {e}"));
                },
                |n| bar.inc(n),
            )
            .map_err(|e| CliError::output(&args.output, e))?;
    }
    bar.finish_and_clear();
    let result = writer.finish().map_err(|e| CliError::output(&args.output, e))?;
    for (n, reason) in &result.skipped {
        summary(global.quiet, format!("skipped game {n}: {reason}"));
    }
    for (n, what) in &result.warnings {
        summary(global.quiet, format!("game {n}: {what}"));
    }
    summary(
        global.quiet,
        format!(
            "{} games written ({} in the database), {} skipped, {unreadable} unreadable",
            result.written,
            result.total,
            result.skipped.len()
        ),
    );
    Ok(ExitCode::SUCCESS)
}

/// The options SCID takes: the export layout when written as PGN, `--append` when written.
pub fn takes(part: super::Part) -> &'static [&'static str] {
    use super::Role;
    use tabiya_chess::Format as C;
    const EXPORT: &[&str] = &["scid_layout", "scid_no_comments", "scid_no_variations", "scid_long_algebraic"];
    match (part.role, part.format, part.other) {
        (Role::Read, _, Some(Format::Chess(C::Pgn))) => EXPORT,
        (Role::Write, Format::Chess(C::Scid4 | C::Scid5), _) => &["append"],
        _ => &[],
    }
}
