//! Games read back from Parquet: tabiya's own games table (its `tags` and `movetext` give back
//! every tag in order and the movetext with comments, NAGs and variations) and tables of the
//! shape lichess publishes on Hugging Face (a `movetext` column with the PGN moves and a column
//! per tag: `Event`, `White`, `WhiteElo`, `UTCDate`, …).
//!
//! Each row is made into PGN text (its tags, then its movetext) and read by tabiya's PGN reader,
//! repairing as `convert` does for PGN, so a game reads back exactly as its PGN would. In a
//! table of the lichess shape each column but `movetext` is a tag, in the table's column order,
//! null cells left out; numbers are written in decimal (a whole float without its `.0`, a rating
//! difference with its sign, as lichess writes them), dates as `YYYY.MM.DD`, times `HH:MM:SS`.

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use tabiya_chess::game::Game;
use tabiya_chess::pgn::{PgnReader, ReadOptions};
use tabiya_io::{Diagnostic, Location, Unit};

use crate::ArrowError;
use crate::text::TextEncoding;

/// Rows read at a time.
const READ_BATCH: usize = 1024;

/// A game read from a table with what reading it found, or why a row could not be read.
pub type ReadRow = Result<(Game, Vec<Diagnostic>), ArrowError>;

/// The games of a Parquet file, in row order.
///
/// ```no_run
/// for row in tabiya_arrow::chess::ParquetGames::open("games.parquet".as_ref())? {
///     let (game, _found) = row?;
///     println!("{} plies", game.ply_count());
/// }
/// # Ok::<(), tabiya_arrow::ArrowError>(())
/// ```
pub struct ParquetGames {
    path: PathBuf,
    batches: ParquetRecordBatchReader,
    /// Rows of the batches before the ones in `read`.
    rows_before: u64,
    read: std::vec::IntoIter<ReadRow>,
    failed: bool,
}

impl ParquetGames {
    /// Opens `path`; refused when it has no `movetext` column (it is not a table of games).
    pub fn open(path: &Path) -> Result<ParquetGames, ArrowError> {
        let file = File::open(path).map_err(|source| ArrowError::Io { path: path.into(), source })?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| ArrowError::at(path, e))?;
        if builder.schema().column_with_name("movetext").is_none() {
            return Err(ArrowError::NotGames {
                path: path.into(),
                what: "a Parquet table without a movetext column (not a table of chess games)".into(),
            });
        }
        let batches = builder.with_batch_size(READ_BATCH).build().map_err(|e| ArrowError::at(path, e))?;
        Ok(ParquetGames { path: path.into(), batches, rows_before: 0, read: Vec::new().into_iter(), failed: false })
    }

    /// The games of one batch.
    fn read_batch(&self, batch: &RecordBatch) -> Vec<ReadRow> {
        let at = |row: usize| Location::of(Unit::Game, self.rows_before + row as u64 + 1).in_file(&self.path);
        let shape = match Shape::of(batch) {
            Ok(shape) => shape,
            Err(what) => return vec![Err(ArrowError::NotGames { path: self.path.clone(), what })],
        };
        let mut text = Vec::with_capacity(batch.num_rows() * 1024);
        // The row of each game of the text; a row whose text could not be made is an error.
        let mut rows = Vec::with_capacity(batch.num_rows());
        let mut unmade = Vec::new();
        for row in 0..batch.num_rows() {
            match shape.push_pgn(row, &mut text) {
                Ok(()) => rows.push(row),
                Err(what) => unmade.push((row, what)),
            }
        }
        let mut read: Vec<(usize, ReadRow)> = unmade
            .into_iter()
            .map(|(row, what)| (row, Err(ArrowError::UnreadableGame { location: at(row), what })))
            .collect();
        let reader = PgnReader::from_vec(text, ReadOptions::default()).repairing();
        for (item, row) in reader.zip(rows) {
            read.push((
                row,
                match item {
                    Ok(game) => Ok((
                        game.game,
                        // Offsets in the made text mean nothing in the file: the row says where.
                        game.diagnostics
                            .into_iter()
                            .map(|mut d| {
                                d.location = at(row);
                                d
                            })
                            .collect(),
                    )),
                    Err(e) => Err(ArrowError::UnreadableGame { location: at(row), what: e.to_string() }),
                },
            ));
        }
        read.sort_by_key(|(row, _)| *row);
        read.into_iter().map(|(_, item)| item).collect()
    }
}

