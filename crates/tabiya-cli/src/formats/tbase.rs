//! T-BASE tsume shogi (.dia .tjn .rem) and shogi notations (KIF, KI2, CSA, SFEN): info, verify,
//! conversion. The format logic lives in `tabiya_shogi`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;
use tabiya_io::Codepage;

use crate::registry::Format;
use tabiya_shogi::board::Move;
use tabiya_shogi::notation::{Kifu, csa, kif, sfen};
use tabiya_shogi::tbase::{self, Comment, Contents, Diagram, FileSet, Solution};
use tabiya_shogi::tsume::check_solution;

use crate::args::*;
use crate::report::{CliError, InfoReport, Output, VerifyReport, summary};

#[derive(Debug, Default, clap::Args)]
#[group(skip)]
pub struct ConvertOptions {}

fn input_error(e: impl std::fmt::Display) -> CliError {
    CliError::Input(e.to_string())
}

fn read_set(path: &Path) -> Result<(FileSet, Contents), CliError> {
    let set = FileSet::beside(path);
    let contents = set.read().map_err(input_error)?;
    Ok((set, contents))
}

pub fn info(path: &Path, format: Format, args: &InfoArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let mut report = InfoReport::new(path, format);
    let size = std::fs::metadata(path).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?.len();
    report.count("bytes", size);
    match format {
        Format::Shogi(tabiya_shogi::Format::TbaseDiagrams)
        | Format::Shogi(tabiya_shogi::Format::TbaseSolutions)
        | Format::Shogi(tabiya_shogi::Format::TbaseComments) => {
            let (set, contents) = read_set(path)?;
            let diagrams: Vec<&Diagram> = contents.problems().map(|p| p.diagram).collect();
            let three = diagrams.iter().filter(|d| d.form == tbase::Form::ThreeLine).count();
            report.count("records", contents.records.len());
            report.count("unreadable_records", contents.records.len() - diagrams.len());
            report.count("three_line_records", three);
            report.count("four_line_records", diagrams.len() - three);
            report.count("solutions", contents.solutions.len());
            report.count("comments", contents.comments.len());
            report.header("dia", set.dia.display().to_string());
            report.header("tjn", set.tjn.map(|p| p.display().to_string()));
            report.header("rem", set.rem.map(|p| p.display().to_string()));
            if let (Some(first), Some(last)) = (diagrams.first(), diagrams.last()) {
                report.header("first_number", first.number);
                report.header("last_number", last.number);
            }
        }
        _ => {
            let records = read_records(path, format)?;
            report.count("records", records.len());
            report.count("moves", records.iter().map(|k| k.moves.len()).sum::<usize>());
            if let Some(first) = records.first() {
                report.header("first_sfen", sfen::write(&first.start));
                for (k, v) in &first.headers {
                    report.header(k, v.as_str());
                }
            }
        }
    }
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(ExitCode::SUCCESS)
}

pub fn verify(path: &Path, _format: Format, args: &VerifyArgs, _global: &Global) -> Result<ExitCode, CliError> {
    let (set, contents) = read_set(path)?;
    let v = contents.verify(set.tjn.is_some());
    // Whichever file of the set was named, the set is verified and named by its .dia.
    let mut report = VerifyReport::new(&set.dia, Format::Shogi(tabiya_shogi::Format::TbaseDiagrams));
    report
        .checked("records", v.records)
        .checked("decoded", v.decoded)
        .checked("solutions", v.solutions)
        .checked("mates", v.mates)
        .checked("comments", v.comments)
        .checked("completeness_flagged", v.flagged);
    for finding in &v.findings {
        report.problem(finding.severity, &finding.location, finding.what.as_str());
    }
    report.print(args.json).map_err(|e| CliError::output(Path::new("-"), e))?;
    Ok(report.exit_code())
}

/// The text of a KIF/KI2/CSA/SFEN file: UTF-8 when it is valid UTF-8, else Shift-JIS.
fn read_text(path: &Path) -> Result<String, CliError> {
    let bytes = tabiya_io::read_input(path).map_err(input_error)?;
    Ok(match Codepage::Utf8.decode_strict(&bytes) {
        Some(text) => text.into_owned(),
        None => Codepage::ShiftJis.decode(&bytes).into_owned(),
    })
}

fn read_records(path: &Path, format: Format) -> Result<Vec<Kifu>, CliError> {
    let text = read_text(path)?;
    let located = |e: tabiya_shogi::Error| input_error(e.in_file(path));
    match format {
        Format::Shogi(tabiya_shogi::Format::Kif) | Format::Shogi(tabiya_shogi::Format::Ki2) => {
            Ok(vec![kif::read(&text).map_err(located)?])
        }
        Format::Shogi(tabiya_shogi::Format::Csa) => csa::read(&text).map_err(located),
        Format::Shogi(tabiya_shogi::Format::Sfen) => text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, line)| {
                let position = sfen::parse(line)
                    .map_err(|e| CliError::Input(format!("{}: line {}: {e}", path.display(), i + 1)))?;
                Ok(Kifu::new(position))
            })
            .collect(),
        other => Err(CliError::Usage(format!("{other} is not a shogi record format"))),
    }
}

