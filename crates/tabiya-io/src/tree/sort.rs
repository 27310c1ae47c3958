//! The builder's occurrences and their sort. Occurrences come in chunks, each the moves of
//! consecutive games in the order played, made on the thread that read the games
//! ([`OccurrenceChunk`]) and ordered there by their key's first byte (the first pass of a radix
//! sort). A run is sorted a group of first bytes at a time, into rooms used again from group to
//! group: each first byte's occurrences gathered from every chunk and sorted by the rest of the
//! key, the group's first bytes on every core, the next group while one is handed on. A position's occurrences come out in no
//! particular order: their places say which move was played first (runs.rs).

use std::mem::MaybeUninit;
use std::ops::Range;

use rayon::iter::{IndexedParallelIterator, IntoParallelIterator, IntoParallelRefIterator, ParallelIterator};

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
/// table. A run holds its occurrences ordered by their key's first byte (the first pass of the
/// sort): a chunk made by [`OccurrenceChunk::by_first_byte`] is ordered as it is made, on the
/// thread that makes it; another is ordered when a run takes it.
#[derive(Debug)]
pub struct OccurrenceChunk<const K: usize> {
    /// In the order pushed, or by first byte ([`Order`]), in the order pushed within one (while
    /// filling, written in the room past the length); `facts` indexes the chunk's own facts.
    occurrences: Vec<Unplaced<K>>,
    /// The first byte of each occurrence's key in the order pushed: where a spill cuts the
    /// chunk ([`OccurrenceChunk::split_off`]) once it is ordered.
    firsts: Vec<u8>,
    /// Occurrences by their key's first byte.
    counts: Box<[u32; 256]>,
    order: Order,
    facts: Vec<Facts>,
    games: u64,
}

/// How a chunk's occurrences are laid out.
#[derive(Debug)]
enum Order {
    /// In the order pushed.
    Pushed,
    /// Being pushed into their first byte's place, counted beforehand: where each first byte's
    /// next occurrence goes.
    Filling(Box<[u32; 256]>),
    /// By first byte.
    ByFirstByte,
}

impl<const K: usize> Default for OccurrenceChunk<K> {
    fn default() -> OccurrenceChunk<K> {
        OccurrenceChunk::with_capacity(0)
    }
}

/// Where each first byte's occurrences start among occurrences ordered by first byte, and
/// (the last) where they end.
fn starts_of(counts: &[u32; 256]) -> Box<[u32; 257]> {
    let mut starts = Box::new([0; 257]);
    for (byte, &count) in counts.iter().enumerate() {
        starts[byte + 1] = starts[byte] + count;
    }
    starts
}

impl<const K: usize> OccurrenceChunk<K> {
    /// No games, room for `moves` moves, kept in the order pushed.
    pub fn with_capacity(moves: usize) -> OccurrenceChunk<K> {
        OccurrenceChunk {
            occurrences: Vec::with_capacity(moves),
            firsts: Vec::with_capacity(moves),
            counts: Box::new([0; 256]),
            order: Order::Pushed,
            facts: Vec::new(),
            games: 0,
        }
    }

