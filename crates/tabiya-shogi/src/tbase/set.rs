//! A T-BASE file set: the `.dia` file with the `.tjn` and `.rem` of the same stem beside it,
//! read together and verified problem by problem.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use tabiya_io::report::{Info, Verification};
use tabiya_io::{Location, Transaction, read_input};

use super::{Comment, DiaRecord, Diagram, Solution, dia_records, read_comments, read_solutions};
use crate::tsume::{SolutionCheck, check_solution};
use tabiya_io::Diagnostic;

use crate::{Error, Format};

/// The paths of a file set. Extensions are matched without regard to case (`.DIA`, `.TJN`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSet {
    /// The `.dia` file.
    pub dia: PathBuf,
    /// The `.tjn` beside it, if there is one.
    pub tjn: Option<PathBuf>,
    /// The `.rem` beside it, if there is one.
    pub rem: Option<PathBuf>,
}

fn sibling(path: &Path, ext: &str) -> Option<PathBuf> {
    [ext.to_owned(), ext.to_ascii_uppercase()].into_iter().map(|e| path.with_extension(e)).find(|p| p.is_file())
}

impl FileSet {
    /// The set that `path` (any of its files) belongs to.
    pub fn beside(path: &Path) -> FileSet {
        FileSet {
            dia: sibling(path, "dia").unwrap_or_else(|| path.with_extension("dia")),
            tjn: sibling(path, "tjn"),
            rem: sibling(path, "rem"),
        }
    }

    /// Reads the three files. Records that do not decode are kept as errors; only an unreadable
    /// file is an `Err`.
    /// A commit that a killed writer left is completed first, so that the set read is the
    /// old one or the new one, whole.
    pub fn read(&self) -> Result<Contents, Error> {
        let stem = self.dia.with_extension("");
        if Transaction::recover(&stem).map_err(|e| Error::io(&self.dia, e))? {
            return FileSet::beside(&self.dia).read();
        }
        let bytes = read_input(&self.dia).map_err(|e| Error::of_input(e, &self.dia))?;
        let records = dia_records(&bytes)
            .map(|r| match r {
                Ok(record) => Ok(DiaRecord { findings: in_file(record.findings, &self.dia), ..record }),
                Err(e) => Err(e.in_file(&self.dia)),
            })
            .collect();
        let mut findings = Vec::new();
        let mut solutions = Vec::new();
        if let Some(tjn) = &self.tjn {
            let bytes = read_input(tjn).map_err(|e| Error::of_input(e, tjn))?;
            let (read, found) = read_solutions(&bytes);
            solutions = read
                .into_iter()
                .map(|mut s| {
                    s.location = s.location.in_file(tjn);
                    s
                })
                .collect();
            findings.extend(in_file(found, tjn));
        }
        let mut comments = Vec::new();
        if let Some(rem) = &self.rem {
            let bytes = read_input(rem).map_err(|e| Error::of_input(e, rem))?;
            let (read, found) = read_comments(&bytes);
            comments = read
                .into_iter()
                .map(|mut c| {
                    c.location = c.location.in_file(rem);
                    c
                })
                .collect();
            findings.extend(in_file(found, rem));
        }
        Ok(Contents { dia: self.dia.clone(), records, solutions, comments, findings })
    }
}

fn in_file(findings: Vec<Diagnostic>, path: &Path) -> Vec<Diagnostic> {
    findings
        .into_iter()
        .map(|mut f| {
            f.location = f.location.in_file(path);
            f
        })
        .collect()
}

/// What a file set holds.
#[derive(Debug)]
pub struct Contents {
    /// The `.dia` file, for the locations of findings.
    pub dia: PathBuf,
    /// Every `.dia` record in order, or its error.
    pub records: Vec<Result<DiaRecord, Error>>,
    /// The `.tjn` solutions in file order.
    pub solutions: Vec<Solution>,
    /// The `.rem` comments in file order.
    pub comments: Vec<Comment>,
    /// Findings of the `.tjn` and `.rem` readers.
    pub findings: Vec<Diagnostic>,
}

/// One problem of a set, with its solution and comment found by 作品番号.
#[derive(Debug, Clone)]
pub struct Problem<'a> {
    /// The record's place: the `.dia` file, its offset and 1-based record number.
    pub location: Location,
    /// The decoded record.
    pub diagram: &'a Diagram,
    /// The first solution of its 作品番号.
    pub solution: Option<&'a Solution>,
    /// The first comment of its 作品番号.
    pub comment: Option<&'a Comment>,
}

