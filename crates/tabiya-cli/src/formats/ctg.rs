//! ChessBase CTG books: info, probe, verify, dump and conversion.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::registry::Format;
use serde_json::{Map, Value, json};
use tabiya_chess::ctg::{self, Book, Stats, Weights};
use tabiya_chess::{kvetka, polyglot};

use crate::args::*;
use crate::report::{CliError, InfoReport, Output, ProbeMove, ProbeReport, Severity, VerifyReport, summary};

const FORMAT: Format = Format::Chess(tabiya_chess::Format::Ctg);

/// How CTG moves are weighted, for `probe --weights` and `convert --ctg-weights`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum WeightRule {
    /// The mover's 2·wins + draws from the child record × annotation factor; red moves 0,
    /// green ×10 (DroidFish's rule).
    #[default]
    Play,
    /// The mover's 2·wins + draws from the child record only.
    Raw,
}

impl From<WeightRule> for Weights {
    fn from(rule: WeightRule) -> Weights {
        match rule {
            WeightRule::Play => Weights::Play,
            WeightRule::Raw => Weights::Raw,
        }
    }
}

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {
    /// CTG → Polyglot: how moves are weighted.
    #[arg(long, value_enum, default_value_t)]
    pub ctg_weights: WeightRule,
}

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ProbeOptions {
    /// CTG: how moves are weighted (`raw` shows the mover's 2·wins + draws only).
    #[arg(long, value_enum, default_value_t)]
    pub weights: WeightRule,
}

fn open(path: &Path, quiet: bool) -> Result<Book, CliError> {
    let book = Book::open(path).map_err(CliError::input)?;
    for w in book.warnings().iter() {
        summary(quiet, format!("warning: {w}"));
    }
    Ok(book)
}

pub fn info(path: &Path, args: &InfoArgs, global: &Global) -> Result<ExitCode, CliError> {
    let book = open(path, global.quiet)?;
    let (mut records, mut moves) = (0u64, 0u64);
    for record in book.records() {
        let record = record.map_err(CliError::input)?;
        records += 1;
        moves += record.moves().len() as u64;
    }
    let header = book.header();
    let mut report = InfoReport::new(path, FORMAT);
    report.count("pages", book.page_count()).count("positions", records).count("moves", moves);
    report.count("games", header.games);
    report
        .header("page_size", header.page_size)
        .header("data_pages", header.data_pages)
        .header("positions", header.positions)
        .header("games", header.games)
        .header("splits", header.splits);
    match book.tree() {
        Some(tree) => {
            report
                .header("ctb_lower", tree.lower)
                .header("ctb_upper", tree.upper)
                .header("cto_entries", tree.pages.len() as u64)
                .header("leaf_buckets", tree.leaves().len() as u64);
        }
        None => {
            report.header("index", "missing (.cto/.ctb): pages walked");
        }
    }
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(ExitCode::SUCCESS)
}

pub fn verify(path: &Path, args: &VerifyArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let book = Book::open(path).map_err(CliError::input)?;
    let verification = ctg::verify(&book);
    let mut report = VerifyReport::new(path, FORMAT);
    for (name, count) in &verification.checked {
        report.checked(name, *count);
    }
    for finding in &verification.findings {
        let severity = if finding.error { Severity::Error } else { Severity::Warning };
        report.problem(severity, &finding.location, finding.what.clone());
    }
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(report.exit_code())
}

pub fn probe(path: &Path, args: &ProbeArgs, global: &Global) -> Result<ExitCode, CliError> {
    let book = open(path, global.quiet)?;
    let pos = super::probe_position(args)?;
    let probe = book.probe(&pos).map_err(CliError::input)?;
    let weights = Weights::from(args.ctg.weights).weights(&probe.moves);
    let mut position = Map::new();
    if let Some(record) = &probe.record {
        position.insert("page".into(), json!(record.page));
        position.insert("offset".into(), json!(record.offset));
        position.insert("key".into(), json!(ctg::hex(record.key)));
        extend(&mut position, &record.stats);
    }
    position.insert("flipped".into(), json!(probe.normalized.frame.flipped));
    position.insert("mirrored".into(), json!(probe.normalized.frame.mirrored));
    let moves = probe
        .moves
        .iter()
        .zip(weights)
        .map(|(m, weight)| {
            let mover = m.mover_stats();
            let mut extra = Map::new();
            extra.insert("code".into(), json!(m.stored.code));
            extra.insert("annotation_byte".into(), json!(m.stored.annotation));
            extra.insert("child_in_book".into(), json!(m.child.is_some()));
            if let Some(stats) = &mover {
                let mut child = Map::new();
                extend(&mut child, stats);
                extra.insert("child".into(), Value::Object(child));
            }
            ProbeMove {
                uci: m.uci(),
                san: m.san.clone(),
                weight,
                games: mover.map(|s| u64::from(s.games)),
                wins: mover.map(|s| u64::from(s.wins)),
                draws: mover.map(|s| u64::from(s.draws)),
                losses: mover.map(|s| u64::from(s.losses)),
                annotation: ctg::annotation_symbol(m.stored.annotation).map(str::to_owned),
                extra,
            }
        })
        .collect();
    let report = ProbeReport {
        book: path.to_path_buf(),
        format: FORMAT.name(),
        fen: shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string(),
        found: probe.record.is_some(),
        position,
        moves,
        warnings: probe.warnings.clone(),
    };
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(ExitCode::SUCCESS)
}

