//! Writing a table as Parquet: zstd pages (the zstd library is tabiya's own dependency already;
//! it makes files about a third smaller than snappy for these texts and decodes as fast in
//! pyarrow, DuckDB and Spark), batches of a few thousand rows, row groups bounded in bytes so
//! that writing and reading stream in flat memory.

use std::io::Write;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::Schema;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use crate::ArrowError;

/// Rows gathered before they go to the Parquet writer as one batch.
pub(crate) const BATCH_ROWS: usize = 8192;
/// A row group ends at this many bytes of encoded data (or 1 Mi rows): a reader holds one
/// group's column chunks at a time.
const ROW_GROUP_BYTES: usize = 64 << 20;
const ROW_GROUP_ROWS: usize = 1 << 20;

/// A table's rows as they are gathered, made into a batch every [`BATCH_ROWS`] rows.
pub(crate) trait Rows {
    /// Rows gathered since the last batch.
    fn len(&self) -> usize;
    /// The gathered rows as a batch of `schema`; the builder starts again empty.
    fn batch(&mut self, schema: &Arc<Schema>) -> Result<RecordBatch, ArrowError>;
}

/// A Parquet file being written from rows of one kind.
pub(crate) struct TableWriter<W: Write + Send, R: Rows> {
    writer: ArrowWriter<W>,
    schema: Arc<Schema>,
    pub(crate) rows: R,
    written: u64,
}

impl<W: Write + Send, R: Rows> TableWriter<W, R> {
    /// Starts a file of `schema` on `out`; the columns named in `plain` (long texts that
    /// rarely repeat) skip the dictionary the writer would try first.
    pub(crate) fn new(out: W, schema: Schema, plain: &[&str], rows: R) -> Result<Self, ArrowError> {
        let schema = Arc::new(schema);
        let level = ZstdLevel::try_new(1).map_err(ArrowError::Parquet)?;
        let mut properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(level))
            .set_max_row_group_bytes(Some(ROW_GROUP_BYTES))
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(format!("tabiya {}", env!("CARGO_PKG_VERSION")));
        for &column in plain {
            properties = properties.set_column_dictionary_enabled(ColumnPath::from(column), false);
        }
        let writer = ArrowWriter::try_new(out, schema.clone(), Some(properties.build()))?;
        Ok(TableWriter { writer, schema, rows, written: 0 })
    }

    /// Writes the gathered rows out when there are a batch's worth.
    pub(crate) fn flush_full(&mut self) -> Result<(), ArrowError> {
        if self.rows.len() >= BATCH_ROWS { self.flush() } else { Ok(()) }
    }

    fn flush(&mut self) -> Result<(), ArrowError> {
        if self.rows.len() > 0 {
            self.written += self.rows.len() as u64;
            let batch = self.rows.batch(&self.schema)?;
            self.writer.write(&batch)?;
        }
        Ok(())
    }

    /// Writes the last rows and the footer; the number of rows written, and the output.
    pub(crate) fn finish(mut self) -> Result<(u64, W), ArrowError> {
        self.flush()?;
        // `into_inner` writes the footer (after `finish` it would write a second one).
        Ok((self.written, self.writer.into_inner()?))
    }
}
