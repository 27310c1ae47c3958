//! The builder's occurrences and their sort. Occurrences come in chunks, each the moves of
//! consecutive games in the order played, made on the thread that read the games
//! ([`OccurrenceChunk`]); the sort places every chunk's occurrences into 256 buckets by their
//! key's first byte (the first pass of a radix sort, done out of place, each chunk on a core of
//! its own), then sorts each bucket on its own core, largest first, by the rest of the key. A
//! position's occurrences come out in no particular order: their places say which move was
//! played first (runs.rs).

use std::mem::MaybeUninit;

use rayon::iter::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

use super::record::{Outcome, Played};

/// What a game's moves by one side have in common ([`Played`] but the code): a game has two,
/// one per side, each held once a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Facts {
    pub(super) game: u64,
    pub(super) mover_rating: u16,
    pub(super) opponent_rating: u16,
    pub(super) year: u16,
    pub(super) outcome: Outcome,
}

/// A move of a game where it was played: the key, the move's code, what the table of facts
/// holds of the game for the mover, and its place among the run's occurrences, which tells the
/// order a position's moves were first played in. 36 bytes with a 26-byte key: the sort moves
/// them, so the game's fields are not repeated beside every move.
#[derive(Debug, Clone, Copy)]
pub(super) struct Occurrence<const K: usize> {
    pub(super) key: [u8; K],
    pub(super) code: u16,
    pub(super) facts: u32,
    pub(super) seq: u32,
}

/// An occurrence in its chunk, before its run places it: its place is where it is in the chunk
/// (32 bytes with a 26-byte key).
#[derive(Debug, Clone, Copy)]
struct Unplaced<const K: usize> {
    key: [u8; K],
    code: u16,
    facts: u32,
}

/// The bucket of a key: its first byte (an empty key has one bucket; a game's keys are never
/// empty).
fn bucket_of<const K: usize>(key: &[u8; K]) -> usize {
    key.first().map_or(0, |&b| usize::from(b))
}

/// The moves of consecutive games in the order played, made where the games are read (a
/// reading thread, so that the memory they take is written there), and handed to
/// [`RunBuilder::add_chunk`](super::RunBuilder::add_chunk) in file order. Its games are
/// numbered from 0 ([`OccurrenceChunk::start_game`]); they become the next games of the tree's
/// table.
#[derive(Debug, Clone)]
pub struct OccurrenceChunk<const K: usize> {
    /// In the order pushed; `facts` indexes the chunk's own facts.
    occurrences: Vec<Unplaced<K>>,
    /// Occurrences by their key's first byte.
    counts: Box<[u32; 256]>,
    facts: Vec<Facts>,
    games: u64,
}

impl<const K: usize> Default for OccurrenceChunk<K> {
    fn default() -> OccurrenceChunk<K> {
        OccurrenceChunk::with_capacity(0)
    }
}

impl<const K: usize> OccurrenceChunk<K> {
    /// No games, room for `moves` moves.
    pub fn with_capacity(moves: usize) -> OccurrenceChunk<K> {
        OccurrenceChunk {
            occurrences: Vec::with_capacity(moves),
            counts: Box::new([0; 256]),
            facts: Vec::new(),
            games: 0,
        }
    }

    /// Moves held.
    pub fn len(&self) -> usize {
        self.occurrences.len()
    }

    /// Whether it holds no move.
    pub fn is_empty(&self) -> bool {
        self.occurrences.is_empty()
    }

    /// Begins the chunk's next game: its number in the chunk (from 0), for [`Played::game`].
    pub fn start_game(&mut self) -> u64 {
        self.games += 1;
        self.games - 1
    }

    /// Adds a move played in position `key`; `played.game` numbers the game within the chunk
    /// (or the whole table, for the builder's own chunk).
    pub fn push(&mut self, key: [u8; K], played: Played) {
        let Played { code, outcome, mover_rating, opponent_rating, year, game } = played;
        let facts = Facts { game, mover_rating, opponent_rating, year, outcome };
        // The moves of a game come one side after the other: its two facts are the last two.
        let known = self.facts.iter().rev().take(2).position(|f| *f == facts);
        let index = match known {
            Some(back) => self.facts.len() - 1 - back,
            None => {
                self.facts.push(facts);
                self.facts.len() - 1
            }
        };
        self.counts[bucket_of(&key)] += 1;
        self.occurrences.push(Unplaced { key, code, facts: index as u32 });
    }

    /// The moves from `at` on, as a chunk of the same games (their facts with them).
    pub(super) fn split_off(&mut self, at: usize) -> OccurrenceChunk<K> {
        let occurrences = self.occurrences.split_off(at);
        let mut counts = Box::new([0; 256]);
        for o in &occurrences {
            counts[bucket_of(&o.key)] += 1;
        }
        self.counts.iter_mut().zip(counts.iter()).for_each(|(count, moved)| *count -= moved);
        OccurrenceChunk { occurrences, counts, facts: self.facts.clone(), games: self.games }
    }

    /// Facts held (a game's side each).
    pub(super) fn facts_len(&self) -> usize {
        self.facts.len()
    }

