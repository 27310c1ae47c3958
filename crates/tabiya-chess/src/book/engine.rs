//! The machinery every book build from games shares, whatever its format counts: records are
//! collected by pieces of the input, each piece sorted by key on the thread that read it (the
//! record says how: [`Keyed::sort`]); the sorted pieces are cut into ranges of consecutive keys
//! ([`split`]); each range is merged on its own thread and what it makes is handed on in key
//! order ([`in_key_order`]), so that a writer goes on while later ranges are merged.
//!
//! What a record is and how one key's records become a position is the format's: Polyglot
//! counts each move occurrence per real position, in the order moves were first played
//! (`book::build`); Kvetka counts each normalised position once per game, final positions
//! too, with the first game and the games ending there (`kvetka::record`). The two cannot be
//! one count byte for byte, so they share this engine, not the record.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::Mutex;

use crate::pgn::pieces::{PieceInput, Pieces, locked, walk_in_order};
use crate::pgn::{PgnWalk, WalkOptions};

/// A record the engine sorts and splits by key.
pub(crate) trait Keyed: Copy + Send + Sync {
    /// The key the records are sorted and grouped by.
    type Key: Ord + Copy + Send + Sync;

    /// The record's key.
    fn key(&self) -> Self::Key;

    /// Sorts one piece's records by key, as the format needs them (Polyglot keeps records of
    /// one key in the order they came; Kvetka does not need it).
    fn sort(records: &mut [Self]);
}

/// Cuts sorted pieces into at most `parts` ranges of consecutive keys, about equal in records
/// (the bounds are taken from the largest piece): range `i` holds every piece's records of its
/// keys, in the pieces' order, and every record of a key falls in one range.
pub(crate) fn split<'a, R: Keyed>(pieces: &[&'a [R]], parts: usize) -> Vec<Vec<&'a [R]>> {
    let parts = parts.max(1);
    let largest = pieces.iter().max_by_key(|piece| piece.len()).copied().unwrap_or_default();
    let mut bounds: Vec<R::Key> =
        (1..parts).filter_map(|i| largest.get(i * largest.len() / parts).map(Keyed::key)).collect();
    bounds.dedup();
    let mut rests = pieces.to_vec();
    let mut ranges = Vec::with_capacity(bounds.len() + 1);
    for bound in bounds {
        let below = rests.iter_mut().map(|rest| {
            let (below, above) = rest.split_at(rest.partition_point(|r| r.key() < bound));
            *rest = above;
            below
        });
        ranges.push(below.collect());
    }
    ranges.push(rests);
    ranges
}

/// Runs up to this many are merged by looking at every run's head for every key, which is
/// cheaper than a tree's upkeep for the pieces of a file in memory (one per thread); more runs
/// (the pieces of a stream, five for the medium file, fifteen for it ×8, hundreds for a
/// lichess month) go through a [`Tournament`], so a key costs the logarithm of the runs, not
/// every run (Polyglot build of the medium file's `.zst`, five runs, callgrind: 3,815 M
/// instructions looking at every head, 3,592 M through the tree).
const FEW_RUNS: usize = 4;
const _: () = assert!(FEW_RUNS <= u32::BITS as usize, "KeyGroups::holders has a bit per run");

/// Sorted runs of records merged key by key: [`KeyGroups::next_group`] gives the smallest key
/// left and each run's records of it, in the runs' order (which is the input's: formats take
/// the first game or the first move met from the first run that holds the key).
#[derive(Clone)]
pub(crate) struct KeyGroups<'a, R: Keyed> {
    runs: Vec<&'a [R]>,
    /// With more than [`FEW_RUNS`] runs: the head of every run, in a tournament.
    tree: Option<Tournament<R::Key>>,
    /// Without a tree: the runs whose head is the current key and whose records of it are not
    /// yet handed on, as bits (found with the key: no run is looked at twice for it).
    holders: u32,
    /// Without a tree: the one run with records left when the others are done (a file read
    /// on one thread, or the end of a range), whose head is the next key; no other run is
    /// looked at then.
    alone: Option<usize>,
}