/// Text outputs in the encoding their extension promises: `.kifu`/`.ki2u` (and JSON) UTF-8,
/// `.kif`/`.ki2`/`.csa` Shift-JIS as the programs that made them expect.
fn encode_for(path: &Path, text: &str) -> Result<Vec<u8>, CliError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    if matches!(ext.as_str(), "kif" | "ki2" | "csa") {
        return Codepage::ShiftJis.encode(text).map(|b| b.into_owned()).map_err(|c| {
            CliError::Output(format!("{}: {c:?} has no Shift-JIS code (use .kifu/.ki2u)", path.display()))
        });
    }
    Ok(text.as_bytes().to_vec())
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let mut out = Output::create(path)?;
    out.write_all(bytes).map_err(|e| CliError::output(path, e))?;
    out.finish(path)
}

pub fn convert(args: &ConvertArgs, global: &Global, from: Format, to: Format) -> Option<Result<ExitCode, CliError>> {
    use tabiya_shogi::Format::*;
    let (Format::Shogi(from), Format::Shogi(to_shogi)) = (from, to) else { return None };
    let shogi_text = [Kif, Ki2, Csa, Sfen];
    match (from, to_shogi) {
        (TbaseDiagrams | TbaseSolutions | TbaseComments, Kif | Ki2 | Csa | Sfen | JsonLines | TbaseDiagrams) => {
            Some(export(args, global, to))
        }
        (f, TbaseDiagrams) if shogi_text.contains(&f) => Some(import(args, global, Format::Shogi(f))),
        (f, t) if shogi_text.contains(&f) && shogi_text.contains(&t) => {
            Some(between_notations(args, global, Format::Shogi(f), to))
        }
        _ => None,
    }
}

/// The problems of a .dia set with their solutions resolved (a solution that does not replay
/// is left out with a warning) and comments.
struct Exported<'a> {
    diagram: &'a Diagram,
    moves: Vec<Move>,
    solution: Option<&'a Solution>,
    comment: Option<&'a Comment>,
}

fn export(args: &ConvertArgs, global: &Global, to: Format) -> Result<ExitCode, CliError> {
    let input = &args.inputs[0];
    let (_set, contents) = read_set(input)?;
    if to == Format::Shogi(tabiya_shogi::Format::TbaseDiagrams) {
        return copy_set(args, global, &contents);
    }
    let mut skipped = 0;
    let mut problems = Vec::new();
    for record in &contents.records {
        if let Err(e) = record {
            skipped += 1;
            summary(global.quiet, format!("warning: {e} (record skipped)"));
        }
    }
    for p in contents.problems() {
        let moves = match p.solution {
            Some(solution) => {
                let check = check_solution(p.diagram, solution);
                if check.moves.len() != solution.moves.len() {
                    summary(
                        global.quiet,
                        format!("warning: {}: the solution does not replay; written without it", p.location),
                    );
                    Vec::new()
                } else {
                    check.moves
                }
            }
            None => Vec::new(),
        };
        problems.push(Exported { diagram: p.diagram, moves, solution: p.solution, comment: p.comment });
    }
    let out = &args.output;
    match to {
        Format::Shogi(tabiya_shogi::Format::Kif) | Format::Shogi(tabiya_shogi::Format::Ki2) => {
            let flavour =
                if to == Format::Shogi(tabiya_shogi::Format::Kif) { kif::Flavour::Kif } else { kif::Flavour::Ki2 };
            // Several problems go to numbered files, or one after another to standard output.
            let single = problems.len() == 1 || out.as_os_str() == "-";
            for p in &problems {
                let text = kif::write(&tbase::to_kifu(p.diagram, &p.moves, p.comment), flavour);
                let path = if single { out.clone() } else { numbered(out, p.diagram.number) };
                write_file(&path, &encode_for(&path, &text)?)?;
            }
        }
        Format::Shogi(tabiya_shogi::Format::Csa) => {
            let records: Vec<Kifu> = problems.iter().map(|p| tbase::to_kifu(p.diagram, &p.moves, p.comment)).collect();
            write_file(out, &encode_for(out, &csa::write(&records, true))?)?;
        }
        Format::Shogi(tabiya_shogi::Format::Sfen) => {
            let text: String = problems.iter().map(|p| p.diagram.sfen() + "\n").collect();
            write_file(out, text.as_bytes())?;
        }
        _ => {
            let mut text = String::new();
            for p in &problems {
                let value: Value = tbase::to_json(p.diagram, &p.moves, p.solution, p.comment);
                text.push_str(&value.to_string());
                text.push('\n');
            }
            write_file(out, text.as_bytes())?;
        }
    }
    summary(global.quiet, format!("{} problems written, {skipped} unreadable records skipped", problems.len()));
    Ok(ExitCode::SUCCESS)
}