    /// The chunk's facts, its game numbers moved up by `games`.
    pub(super) fn facts_from(&self, games: u64) -> impl Iterator<Item = Facts> + '_ {
        self.facts.iter().map(move |f| Facts { game: f.game + games, ..*f })
    }
}

/// A chunk in its run: the places and facts of the run before it.
struct Placed<const K: usize> {
    chunk: OccurrenceChunk<K>,
    seq_base: u32,
    facts_base: u32,
}

/// A run's occurrences: chunks as they come, then, once [`Buckets::sort`] has run, sorted.
pub(super) struct Buckets<const K: usize> {
    chunks: Vec<Placed<K>>,
    /// The occurrences sorted by key, the room kept from run to run.
    sorted: Vec<Occurrence<K>>,
    /// Sorted occurrences by their key's first byte.
    totals: [usize; 256],
    len: usize,
}

impl<const K: usize> Buckets<K> {
    /// No occurrences.
    pub(super) fn new() -> Buckets<K> {
        Buckets { chunks: Vec::new(), sorted: Vec::new(), totals: [0; 256], len: 0 }
    }

    /// Occurrences held.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Adds a chunk after the occurrences held; its facts are the run's from `facts_base` on.
    /// The run holds at most 2^32 occurrences (the caller's limit).
    pub(super) fn add(&mut self, chunk: OccurrenceChunk<K>, facts_base: usize) {
        let seq_base = self.len as u32;
        self.len += chunk.len();
        self.chunks.push(Placed { chunk, seq_base, facts_base: facts_base as u32 });
    }

    /// Sorts by key: each chunk's occurrences placed in their first byte's bucket, the chunks
    /// on every core, each given back once placed; then the buckets sorted on every core (the
    /// largest first, so that the last to finish is a small one).
    pub(super) fn sort(&mut self) {
        self.totals = [0; 256];
        for placed in &self.chunks {
            self.totals.iter_mut().zip(placed.chunk.counts.iter()).for_each(|(t, &c)| *t += c as usize);
        }
        self.sorted.clear();
        self.sorted.reserve(self.len);
        // Where each chunk's occurrences of each first byte go: the bucket's part after the
        // chunks before it, in chunk order.
        let mut parts: Vec<Vec<&mut [MaybeUninit<Occurrence<K>>]>> =
            self.chunks.iter().map(|_| Vec::with_capacity(256)).collect();
        let mut rest = &mut self.sorted.spare_capacity_mut()[..self.len];
        for (byte, &total) in self.totals.iter().enumerate() {
            let (mut bucket, after) = std::mem::take(&mut rest).split_at_mut(total);
            rest = after;
            for (placed, parts) in self.chunks.iter().zip(&mut parts) {
                let (part, after) = std::mem::take(&mut bucket).split_at_mut(placed.chunk.counts[byte] as usize);
                parts.push(part);
                bucket = after;
            }
        }
        // Each chunk given back once placed.
        std::mem::take(&mut self.chunks).into_par_iter().zip(parts).with_max_len(1).for_each(|(placed, mut parts)| {
            let mut at = [0usize; 256];
            for (i, o) in placed.chunk.occurrences.iter().enumerate() {
                let byte = bucket_of(&o.key);
                let occurrence = Occurrence {
                    key: o.key,
                    code: o.code,
                    facts: o.facts + placed.facts_base,
                    seq: placed.seq_base + i as u32,
                };
                parts[byte][at[byte]].write(occurrence);
                at[byte] += 1;
            }
            // Every place of the chunk's parts written, none twice (a write past a part panics).
            assert!(at.iter().zip(parts.iter()).all(|(&at, part)| at == part.len()), "a chunk's counts are its own");
        });
        // SAFETY: the parts cover the first `len` places of the room, and each part was written
        // whole (asserted above).
        unsafe { self.sorted.set_len(self.len) };
        let mut buckets: Vec<&mut [Occurrence<K>]> = Vec::with_capacity(256);
        let mut rest = self.sorted.as_mut_slice();
        for &total in &self.totals {
            let (bucket, after) = std::mem::take(&mut rest).split_at_mut(total);
            rest = after;
            if total > 1 {
                buckets.push(bucket);
            }
        }
        buckets.sort_unstable_by_key(|b| std::cmp::Reverse(b.len()));
        buckets.into_par_iter().with_max_len(1).for_each(|bucket| sort_by_key(bucket, 1));
    }

    /// The buckets in key order (sorted once [`Buckets::sort`] has run).
    pub(super) fn slices(&self) -> impl Iterator<Item = &[Occurrence<K>]> {
        let mut rest = self.sorted.as_slice();
        self.totals.iter().filter_map(move |&total| {
            let (bucket, after) = rest.split_at(total);
            rest = after;
            (!bucket.is_empty()).then_some(bucket)
        })
    }

    /// Empty, the room of the sorted occurrences kept for the next run.
    pub(super) fn clear(&mut self) {
        self.chunks.clear();
        self.sorted.clear();
        self.totals = [0; 256];
        self.len = 0;
    }

