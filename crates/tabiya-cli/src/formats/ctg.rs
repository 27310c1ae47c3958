//! ChessBase CTG books: info, probe, verify, dump and conversion.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::registry::Format;
use tabiya_chess::ctg::{self, Book, Weights};
use tabiya_chess::{kvetka, polyglot};

use crate::args::*;
use crate::report::{CliError, Output, counted, summary};

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
    for w in book.warnings() {
        summary(quiet, w.to_string());
    }
    Ok(book)
}

pub fn converts(from: Format, to: Format) -> Option<super::Conversion> {
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
    Some(Box::new(move |args, global| convert_book(args, global, to)))
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
    let written_error = |e: std::io::Error| CliError::output(&args.output, e);
    match to {
        Format::Chess(tabiya_chess::Format::Polyglot) => {
            let (model, reading) = ctg::read_model(&book, args.ctg.ctg_weights.into()).map_err(CliError::input)?;
            let written = polyglot::entries_of_model(model);
            polyglot::write_entries(&written.entries, &mut out).map_err(written_error)?;
            out.finish(&args.output)?;
            summary(
                global.quiet,
                format!(
                    "{}: {} records → {} Polyglot positions, {} entries; {} moves of weight 0 left out, {} undecodable",
                    args.output.display(),
                    reading.records,
                    written.positions,
                    written.entries.len(),
                    written.zero_weight,
                    reading.undecodable
                ),
            );
        }
        _ => {
            let positions = ctg::dump(&book).map_err(CliError::input)?;
            let (mut moves, mut problems) = (0usize, 0usize);
            for p in &positions {
                moves += p.moves.len();
                problems += p.problems.len();
                serde_json::to_writer(&mut out, &p.json_line()).map_err(|e| written_error(e.into()))?;
                out.write_all(b"\n").map_err(written_error)?;
            }
            out.finish(&args.output)?;
            summary(
                global.quiet,
                format!(
                    "{}: {} ({} reached from the start), {}, {}",
                    args.output.display(),
                    counted(positions.len() as u64, "position"),
                    positions.iter().filter(|p| p.reached).count(),
                    counted(moves as u64, "move"),
                    counted(problems as u64, "problem")
                ),
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// CTG → Kvetka: the book's records as Kvetka elements, written as `stem_0.kob` … and `.kin`.
fn to_kvetka(book: &Book, args: &ConvertArgs, global: &Global) -> Result<ExitCode, CliError> {
    let caption = book.paths().ctg.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let header = kvetka::Header { caption, ..kvetka::Header::default() };
    // Kvetka keeps no weights: the rule given does not matter here.
    let (model, reading) = ctg::read_model(book, Weights::Raw).map_err(CliError::input)?;
    let export = kvetka::convert::write_model(&model, header).map_err(CliError::input)?;
    let written = &export.book;
    written.write(&args.output, &Default::default()).map_err(|e| CliError::output(&args.output, e))?;
    summary(
        global.quiet,
        format!(
            "{}: {} positions in {} blocks; {} positions over 176 bits and {} undecodable moves skipped; \
             {} games without a result not carried over (Kvetka keeps W/D/L only)",
            args.output.display(),
            written.element_count(),
            written.blocks.len(),
            export.too_long,
            reading.undecodable + export.moves_without_code,
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