/// Statistics as JSON fields: results for the side to move, both rating blocks, the raw bytes.
fn extend(map: &mut Map<String, Value>, stats: &Stats) {
    if let Ok(Value::Object(fields)) = serde_json::to_value(stats) {
        map.extend(fields);
    }
    map.insert("evaluation_symbol".into(), json!(ctg::evaluation_symbol(stats.evaluation)));
}

pub fn convert(args: &ConvertArgs, global: &Global, from: Format, to: Format) -> Option<Result<ExitCode, CliError>> {
    if from != FORMAT
        || !matches!(
            to,
            Format::Chess(tabiya_chess::Format::JsonLines)
                | Format::Chess(tabiya_chess::Format::Polyglot)
                | Format::Chess(tabiya_chess::Format::Kvetka)
        )
    {
        return None;
    }
    Some(convert_book(args, global, to))
}

fn convert_book(args: &ConvertArgs, global: &Global, to: Format) -> Result<ExitCode, CliError> {
    let [input] = args.inputs.as_slice() else {
        return Err(CliError::Usage("converting a CTG book takes one input book".into()));
    };
    let book = open(input, global.quiet)?;
    if to == Format::Chess(tabiya_chess::Format::Kvetka) {
        return to_kvetka(&book, args, global);
    }
    let mut out = Output::create(&args.output)?;
    let written = |e: std::io::Error| CliError::output(&args.output, e);
    match to {
        Format::Chess(tabiya_chess::Format::Polyglot) => {
            let export = ctg::to_polyglot(&book, args.ctg.ctg_weights.into()).map_err(CliError::input)?;
            polyglot::write_entries(&export.entries, &mut out).map_err(written)?;
            out.finish(&args.output)?;
            summary(
                global.quiet,
                format!(
                    "{}: {} records → {} Polyglot positions, {} entries; {} moves of weight 0 left out, {} undecodable",
                    args.output.display(),
                    export.records,
                    export.positions,
                    export.entries.len(),
                    export.zero_weight,
                    export.undecodable
                ),
            );
        }
        _ => {
            let positions = ctg::dump(&book).map_err(CliError::input)?;
            let (mut moves, mut problems) = (0usize, 0usize);
            for p in &positions {
                moves += p.moves.len();
                problems += p.problems.len();
                serde_json::to_writer(&mut out, &p.json_line()).map_err(|e| written(e.into()))?;
                out.write_all(b"\n").map_err(written)?;
            }
            out.finish(&args.output)?;
            summary(
                global.quiet,
                format!(
                    "{}: {} positions ({} reached from the start), {moves} moves, {problems} problems",
                    args.output.display(),
                    positions.len(),
                    positions.iter().filter(|p| p.reached).count()
                ),
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// CTG → Kvetka: the book's records as Kvetka elements, written as `stem_0.kob` … and `.kin`.
fn to_kvetka(book: &Book, args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let export = ctg::to_kvetka(book).map_err(CliError::input)?;
    let caption = book.paths().ctg.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let header = kvetka::Header { caption, ..kvetka::Header::default() };
    let elements = export.elements.len();
    let written = kvetka::Book::from_elements(header, export.elements).map_err(CliError::input)?;
    written.write(&args.output, &Default::default()).map_err(|e| CliError::output(&args.output, e))?;
    summary(
        global.quiet,
        format!(
            "{}: {elements} positions in {} blocks; {} positions over 176 bits and {} undecodable moves skipped; \
             {} games without a result not carried over (Kvetka keeps W/D/L only)",
            args.output.display(),
            written.blocks.len(),
            export.too_long,
            export.undecodable,
            export.games_without_result
        ),
    );
    Ok(ExitCode::SUCCESS)
}

/// The options CTG takes: the weight rule when probed or converted to Polyglot.
pub fn takes(part: super::Part) -> &'static [&'static str] {
    use super::Role;
    match (part.role, part.other) {
        (Role::Probe, _) => &["weights"],
        (Role::Read, Some(Format::Chess(tabiya_chess::Format::Polyglot))) => &["ctg_weights"],
        _ => &[],
    }
}
