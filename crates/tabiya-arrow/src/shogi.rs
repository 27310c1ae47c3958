//! T-BASE tsume problems as Parquet: one row per problem, with the fields of the JSON Lines
//! export (`tabiya_shogi::tbase::to_json`, so both exports say the same) as typed columns.
//!
//! | column | type | what |
//! |---|---|---|
//! | `problem_index` | uint64 | the problem's place in the output, from 0 |
//! | `number` | uint16 | 作品番号 |
//! | `form` | string | `four_line` or `three_line` |
//! | `sfen` | string | the problem position (null when the record's pieces are not a legal set) |
//! | `author` `author_code` `source` `source_code` `source_number` `date` `note` `title` `prizes` `original_source` | string | the record's text fields |
//! | `king_square` `final_king` | string | squares as `53` (file, rank) |
//! | `moves` | uint16 | 詰手数 |
//! | `originality` `jissen` `completeness` `final_pieces` `final_attacker_pieces` | uint8 | the record's codes and counts |
//! | `index` `tail` | string | the undocumented bytes, as text |
//! | `solution_usi` | list of string | the solution in USI, when it replays (else empty, with a warning) |
//! | `solution` | string | the solution as the `.tjn` writes it |
//! | `comment` | string | the `.rem` comment, lines joined by newlines |

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{ArrayBuilder, ListBuilder, StringBuilder, UInt8Builder, UInt16Builder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use serde_json::Value;
use tabiya_io::Diagnostic;
use tabiya_shogi::tbase::{self, FileSet};
use tabiya_shogi::tsume::check_solution;

use crate::ArrowError;
use crate::table::{Rows, TableWriter};

/// How a JSON field of a problem is held.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Text,
    U16,
    U8,
    Texts,
}

/// The columns after `problem_index`: `to_json`'s fields, in its order.
const FIELDS: [(&str, Kind); 25] = [
    ("number", Kind::U16),
    ("form", Kind::Text),
    ("sfen", Kind::Text),
    ("author", Kind::Text),
    ("author_code", Kind::Text),
    ("source", Kind::Text),
    ("source_code", Kind::Text),
    ("source_number", Kind::Text),
    ("date", Kind::Text),
    ("king_square", Kind::Text),
    ("moves", Kind::U16),
    ("originality", Kind::U8),
    ("note", Kind::Text),
    ("title", Kind::Text),
    ("jissen", Kind::U8),
    ("completeness", Kind::U8),
    ("prizes", Kind::Text),
    ("original_source", Kind::Text),
    ("final_king", Kind::Text),
    ("final_pieces", Kind::U8),
    ("final_attacker_pieces", Kind::U8),
    ("index", Kind::Text),
    ("tail", Kind::Text),
    ("solution_usi", Kind::Texts),
    ("solution", Kind::Text),
];

/// The problems table's schema (see the module's table).
pub fn schema() -> Schema {
    let mut fields = vec![Field::new("problem_index", DataType::UInt64, false)];
    fields.extend(FIELDS.iter().map(|&(name, kind)| {
        let data_type = match kind {
            Kind::Text => DataType::Utf8,
            Kind::U16 => DataType::UInt16,
            Kind::U8 => DataType::UInt8,
            Kind::Texts => DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
        };
        Field::new(name, data_type, true)
    }));
    fields.push(Field::new("comment", DataType::Utf8, true));
    Schema::new(fields)
}

/// One column being filled.
enum Column {
    Text(StringBuilder),
    U16(UInt16Builder),
    U8(UInt8Builder),
    Texts(ListBuilder<StringBuilder>),
}

impl Column {
    fn new(kind: Kind) -> Column {
        match kind {
            Kind::Text => Column::Text(StringBuilder::new()),
            Kind::U16 => Column::U16(UInt16Builder::new()),
            Kind::U8 => Column::U8(UInt8Builder::new()),
            Kind::Texts => Column::Texts(ListBuilder::new(StringBuilder::new())),
        }
    }