    /// No games, for the moves played in positions `keys`, to be pushed next (in any order):
    /// each is put in its first byte's place as it is pushed, so that the chunk is ordered by
    /// first byte once they all are (the run checks that they were).
    pub fn by_first_byte<'k>(keys: impl IntoIterator<Item = &'k [u8; K]>) -> OccurrenceChunk<K> {
        let mut counts = Box::new([0; 256]);
        for key in keys {
            counts[bucket_of(key)] += 1;
        }
        let starts = starts_of(&counts);
        let moves = starts[256] as usize;
        OccurrenceChunk {
            occurrences: Vec::with_capacity(moves),
            firsts: Vec::with_capacity(moves),
            counts,
            order: Order::Filling(Box::new(std::array::from_fn(|byte| starts[byte]))),
            facts: Vec::new(),
            games: 0,
        }
    }

    /// Moves held.
    pub fn len(&self) -> usize {
        self.firsts.len()
    }

    /// Whether it holds no move.
    pub fn is_empty(&self) -> bool {
        self.firsts.is_empty()
    }

    /// Begins the chunk's next game: its number in the chunk (from 0), for [`Played::game`].
    pub fn start_game(&mut self) -> u64 {
        self.games += 1;
        self.games - 1
    }

    /// Adds a move played in position `key`; `played.game` numbers the game within the chunk
    /// (or the whole table, for the builder's own chunk).
    // Inlined into the walker's loop: out of line it cost 15 M of the slice's instructions.
    #[inline(always)]
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
        let byte = bucket_of(&key);
        self.firsts.push(byte as u8);
        let occurrence = Unplaced { key, code, facts: index as u32 };
        match &mut self.order {
            Order::Pushed => {
                self.counts[byte] += 1;
                self.occurrences.push(occurrence);
            }
            // Written in the room past the length, which `order` sets once every place is. A
            // key not counted beforehand lands past its first byte's places (or the room, which
            // panics): `order` finds it.
            Order::Filling(next) => {
                self.occurrences.spare_capacity_mut()[next[byte] as usize].write(occurrence);
                next[byte] += 1;
            }
            Order::ByFirstByte => unreachable!("a chunk is ordered once whole, by a run"),
        }
    }

    /// Orders the occurrences by first byte (a chunk made by
    /// [`OccurrenceChunk::by_first_byte`] already is: checked that every key pushed was
    /// counted).
    fn order(&mut self) {
        let starts = starts_of(&self.counts);
        match &self.order {
            Order::ByFirstByte => {}
            Order::Filling(next) => {
                // Each first byte's places written one after the other from its start, up to
                // its end and no further: every place of the room once.
                assert!(next.iter().zip(&starts[1..]).all(|(at, end)| at == end), "a chunk's keys counted as pushed");
                // SAFETY: the first `starts[256]` places of the room were written (above).
                unsafe { self.occurrences.set_len(starts[256] as usize) };
            }
            Order::Pushed => {
                let mut next: [u32; 256] = std::array::from_fn(|byte| starts[byte]);
                let mut ordered = self.occurrences.clone();
                for o in &self.occurrences {
                    let byte = bucket_of(&o.key);
                    ordered[next[byte] as usize] = *o;
                    next[byte] += 1;
                }
                self.occurrences = ordered;
            }
        }
        self.order = Order::ByFirstByte;
    }

    /// The moves pushed from the `at`-th on, as a chunk of the same games (their facts with
    /// them); both ordered by first byte.
    pub(super) fn split_off(&mut self, at: usize) -> OccurrenceChunk<K> {
        self.order();
        let mut kept = Box::new([0u32; 256]);
        for &byte in &self.firsts[..at] {
            kept[usize::from(byte)] += 1;
        }
        // A first byte's occurrences are in the order pushed: the first `kept` of them stay.
        let starts = starts_of(&self.counts);
        let mut stay = Vec::with_capacity(at);
        let mut rest = Vec::with_capacity(self.len() - at);
        for byte in 0..256 {
            let (start, end) = (starts[byte] as usize, starts[byte + 1] as usize);
            let cut = start + kept[byte] as usize;
            stay.extend_from_slice(&self.occurrences[start..cut]);
            rest.extend_from_slice(&self.occurrences[cut..end]);
        }
        self.occurrences = stay;
        let counts = Box::new(std::array::from_fn(|byte| self.counts[byte] - kept[byte]));
        self.counts = kept;
        OccurrenceChunk {
            occurrences: rest,
            firsts: self.firsts.split_off(at),
            counts,
            order: Order::ByFirstByte,
            facts: self.facts.clone(),
            games: self.games,
        }
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

/// A chunk in its run, ordered by first byte: where each first byte's occurrences start in it,
/// and where its facts start among the run's.
struct Placed<const K: usize> {
    chunk: OccurrenceChunk<K>,
    starts: Box<[u32; 257]>,
    facts_base: u32,
}

impl<const K: usize> Placed<K> {
    /// The chunk's occurrences whose key starts with `byte`, in the order pushed.
    fn bucket(&self, byte: usize) -> &[Unplaced<K>] {
        &self.chunk.occurrences[self.starts[byte] as usize..self.starts[byte + 1] as usize]
    }
}

/// Runs are sorted a group of consecutive keys at a time, each group at most about this part of
/// the run: two rooms of a group's size are used from group to group (one group handed on while
/// the next is sorted into the other), so that no sorted copy of the whole run is made (the
/// rooms hold 1/16 of the run's occurrences), and a group's spans of keys are sorted on every
/// core at once.
const GROUPS: usize = 32;

/// A run's occurrences: chunks as they come, each ordered by first byte; sorted a group of
/// keys at a time ([`Buckets::for_each_group`]).
pub(super) struct Buckets<const K: usize> {
    chunks: Vec<Placed<K>>,
    /// Occurrences by their key's first byte, over the chunks.
    totals: [usize; 256],
    len: usize,
    /// Sorted groups: the one handed on and the next, the room kept from group to group and
    /// from run to run.
    rooms: [Vec<Occurrence<K>>; 2],
}

impl<const K: usize> Buckets<K> {
    /// No occurrences.
    pub(super) fn new() -> Buckets<K> {
        Buckets { chunks: Vec::new(), totals: [0; 256], len: 0, rooms: [Vec::new(), Vec::new()] }
    }

    /// Occurrences held.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Adds a chunk after the occurrences held, ordering it by first byte if it is not (moves
    /// pushed one by one); its facts are the run's from `facts_base` on. The run holds at most
    /// 2^32 occurrences (the caller's limit).
    pub(super) fn add(&mut self, mut chunk: OccurrenceChunk<K>, facts_base: usize) {
        chunk.order();
        self.totals.iter_mut().zip(chunk.counts.iter()).for_each(|(total, &count)| *total += count as usize);
        self.len += chunk.len();
        let starts = starts_of(&chunk.counts);
        self.chunks.push(Placed { chunk, starts, facts_base: facts_base as u32 });
    }

    /// The run's occurrences in groups of consecutive spans of keys, in key order, each group at
    /// most 1/[`GROUPS`] of the occurrences (its share) unless one span is more: a first byte's
    /// occurrences are a span, or, when they are more than the share (the openings' back rank),
    /// several, cut by second byte, so that a group's room stays within its share of the run.
    fn groups(&self) -> Vec<Vec<Span>> {
        let share = (self.len / GROUPS).max(1);
        let mut groups = Vec::with_capacity(2 * GROUPS);
        let mut group = Vec::new();
        let mut held = 0;
        for (byte, &total) in self.totals.iter().enumerate() {
            if total == 0 {
                continue;
            }
            let spans = if total > share && K > 1 {
                self.second_byte_spans(byte, share)
            } else {
                vec![Span { byte, seconds: 0..256, len: total, of_chunks: None }]
            };
            for span in spans {
                // A group ends before a span would take it past its share.
                if held + span.len > share && !group.is_empty() {
                    groups.push(std::mem::take(&mut group));
                    held = 0;
                }
                held += span.len;
                group.push(span);
            }
        }
        if !group.is_empty() {
            groups.push(group);
        }
        groups
    }

    /// The occurrences whose key's first byte is `byte`, cut by second byte into spans of at
    /// most `share` (or one second byte's), each with its part of every chunk (counted on every
    /// core).
    fn second_byte_spans(&self, byte: usize, share: usize) -> Vec<Span> {
        let counts: Vec<[u32; 256]> = self
            .chunks
            .par_iter()
            .map(|placed| {
                let mut counts = [0; 256];
                for o in placed.bucket(byte) {
                    counts[usize::from(o.key[1])] += 1;
                }
                counts
            })
            .collect();
        let span = |seconds: Range<usize>, len| {
            let of_chunks = counts.iter().map(|c| c[seconds.clone()].iter().sum()).collect();
            Span { byte, seconds, len, of_chunks: Some(of_chunks) }
        };
        let mut spans = Vec::new();
        let (mut start, mut held) = (0, 0);
        for second in 0..256 {
            let count: usize = counts.iter().map(|c| c[second] as usize).sum();
            // A span ends before a second byte would take it past the share.
            if held + count > share && held > 0 {
                spans.push(span(start..second, held));
                (start, held) = (second, 0);
            }
            held += count;
        }
        if held > 0 {
            spans.push(span(start..256, held));
        }
        spans
    }

    /// Hands the occurrences to `each` sorted by key, a group of keys at a time in key order,
    /// the next group sorted on the pool while `each` works on one.
    pub(super) fn for_each_group<E: Send>(
        &mut self,
        mut each: impl FnMut(&[Occurrence<K>]) -> Result<(), E> + Send,
    ) -> Result<(), E> {
        let groups = self.groups();
        let Buckets { chunks, rooms: [current, next], .. } = self;
        if let Some(group) = groups.first() {
            sort_group(chunks, group, current);
        }
        for at in 0..groups.len() {
            let (handed, ()) = rayon::join(
                || each(current),
                || {
                    if let Some(group) = groups.get(at + 1) {
                        sort_group(chunks, group, next);
                    }
                },
            );
            handed?;
            std::mem::swap(current, next);
        }
        Ok(())
    }

    /// [`Buckets::for_each_group`] one group after the other on this thread's side, for an
    /// `each` that cannot move between threads.
    pub(super) fn for_each_group_here<E>(
        &mut self,
        mut each: impl FnMut(&[Occurrence<K>]) -> Result<(), E>,
    ) -> Result<(), E> {
        let groups = self.groups();
        let Buckets { chunks, rooms: [room, _], .. } = self;
        for group in &groups {
            sort_group(chunks, group, room);
            each(room)?;
        }
        Ok(())
    }

    /// Empty, the rooms of the sorted groups kept for the next run, the chunks given back on a
    /// pool thread ([`free_later`]).
    pub(super) fn clear(&mut self) {
        free_later(std::mem::take(&mut self.chunks));
        self.totals = [0; 256];
        self.len = 0;
    }

    /// Empty, the room given back (on a pool thread, [`free_later`]).
    pub(super) fn free(&mut self) {
        free_later(std::mem::replace(self, Buckets::new()));
    }
}

/// Drops `memory` on a pool thread: giving back a run's tens of megabytes of pages takes
/// milliseconds that the thread writing the tree need not wait for.
fn free_later<T: Send + 'static>(memory: T) {
    rayon::spawn(move || drop(memory));
}

