//! Polyglot's weights for a [`Book`]: what `polyglot make-book` writes for the same games.

use std::io::{self, Read};
use std::sync::Mutex;

use shakmaty::Color;

use super::{Entry, encode_move};
use crate::book::{self, Book, BookBuilder, BookPosition, BuildOptions, GamesBuild, MoveTally, RangeOutput};
use crate::pgn::pieces::locked;

/// `polyglot make-book`'s counters are 16 bits: when a move reaches this many games, all
/// counters of its position are halved.
const COUNT_MAX: u32 = 16384;

/// The filters and weight rule of `polyglot make-book`.
#[derive(Debug, Clone)]
pub struct MakeOptions {
    /// `-min-game` (default 3): moves played in fewer games are left out.
    pub min_games: u32,
    /// `-min-score` in percent: moves scoring less for their side are left out.
    pub min_score: f64,
    /// `-only-white` / `-only-black`: keep the moves of one side.
    pub only: Option<Color>,
    /// `-uniform`: every kept move weighs 1.
    pub uniform: bool,
}

impl Default for MakeOptions {
    fn default() -> MakeOptions {
        MakeOptions { min_games: 3, min_score: 0.0, only: None, uniform: false }
    }
}

/// The entries `polyglot make-book` writes: weight = 2·wins + draws of the mover, games with
/// an unknown result counting as draws; moves with weight 0 are left out; sorted by key, then
/// weight descending, then the order the moves were first played.
///
/// make-book halves a position's counters (rounding up) each time a move reaches 16,384
/// games while it reads; here the halving is applied to the final counts until every move
/// is below 16,384, which gives the same weights up to rounding.
///
/// The positions are cut into one run per rayon thread, each run's entries made on its own
/// thread and the runs concatenated in key order.
pub fn entries_from_book(book: &Book, options: &MakeOptions) -> Vec<Entry> {
    use rayon::prelude::*;

    let runs = rayon::current_num_threads().clamp(1, book.len().max(1));
    let bounds = |i: usize| book.len() * i / runs;
    let made: Vec<Vec<Entry>> = (0..runs)
        .into_par_iter()
        .map(|i| entries_of(book.positions_in(bounds(i)..bounds(i + 1)), options, 0))
        .collect();
    made.concat()
}

/// The entries of [`entries_from_book`] for one key range of a book, made on this thread: for
/// [`build_from_pgn_in_ranges`](crate::book::build_from_pgn_in_ranges), whose ranges' entries
/// are written one after the other.
pub fn entries_from_range(range: &Book, options: &MakeOptions) -> Vec<Entry> {
    // At most one entry per move: room for all of them, which costs no memory where unused.
    entries_of(range.positions(), options, range.move_count())
}

/// Part of a made book: its entries, and how many positions and moves of the book they came
/// from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryRun {
    /// Positions of the book it came from.
    pub positions: usize,
    /// Moves of the book it came from.
    pub moves: usize,
    /// The entries, sorted.
    pub entries: Vec<Entry>,
}

impl EntryRun {
    /// The whole of `book`: [`entries_from_book`].
    pub fn of_book(book: &Book, options: &MakeOptions) -> EntryRun {
        EntryRun { positions: book.len(), moves: book.move_count(), entries: entries_from_book(book, options) }
    }
}

/// One key range's entries made as the merge counts each position, with no book between (its
/// positions and moves would be written and read again): the [`book::RangeOutput`] of
/// [`make_from_pgn`].
struct RangeEntries<'o> {
    options: &'o MakeOptions,
    run: EntryRun,
    /// Entry vectors handed back once their runs were consumed, for the next ranges.
    spare: &'o Mutex<Vec<Vec<Entry>>>,
}

impl<'o> RangeEntries<'o> {
    fn new(options: &'o MakeOptions, spare: &'o Mutex<Vec<Vec<Entry>>>) -> RangeEntries<'o> {
        RangeEntries { options, run: EntryRun::default(), spare }
    }

    /// The range's entries, leaving a spare vector (memory already faulted in) for the next
    /// range's.
    fn take_run(&mut self) -> EntryRun {
        let entries = locked(self.spare).pop().unwrap_or_default();
        std::mem::replace(&mut self.run, EntryRun { positions: 0, moves: 0, entries })
    }
}