impl<'a, R: Keyed> KeyGroups<'a, R> {
    /// The merge of `runs`, each sorted by key.
    pub(crate) fn new(runs: Vec<&'a [R]>) -> KeyGroups<'a, R> {
        let tree = (runs.len() > FEW_RUNS).then(|| Tournament::new(runs.iter().map(|run| run.first().map(Keyed::key))));
        let mut groups = KeyGroups { runs, tree, holders: 0, alone: None };
        groups.find_alone();
        groups
    }

    /// Sets `alone` when no tree is kept and one run alone has records left.
    fn find_alone(&mut self) {
        let mut left = self.runs.iter().enumerate().filter(|(_, run)| !run.is_empty()).map(|(i, _)| i);
        self.alone = match (&self.tree, left.next(), left.next()) {
            (None, Some(i), None) => Some(i),
            _ => None,
        };
    }

    /// The records of each run not yet handed on.
    pub(crate) fn runs(&self) -> &[&'a [R]] {
        &self.runs
    }

    /// The smallest key left and its records, run by run; `None` when every run is done.
    /// Records of the key before that were not taken from its [`Holding`] are still to come.
    // Inlined into each format's merge loop, as `Holding::next`: a call per run and per key
    // costs more than the work of most keys (callgrind, the Polyglot build of a slice of M: 7 %
    // more instructions).
    #[inline(always)]
    pub(crate) fn next_group(&mut self) -> Option<(R::Key, Holding<'_, 'a, R>)> {
        let key = match &self.tree {
            None if let Some(i) = self.alone => {
                self.holders = 1 << i;
                self.runs[i].first()?.key()
            }
            None => {
                let (mut least, mut holders) = (None, 0);
                for (i, head) in self.runs.iter().enumerate().filter_map(|(i, run)| Some((i, run.first()?.key()))) {
                    match least {
                        Some(key) if head > key => {}
                        Some(key) if head == key => holders |= 1 << i,
                        _ => (least, holders) = (Some(head), 1 << i),
                    }
                }
                self.holders = holders;
                least?
            }
            // The tree always holds every run's head: a run's records not taken are its head still.
            Some(tree) => tree.winner().key?,
        };
        Some((key, Holding { groups: self, key }))
    }
}

/// The runs holding one key ([`KeyGroups::next_group`]): each run's records of the key, as
/// `(run, records, what follows them in the run)`, in the runs' order.
pub(crate) struct Holding<'g, 'a, R: Keyed> {
    groups: &'g mut KeyGroups<'a, R>,
    key: R::Key,
}

impl<'a, R: Keyed> Iterator for Holding<'_, 'a, R> {
    type Item = (usize, &'a [R], &'a [R]);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, &'a [R], &'a [R])> {
        let groups = &mut *self.groups;
        let take = |run: &'a [R], key: R::Key| run.split_at(run.iter().take_while(|r| r.key() == key).count());
        if let Some(tree) = &mut groups.tree {
            // Ties go to the earlier run: the runs holding the key win one after the other, in
            // order, each replaced by its next key (a greater one) once its records are taken.
            let winner = tree.winner();
            if winner.key != Some(self.key) {
                return None;
            }
            let i = winner.run;
            let (group, rest) = take(groups.runs[i], self.key);
            groups.runs[i] = rest;
            tree.replace_winner(rest.first().map(Keyed::key));
            return Some((i, group, rest));
        }
        if groups.holders == 0 {
            return None;
        }
        let i = groups.holders.trailing_zeros() as usize;
        groups.holders &= groups.holders - 1;
        let (group, rest) = take(groups.runs[i], self.key);
        groups.runs[i] = rest;
        // A run found alone now is so from the next key on: the other holders of this one are
        // still handed on from `holders`.
        if rest.is_empty() {
            groups.find_alone();
        }
        Some((i, group, rest))
    }
}

/// A run's head in a [`Tournament`]: its key (`None` once the run is done) and the run.
#[derive(Clone, Copy)]
struct Entry<K> {
    key: Option<K>,
    run: usize,
}

impl<K: Ord> Entry<K> {
    /// Whether this head comes before `other`: the smaller key, on a tie the earlier run; a
    /// done run comes after every other.
    #[inline(always)]
    fn before(&self, other: &Entry<K>) -> bool {
        match (&self.key, &other.key) {
            (Some(mine), Some(theirs)) => (mine, self.run) < (theirs, other.run),
            (Some(_), None) => true,
            (None, _) => false,
        }
    }
}

