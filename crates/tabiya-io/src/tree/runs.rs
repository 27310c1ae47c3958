//! Counting within a memory budget: occurrences (a position's key and a game's move) are held
//! until the budget is full, then sorted, added up by position and move and spilled to an
//! unnamed temporary file as a sorted run; at the end the runs are merged into the tree file.
//! Counting adds up in any grouping (record.rs), so the bytes do not depend on the budget.
//! Also the game table, written as games come to another unnamed temporary file.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

use super::file::{Footer, TreeSource, TreeWriter};
use super::merge::{Stream, merge};
use super::record::{Decoder, Outcome, Played, TreeMove, encode_position};

/// A move of a game where it was played: the key and [`Played`]'s fields side by side (so that
/// the compiler packs them: 48 bytes with a 26-byte key), and its place among the run's
/// occurrences, which keeps the order they were played in through an unstable sort.
#[derive(Debug, Clone, Copy)]
struct Occurrence<const K: usize> {
    key: [u8; K],
    seq: u32,
    code: u16,
    mover_rating: u16,
    opponent_rating: u16,
    year: u16,
    outcome: Outcome,
    game: u64,
}

impl<const K: usize> Occurrence<K> {
    fn played(&self) -> Played {
        Played {
            code: self.code,
            outcome: self.outcome,
            mover_rating: self.mover_rating,
            opponent_rating: self.opponent_rating,
            year: self.year,
            game: self.game,
        }
    }
}

/// Keys compared as big-endian words, which sort as their bytes: a few integer comparisons
/// inlined instead of a call to `memcmp` (the sort's inner loop).
fn compare_keys<const K: usize>(a: &[u8; K], b: &[u8; K]) -> std::cmp::Ordering {
    let word = |key: &[u8; K], at: usize| {
        let mut bytes = [0; 8];
        let end = K.min(at + 8);
        bytes[..end - at].copy_from_slice(&key[at..end]);
        u64::from_be_bytes(bytes)
    };
    let mut at = 0;
    while at < K {
        let (x, y) = (word(a, at), word(b, at));
        if x != y {
            return x.cmp(&y);
        }
        at += 8;
    }
    std::cmp::Ordering::Equal
}

/// A sorted run being written to an unnamed temporary file, each record encoded whole first.
struct RunWriter {
    out: BufWriter<File>,
    record: Vec<u8>,
}

impl RunWriter {
    fn new(temp_dir: &Path) -> io::Result<RunWriter> {
        Ok(RunWriter { out: BufWriter::with_capacity(1 << 16, tempfile::tempfile_in(temp_dir)?), record: Vec::new() })
    }

    fn position<const K: usize>(&mut self, key: &[u8; K], moves: &mut [TreeMove]) -> io::Result<()> {
        self.record.clear();
        encode_position(&mut self.record, key, moves);
        self.out.write_all(&self.record)
    }

    /// The run written to its end, read from its start.
    fn rewound(self) -> io::Result<File> {
        let mut file = self.out.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.seek(SeekFrom::Start(0))?;
        Ok(file)
    }
}

/// Occurrences counted into sorted runs, spilled past a memory budget, and the game table.
pub struct RunBuilder<const K: usize> {
    occurrences: Vec<Occurrence<K>>,
    limit: usize,
    temp_dir: PathBuf,
    runs: Vec<File>,
    spilled: u64,
    table: TableWriter,
    sources: Vec<TreeSource>,
}

/// Runs merged at once: when as many wait, they are merged into one (a merge reads a record
/// of each run for every position, and each run is an open file).
const MAX_RUNS: usize = 32;

/// Runs as streams for [`merge`].
fn streams<const K: usize>(runs: Vec<File>) -> io::Result<Vec<Stream<BufReader<File>, K>>> {
    runs.into_iter().map(|run| Stream::new(Decoder::new(BufReader::with_capacity(1 << 16, run), 0), 0)).collect()
}

impl<const K: usize> RunBuilder<K> {
    /// Bytes of the memory budget one occurrence (a move of a game) takes: 48 with a 26-byte
    /// key.
    pub const OCCURRENCE_BYTES: u64 = size_of::<Occurrence<K>>() as u64;

    /// A builder that holds about `memory` bytes of occurrences before it spills a run to an
    /// unnamed file in `temp_dir` (gone when the process ends, however it ends).
    pub fn new(memory: u64, temp_dir: &Path) -> io::Result<RunBuilder<K>> {
        // At most 2^32 occurrences a run: their places are 32-bit.
        let limit = (memory / Self::OCCURRENCE_BYTES).clamp(16, u64::from(u32::MAX)) as usize;
        Ok(RunBuilder {
            occurrences: Vec::new(),
            limit,
            temp_dir: temp_dir.to_path_buf(),
            runs: Vec::new(),
            spilled: 0,
            table: TableWriter::new(temp_dir)?,
            sources: Vec::new(),
        })
    }

    /// Runs spilled so far.
    pub fn runs(&self) -> u64 {
        self.spilled
    }

    /// Begins a source: the games added next are its.
    pub fn start_source(&mut self, name: &str) {
        self.sources.push(TreeSource { name: name.to_owned(), games: 0 });
    }