impl RangeOutput<()> for RangeEntries<'_> {
    fn begin(&mut self, room: usize, _: bool) {
        self.run.positions = 0;
        self.run.moves = 0;
        self.run.entries.clear();
        // At most one entry per move: room for all of them, which costs no memory where unused.
        self.run.entries.reserve(room);
    }

    // The entries name the moves by their codes.
    fn met(&mut self, _: &BookBuilder, _: ()) {}

    // Inlined into the merge loop, as `push_position_entries`: a position met once (most of them)
    // is then weighed as the one move it is, without a call and the loops' upkeep.
    #[inline(always)]
    fn position(&mut self, (_, key, turn, _): (u32, u64, Color, Option<u32>), codes: &[u16], tallies: &[MoveTally]) {
        let moves = codes.iter().zip(tallies).map(|(&code, m)| MoveCount {
            raw_move: book::polyglot_move(code),
            games: m.games,
            wins: m.wins,
            losses: m.losses,
        });
        push_position_entries(key, turn, moves, self.options, &mut self.run.entries);
        self.run.positions += 1;
        self.run.moves += codes.len();
    }
}

/// What `polyglot make-book` writes for one PGN text, made key range by key range on every
/// rayon thread so that the whole book is never held: the runs, written one after the other in
/// order, are the book [`entries_from_book`] gives for the same games. Positions are not kept
/// whatever `build` says: entries need none.
pub fn make_from_pgn(input: &[u8], build: &BuildOptions, options: &MakeOptions) -> GamesBuild<Vec<EntryRun>> {
    let mut runs = Vec::new();
    let built = make_from_pgn_with(input, build, options, |run| runs.push(std::mem::take(run)));
    built.with_book(runs)
}

/// [`make_from_pgn`] of PGN text read from a stream (a decompressed file, a pipe), never held
/// whole: see [`book::build_from_pgn_stream`]. The same runs as for the same text in memory.
pub fn make_from_pgn_stream(
    input: &mut dyn Read,
    build: &BuildOptions,
    options: &MakeOptions,
) -> io::Result<GamesBuild<Vec<EntryRun>>> {
    let mut runs = Vec::new();
    let built = make_from_pgn_stream_with(input, build, options, |run| runs.push(std::mem::take(run)))?;
    Ok(built.with_book(runs))
}

/// [`make_from_pgn`], each run handed to `consume` in order as soon as it and those before it
/// are made (on whichever rayon thread made the last of them), while later runs are still
/// being made: a writer writes each as it comes and never holds the book. The memory of a
/// run's entries left in it is used again for a later run.
pub fn make_from_pgn_with(
    input: &[u8],
    build: &BuildOptions,
    options: &MakeOptions,
    mut consume: impl FnMut(&mut EntryRun) + Send,
) -> GamesBuild<()> {
    let spare = Mutex::new(Vec::new());
    let consume = |mut run: EntryRun| hand_back(&spare, &mut run, &mut consume);
    book::count_from_pgn_in_ranges(input, build, || RangeEntries::new(options, &spare), RangeEntries::take_run, consume)
}

/// [`make_from_pgn_with`] of PGN text read from a stream, as [`make_from_pgn_stream`] reads it.
pub fn make_from_pgn_stream_with(
    input: &mut dyn Read,
    build: &BuildOptions,
    options: &MakeOptions,
    mut consume: impl FnMut(&mut EntryRun) + Send,
) -> io::Result<GamesBuild<()>> {
    let spare = Mutex::new(Vec::new());
    let consume = |mut run: EntryRun| hand_back(&spare, &mut run, &mut consume);
    let new_output = || RangeEntries::new(options, &spare);
    book::count_from_pgn_stream_in_ranges(input, build, new_output, RangeEntries::take_run, consume)
}

/// Hands `run` to `consume`, then its entry vector, emptied, to the spare ones.
fn hand_back(spare: &Mutex<Vec<Vec<Entry>>>, run: &mut EntryRun, consume: &mut impl FnMut(&mut EntryRun)) {
    consume(run);
    let mut entries = std::mem::take(&mut run.entries);
    entries.clear();
    locked(spare).push(entries);
}

