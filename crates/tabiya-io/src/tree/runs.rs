//! Counting within a memory budget: occurrences (a position's key and a game's move) are held
//! until the budget is full, then sorted, added up by position and move and spilled to an
//! unnamed temporary file as a sorted run; at the end the runs are merged into the tree file.
//! Counting adds up in any grouping (record.rs), so the bytes do not depend on the budget.
//! Also the game table, written as games come to another unnamed temporary file.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rayon::iter::{IndexedParallelIterator, IntoParallelRefMutIterator, ParallelIterator};

use super::file::{Encoded, Footer, TreeSource, TreeWriter};
use super::merge::{Stream, merge};
use super::record::{Decoder, MoveBytes, Played, TreeMove};
use super::sort::{Buckets, Facts, Occurrence, OccurrenceChunk};

/// Bytes of the memory budget a [`Facts`] takes.
const FACTS_BYTES: u64 = size_of::<Facts>() as u64;

/// Occurrences a run holds at least, however small the budget.
const MIN_RUN: usize = 16;

/// Occurrences of the builder's own chunk (moves pushed one by one) before it joins the run:
/// a few megabytes, written once.
const OWN_CHUNK: usize = 1 << 16;

impl<const K: usize> Occurrence<K> {
    fn played(&self, facts: &[Facts]) -> Played {
        let Facts { game, mover_rating, opponent_rating, year, outcome } = facts[self.facts as usize];
        Played { code: self.code, outcome, mover_rating, opponent_rating, year, game }
    }
}

/// A sorted run being written to an unnamed temporary file, each record encoded whole first.
struct RunWriter {
    out: BufWriter<File>,
    record: Vec<u8>,
    scratch: MoveBytes,
}

impl RunWriter {
    fn new(temp_dir: &Path) -> io::Result<RunWriter> {
        let out = BufWriter::with_capacity(1 << 16, tempfile::tempfile_in(temp_dir)?);
        Ok(RunWriter { out, record: Vec::new(), scratch: MoveBytes::default() })
    }