impl Iterator for ParquetGames {
    type Item = ReadRow;

    fn next(&mut self) -> Option<ReadRow> {
        loop {
            if let Some(item) = self.read.next() {
                return Some(item);
            }
            if self.failed {
                return None;
            }
            match self.batches.next()? {
                Ok(batch) => {
                    self.read = self.read_batch(&batch).into_iter();
                    self.rows_before += batch.num_rows() as u64;
                }
                Err(e) => {
                    self.failed = true;
                    return Some(Err(ArrowError::at(&self.path, e.into())));
                }
            }
        }
    }
}

/// Where a batch keeps its games.
enum Shape<'a> {
    /// tabiya's games table.
    Tabiya {
        tags: &'a arrow_array::ListArray,
        start_fen: Option<&'a ArrayRef>,
        movetext: &'a ArrayRef,
        encoding: &'a ArrayRef,
    },
    /// A column per tag (lichess's).
    TagColumns { tags: Vec<(&'a str, &'a ArrayRef)>, movetext: &'a ArrayRef },
}

impl<'a> Shape<'a> {
    fn of(batch: &'a RecordBatch) -> Result<Shape<'a>, String> {
        let column = |name: &str| batch.column_by_name(name);
        let movetext = column("movetext").ok_or("no movetext column")?;
        if let (Some(tags), Some(encoding)) = (column("tags"), column("text_encoding")) {
            let tags = tags.as_list_opt::<i32>().ok_or("the tags column is not a list")?;
            return Ok(Shape::Tabiya { tags, start_fen: column("start_fen"), movetext, encoding });
        }
        let schema = batch.schema_ref();
        let tags = schema
            .fields()
            .iter()
            .zip(batch.columns())
            .filter(|(field, _)| field.name() != "movetext")
            .map(|(field, column)| (field.name().as_str(), column))
            .collect();
        Ok(Shape::TagColumns { tags, movetext })
    }

    /// Appends the PGN text of `row`: its tags, a blank line, its movetext.
    fn push_pgn(&self, row: usize, out: &mut Vec<u8>) -> Result<(), String> {
        match self {
            Shape::Tabiya { tags, start_fen, movetext, encoding } => {
                let name = cell_text(encoding, row).ok_or("no text_encoding")?;
                let encoding =
                    TextEncoding::from_name(&name).ok_or_else(|| format!("unknown text_encoding {name:?}"))?;
                let bytes = |text: &str| {
                    encoding
                        .from_column(text)
                        .map(|b| b.into_owned())
                        .ok_or_else(|| format!("a latin-1 text holds a character past U+00FF: {text:?}"))
                };
                let entries = tags.value(row);
                let entries = entries.as_struct_opt().ok_or("the tags are not (name, value) pairs")?;
                let (names, values) = (entries.column(0), entries.column(1));
                let mut has_fen = false;
                let mut has_setup = false;
                for i in 0..entries.len() {
                    let name = cell_text(names, i).ok_or("a tag without a name")?;
                    has_fen |= name == "FEN";
                    has_setup |= name == "SetUp";
                    push_tag(out, &bytes(&name)?, &bytes(&cell_text(values, i).unwrap_or_default())?);
                }
                // A start position that no tag gave (a SCID game's): the tags the PGN writer adds.
                if let Some(fen) = start_fen.and_then(|column| cell_text(column, row))
                    && !has_fen
                {
                    if !has_setup {
                        push_tag(out, b"SetUp", b"1");
                    }
                    push_tag(out, b"FEN", fen.as_bytes());
                }
                out.push(b'\n');
                out.extend_from_slice(&bytes(&cell_text(movetext, row).unwrap_or_default())?);
            }
            Shape::TagColumns { tags, movetext } => {
                for (name, column) in tags {
                    if let Some(value) = cell_text(column, row) {
                        let signed = name.ends_with("RatingDiff") && !value.starts_with('-');
                        let value = if signed { format!("+{value}") } else { value };
                        push_tag(out, name.as_bytes(), value.as_bytes());
                    }
                }
                out.push(b'\n');
                match cell_text(movetext, row) {
                    Some(text) if !text.trim().is_empty() => out.extend_from_slice(text.as_bytes()),
                    _ => out.push(b'*'),
                }
            }
        }
        out.extend_from_slice(b"\n\n");
        Ok(())
    }
}

/// `[Name "value"]` with `"` and `\` escaped, as the PGN standard writes them.
fn push_tag(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    for &b in value {
        if b == b'"' || b == b'\\' {
            out.push(b'\\');
        }
        out.push(b);
    }
    out.extend_from_slice(b"\"]\n");
}

/// A cell as tag text; `None` for a null cell or a type that has no text.
fn cell_text(column: &ArrayRef, row: usize) -> Option<String> {
    if column.is_null(row) {
        return None;
    }
    Some(match column.data_type() {
        DataType::Utf8 => column.as_string::<i32>().value(row).to_owned(),
        DataType::LargeUtf8 => column.as_string::<i64>().value(row).to_owned(),
        DataType::Utf8View => column.as_string_view().value(row).to_owned(),
        DataType::Boolean => column.as_boolean().value(row).to_string(),
        DataType::Int8 => column.as_primitive::<Int8Type>().value(row).to_string(),
        DataType::Int16 => column.as_primitive::<Int16Type>().value(row).to_string(),
        DataType::Int32 => column.as_primitive::<Int32Type>().value(row).to_string(),
        DataType::Int64 => column.as_primitive::<Int64Type>().value(row).to_string(),
        DataType::UInt8 => column.as_primitive::<UInt8Type>().value(row).to_string(),
        DataType::UInt16 => column.as_primitive::<UInt16Type>().value(row).to_string(),
        DataType::UInt32 => column.as_primitive::<UInt32Type>().value(row).to_string(),
        DataType::UInt64 => column.as_primitive::<UInt64Type>().value(row).to_string(),
        DataType::Float32 => float_text(f64::from(column.as_primitive::<Float32Type>().value(row))),
        DataType::Float64 => float_text(column.as_primitive::<Float64Type>().value(row)),
        DataType::Date32 => date_text(i64::from(column.as_primitive::<Date32Type>().value(row))),
        DataType::Date64 => date_text(column.as_primitive::<Date64Type>().value(row).div_euclid(86_400_000)),
        DataType::Time32(TimeUnit::Second) => {
            time_text(i64::from(column.as_primitive::<Time32SecondType>().value(row)))
        }
        DataType::Time32(TimeUnit::Millisecond) => {
            time_text(i64::from(column.as_primitive::<Time32MillisecondType>().value(row)) / 1000)
        }
        DataType::Time64(TimeUnit::Microsecond) => {
            time_text(column.as_primitive::<Time64MicrosecondType>().value(row) / 1_000_000)
        }
        DataType::Time64(TimeUnit::Nanosecond) => {
            time_text(column.as_primitive::<Time64NanosecondType>().value(row) / 1_000_000_000)
        }
        _ => return None,
    })
}

/// A whole number without its `.0`.
fn float_text(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 { format!("{}", x as i64) } else { x.to_string() }
}

/// Days since 1970-01-01 as `YYYY.MM.DD` (the civil calendar, proleptic Gregorian).
fn date_text(days: i64) -> String {
    let (year, month, day) = tabiya_io::date::civil_date(days);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Seconds since midnight as `HH:MM:SS`.
fn time_text(seconds: i64) -> String {
    format!("{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_as_pgn_writes_them() {
        assert_eq!(date_text(0), "1970.01.01");
        // 2013-01-01, the first lichess month, and a leap day.
        assert_eq!(date_text(15_706), "2013.01.01");
        assert_eq!(date_text(19_417), "2023.03.01");
        assert_eq!(date_text(19_416), "2023.02.28");
        assert_eq!(date_text(11_016), "2000.02.29");
        assert_eq!(time_text(23 * 3600 + 59 * 60 + 7), "23:59:07");
        assert_eq!(float_text(12.0), "12");
        assert_eq!(float_text(-3.0), "-3");
        assert_eq!(float_text(0.5), "0.5");
    }

    #[test]
    fn tag_values_are_escaped() {
        let mut out = Vec::new();
        push_tag(&mut out, b"Annotator", br#"a "b" \c"#);
        assert_eq!(out, br#"[Annotator "a \"b\" \\c"]"#.iter().copied().chain(*b"\n").collect::<Vec<u8>>());
    }
}