fn entries_of<'a>(positions: impl Iterator<Item = BookPosition<'a>>, options: &MakeOptions, room: usize) -> Vec<Entry> {
    let mut entries = Vec::with_capacity(room);
    for position in positions {
        let moves = position.moves.iter().map(|m| MoveCount {
            raw_move: encode_move(m.mv),
            games: m.games,
            wins: m.wins,
            losses: m.losses,
        });
        push_position_entries(position.key, position.turn(), moves, options, &mut entries);
    }
    entries
}

/// One move of a position as [`push_position_entries`] weighs it: its Polyglot move field and
/// its games, the mover's wins and losses among them (the rest are draws or unknown results).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveCount {
    /// The move as Polyglot stores it ([`encode_move`]).
    pub raw_move: u16,
    /// Games that played it.
    pub games: u32,
    /// Games the mover won.
    pub wins: u32,
    /// Games the mover lost.
    pub losses: u32,
}

/// Appends the entries `polyglot make-book` writes for one position (see
/// [`entries_from_book`]) to `entries`: `moves` in the order they were first played, `turn`
/// the side to move. For counts summed elsewhere too, such as the distributed book build of
/// the Python package.
#[inline(always)]
pub fn push_position_entries(
    key: u64,
    turn: Color,
    moves: impl Iterator<Item = MoveCount> + Clone,
    options: &MakeOptions,
    entries: &mut Vec<Entry>,
) {
    if options.only.is_some_and(|side| side != turn) {
        return;
    }
    // Halving every counter (rounding up) `halvings` times is dividing it by 2^halvings,
    // rounding up once: ⌈⌈x/a⌉/b⌉ = ⌈x/(ab)⌉.
    let (mut most, mut halvings) = (moves.clone().map(|m| m.games).max().unwrap_or(0), 0);
    while most >= COUNT_MAX {
        (most, halvings) = (most.div_ceil(2), halvings + 1);
    }
    let halved = |x: u32| x.div_ceil(1 << halvings);
    let first = entries.len();
    for stats in moves {
        let n = halved(stats.games);
        let sum = halved(2 * stats.wins + (stats.games - stats.wins - stats.losses));
        // The score is always at least 0: computed only when a minimum above 0 can refuse it.
        let low_score = options.min_score > 0.0 && f64::from(sum) / f64::from(n) / 2.0 < options.min_score / 100.0;
        if n < options.min_games || sum == 0 || low_score {
            continue;
        }
        let weight = if options.uniform { 1 } else { sum as u16 };
        entries.push(Entry { key, raw_move: stats.raw_move, weight, learn: 0 });
    }
    // Stable: equal weights keep the order the moves were first played.
    if entries.len() - first > 1 {
        entries[first..].sort_by_key(|e| std::cmp::Reverse(e.weight));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{BuildOptions, build_from_pgn, build_from_pgn_in_ranges};

    #[test]
    fn runs_on_any_number_of_threads_give_the_same_entries() {
        let sample = include_bytes!("../../../../samples/famous-games.pgn");
        let book = build_from_pgn(sample, &BuildOptions::default(), Some(1)).book;
        let options = MakeOptions { min_games: 1, ..MakeOptions::default() };
        let on = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| entries_from_book(&book, &options))
        };
        let one = on(1);
        assert!(one.len() > 250, "{}", one.len());
        for threads in [2, 3, 7] {
            assert!(on(threads) == one, "{threads} threads");
        }
        // Built without positions, range by range, as `tabiya book` makes them.
        let keys_only = BuildOptions { keep_positions: false, ..BuildOptions::default() };
        for threads in [1, 2, 3, 7] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let build = |range: &mut Book| entries_from_range(range, &options);
            let runs = pool.install(|| build_from_pgn_in_ranges(sample, &keys_only, None, build).book);
            assert!(runs.len() > 1 && runs.len() <= threads * 64, "{}", runs.len());
            assert!(runs.concat() == one, "{threads} threads, in ranges");
        }
    }
}