    fn push(&mut self, value: &Value) {
        match self {
            Column::Text(b) => b.append_option(value.as_str()),
            Column::U16(b) => b.append_option(value.as_u64().and_then(|n| u16::try_from(n).ok())),
            Column::U8(b) => b.append_option(value.as_u64().and_then(|n| u8::try_from(n).ok())),
            Column::Texts(b) => {
                for item in value.as_array().into_iter().flatten() {
                    b.values().append_option(item.as_str());
                }
                b.append(true);
            }
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Column::Text(b) => Arc::new(b.finish()),
            Column::U16(b) => Arc::new(b.finish()),
            Column::U8(b) => Arc::new(b.finish()),
            Column::Texts(b) => Arc::new(b.finish()),
        }
    }
}

struct ProblemRows {
    index: UInt64Builder,
    columns: Vec<Column>,
    comment: StringBuilder,
}

impl Rows for ProblemRows {
    fn len(&self) -> usize {
        self.index.len()
    }

    fn batch(&mut self, schema: &Arc<Schema>) -> Result<RecordBatch, ArrowError> {
        let mut columns: Vec<ArrayRef> = vec![Arc::new(self.index.finish())];
        columns.extend(self.columns.iter_mut().map(Column::finish));
        columns.push(Arc::new(self.comment.finish()));
        Ok(RecordBatch::try_new(schema.clone(), columns)?)
    }
}

/// What writing a T-BASE set as Parquet did.
#[derive(Debug, Default)]
pub struct ProblemsSummary {
    /// Problems written.
    pub problems: u64,
    /// Records that could not be decoded (left out) and solutions that do not replay
    /// (written without `solution_usi`): warnings, as the other exports give them.
    pub diagnostics: Vec<Diagnostic>,
}

/// Writes the problems of the T-BASE set of `dia` (its `.tjn` and `.rem` found beside it) to
/// `out` as Parquet; the summary and the output.
pub fn write_problems<W: Write + Send>(dia: &Path, out: W) -> Result<(ProblemsSummary, W), ArrowError> {
    let contents =
        FileSet::beside(dia).read().map_err(|e| ArrowError::NotGames { path: dia.into(), what: e.to_string() })?;
    let mut summary = ProblemsSummary { diagnostics: contents.findings.clone(), ..ProblemsSummary::default() };
    for error in contents.records.iter().filter_map(|r| r.as_ref().err()) {
        let d = error.diagnostic("tbase.record");
        summary.diagnostics.push(Diagnostic::warning(d.code, d.location, format!("{} (record skipped)", d.message)));
    }
    let rows = ProblemRows {
        index: UInt64Builder::new(),
        columns: FIELDS.iter().map(|&(_, kind)| Column::new(kind)).collect(),
        comment: StringBuilder::new(),
    };
    let mut writer = TableWriter::new(out, schema(), &[], rows)?;
    for (n, problem) in contents.problems().enumerate() {
        let mut moves = Vec::new();
        if let Some(solution) = problem.solution {
            let check = check_solution(problem.diagram, solution);
            if check.moves.len() == solution.moves.len() {
                moves = check.moves;
            } else {
                let what = "the solution does not replay; written without solution_usi";
                summary.diagnostics.push(Diagnostic::warning(
                    "tbase.solution_left_out",
                    problem.location.clone(),
                    what,
                ));
            }
        }
        let value = tbase::to_json(problem.diagram, &moves, problem.solution, problem.comment);
        writer.rows.index.append_value(n as u64);
        for (column, (name, _)) in writer.rows.columns.iter_mut().zip(FIELDS) {
            column.push(&value[name]);
        }
        writer.rows.comment.append_option(value["comment"].as_str());
        writer.flush_full()?;
    }
    let (problems, out) = writer.finish()?;
    summary.problems = problems;
    Ok((summary, out))
}