/// Occurrences sorted together: those whose key's first byte is `byte` and second byte in
/// `seconds` (all of them: `0..256`), `len` of them.
struct Span {
    byte: usize,
    seconds: Range<usize>,
    len: usize,
    /// How many each chunk holds, when the span is not the whole first byte's.
    of_chunks: Option<Vec<u32>>,
}

impl Span {
    /// Whether the span holds `key` (whose first byte is the span's).
    fn holds<const K: usize>(&self, key: &[u8; K]) -> bool {
        self.seconds.len() == 256 || self.seconds.contains(&usize::from(key[1]))
    }
}

/// Sorts into `room` the occurrences of `chunks` in the spans of `group`: each span's
/// gathered from the chunks in their order (on every core when there are many), each numbered
/// by its place among them, which keeps the order they were played in, then sorted by the rest
/// of the key; the spans on every core, the largest first.
fn sort_group<const K: usize>(chunks: &[Placed<K>], group: &[Span], room: &mut Vec<Occurrence<K>>) {
    let total: usize = group.iter().map(|span| span.len).sum();
    room.clear();
    room.reserve(total);
    let mut rest = &mut room.spare_capacity_mut()[..total];
    let mut parts = Vec::with_capacity(group.len());
    for span in group {
        let (part, after) = std::mem::take(&mut rest).split_at_mut(span.len);
        rest = after;
        parts.push((span, part));
    }
    parts.sort_unstable_by_key(|(span, _)| std::cmp::Reverse(span.len));
    parts.into_par_iter().with_max_len(1).for_each(|(span, part)| {
        gather(chunks, span, part);
        // SAFETY: `gather` wrote every place of the part.
        let part = unsafe { &mut *(std::ptr::from_mut(part) as *mut [Occurrence<K>]) };
        sort_by_key(part, 1);
    });
    // SAFETY: the parts cover the first `total` places (the spans' lengths add up to it), and
    // each was written whole.
    unsafe { room.set_len(total) };
}

