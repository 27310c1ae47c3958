//! `convert` for the shogi family: every source (a T-BASE set; KIF, KI2, CSA, SFEN files) to
//! every sink (T-BASE, KIF, KI2, CSA, SFEN, JSON Lines). The result is the list of files to
//! write, in the order to write them (a T-BASE set's `.dia` last: it names the set), and what
//! the conversion met.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use shogi_core::Move;
use tabiya_io::{Diagnostic, Location};

use crate::notation::Kifu;
use crate::records;
use crate::tbase::{self, Comment, Contents, Diagram, FileSet, Solution};
use crate::tsume::check_solution;
use crate::{Encoding, Error, Format};

/// One input of a conversion and its format (each input is read in its own format).
#[derive(Debug, Clone)]
pub struct Input {
    /// The file.
    pub path: PathBuf,
    /// Its format.
    pub format: Format,
}

/// What to write.
#[derive(Debug, Clone)]
pub struct Output {
    /// The file named on the command line (`-` for standard output).
    pub path: PathBuf,
    /// Its format.
    pub format: Format,
    /// The text encoding of KIF, KI2 and CSA output; `None`: the extension's (`.kifu`,
    /// `.ki2u`: UTF-8), else the inputs' when they share one, else Shift-JIS.
    pub encoding: Option<Encoding>,
}

/// A file a conversion writes.
#[derive(Debug, Clone)]
pub struct OutputFile {
    /// Where (`-` for standard output).
    pub path: PathBuf,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// The result of [`convert`].
#[derive(Debug, Clone, Default)]
pub struct Conversion {
    /// The files to write, in order.
    pub files: Vec<OutputFile>,
    /// What the conversion met: records skipped, solutions left out, fields cut.
    pub diagnostics: Vec<Diagnostic>,
    /// A line for people: how many problems or records were written.
    pub summary: String,
}

/// Converts `inputs` to `output`. A T-BASE set is converted alone; KIF, KI2, CSA and SFEN
/// inputs may be mixed.
pub fn convert(inputs: &[Input], output: &Output) -> Result<Conversion, Error> {
    let tbase = |f: Format| matches!(f, Format::TbaseDiagrams | Format::TbaseSolutions | Format::TbaseComments);
    let to_tbase = output.format == Format::TbaseDiagrams;
    match inputs {
        [input] if tbase(input.format) => {
            let contents = FileSet::beside(&input.path).read()?;
            if to_tbase { Ok(copy_set(&contents, &output.path)) } else { export(&contents, output) }
        }
        _ if inputs.iter().any(|i| tbase(i.format)) => {
            Err(Error::Output("a T-BASE set is converted alone, without other inputs".into()))
        }
        _ => {
            let mut read = Vec::new();
            for input in inputs {
                read.push(records::read(&input.path, input.format, None)?);
            }
            if to_tbase {
                return import(read, &output.path);
            }
            let encodings: Vec<Encoding> = read.iter().map(|r| r.encoding).collect();
            let mut conversion = Conversion::default();
            let mut kifus = Vec::new();
            for file in read {
                conversion.diagnostics.extend(file.diagnostics);
                kifus.extend(file.records);
            }
            let encoding = output_encoding(output, &encodings);
            conversion.diagnostics.extend(records::left_out(&kifus, output.format));
            let bytes = records::write(&kifus, output.format, encoding)?;
            conversion.files.push(OutputFile { path: output.path.clone(), bytes });
            conversion.summary = format!("{} records written", kifus.len());
            Ok(conversion)
        }
    }
}

/// `--encoding`, else the extension's, else the inputs' when they agree, else Shift-JIS.
fn output_encoding(output: &Output, inputs: &[Encoding]) -> Encoding {
    let shared = inputs.first().copied().filter(|first| inputs.iter().all(|e| e == first));
    output.encoding.or_else(|| Encoding::of_extension(&output.path)).or(shared).unwrap_or(Encoding::ShiftJis)
}

/// The problems of a set with their solutions resolved (a solution that does not replay is
/// left out with a warning) and comments.
struct Exported<'a> {
    location: Location,
    diagram: &'a Diagram,
    moves: Vec<Move>,
    solution: Option<&'a Solution>,
    comment: Option<&'a Comment>,
}