    /// Empty, the room given back.
    pub(super) fn free(&mut self) {
        *self = Buckets::new();
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

/// Slices this long or shorter are sorted by comparison: counting 256 buckets costs more.
const SMALL_SORT: usize = 64;

/// Slices this long or longer have their buckets sorted on every core.
const PARALLEL_SORT: usize = 1 << 14;

/// Sorts occurrences whose keys agree before byte `byte` by key: a radix sort on the key's
/// bytes, most significant first (each byte's buckets counted, the occurrences swapped into them
/// in place, each bucket sorted on the next byte), small slices by comparison. Each byte is gone
/// over once an occurrence: linear in the bytes of the keys, where a comparison sort goes over
/// the leading bytes log n times. Occurrences of one key are left in any order: the openings'
/// positions, played in thousands of games, are not sorted by place nor counted byte by byte.
fn sort_by_key<const K: usize>(occurrences: &mut [Occurrence<K>], mut byte: usize) {
    if occurrences.iter().all(|o| compare_keys(&o.key, &occurrences[0].key).is_eq()) {
        return;
    }
    let mut counts = [0usize; 256];
    loop {
        if occurrences.len() <= SMALL_SORT {
            occurrences.sort_unstable_by(|a, b| compare_keys(&a.key, &b.key));
            return;
        }
        counts.fill(0);
        for o in occurrences.iter() {
            counts[usize::from(o.key[byte])] += 1;
        }
        // Every key with the same byte here (the openings' back ranks): on to the next.
        if counts[usize::from(occurrences[0].key[byte])] < occurrences.len() {
            break;
        }
        byte += 1;
    }
    let mut ends = [0usize; 256];
    let mut sum = 0;
    for (end, count) in ends.iter_mut().zip(counts) {
        sum += count;
        *end = sum;
    }
    let mut heads: [usize; 256] = std::array::from_fn(|b| ends[b] - counts[b]);
    // Each occurrence is swapped straight into the next free place of its bucket.
    for bucket in 0..256 {
        while heads[bucket] < ends[bucket] {
            let to = usize::from(occurrences[heads[bucket]].key[byte]);
            if to != bucket {
                occurrences.swap(heads[bucket], heads[to]);
            }
            heads[to] += 1;
        }
    }
    let parallel = occurrences.len() >= PARALLEL_SORT;
    let mut buckets = Vec::with_capacity(256);
    let mut rest = occurrences;
    for count in counts {
        let (bucket, after) = std::mem::take(&mut rest).split_at_mut(count);
        rest = after;
        if count > 1 {
            buckets.push(bucket);
        }
    }
    if parallel {
        buckets.into_par_iter().for_each(|bucket| sort_by_key(bucket, byte + 1));
    } else {
        buckets.into_iter().for_each(|bucket| sort_by_key(bucket, byte + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The buckets and the radix sort put occurrences in the order of their keys as the
    /// standard library's sort gives it, each occurrence once: keys drawn from few byte values,
    /// so that buckets nest deep, keys repeat and some slices are all one byte.
    #[test]
    fn radix_sort_orders_as_a_comparison_sort() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut buckets = Buckets::<5>::new();
        for (len, spread) in [(0, 1), (1, 1), (70, 2), (5_000, 3), (40_000, 256), (70_000, 4), (100_000, 2)] {
            let pushed: Vec<([u8; 5], u16)> = (0..len)
                .map(|_| {
                    let key = std::array::from_fn(|at| if at == 1 { 0xff } else { (next() % spread) as u8 });
                    (key, (next() % 7) as u16)
                })
                .collect();
            // The same buckets for every round: each starts empty, whatever it held before.
            buckets.clear();
            // Chunks of a few sizes, each occurrence a game of its own (its facts its place).
            let mut facts = 0;
            for chunk_pushed in pushed.chunks(1 + (next() % 9_000) as usize) {
                let mut chunk = OccurrenceChunk::default();
                for &(key, code) in chunk_pushed {
                    let game = chunk.start_game();
                    chunk.push(
                        key,
                        Played { code, outcome: Outcome::Unknown, mover_rating: 0, opponent_rating: 0, year: 0, game },
                    );
                }
                buckets.add(chunk, facts);
                facts += chunk_pushed.len();
            }
            buckets.sort();
            let sorted: Vec<Occurrence<5>> = buckets.slices().flatten().copied().collect();
            assert!(sorted.iter().all(|o| o.facts == o.seq), "each occurrence keeps its own facts");
            let mut expected: Vec<([u8; 5], u32, u16)> =
                pushed.iter().enumerate().map(|(seq, &(key, code))| (key, seq as u32, code)).collect();
            expected.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
            let keys: Vec<[u8; 5]> = sorted.iter().map(|o| o.key).collect();
            assert_eq!(keys, expected.iter().map(|e| e.0).collect::<Vec<_>>(), "{len} keys of {spread} byte values");
            // Within a key in any order: by place, they are the occurrences pushed.
            let mut places: Vec<([u8; 5], u32, u16)> = sorted.iter().map(|o| (o.key, o.seq, o.code)).collect();
            places.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
            assert_eq!(places, expected, "{len} keys of {spread} byte values");
            assert_eq!(buckets.len(), len);
        }
    }
}