/// The heads of many sorted runs in a tournament tree (a loser tree): the first head is known
/// at once, and replacing it with its run's next key plays one match per level of the tree,
/// on the one path from its leaf. A binary heap's pop and push cost about twice as many
/// comparisons, each a branch no processor predicts (random keys): through a heap, merging the
/// 15 runs of a stream's book build took 0.7 CPU s more than the 2 runs of the same file in
/// memory.
#[derive(Clone)]
struct Tournament<K> {
    /// `nodes[0]` is the winner; `nodes[n]` (for `n` from 1) the loser of the match at inner
    /// node `n`, whose children are nodes `2n` and `2n + 1`, leaf `i` being node `leaves + i`.
    nodes: Vec<Entry<K>>,
    /// Leaves: the runs, rounded up to a power of two (the ones past the runs are done).
    leaves: usize,
}

impl<K: Ord + Copy> Tournament<K> {
    /// The tournament of runs whose first keys are `heads` (`None`: an empty run).
    fn new(heads: impl ExactSizeIterator<Item = Option<K>>) -> Tournament<K> {
        let leaves = heads.len().next_power_of_two();
        // The leaves past the runs are done from the start: they never win, never play again.
        let done = Entry { key: None, run: 0 };
        // Winners of every node, leaves included; the losers are kept as the matches are played.
        let mut winners = vec![done; 2 * leaves];
        for (run, key) in heads.enumerate() {
            winners[leaves + run] = Entry { key, run };
        }
        let mut nodes = vec![done; leaves];
        for n in (1..leaves).rev() {
            let (left, right) = (winners[2 * n], winners[2 * n + 1]);
            (winners[n], nodes[n]) = if right.before(&left) { (right, left) } else { (left, right) };
        }
        nodes[0] = winners[1];
        Tournament { nodes, leaves }
    }

    /// The first head: the smallest key, of the earliest run that holds it.
    #[inline(always)]
    fn winner(&self) -> Entry<K> {
        self.nodes[0]
    }

    /// Gives the winner's run its next key (`None`: the run is done) and plays its path again.
    #[inline(always)]
    fn replace_winner(&mut self, key: Option<K>) {
        let mut entry = Entry { key, run: self.nodes[0].run };
        let mut n = (self.leaves + entry.run) / 2;
        while n > 0 {
            if self.nodes[n].before(&entry) {
                std::mem::swap(&mut self.nodes[n], &mut entry);
            }
            n /= 2;
        }
        self.nodes[0] = entry;
    }
}

/// The ranges merged and not yet handed on, the next one to hand on, and whether a thread is
/// handing them on.
struct InOrder<T> {
    waiting: BTreeMap<usize, T>,
    next: usize,
    busy: bool,
}

/// Merges every range on the rayon threads and hands what each makes to `consume` in the
/// order of `ranges`, each as soon as it and those before it are done. No thread of its own
/// consumes: whoever finishes a range hands it in, and the first to find `consume` free takes
/// every range that is next in order, so no core waits for a consumer that starts only when
/// the merging is over. Ranges are spawned in order and taken first in, first out, so they
/// finish about in order.
pub(crate) fn in_key_order<S: Send, T: Send>(
    ranges: Vec<S>,
    merge: impl Fn(S) -> T + Sync,
    consume: impl FnMut(T) + Send,
) {
    let order = Mutex::new(InOrder { waiting: BTreeMap::new(), next: 0, busy: false });
    let consume = Mutex::new(consume);
    let hand_in = |index: usize, made: T| {
        let mut queue = locked(&order);
        queue.waiting.insert(index, made);
        if queue.busy {
            return;
        }
        queue.busy = true;
        loop {
            let next = queue.next;
            let Some(made) = queue.waiting.remove(&next) else {
                queue.busy = false;
                return;
            };
            queue.next += 1;
            drop(queue);
            (locked(&consume))(made);
            queue = locked(&order);
        }
    };
    rayon::scope_fifo(|fifo| {
        for (index, range) in ranges.into_iter().enumerate() {
            let (hand_in, merge) = (&hand_in, &merge);
            fifo.spawn_fifo(move |_| hand_in(index, merge(range)));
        }
    });
}