    fn position<const K: usize>(&mut self, key: &[u8; K], moves: &mut [TreeMove]) -> io::Result<()> {
        self.record.clear();
        self.scratch.position(&mut self.record, key, moves);
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
    occurrences: Buckets<K>,
    /// The game fields the occurrences refer to.
    facts: Vec<Facts>,
    /// Moves pushed one by one ([`RunBuilder::push`]) and not yet in the run.
    own: OccurrenceChunk<K>,
    memory: u64,
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
    /// Bytes of the memory budget one occurrence (a move of a game) takes: 36 with a 26-byte
    /// key, and 16 more a side of each game (what its moves have in common).
    pub const OCCURRENCE_BYTES: u64 = size_of::<Occurrence<K>>() as u64;

    /// A builder that holds about `memory` bytes of occurrences before it spills a run to an
    /// unnamed file in `temp_dir` (gone when the process ends, however it ends). The budget
    /// counts the moves held, [`RunBuilder::OCCURRENCE_BYTES`] each (the sorted occurrence's
    /// size: a chunk holds a move in 32 bytes with a 26-byte key), and 16 bytes a game's side
    /// (a chunk cut by a spill counts its facts in both runs). A run's sort takes room for the
    /// largest group of first bytes it sorts at once (1/16 of the run or more), not a sorted
    /// copy of the run.
    pub fn new(memory: u64, temp_dir: &Path) -> io::Result<RunBuilder<K>> {
        // At most 2^32 occurrences a run: their places are 32-bit.
        let limit = (memory / Self::OCCURRENCE_BYTES).clamp(MIN_RUN as u64, u64::from(u32::MAX)) as usize;
        Ok(RunBuilder {
            occurrences: Buckets::new(),
            facts: Vec::new(),
            own: OccurrenceChunk::default(),
            memory,
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

    /// Occurrences held, those of the builder's own chunk too.
    fn held(&self) -> usize {
        self.occurrences.len() + self.own.len()
    }

    /// Bytes of the budget taken.
    fn held_bytes(&self) -> u64 {
        let facts = self.facts.len() + self.own.facts_len();
        self.held() as u64 * Self::OCCURRENCE_BYTES + facts as u64 * FACTS_BYTES
    }

    /// Counts a move played in position `key`.
    pub fn push(&mut self, key: [u8; K], played: Played) -> io::Result<()> {
        if self.held() >= self.limit || (self.held_bytes() >= self.memory && self.held() >= MIN_RUN) {
            self.spill()?;
        }
        self.own.push(key, played);
        if self.own.len() >= OWN_CHUNK {
            self.place_own();
        }
        Ok(())
    }

    /// Counts the moves of `chunk`, whose games are the next [`RunBuilder::add_game`] adds, in
    /// order (its game 0 the next). Runs are spilled within it as the budget asks, as if its
    /// moves were pushed one by one.
    pub fn add_chunk(&mut self, mut chunk: OccurrenceChunk<K>) -> io::Result<()> {
        if chunk.len() > u32::MAX as usize {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "a chunk of more than 2^32 moves"));
        }
        let games = self.table.offsets.len() as u64;
        self.place_own();
        while !chunk.is_empty() {
            let room = self.room(&chunk);
            if room >= chunk.len() {
                self.place(chunk, games);
                break;
            }
            // What does not fit waits for the next run, with the chunk's facts.
            let rest = chunk.split_off(room);
            self.place(chunk, games);
            self.spill()?;
            chunk = rest;
        }
        Ok(())
    }

    /// Moves of `chunk` the run takes before it is spilled: what the budget leaves (the chunk's
    /// facts counted whole), at least up to [`MIN_RUN`], at most up to the limit; never 0 in an
    /// empty run.
    fn room(&self, chunk: &OccurrenceChunk<K>) -> usize {
        let held = self.held();
        let facts = (self.facts.len() + chunk.facts_len()) as u64 * FACTS_BYTES;
        let left = self.memory.saturating_sub(held as u64 * Self::OCCURRENCE_BYTES + facts);
        let by_memory = (left / Self::OCCURRENCE_BYTES) as usize;
        self.limit.saturating_sub(held).min(by_memory.max(MIN_RUN.saturating_sub(held)))
    }

    /// Puts `chunk` in the run, its game numbers moved up by `games`.
    fn place(&mut self, chunk: OccurrenceChunk<K>, games: u64) {
        let facts_base = self.facts.len();
        self.facts.extend(chunk.facts_from(games));
        self.occurrences.add(chunk, facts_base);
    }

    /// Puts the builder's own chunk in the run (its game numbers are the table's).
    fn place_own(&mut self) {
        if !self.own.is_empty() {
            let own = std::mem::replace(&mut self.own, OccurrenceChunk::with_capacity(OWN_CHUNK));
            self.place(own, 0);
        }
    }

    /// Empties the occurrences, their buckets keeping their room for the next run.
    fn recycle(&mut self) {
        self.occurrences.clear();
        self.facts.clear();
    }

    /// Sorts the occurrences a group of first bytes at a time, adds them up by position and
    /// encodes the positions on every core, a range of consecutive keys on each, handing them to
    /// `write` in key order on this thread's side while the next ranges are encoded (or the next
    /// group sorted).
    fn drain(&mut self, mut write: impl FnMut(&Encoded<K>) -> io::Result<()> + Send) -> io::Result<()> {
        self.place_own();
        // A window of ranges is encoded while the one before is written: the bytes held stay a
        // few windows' worth, their buffers reused.
        let window = 4 * rayon::current_num_threads();
        let mut done: Vec<Encoded<K>> = Vec::new();
        let mut spare: Vec<Encoded<K>> = Vec::new();
        let facts = &self.facts;
        self.occurrences.for_each_group(|sorted| {
            for ranges in position_ranges(sorted).chunks(window) {
                let mut buffers: Vec<Encoded<K>> = ranges.iter().map(|_| spare.pop().unwrap_or_default()).collect();
                let (encoded, written) = rayon::join(
                    || {
                        buffers.par_iter_mut().zip(ranges).try_for_each(|(encoded, range)| {
                            encoded.clear();
                            add_up(range, facts, &mut Vec::new(), encoded)
                        })
                    },
                    || done.iter().try_for_each(&mut write),
                );
                encoded?;
                written?;
                spare.append(&mut done);
                done = buffers;
            }
            io::Result::Ok(())
        })?;
        done.iter().try_for_each(&mut write)?;
        self.recycle();
        Ok(())
    }

    /// Writes the occurrences as a sorted run; [`MAX_RUNS`] runs are merged into one.
    fn spill(&mut self) -> io::Result<()> {
        let mut run = RunWriter::new(&self.temp_dir)?;
        self.drain(|positions| run.out.write_all(positions.bytes()))?;
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
    pub fn finish<W: Write + Send>(mut self, out: W, game: u8) -> io::Result<(W, Footer)> {
        let mut writer = TreeWriter::<W, K>::new(out, game)?;
        if self.runs.is_empty() {
            self.drain(|positions| writer.encoded(positions))?;
            self.occurrences.free();
        } else {
            self.merge_runs(|key, moves| writer.position(key, moves))?;
        }
        self.finish_table(writer)
    }

    /// [`RunBuilder::finish`], each position's moves handed to `annotate` once, added up,
    /// before they are written (to set [`TreeMove::exact`]), one position after the other on
    /// this thread.
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
            self.place_own();
            let mut moves = Vec::new();
            let mut counted = Counted { emit: &mut write, once: TreeMove::default() };
            let facts = &self.facts;
            self.occurrences.for_each_group_here(|sorted| add_up(sorted, facts, &mut moves, &mut counted))?;
            self.recycle();
        } else {
            self.merge_runs(&mut write)?;
        }
        self.finish_table(writer)
    }

    /// Spills what is left and merges every run, handing each position to `emit`.
    fn merge_runs(&mut self, emit: impl FnMut(&[u8; K], &mut [TreeMove]) -> io::Result<()>) -> io::Result<()> {
        if self.held() > 0 {
            self.spill()?;
        }
        self.occurrences.free();
        merge(streams(std::mem::take(&mut self.runs))?, emit)
    }

    /// Ends the tree with the game table and the sources.
    fn finish_table<W: Write>(self, writer: TreeWriter<W, K>) -> io::Result<(W, Footer)> {
        let (mut games, offsets) = self.table.into_reader()?;
        writer.finish(&mut games, &offsets, &self.sources)
    }
}

/// Occurrences a range holds at least (but the last): what one thread adds up and encodes at a
/// time, a megabyte or two of records.
const RANGE: usize = 1 << 15;

/// Sorted occurrences cut into ranges of about [`RANGE`], each ending where a position does.
fn position_ranges<const K: usize>(occurrences: &[Occurrence<K>]) -> Vec<&[Occurrence<K>]> {
    let mut ranges = Vec::with_capacity(occurrences.len() / RANGE + 1);
    let mut rest = occurrences;
    while rest.len() > RANGE {
        let last = &rest[RANGE - 1].key;
        let end = RANGE + rest[RANGE..].iter().take_while(|o| o.key == *last).count();
        let (range, after) = rest.split_at(end);
        ranges.push(range);
        rest = after;
    }
    if !rest.is_empty() {
        ranges.push(rest);
    }
    ranges
}

/// Where [`add_up`] hands the positions it adds up.
trait AddedUp<const K: usize> {
    /// A position with its moves, in the order first played.
    fn position(&mut self, key: &[u8; K], moves: &mut [TreeMove]) -> io::Result<()>;