impl Contents {
    /// The problems that decoded, each with the first solution and comment of its number.
    pub fn problems(&self) -> impl Iterator<Item = Problem<'_>> {
        let solutions = first_by_number(self.solutions.iter().map(|s| (s.number, s)));
        let comments = first_by_number(self.comments.iter().map(|c| (c.number, c)));
        let records = self.records.iter().enumerate();
        records.filter_map(|(i, r)| Some((i, r.as_ref().ok()?))).map(move |(i, record)| Problem {
            location: super::read::location(i as u64, 0).in_file(&self.dia),
            diagram: &record.diagram,
            solution: solutions.get(&record.diagram.number).copied(),
            comment: comments.get(&record.diagram.number).copied(),
        })
    }

    /// Checks every record and, where the `.tjn` has one, its solution (see [`check_solution`]);
    /// reports the 完全性 flags, solutions and comments without a diagram, diagrams without a
    /// solution when a `.tjn` was read.
    pub fn verify(&self, with_solutions: bool) -> Verification {
        let mut v = Verification::new(&self.dia, Format::TbaseDiagrams.name());
        let mut counts = Counts::default();
        v.problems(self.findings.iter().cloned());
        let mut numbers = HashMap::new();
        for (i, record) in self.records.iter().enumerate() {
            match record {
                Err(e) => v.problem(e.diagnostic("tbase.record")),
                Ok(DiaRecord { diagram, findings, .. }) => {
                    counts.decoded += 1;
                    v.problems(findings.iter().cloned());
                    let at = super::read::location(i as u64, 0).in_file(&self.dia);
                    if let Some(previous) = numbers.insert(diagram.number, at.clone()) {
                        v.problem(Diagnostic::warning(
                            "tbase.duplicate_number",
                            at.clone(),
                            format!("作品番号 {:04} also at {previous}", diagram.number),
                        ));
                    }
                    if let (Some(code @ 1..), Some(text)) = (diagram.completeness, diagram.completeness_text()) {
                        counts.flagged += 1;
                        v.problem(Diagnostic::warning("tbase.completeness", at, format!("完全性 {code}: {text}")));
                    }
                }
            }
        }
        // Replaying solutions is the expensive part and independent per problem: in parallel,
        // findings kept in record order.
        let problems: Vec<Problem<'_>> = self.problems().collect();
        let checks: Vec<(Option<SolutionCheck>, Location, u16)> = problems
            .par_iter()
            .map(|p| (p.solution.map(|s| check_solution(p.diagram, s)), p.location.clone(), p.diagram.number))
            .collect();
        for (check, location, number) in checks {
            match check {
                Some(check) => {
                    counts.solutions += 1;
                    counts.mates += usize::from(check.mates);
                    v.problems(check.findings);
                }
                None if with_solutions => {
                    v.problem(Diagnostic::warning(
                        "tbase.no_solution",
                        location,
                        format!("作品番号 {number:04}: no solution in the .tjn"),
                    ));
                }
                None => {}
            }
        }
        for solution in &self.solutions {
            if !numbers.contains_key(&solution.number) {
                let what = format!("solution of 作品番号 {:04}, which the .dia does not have", solution.number);
                v.problem(Diagnostic::warning("tbase.orphan_solution", solution.location.clone(), what));
            }
        }
        for comment in &self.comments {
            if !numbers.contains_key(&comment.number) {
                let what = format!("comment of 作品番号 {:04}, which the .dia does not have", comment.number);
                v.problem(Diagnostic::warning("tbase.orphan_comment", comment.location.clone(), what));
            }
        }
        v.checked("records", self.records.len())
            .checked("decoded", counts.decoded)
            .checked("solutions", counts.solutions)
            .checked("mates", counts.mates)
            .checked("comments", self.comments.len())
            .checked("completeness_flagged", counts.flagged);
        v
    }
}

/// What [`Contents::verify`] counts besides the records and comments.
#[derive(Default)]
struct Counts {
    decoded: usize,
    solutions: usize,
    mates: usize,
    /// Records whose 完全性 flag says the stored line may not be a solver's answer (1–4).
    flagged: usize,
}

fn first_by_number<'a, T>(items: impl Iterator<Item = (u16, &'a T)>) -> HashMap<u16, &'a T> {
    let mut map = HashMap::new();
    for (number, item) in items {
        map.entry(number).or_insert(item);
    }
    map
}

/// `verify` of the set `path` belongs to (any of its files names it): every record, solution
/// and comment (see [`Contents::verify`]); the report is named by the `.dia`.
pub fn verify(path: &Path) -> Result<Verification, Error> {
    let set = FileSet::beside(path);
    Ok(set.read()?.verify(set.tjn.is_some()))
}

/// `info` of the set `path` belongs to, reported as the file named (`format` is its format):
/// bytes of that file, records by form, solutions, comments, the set's files and the first and
/// last 作品番号.
pub fn info(path: &Path, format: Format) -> Result<Info, Error> {
    let mut info = Info::new(path, format.name());
    info.count("bytes", std::fs::metadata(path).map_err(|e| Error::io(path, e))?.len());
    let set = FileSet::beside(path);
    let contents = set.read()?;
    let diagrams: Vec<&Diagram> = contents.problems().map(|p| p.diagram).collect();
    let three = diagrams.iter().filter(|d| d.form == super::Form::ThreeLine).count();
    info.count("records", contents.records.len())
        .count("unreadable_records", contents.records.len() - diagrams.len())
        .count("three_line_records", three)
        .count("four_line_records", diagrams.len() - three)
        .count("solutions", contents.solutions.len())
        .count("comments", contents.comments.len());
    let name = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    info.header("dia", set.dia.display().to_string()).header("tjn", name(&set.tjn)).header("rem", name(&set.rem));
    if let (Some(first), Some(last)) = (diagrams.first(), diagrams.last()) {
        info.header("first_number", first.number).header("last_number", last.number);
    }
    Ok(info)
}