/// Writes every occurrence of the chunks in `span` into `room` (as many places), in the chunks'
/// order, each numbered by its place.
fn gather<const K: usize>(chunks: &[Placed<K>], span: &Span, room: &mut [MaybeUninit<Occurrence<K>>]) {
    let parallel = room.len() >= PARALLEL_SORT;
    let mut parts = Vec::with_capacity(chunks.len());
    let mut rest = room;
    let mut seq = 0;
    for (at, placed) in chunks.iter().enumerate() {
        let from = placed.bucket(span.byte);
        let len = span.of_chunks.as_ref().map_or(from.len(), |of_chunks| of_chunks[at] as usize);
        let (part, after) = std::mem::take(&mut rest).split_at_mut(len);
        rest = after;
        parts.push((placed, from, part, seq));
        seq += len as u32;
    }
    assert!(rest.is_empty(), "a span's length is its chunks' counts");
    let copy = |(placed, from, part, seq): (&Placed<K>, &[Unplaced<K>], &mut [MaybeUninit<Occurrence<K>>], u32)| {
        let wanted = part.len();
        let mut written = 0u32;
        for (o, to) in from.iter().filter(|o| span.holds(&o.key)).zip(part) {
            to.write(Occurrence { key: o.key, code: o.code, facts: o.facts + placed.facts_base, seq: seq + written });
            written += 1;
        }
        assert_eq!(written as usize, wanted, "a chunk's part of a span is as counted");
    };
    if parallel {
        parts.into_par_iter().for_each(copy);
    } else {
        parts.into_iter().for_each(copy);
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

    /// The chunks, the groups and the radix sort put occurrences in the order of their keys as
    /// the standard library's sort gives it, each occurrence once and a key's in the order
    /// pushed by their places: keys drawn from few byte values, so that buckets nest deep, keys
    /// repeat and some slices are all one byte; chunks pushed one by one, ordered as they are
    /// made, and cut where a spill would cut them.
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
        // A second byte of one value (`fixed`) or as spread as the others: a first byte's
        // occurrences more than a group's share are cut by second byte.
        let rounds = [(0, 1, true), (1, 1, true), (70, 2, true), (5_000, 3, true), (40_000, 256, true)];
        let more = [(70_000, 4, true), (100_000, 2, true), (50_000, 3, false), (60_000, 2, false)];
        for (len, spread, fixed) in rounds.into_iter().chain(more) {
            let pushed: Vec<([u8; 5], u16)> = (0..len)
                .map(|_| {
                    let key = std::array::from_fn(|at| if at == 1 && fixed { 0xff } else { (next() % spread) as u8 });
                    (key, (next() % 7) as u16)
                })
                .collect();
            // The same buckets for every round: each starts empty, whatever it held before.
            buckets.clear();
            // Chunks of a few sizes, each occurrence a game of its own (its facts its place).
            let mut facts = 0;
            for chunk_pushed in pushed.chunks(1 + (next() % 9_000) as usize) {
                let mut chunk = match next() % 3 {
                    0 => OccurrenceChunk::default(),
                    _ => OccurrenceChunk::by_first_byte(chunk_pushed.iter().map(|(key, _)| key)),
                };
                for &(key, code) in chunk_pushed {
                    let game = chunk.start_game();
                    chunk.push(
                        key,
                        Played { code, outcome: Outcome::Unknown, mover_rating: 0, opponent_rating: 0, year: 0, game },
                    );
                }
                // The rest of a cut chunk keeps the chunk's facts.
                if next() % 2 == 0 {
                    let rest = chunk.split_off((next() % (chunk_pushed.len() as u64 + 1)) as usize);
                    buckets.add(chunk, facts);
                    buckets.add(rest, facts);
                } else {
                    buckets.add(chunk, facts);
                }
                facts += chunk_pushed.len();
            }
            let groups = buckets.groups();
            let spans: Vec<(usize, Range<usize>)> =
                groups.iter().flatten().map(|s| (s.byte, s.seconds.clone())).collect();
            assert!(spans.windows(2).all(|w| (w[0].0, w[0].1.end) <= (w[1].0, w[1].1.start)), "spans in key order");
            let mut sorted: Vec<Occurrence<5>> = Vec::new();
            buckets
                .for_each_group(|group| {
                    sorted.extend_from_slice(group);
                    Ok::<_, ()>(())
                })
                .unwrap();
            let mut here: Vec<Occurrence<5>> = Vec::new();
            buckets
                .for_each_group_here(|group| {
                    here.extend_from_slice(group);
                    Ok::<_, ()>(())
                })
                .unwrap();
            let keys_of = |occurrences: &[Occurrence<5>]| occurrences.iter().map(|o| o.key).collect::<Vec<_>>();
            let keys = keys_of(&sorted);
            // The whole of both, not a zip that would stop at the shorter.
            assert_eq!(keys_of(&here), keys, "both ways sort alike");
            let mut expected: Vec<([u8; 5], u32, u16)> =
                pushed.iter().enumerate().map(|(seq, &(key, code))| (key, seq as u32, code)).collect();
            expected.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
            assert_eq!(keys, expected.iter().map(|e| e.0).collect::<Vec<_>>(), "{len} keys of {spread} byte values");
            // Within a key in any order, but their places in the order pushed: by place, they
            // are the occurrences pushed (each one's facts its place among them).
            let mut places: Vec<([u8; 5], u32, u32, u16)> =
                sorted.iter().map(|o| (o.key, o.seq, o.facts, o.code)).collect();
            places.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
            let places: Vec<([u8; 5], u32, u16)> =
                places.iter().map(|&(key, _, facts, code)| (key, facts, code)).collect();
            assert_eq!(places, expected, "{len} keys of {spread} byte values");
            assert_eq!(buckets.len(), len);
        }
    }
}