/// Scratch space kept between the ranges a build merges (a range's vectors, reused so that
/// their memory is not given back and faulted in again for the next range): taken by the
/// thread that merges a range and given back when it is done.
pub(crate) struct Scratch<T>(Mutex<Vec<T>>);

impl<T> Scratch<T> {
    /// No scratch space yet.
    pub(crate) fn new() -> Scratch<T> {
        Scratch(Mutex::new(Vec::new()))
    }

    /// Space given back earlier, or `new`'s.
    pub(crate) fn take(&self, new: impl FnOnce() -> T) -> T {
        locked(&self.0).pop().unwrap_or_else(new)
    }

    /// Gives space back for the next range.
    pub(crate) fn give_back(&self, space: T) {
        locked(&self.0).push(space);
    }
}

/// Bytes of text [`walk_stream`]'s callers have it read into a piece before it looks for the last game start
/// (a piece is cut there): large enough that a stream of a few hundred megabytes makes few
/// pieces for the merge to take each key from, small enough that the pieces in flight hold a
/// small part of it, and that the walker left alone with the stream's last piece is not alone
/// long (a piece of 16 MB is 0.3 CPU s of a Polyglot build; 32 MB pieces cost no less CPU and
/// left one core idle for up to twice that at the end).
pub(crate) const STREAM_PIECE: usize = 16 << 20;

