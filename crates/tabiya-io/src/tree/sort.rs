//! The builder's occurrences and their sort: each occurrence goes, as it is pushed, into one of
//! 256 buckets by its key's first byte (the first pass of a radix sort, done on the way in, so
//! no single thread goes over all of them once more at the end); the buckets are then sorted
//! each on its own core, largest first, by the rest of the key. A position's occurrences come
//! out in no particular order: their places say which move was played first (runs.rs).

use rayon::iter::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// A move of a game where it was played: the key, the move's code, what the run's table of
/// facts holds of the game for the mover (runs.rs), and its place among the run's occurrences,
/// which tells the order a position's moves were first played in. 36 bytes with a 26-byte
/// key: the sort moves them, so the game's fields are not repeated beside every move.
#[derive(Debug, Clone, Copy)]
pub(super) struct Occurrence<const K: usize> {
    pub(super) key: [u8; K],
    pub(super) code: u16,
    pub(super) facts: u32,
    pub(super) seq: u32,
}

/// Occurrences by their key's first byte, each bucket in the order pushed until
/// [`Buckets::sort`].
pub(super) struct Buckets<const K: usize> {
    buckets: Vec<Vec<Occurrence<K>>>,
    len: usize,
}

impl<const K: usize> Buckets<K> {
    /// No occurrences.
    pub(super) fn new() -> Buckets<K> {
        Buckets { buckets: (0..256).map(|_| Vec::new()).collect(), len: 0 }
    }

    /// Occurrences held.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a move played in position `key`; its place is the number of occurrences before it.
    pub(super) fn push(&mut self, key: [u8; K], code: u16, facts: u32) {
        // An empty key has one bucket (the tests' keys are never empty; a game's never are).
        let bucket = key.first().map_or(0, |&b| usize::from(b));
        self.buckets[bucket].push(Occurrence { key, code, facts, seq: self.len as u32 });
        self.len += 1;
    }

    /// Sorts by key, the buckets on every core (the largest first, so that the last to finish
    /// is a small one).
    pub(super) fn sort(&mut self) {
        let mut buckets: Vec<&mut Vec<Occurrence<K>>> = self.buckets.iter_mut().filter(|b| b.len() > 1).collect();
        buckets.sort_unstable_by_key(|b| std::cmp::Reverse(b.len()));
        buckets.into_par_iter().with_max_len(1).for_each(|bucket| sort_by_key(bucket, 1));
    }

    /// The buckets in key order (sorted once [`Buckets::sort`] has run).
    pub(super) fn slices(&self) -> impl Iterator<Item = &[Occurrence<K>]> {
        self.buckets.iter().map(Vec::as_slice).filter(|b| !b.is_empty())
    }

    /// Empty, each bucket keeping its room for the next run.
    pub(super) fn clear(&mut self) {
        self.buckets.iter_mut().for_each(Vec::clear);
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
            for &(key, code) in &pushed {
                buckets.push(key, code, 0);
            }
            buckets.sort();
            let sorted: Vec<Occurrence<5>> = buckets.slices().flatten().copied().collect();
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