/// `out_0003.kif` for problem 3 when several problems go to KIF/KI2 (one record per file).
fn numbered(out: &Path, number: u16) -> PathBuf {
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = out.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
    out.with_file_name(format!("{stem}_{number:04}.{ext}"))
}

/// The .tjn and .rem beside an output .dia.
fn set_paths(out: &Path) -> (PathBuf, PathBuf) {
    (out.with_extension("tjn"), out.with_extension("rem"))
}

/// .dia → .dia: the records that decode, byte for byte as read (re-encoded records would
/// normalise derived fields; LF line ends become CR LF), with their .tjn and .rem rewritten
/// beside the output.
fn copy_set(args: &ConvertArgs, global: &Global, contents: &Contents) -> Result<ExitCode, CliError> {
    for error in contents.records.iter().filter_map(|r| r.as_ref().err()) {
        summary(global.quiet, format!("warning: {error} (record not copied)"));
    }
    let dia: Vec<u8> = contents.records.iter().flatten().flat_map(|record| record.bytes).collect();
    write_set(&args.output, &dia, &contents.solutions, &contents.comments)?;
    summary(global.quiet, format!("{} records written", dia.len() / tbase::RECORD_LEN));
    Ok(ExitCode::SUCCESS)
}

/// Writes a set: the .tjn and .rem first, the .dia last (the .dia names the set).
fn write_set(out: &Path, dia: &[u8], solutions: &[Solution], comments: &[Comment]) -> Result<(), CliError> {
    let (tjn, rem) = set_paths(out);
    let invalid = |e: tabiya_shogi::Error| CliError::Output(e.to_string());
    if !solutions.is_empty() {
        write_file(&tjn, &tbase::write_solutions(solutions).map_err(invalid)?)?;
    }
    if !comments.is_empty() {
        write_file(&rem, &tbase::write_comments(comments).map_err(invalid)?)?;
    }
    write_file(out, dia)
}

/// KIF/KI2/CSA/SFEN → .dia (+ .tjn, .rem): one problem per record; numbers from `作品番号`
/// headers, else counted from 1.
fn import(args: &ConvertArgs, global: &Global, from: Format) -> Result<ExitCode, CliError> {
    let mut dia = Vec::new();
    let mut solutions = Vec::new();
    let mut comments = Vec::new();
    let mut count = 0u16;
    for input in &args.inputs {
        for kifu in read_records(input, from)? {
            count += 1;
            let (diagram, solution, comment, notes) = tbase::from_kifu(&kifu, count);
            for note in notes {
                summary(global.quiet, format!("warning: {} (problem {count}): {note}", input.display()));
            }
            let record = diagram.encode().map_err(|e| CliError::Input(format!("{}: {e}", input.display())))?;
            dia.extend_from_slice(&record);
            if !solution.moves.is_empty() {
                solutions.push(solution);
            }
            comments.extend(comment);
        }
    }
    write_set(&args.output, &dia, &solutions, &comments)?;
    summary(global.quiet, format!("{count} problems written"));
    Ok(ExitCode::SUCCESS)
}

fn between_notations(args: &ConvertArgs, global: &Global, from: Format, to: Format) -> Result<ExitCode, CliError> {
    let mut records = Vec::new();
    for input in &args.inputs {
        records.extend(read_records(input, from)?);
    }
    let out = &args.output;
    let text = match to {
        Format::Shogi(tabiya_shogi::Format::Csa) => csa::write(&records, false),
        Format::Shogi(tabiya_shogi::Format::Sfen) => records.iter().map(|k| sfen::write(&k.start) + "\n").collect(),
        _ => {
            if records.len() != 1 {
                return Err(CliError::Usage(format!(
                    "{}: KIF and KI2 hold one record; {} given",
                    out.display(),
                    records.len()
                )));
            }
            kif::write(
                &records[0],
                if to == Format::Shogi(tabiya_shogi::Format::Kif) { kif::Flavour::Kif } else { kif::Flavour::Ki2 },
            )
        }
    };
    write_file(out, &encode_for(out, &text)?)?;
    summary(global.quiet, format!("{} records written", records.len()));
    Ok(ExitCode::SUCCESS)
}

/// The shogi formats take no options of their own yet.
pub fn takes(_part: super::Part) -> &'static [&'static str] {
    &[]
}