/// T-BASE → KIF, KI2 (one file per problem, numbered `out_0003.kif`, unless one problem or
/// standard output), CSA (one file, `P-00AL`), SFEN (the problem positions), JSON Lines
/// (every field).
fn export(contents: &Contents, output: &Output) -> Result<Conversion, Error> {
    let mut conversion = Conversion::default();
    let mut skipped = 0;
    for error in contents.records.iter().filter_map(|r| r.as_ref().err()) {
        skipped += 1;
        let d = error.diagnostic("tbase.record");
        conversion.diagnostics.push(Diagnostic::warning(d.code, d.location, format!("{} (record skipped)", d.message)));
    }
    let mut problems = Vec::new();
    for p in contents.problems() {
        let moves = match p.solution {
            Some(solution) => {
                let check = check_solution(p.diagram, solution);
                if check.moves.len() == solution.moves.len() {
                    check.moves
                } else {
                    let what = "the solution does not replay; written without it";
                    conversion.diagnostics.push(Diagnostic::warning(
                        "tbase.solution_left_out",
                        p.location.clone(),
                        what,
                    ));
                    Vec::new()
                }
            }
            None => Vec::new(),
        };
        problems.push(Exported {
            location: p.location.clone(),
            diagram: p.diagram,
            moves,
            solution: p.solution,
            comment: p.comment,
        });
    }
    let kifu = |p: &Exported<'_>| tbase::to_kifu(p.diagram, &p.moves, p.comment);
    let encoding = output_encoding(output, &[]);
    let out = &output.path;
    let mut file = |path: PathBuf, bytes: Vec<u8>| conversion.files.push(OutputFile { path, bytes });
    match output.format {
        Format::Kif | Format::Ki2 => {
            let single = problems.len() == 1 || out.as_os_str() == "-";
            // Sets with a 作品番号 twice exist: the later problems get `_2`, `_3`… after the
            // number instead of replacing the first one's file.
            let mut written: HashMap<u16, usize> = HashMap::new();
            for p in &problems {
                let path = if single {
                    out.clone()
                } else {
                    let seen = written.entry(p.diagram.number).or_default();
                    *seen += 1;
                    let path = numbered(out, p.diagram.number, *seen);
                    if *seen > 1 {
                        let what = format!(
                            "作品番号 {:04} again: this problem is written to {}",
                            p.diagram.number,
                            path.display()
                        );
                        conversion.diagnostics.push(Diagnostic::warning(
                            "tbase.number_repeated",
                            p.location.clone(),
                            what,
                        ));
                    }
                    path
                };
                file(path, records::write(std::slice::from_ref(&kifu(p)), output.format, encoding)?);
            }
        }
        Format::Csa => {
            let text = crate::notation::csa::write(&problems.iter().map(kifu).collect::<Vec<Kifu>>(), true);
            file(out.clone(), records::encode(&text, Format::Csa, encoding)?);
        }
        Format::Sfen => file(out.clone(), problems.iter().map(|p| p.diagram.sfen() + "\n").collect::<String>().into()),
        Format::JsonLines => {
            let mut text = String::new();
            for p in &problems {
                let value: Value = tbase::to_json(p.diagram, &p.moves, p.solution, p.comment);
                text.push_str(&value.to_string());
                text.push('\n');
            }
            file(out.clone(), text.into_bytes());
        }
        other => return Err(Error::Output(format!("T-BASE is not converted to {other}"))),
    }
    conversion.summary = format!("problems written: {}, unreadable records skipped: {skipped}", problems.len());
    Ok(conversion)
}

/// `out_0003.kif` for problem 3 when several problems go to KIF/KI2 (one record per file), and
/// `out_0003_2.kif` for the second problem numbered 3.
fn numbered(out: &Path, number: u16, occurrence: usize) -> PathBuf {
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = out.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
    let again = if occurrence > 1 { format!("_{occurrence}") } else { String::new() };
    out.with_file_name(format!("{stem}_{number:04}{again}.{ext}"))
}

/// .dia → .dia: the records that decode, byte for byte as read (re-encoded records would
/// normalise derived fields; LF line ends become CR LF), with their .tjn and .rem rewritten
/// beside the output.
fn copy_set(contents: &Contents, out: &Path) -> Conversion {
    let mut conversion = Conversion::default();
    for error in contents.records.iter().filter_map(|r| r.as_ref().err()) {
        let d = error.diagnostic("tbase.record");
        let what = format!("{} (record not copied)", d.message);
        conversion.diagnostics.push(Diagnostic::warning(d.code, d.location, what));
    }
    let dia: Vec<u8> = contents.records.iter().flatten().flat_map(|record| record.bytes).collect();
    conversion.summary = format!("{} records written", dia.len() / tbase::RECORD_LEN);
    match set_files(out, dia, &contents.solutions, &contents.comments) {
        Ok(files) => conversion.files = files,
        Err(e) => conversion.diagnostics.push(e.diagnostic("tbase.write")),
    }
    conversion
}

/// A set's files: the .tjn and .rem first, the .dia last (the .dia names the set).
fn set_files(out: &Path, dia: Vec<u8>, solutions: &[Solution], comments: &[Comment]) -> Result<Vec<OutputFile>, Error> {
    let mut files = Vec::new();
    if !solutions.is_empty() {
        files.push(OutputFile { path: out.with_extension("tjn"), bytes: tbase::write_solutions(solutions)? });
    }
    if !comments.is_empty() {
        files.push(OutputFile { path: out.with_extension("rem"), bytes: tbase::write_comments(comments)? });
    }
    files.push(OutputFile { path: out.to_path_buf(), bytes: dia });
    Ok(files)
}

/// KIF/KI2/CSA/SFEN → .dia (+ .tjn, .rem): one problem per record; numbers from `作品番号`
/// headers, else counted from 1.
fn import(read: Vec<records::RecordFile>, out: &Path) -> Result<Conversion, Error> {
    let mut conversion = Conversion::default();
    let mut dia = Vec::new();
    let mut solutions = Vec::new();
    let mut comments = Vec::new();
    let mut count = 0u16;
    for file in read {
        conversion.diagnostics.extend(file.diagnostics);
        for kifu in file.records {
            count += 1;
            let (diagram, solution, comment, notes) = tbase::from_kifu(&kifu, count);
            let at = Location::record(u64::from(count));
            for note in notes {
                conversion.diagnostics.push(Diagnostic::warning(
                    "tbase.import",
                    at.clone(),
                    format!("problem {count}: {note}"),
                ));
            }
            dia.extend_from_slice(&diagram.encode()?);
            if !solution.moves.is_empty() {
                solutions.push(solution);
            }
            comments.extend(comment);
        }
    }
    conversion.files = set_files(out, dia, &solutions, &comments)?;
    conversion.summary = format!("problems written: {count}");
    Ok(conversion)
}
