//! A T-BASE file set: the `.dia` file with the `.tjn` and `.rem` of the same stem beside it,
//! read together and verified problem by problem.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use tabiya_io::{Location, read_input};

use super::{Comment, DiaRecord, Diagram, Solution, dia_records, read_comments, read_solutions};
use crate::tsume::{SolutionCheck, check_solution};
use crate::{Error, Finding, Severity};

/// The paths of a file set. Extensions are matched without regard to case (`.DIA`, `.TJN`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSet {
    pub dia: PathBuf,
    pub tjn: Option<PathBuf>,
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
    pub fn read(&self) -> Result<Contents, Error> {
        let bytes = read_input(&self.dia).map_err(|e| io_error(e, &self.dia))?;
        let records = dia_records(&bytes)
            .map(|r| match r {
                Ok(record) => Ok(DiaRecord { findings: in_file(record.findings, &self.dia), ..record }),
                Err(e) => Err(e.in_file(&self.dia)),
            })
            .collect();
        let mut findings = Vec::new();
        let mut solutions = Vec::new();
        if let Some(tjn) = &self.tjn {
            let bytes = read_input(tjn).map_err(|e| io_error(e, tjn))?;
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
            let bytes = read_input(rem).map_err(|e| io_error(e, rem))?;
            let (read, found) = read_comments(&bytes);
            comments = read;
            findings.extend(in_file(found, rem));
        }
        Ok(Contents { dia: self.dia.clone(), records, solutions, comments, findings })
    }
}

fn io_error(e: tabiya_io::Error, path: &Path) -> Error {
    match e {
        tabiya_io::Error::Io { source, .. } => Error::io(path, source),
        tabiya_io::Error::Data(d) => Error::Data(d.in_file(path)),
    }
}

fn in_file(findings: Vec<Finding>, path: &Path) -> Vec<Finding> {
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
    pub solutions: Vec<Solution>,
    pub comments: Vec<Comment>,
    /// Findings of the `.tjn` and `.rem` readers.
    pub findings: Vec<Finding>,
}

/// One problem of a set, with its solution and comment found by 作品番号.
#[derive(Debug, Clone)]
pub struct Problem<'a> {
    /// The record's place: the `.dia` file, its offset and 1-based record number.
    pub location: Location,
    pub diagram: &'a Diagram,
    pub solution: Option<&'a Solution>,
    pub comment: Option<&'a Comment>,
}

/// The result of [`Contents::verify`].
#[derive(Debug, Clone, Default)]
pub struct Verification {
    pub records: usize,
    pub decoded: usize,
    pub solutions: usize,
    pub mates: usize,
    pub comments: usize,
    /// Records whose 完全性 flag says the stored line may not be a solver's answer (1–4).
    pub flagged: usize,
    pub findings: Vec<Finding>,
}

impl Verification {
    pub fn errors(&self) -> usize {
        self.findings.iter().filter(|f| f.severity == Severity::Error).count()
    }
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
        let mut v =
            Verification { records: self.records.len(), comments: self.comments.len(), ..Verification::default() };
        v.findings.extend(self.findings.iter().cloned());
        let mut numbers = HashMap::new();
        for (i, record) in self.records.iter().enumerate() {
            match record {
                Err(e) => v.findings.push(Finding::error(error_location(e), error_text(e))),
                Ok(DiaRecord { diagram, findings, .. }) => {
                    v.decoded += 1;
                    v.findings.extend(findings.iter().cloned());
                    let at = super::read::location(i as u64, 0).in_file(&self.dia);
                    if let Some(previous) = numbers.insert(diagram.number, at.clone()) {
                        v.findings.push(Finding::warning(
                            at.clone(),
                            format!("作品番号 {:04} also at {previous}", diagram.number),
                        ));
                    }
                    if let (Some(code @ 1..), Some(text)) = (diagram.completeness, diagram.completeness_text()) {
                        v.flagged += 1;
                        v.findings.push(Finding::warning(at, format!("完全性 {code}: {text}")));
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
                    v.solutions += 1;
                    v.mates += usize::from(check.mates);
                    v.findings.extend(check.findings);
                }
                None if with_solutions => {
                    v.findings
                        .push(Finding::warning(location, format!("作品番号 {number:04}: no solution in the .tjn")));
                }
                None => {}
            }
        }
        for solution in &self.solutions {
            if !numbers.contains_key(&solution.number) {
                let what = format!("solution of 作品番号 {:04}, which the .dia does not have", solution.number);
                v.findings.push(Finding::warning(solution.location.clone(), what));
            }
        }
        for comment in &self.comments {
            if !numbers.contains_key(&comment.number) {
                let what = format!("comment of 作品番号 {:04}, which the .dia does not have", comment.number);
                v.findings.push(Finding::warning(comment.location.clone(), what));
            }
        }
        v
    }
}

fn first_by_number<'a, T>(items: impl Iterator<Item = (u16, &'a T)>) -> HashMap<u16, &'a T> {
    let mut map = HashMap::new();
    for (number, item) in items {
        map.entry(number).or_insert(item);
    }
    map
}

fn error_location(e: &Error) -> Location {
    match e {
        Error::Data(d) => d.location.clone(),
        Error::Move { location, .. } => location.clone(),
        Error::Io { path, .. } => Location { file: Some(path.clone()), ..Default::default() },
    }
}

fn error_text(e: &Error) -> String {
    match e {
        Error::Data(d) => match &d.found {
            Some(found) => format!("expected {}, found {found}", d.expected),
            None => format!("expected {}", d.expected),
        },
        other => other.to_string(),
    }
}