    /// A position whose one move was played once, by `played`: most of a tree's positions,
    /// which need no counting.
    fn played_once(&mut self, key: &[u8; K], played: &Played) -> io::Result<()>;
}

impl<const K: usize> AddedUp<K> for Encoded<K> {
    fn position(&mut self, key: &[u8; K], moves: &mut [TreeMove]) -> io::Result<()> {
        self.push(key, moves);
        Ok(())
    }

    fn played_once(&mut self, key: &[u8; K], played: &Played) -> io::Result<()> {
        self.push_played_once(key, played);
        Ok(())
    }
}

/// Positions handed to a function with their moves counted, those played once too.
struct Counted<F> {
    emit: F,
    /// The move of a position played once, its room kept.
    once: TreeMove,
}

impl<const K: usize, F: FnMut(&[u8; K], &mut [TreeMove]) -> io::Result<()>> AddedUp<K> for Counted<F> {
    fn position(&mut self, key: &[u8; K], moves: &mut [TreeMove]) -> io::Result<()> {
        (self.emit)(key, moves)
    }

    fn played_once(&mut self, key: &[u8; K], played: &Played) -> io::Result<()> {
        self.once.restart(played);
        (self.emit)(key, std::slice::from_mut(&mut self.once))
    }
}

/// Adds up sorted occurrences by position and move, handing each position with its moves in
/// the order first played (record.rs) to `out`; `moves` is room kept between calls (the first
/// `used` are the position's, the others wait to be used again).
fn add_up<const K: usize>(
    occurrences: &[Occurrence<K>],
    facts: &[Facts],
    moves: &mut Vec<TreeMove>,
    out: &mut impl AddedUp<K>,
) -> io::Result<()> {
    let mut used = 0;
    // The first place of each of the position's moves: the sort leaves a position's
    // occurrences in any order.
    let mut firsts = vec![0u32; moves.len()];
    for (i, o) in occurrences.iter().enumerate() {
        let last = occurrences.get(i + 1).is_none_or(|next| next.key != o.key);
        if used == 0 && last {
            out.played_once(&o.key, &o.played(facts))?;
            continue;
        }
        match moves[..used].iter().position(|m| m.code == o.code) {
            Some(known) => {
                moves[known].count(&o.played(facts));
                firsts[known] = firsts[known].min(o.seq);
            }
            None => {
                if used == moves.len() {
                    moves.push(TreeMove::default());
                    firsts.push(0);
                }
                moves[used].restart(&o.played(facts));
                firsts[used] = o.seq;
                used += 1;
            }
        }
        if last {
            // Most positions have one move; those with more, a few: an insertion sort.
            for j in 1..used {
                let mut at = j;
                while at > 0 && firsts[at - 1] > firsts[at] {
                    firsts.swap(at - 1, at);
                    moves.swap(at - 1, at);
                    at -= 1;
                }
            }
            out.position(&o.key, &mut moves[..used])?;
            used = 0;
        }
    }
    Ok(())
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