    /// Adds a game's record to the table (of the last source begun); its number (from 0) is
    /// what [`Played::game`] names.
    pub fn add_game(&mut self, record: &[u8]) -> io::Result<u64> {
        if let Some(source) = self.sources.last_mut() {
            source.games += 1;
        }
        self.table.add(record)
    }

    /// Counts a move played in position `key`.
    pub fn push(&mut self, key: [u8; K], played: Played) -> io::Result<()> {
        if self.occurrences.len() >= self.limit {
            self.spill()?;
        }
        let Played { code, outcome, mover_rating, opponent_rating, year, game } = played;
        let seq = self.occurrences.len() as u32;
        self.occurrences.push(Occurrence { key, seq, code, mover_rating, opponent_rating, year, outcome, game });
        Ok(())
    }

    /// Sorts the occurrences and adds them up, handing each position with its moves to `emit`.
    fn drain(&mut self, mut emit: impl FnMut(&[u8; K], &mut [TreeMove]) -> io::Result<()>) -> io::Result<()> {
        let mut occurrences = std::mem::take(&mut self.occurrences);
        // A position's occurrences stay in the order they were played (by their places), so
        // its moves come out in the order first played (record.rs). On every core: at the end
        // the reading threads have nothing left to do.
        occurrences.par_sort_unstable_by(|a, b| compare_keys(&a.key, &b.key).then(a.seq.cmp(&b.seq)));
        // The first `used` moves are the position's; the others wait to be used again.
        let mut moves: Vec<TreeMove> = Vec::new();
        let mut used = 0;
        for (i, o) in occurrences.iter().enumerate() {
            match moves[..used].iter_mut().find(|m| m.code == o.code) {
                Some(known) => known.count(&o.played()),
                None => {
                    if used == moves.len() {
                        moves.push(TreeMove::default());
                    }
                    moves[used].restart(&o.played());
                    used += 1;
                }
            }
            if occurrences.get(i + 1).is_none_or(|next| next.key != o.key) {
                emit(&o.key, &mut moves[..used])?;
                used = 0;
            }
        }
        // The vector keeps its room for the next run.
        occurrences.clear();
        self.occurrences = occurrences;
        Ok(())
    }

    /// Writes the occurrences as a sorted run; [`MAX_RUNS`] runs are merged into one.
    fn spill(&mut self) -> io::Result<()> {
        let mut run = RunWriter::new(&self.temp_dir)?;
        self.drain(|key, moves| run.position(key, moves))?;
        self.runs.push(run.rewound()?);
        self.spilled += 1;
        if self.runs.len() >= MAX_RUNS {
            let mut run = RunWriter::new(&self.temp_dir)?;
            merge(streams::<K>(std::mem::take(&mut self.runs))?, |key, moves| run.position(key, moves))?;
            self.runs.push(run.rewound()?);
        }
        Ok(())
    }

    /// Writes the tree of `game` to `out` and gives `out` back with the file's footer.
    pub fn finish<W: Write>(self, out: W, game: u8) -> io::Result<(W, Footer)> {
        self.finish_with(out, game, |_, _| ())
    }

    /// [`RunBuilder::finish`], each position's moves handed to `annotate` once, added up,
    /// before they are written (to set [`TreeMove::exact`]).
    pub fn finish_with<W: Write>(
        mut self,
        out: W,
        game: u8,
        mut annotate: impl FnMut(&[u8; K], &mut [TreeMove]),
    ) -> io::Result<(W, Footer)> {
        let mut writer = TreeWriter::<W, K>::new(out, game)?;
        let mut write = |key: &[u8; K], moves: &mut [TreeMove]| {
            annotate(key, moves);
            writer.position(key, moves)
        };
        if self.runs.is_empty() {
            self.drain(&mut write)?;
        } else {
            if !self.occurrences.is_empty() {
                self.spill()?;
            }
            self.occurrences = Vec::new();
            merge(streams(std::mem::take(&mut self.runs))?, &mut write)?;
        }
        let (mut games, offsets) = self.table.into_reader()?;
        writer.finish(&mut games, &offsets, &self.sources)
    }
}

/// Game records written as they come, to an unnamed temporary file, with where each starts
/// (8 bytes a game in memory).
struct TableWriter {
    file: BufWriter<File>,
    offsets: Vec<u64>,
    len: u64,
}

impl TableWriter {
    fn new(dir: &Path) -> io::Result<TableWriter> {
        Ok(TableWriter { file: BufWriter::new(tempfile::tempfile_in(dir)?), offsets: Vec::new(), len: 0 })
    }

    fn add(&mut self, record: &[u8]) -> io::Result<u64> {
        self.file.write_all(record)?;
        self.offsets.push(self.len);
        self.len += record.len() as u64;
        Ok(self.offsets.len() as u64 - 1)
    }

    /// The table's bytes, read from the start, and where each record starts.
    fn into_reader(self) -> io::Result<(impl Read, Vec<u64>)> {
        let mut file = self.file.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.seek(SeekFrom::Start(0))?;
        Ok((BufReader::new(file).take(self.len), self.offsets))
    }
}