/// [`crate::pgn::walk_pieces`] for PGN text that comes as a stream (a decompressed file, a
/// pipe), through [`crate::pgn::pieces`]: this thread reads (and so decompresses) the text a
/// piece at a time, each cut before the last game that starts after its first `piece` bytes,
/// while the pieces read are walked on one thread per rayon thread; at most one piece per
/// thread and one more are held at a time, so memory does not grow with the stream. What
/// `walk` makes of each piece is returned in the order of the text, as `walk_pieces` returns
/// it, and the offsets of the games count from the stream's start. A read error ends the
/// reading: it is returned once the pieces already read are walked. The pieces are cut
/// without looking for comments around the cuts: each walk says whether its piece ended
/// inside one (see [`PieceInput`]).
pub(crate) fn walk_stream<T: Send>(
    input: &mut dyn Read,
    options: &WalkOptions,
    piece: usize,
    walk: impl Fn(&mut PgnWalk<'_>) -> T + Sync,
) -> io::Result<Vec<T>> {
    let threads = rayon::current_num_threads();
    let pieces = Pieces { piece, threads, ahead: threads + 1 };
    let mut made = Vec::new();
    let walk = |text: &[u8], offset: u64| {
        let mut games = PgnWalk::at_offset(text, offset, options.clone());
        (walk(&mut games), games.ended_in_comment())
    };
    let ends_in_comment = |(_, ended_in_comment): &(T, bool)| *ended_in_comment;
    walk_in_order(PieceInput::Stream(input, Some(&ends_in_comment)), &pieces, walk, |(walked, _)| {
        made.push(walked);
        true
    })?;
    Ok(made)
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Keyed for (u32, u32) {
        type Key = u32;

        fn key(&self) -> u32 {
            self.0
        }

        fn sort(records: &mut [(u32, u32)]) {
            records.sort_by_key(|r| r.0);
        }
    }

    #[test]
    fn a_stream_is_walked_as_its_text_in_one_piece() {
        let text = include_bytes!("../../../../samples/famous-games.pgn");
        let options = WalkOptions::default();
        let games = |walk: &mut PgnWalk<'_>| -> Vec<(u64, u64, usize)> {
            walk.flatten().map(|g| (g.offset, g.length, g.tags().count())).collect()
        };
        let whole: Vec<_> = crate::pgn::walk_pieces(text, &options, 1, games).concat();
        assert_eq!(whole.len(), 12);
        for piece in [1, 50, 700, 5000, 1 << 20] {
            let pieces = walk_stream(&mut &text[..], &options, piece, games).unwrap();
            assert_eq!(pieces.concat(), whole, "pieces of {piece} bytes");
            // Each piece but the last holds at least `piece` bytes; no game is cut.
            assert!(pieces.len() <= text.len().div_ceil(piece), "{piece}");
            assert!(pieces.len() > 1 || piece >= text.len() / 2, "{piece}: {} pieces", pieces.len());
        }
        // A read error: `pgn::pieces`'s tests.
    }

    #[test]
    fn key_groups_hand_each_key_run_by_run_however_many_runs() {
        let mut rng = tabiya_testdata::Xorshift::new(29);
        // Few runs (every head looked at) and many (the tournament), some empty, keys shared.
        for (runs, keys) in [(1, 50), (3, 40), (4, 100), (5, 300), (9, 300), (40, 25), (600, 5000)] {
            let mut pieces: Vec<Vec<(u32, u32)>> = (0..runs)
                .map(|run| (0..rng.below(60)).map(|i| (rng.below(keys) as u32, (run * 1000 + i) as u32)).collect())
                .collect();
            pieces.iter_mut().for_each(|piece| piece.sort());
            let mut groups = KeyGroups::new(pieces.iter().map(Vec::as_slice).collect());
            let mut handed = Vec::new();
            while let Some((key, holding)) = groups.next_group() {
                for (run, records, rest) in holding {
                    assert!(records.iter().all(|r| r.0 == key), "{runs} runs");
                    assert!(rest.first().is_none_or(|r| r.0 > key), "{runs} runs");
                    handed.push((key, run, records.to_vec()));
                }
            }
            // Every key in order, and for each the runs that hold it in their order.
            let mut all_keys: Vec<u32> = pieces.iter().flatten().map(|r| r.0).collect();
            all_keys.sort();
            all_keys.dedup();
            let expected: Vec<_> = all_keys
                .iter()
                .flat_map(|&key| {
                    let pieces = &pieces;
                    (0..runs).filter_map(move |run| {
                        let records: Vec<(u32, u32)> = pieces[run].iter().filter(|r| r.0 == key).copied().collect();
                        (!records.is_empty()).then_some((key, run, records))
                    })
                })
                .collect();
            assert!(handed == expected, "{runs} runs");
        }
    }

    #[test]
    fn ranges_follow_one_another_and_come_back_in_order() {
        let mut rng = tabiya_testdata::Xorshift::new(11);
        let mut pieces: Vec<Vec<(u32, u32)>> =
            [0, 1, 300, 5000].iter().map(|&n| (0..n).map(|i| (rng.below(700) as u32, i)).collect()).collect();
        pieces.iter_mut().for_each(|piece| <(u32, u32)>::sort(piece));
        let slices: Vec<&[(u32, u32)]> = pieces.iter().map(Vec::as_slice).collect();
        for parts in [1, 2, 7, 64, 10_000] {
            let ranges = split(&slices, parts);
            assert!(!ranges.is_empty() && ranges.len() <= parts, "{parts}");
            // Piece by piece, the ranges joined are the piece; no key is in two ranges.
            for (p, piece) in pieces.iter().enumerate() {
                let joined: Vec<(u32, u32)> = ranges.iter().flat_map(|r| r[p].iter().copied()).collect();
                assert!(joined == *piece, "{parts} parts, piece {p}");
            }
            let last_keys: Vec<Option<u32>> =
                ranges.iter().map(|r| r.iter().filter_map(|run| run.last().map(|x| x.0)).max()).collect();
            let first_keys: Vec<Option<u32>> =
                ranges.iter().map(|r| r.iter().filter_map(|run| run.first().map(|x| x.0)).min()).collect();
            for i in 1..ranges.len() {
                if let (Some(before), Some(after)) = (last_keys[..i].iter().flatten().max(), first_keys[i]) {
                    assert!(before < &after, "{parts} parts, range {i}");
                }
            }
            let mut handed = Vec::new();
            let sizes = |range: Vec<&[(u32, u32)]>| range.iter().map(|run| run.len()).sum::<usize>();
            in_key_order(ranges.clone(), sizes, |n| handed.push(n));
            assert_eq!(handed, ranges.into_iter().map(sizes).collect::<Vec<_>>(), "{parts}");
        }
    }
}
