//! Building a [`Book`] from games: every main-line move up to a ply limit, counted for the
//! position it was played from (repetitions inside a game count each time, as `polyglot
//! make-book` counts them).

use std::borrow::Cow;
use std::io::{self, Read};
use std::ops::ControlFlow;

use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use super::{Book, EloFilter, KeyTrail, MoveStats, NO_POSITION, PackedPosition, PositionRecord, engine, position_key};
use crate::game::{Game, GameResult};
use crate::pgn::{PgnWalk, WalkOptions, WalkedGame, walk_pieces};
use crate::text::Text;
use tabiya_io::Diagnostic;

/// Which games and moves go into the book.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Moves at plies `0..max_ply` of each game are counted (Polyglot's `-max-ply`, default
    /// 1024).
    pub max_ply: u32,
    /// Which games go in by their players' ratings (`polyglot make-book -min-elo N` is
    /// `EloFilter { weak: N, .. }`).
    pub elo: EloFilter,
    /// Keep every position (for the formats that store positions: CTG, Kvetka). Polyglot
    /// books need only keys, moves and the side to move; without positions `finish` does not
    /// replay the games.
    pub keep_positions: bool,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions { max_ply: 1024, elo: EloFilter::default(), keep_positions: true }
    }
}

/// What the builder did with the games it was given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BuildSummary {
    /// Games whose moves went into the book.
    pub games_added: u64,
    /// Chess960 games: Polyglot, CTG and Kvetka books hold standard chess only.
    pub games_chess960: u64,
    /// Games the Elo filter left out.
    pub games_below_min_elo: u64,
    /// Games whose start position is not legal chess.
    pub games_invalid_start: u64,
    /// Moves counted into the book.
    pub moves_added: u64,
}

/// How one occurrence of a move counts: the game's result for the side that played it, or
/// statistics read from elsewhere (`BookBuilder::added`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tally {
    Unknown,
    MoverWon,
    Draw,
    MoverLost,
    Added,
}

/// A move met while the book grows: where it was played and how it counts. Occurrences are
/// appended as games are read and grouped by key once, in `finish` (a sort is sequential
/// memory traffic; a hash-table update per move is a cache miss per move); the sort keeps the
/// occurrences of a key in the order they came, so moves keep the order first met.
#[derive(Debug, Clone, Copy)]
struct Occurrence<P> {
    /// The key's bytes (native order): aligned to 2 bytes only, so that an occurrence without
    /// payload takes 12 bytes, not 16 (a quarter less memory to fault in, copy and sort).
    key_bytes: [u8; 8],
    /// The move's from, to and promotion squeezed into 15 bits (which tell the moves of one
    /// position apart) and, in bit 15, whether Black played it, keeping an occurrence at 16
    /// bytes (12 without payload).
    code: u16,
    tally: Tally,
    /// The move itself, where it is, or nothing ([`Payload`]).
    payload: P,
}

const _: () = assert!(
    size_of::<Occurrence<Move>>() == 16 && size_of::<Occurrence<u32>>() == 16 && size_of::<Occurrence<()>>() == 12
);

impl<P> Occurrence<P> {
    fn new(key: u64, code: u16, tally: Tally, payload: P) -> Occurrence<P> {
        Occurrence { key_bytes: key.to_ne_bytes(), code, tally, payload }
    }

    fn key(&self) -> u64 {
        u64::from_ne_bytes(self.key_bytes)
    }
}

impl<P: Payload> engine::Keyed for Occurrence<P> {
    type Key = u64;

    fn key(&self) -> u64 {
        Occurrence::key(self)
    }

    fn sort(occurrences: &mut [Occurrence<P>]) {
        sort_by_key_keeping_order(occurrences);
    }
}

/// What an occurrence carries besides its key, code and tally. A book without positions
/// carries the move itself (5 bytes, in the room an order takes): the merge reads it in key
/// order with the rest, where looking it up in game order was a cache miss per position, the
/// most of the merge's time. A book with positions or added statistics carries the move's
/// `order`, its index into `BookBuilder::moves` (which increases with every occurrence), by
/// which `replay` finds the positions and the merge the added statistics. Counts made
/// straight into a format that names moves by their codes (Polyglot's entries) carry nothing.
trait Payload: Copy + Send + Sync + 'static {
    /// `part`'s occurrences, when they carry this payload.
    fn occurrences(part: &BookBuilder) -> Option<&[Occurrence<Self>]>;

    /// The order, when kept.
    fn order(self) -> Option<u32>;
}

/// A payload that tells the move (what a [`Book`]'s moves need).
trait MovePayload: Payload {
    /// The move, played in `part`.
    fn mv(self, part: &BookBuilder) -> Move;
}

impl Payload for Move {
    fn occurrences(part: &BookBuilder) -> Option<&[Occurrence<Move>]> {
        match &part.occurrences {
            Occurrences::Moves(occurrences) => Some(occurrences),
            _ => None,
        }
    }

    fn order(self) -> Option<u32> {
        None
    }
}

impl MovePayload for Move {
    fn mv(self, _: &BookBuilder) -> Move {
        self
    }
}

impl Payload for u32 {
    fn occurrences(part: &BookBuilder) -> Option<&[Occurrence<u32>]> {
        match &part.occurrences {
            Occurrences::Ordered(occurrences) => Some(occurrences),
            _ => None,
        }
    }

    fn order(self) -> Option<u32> {
        Some(self)
    }
}

impl MovePayload for u32 {
    fn mv(self, part: &BookBuilder) -> Move {
        part.moves[self as usize]
    }
}

impl Payload for () {
    fn occurrences(part: &BookBuilder) -> Option<&[Occurrence<()>]> {
        match &part.occurrences {
            Occurrences::Codes(occurrences) => Some(occurrences),
            _ => None,
        }
    }

    fn order(self) -> Option<u32> {
        None
    }
}

/// A builder's occurrences, carrying their moves, their orders or nothing ([`Payload`]).
enum Occurrences {
    Moves(Vec<Occurrence<Move>>),
    Ordered(Vec<Occurrence<u32>>),
    Codes(Vec<Occurrence<()>>),
}

impl Default for Occurrences {
    fn default() -> Occurrences {
        Occurrences::Ordered(Vec::new())
    }
}

/// Sorts occurrences by key, equal keys staying in the order they were appended (a stable
/// sort by key): they are copied into 256 buckets of a new vector by the top 8 bits of their
/// keys (a sequential read and 256 sequential writes, each independent of the others: moving
/// them in place instead is a chain of dependent cache misses, slower by a third; 4,096 buckets
/// are more pages written at once than the TLB holds, a page walk on nearly every write); each
/// bucket, small enough for the cache, is copied back into `occurrences` in as many by
/// the next bits as make runs of about two, and what is left sorted by key. (Copying the
/// occurrences first to distribute back into them, and each bucket to a scratch vector, were
/// two passes over all of them more.) Both distributions keep the order, so the many
/// occurrences of an opening position need no sorting.
fn sort_by_key_keeping_order<P: Copy>(occurrences: &mut [Occurrence<P>]) {
    const OUTER: u32 = 8;
    const MOST_INNER: u32 = 12;
    let mut outer = [0; (1 << OUTER) + 1];
    let mut by_top_bits = Vec::with_capacity(occurrences.len());
    let room = &mut by_top_bits.spare_capacity_mut()[..occurrences.len()];
    distribute(occurrences, 64 - OUTER, &mut outer, |at, occurrence| {
        room[at].write(occurrence);
    });
    // SAFETY: `distribute` put every occurrence in a place of its own below their count.
    unsafe { by_top_bits.set_len(occurrences.len()) };
    let mut inner = vec![0; (1 << MOST_INNER) + 1];
    for bucket in outer.windows(2) {
        let (from, to) = (&by_top_bits[bucket[0]..bucket[1]], &mut occurrences[bucket[0]..bucket[1]]);
        // Runs of about two are sorted at a glance; a bucket of fewer than four, one run, is
        // sorted whole.
        let bits = (from.len() / 2).checked_ilog2().unwrap_or(0).min(MOST_INNER);
        let inner = &mut inner[..(1 << bits) + 1];
        distribute(from, 64 - OUTER - bits, inner, |at, occurrence| to[at] = occurrence);
        for run in inner.windows(2) {
            sort_run(&mut to[run[0]..run[1]]);
        }
    }
}

/// Runs this short are sorted by insertion.
const SMALL_RUN: usize = 16;

/// Sorts a run by key, stably.
fn sort_run<P: Copy>(run: &mut [Occurrence<P>]) {
    if run.is_sorted_by_key(Occurrence::key) {
        return;
    }
    if run.len() > SMALL_RUN {
        return run.sort_by_key(Occurrence::key);
    }
    for i in 1..run.len() {
        let mut j = i;
        while j > 0 && run[j - 1].key() > run[j].key() {
            run.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Puts the occurrences of `from` in `starts.len() - 1` buckets by the bits of the keys from
/// `shift` up (the bits above being equal), each bucket in the order of `from`: `put(at, o)`
/// places `o` at `at`, every place below `from.len()` once; `starts[b]` is where bucket `b`
/// begins.
fn distribute<P: Copy>(
    from: &[Occurrence<P>],
    shift: u32,
    starts: &mut [usize],
    mut put: impl FnMut(usize, Occurrence<P>),
) {
    let buckets = starts.len() - 1;
    let bucket = |occurrence: &Occurrence<P>| (occurrence.key() >> shift) as usize & (buckets - 1);
    starts.fill(0);
    for occurrence in from {
        starts[bucket(occurrence) + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    // `starts[b]` is the next place of bucket `b` while copying, so it ends where bucket `b + 1`
    // begins: shifted back by one after. (A copy of the starts to count in was an allocation
    // per bucket of the inner pass, thousands per piece.)
    for occurrence in from {
        let at = &mut starts[bucket(occurrence)];
        put(*at, *occurrence);
        *at += 1;
    }
    starts.copy_within(..buckets, 1);
    starts[0] = 0;
}

fn move_code(mv: Move) -> u16 {
    let square = |sq: Option<shakmaty::Square>| sq.map_or(0, |sq| sq as u16);
    square(mv.from()) | square(Some(mv.to())) << 6 | mv.promotion().map_or(0, |role| role as u16) << 12
}

/// The Polyglot move field (`polyglot::encode_move`) of a move's [`move_code`] without
/// [`BLACK_MOVED`]: the squares swapped (Polyglot puts the to-square low) and the promotion
/// piece one less (shakmaty counts from the pawn, Polyglot from the knight). Castling is the
/// king taking its rook in both.
pub(crate) fn polyglot_move(code: u16) -> u16 {
    let promotion = match code >> 12 & 7 {
        role @ 2..=5 => (role - 1) << 12,
        _ => 0,
    };
    promotion | (code & 0o77) << 6 | (code >> 6 & 0o77)
}

/// Bit 15 of `Occurrence::code`: Black played the move.
const BLACK_MOVED: u16 = 1 << 15;

/// Where a game's occurrences begin (they follow each other, in `order`) and the position
/// they start from; or, for statistics read from another book, where one position's moves
/// begin (`moves_in_turn` false: each is played from that position).
struct Start {
    order: u32,
    position: Chess,
    moves_in_turn: bool,
}

/// The occurrences whose positions a book keeps (the first of each key), as bits, with the
/// number of heads before each word: positions are packed for these only, in `order` order.
struct Heads {
    bits: Vec<u64>,
    before: Vec<u32>,
}

impl Heads {
    fn new(occurrences: usize) -> Heads {
        Heads { bits: vec![0; occurrences.div_ceil(64)], before: Vec::new() }
    }

    fn insert(&mut self, order: u32) {
        self.bits[order as usize / 64] |= 1 << (order % 64);
    }

    fn contains(&self, order: usize) -> bool {
        self.bits[order / 64] & (1 << (order % 64)) != 0
    }

    fn count_before_words(&mut self) {
        let count = |heads: &mut u32, bits: &u64| {
            let before = *heads;
            *heads += bits.count_ones();
            Some(before)
        };
        self.before = self.bits.iter().scan(0, count).collect();
    }

    /// The number of heads before `order`: where its position is among the packed ones.
    fn rank(&self, order: u32) -> u32 {
        let (word, bit) = (order as usize / 64, order % 64);
        self.before[word] + (self.bits[word] & ((1 << bit) - 1)).count_ones()
    }
}

/// Accumulates games (or move statistics read from another book) into a [`Book`].
///
/// Positions are not kept while games are added, only the moves and where each game starts:
/// `finish` replays the games and packs the positions the book keeps (about half of them
/// in full games), which costs less than packing every position and a third of the memory;
/// with `BuildOptions::keep_positions` off it does not replay them at all.
#[derive(Default)]
pub struct BookBuilder {
    options: BuildOptions,
    occurrences: Occurrences,
    /// The move of every occurrence, by `order` (when the occurrences carry orders).
    moves: Vec<Move>,
    starts: Vec<Start>,
    /// Statistics of `Tally::Added` occurrences, with their `order`.
    added: Vec<(u32, MoveStats)>,
    summary: BuildSummary,
}

impl BookBuilder {
    /// A builder that admits games as `options` say.
    pub fn new(options: BuildOptions) -> BookBuilder {
        let occurrences =
            if options.keep_positions { Occurrences::Ordered(Vec::new()) } else { Occurrences::Moves(Vec::new()) };
        BookBuilder { options, occurrences, ..BookBuilder::default() }
    }

    /// A builder for counts made straight into a format that names moves by their codes
    /// ([`RangeOutput`]s other than [`RangeBook`]): its occurrences carry no move, 12 bytes
    /// each. Such a builder's games finish through `finish_in_ranges` only, and take no added
    /// statistics.
    fn counting_codes(options: BuildOptions) -> BookBuilder {
        BookBuilder { options, occurrences: Occurrences::Codes(Vec::new()), ..BookBuilder::default() }
    }

    /// What it did with the games so far.
    pub fn summary(&self) -> BuildSummary {
        self.summary
    }

    /// The book, positions sorted by key, each position's moves in the order first met.
    pub fn finish(mut self) -> Book {
        self.sort();
        finish_sorted(&[self], 1, std::mem::take).pop().unwrap_or_default()
    }

    /// Sorts the occurrences by key (the first half of `finish`, done in each piece's thread).
    fn sort(&mut self) {
        use engine::Keyed;
        match &mut self.occurrences {
            Occurrences::Moves(occurrences) => Keyed::sort(&mut occurrences[..]),
            Occurrences::Ordered(occurrences) => Keyed::sort(&mut occurrences[..]),
            Occurrences::Codes(occurrences) => Keyed::sort(&mut occurrences[..]),
        }
    }

    // Inlined into the walk's per-move closure: out of line, each call saved and restored six
    // registers for the vector's rarely taken growth (14 of its 66 instructions).
    #[inline(always)]
    fn push(&mut self, key: u64, turn: Color, mv: Move, tally: Tally) {
        let code = move_code(mv) | if turn == Color::Black { BLACK_MOVED } else { 0 };
        match &mut self.occurrences {
            Occurrences::Moves(occurrences) => occurrences.push(Occurrence::new(key, code, tally, mv)),
            Occurrences::Ordered(occurrences) => {
                occurrences.push(Occurrence::new(key, code, tally, self.moves.len() as u32));
                self.moves.push(mv);
            }
            Occurrences::Codes(occurrences) => occurrences.push(Occurrence::new(key, code, tally, ())),
        }
    }

    /// Makes the occurrences carry orders (added statistics are found by them).
    fn keep_orders(&mut self) {
        let Occurrences::Moves(carrying) = &mut self.occurrences else { return };
        let carrying = std::mem::take(carrying);
        self.moves = carrying.iter().map(|o| o.payload).collect();
        let ordered = carrying.into_iter().zip(0..).map(|(o, order)| Occurrence::new(o.key(), o.code, o.tally, order));
        self.occurrences = Occurrences::Ordered(ordered.collect());
    }

    fn start(&mut self, pos: &Chess, moves_in_turn: bool) {
        self.starts.push(Start { order: self.moves.len() as u32, position: pos.clone(), moves_in_turn });
    }

    /// Adds the statistics of moves played from `pos`, read from elsewhere (another book
    /// format, a tree).
    pub fn add_stats(&mut self, pos: &Chess, moves: &[MoveStats]) {
        if moves.is_empty() {
            return;
        }
        self.keep_orders();
        if self.options.keep_positions {
            self.start(pos, false);
        }
        let key = position_key(pos);
        for stats in moves {
            self.added.push((self.moves.len() as u32, *stats));
            self.push(key, pos.turn(), stats.mv, Tally::Added);
        }
    }

    /// Whether a game with this castling mode, these Elo tags and this start position goes
    /// into the book (counted in the summary either way); then how its moves count.
    fn admit<'t>(
        &mut self,
        castling_mode: CastlingMode,
        tag: impl Fn(&str) -> Option<Cow<'t, Text>>,
        start: Option<&Chess>,
        result: GameResult,
    ) -> Option<GameCount> {
        if castling_mode == CastlingMode::Chess960 {
            self.summary.games_chess960 += 1;
            return None;
        }
        if !self.options.elo.admits_tags(tag) {
            self.summary.games_below_min_elo += 1;
            return None;
        }
        let Some(start) = start else {
            self.summary.games_invalid_start += 1;
            return None;
        };
        self.summary.games_added += 1;
        // Start positions are for `replay`, which books without positions skip.
        if self.options.keep_positions {
            self.start(start, true);
        }
        Some(GameCount { keys: KeyTrail::new(start), result, plies_left: self.options.max_ply, ended: false })
    }

    /// Counts the game's main line into the book; a null move ends it. Returns whether the
    /// game was used.
    pub fn add_game(&mut self, game: &Game) -> bool {
        let start = game.start_position().ok();
        let tag = |name: &str| game.tag(name).map(Cow::Borrowed);
        let Some(mut count) = self.admit(game.castling_mode, tag, start.as_ref(), game.result) else { return false };
        let mut pos = start.unwrap_or_default();
        for node in &game.moves.nodes {
            if count.add(self, &pos, node.mv).is_break() {
                break;
            }
            if let Some(mv) = node.mv {
                pos.play_unchecked(mv);
            }
        }
        true
    }

    /// Counts a walked game's main line into the book, as [`BookBuilder::add_game`] does.
    /// Games the book leaves out are not played.
    pub fn add_walked(&mut self, game: &mut WalkedGame<'_>) -> bool {
        let start = Some(game.start_position());
        let Some(mut count) = self.admit(game.castling_mode, |name| game.tag(name), start, game.result) else {
            return false;
        };
        // Moves after a null move are still played: an illegal one is a warning of the game.
        game.play(|pos, mv| {
            let _ = count.add(self, pos, mv);
            ControlFlow::Continue(())
        });
        true
    }
}

/// What the merge of one key range makes of each position's counted moves: a range of a
/// [`Book`] ([`RangeBook`]), or a format's records made straight from the counts (Polyglot's
/// entries: no book between, so its positions and moves are not written and read again).
/// The merge's occurrences carry `P` ([`Payload`]).
pub(crate) trait RangeOutput<P>: Send {
    /// Empties it for a range of at most `room` moves, keeping its memory.
    fn begin(&mut self, room: usize, keep_positions: bool);

    /// A move of the current position is met for the first time: `first` is the payload of
    /// its first occurrence, in `part`. Moves are met in the order `position` counts them.
    fn met(&mut self, part: &BookBuilder, first: P);

    /// The current position is counted: its `i`th move first met has the [`move_code`]
    /// `codes[i]` and the counts `tallies[i]`; `head` is its first occurrence, met in part
    /// `part`.
    fn position(&mut self, head: (u32, u64, Color, Option<u32>), codes: &[u16], tallies: &[MoveTally]);
}

/// How many games played a move of a position, and how they ended for the mover.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MoveTally {
    pub(crate) games: u32,
    pub(crate) wins: u32,
    pub(crate) draws: u32,
    pub(crate) losses: u32,
}

impl MoveTally {
    /// Counts one occurrence of the move, `added` its statistics when it has them.
    fn count(&mut self, tally: Tally, added: impl FnOnce() -> Option<MoveStats>) {
        match tally {
            Tally::Unknown => self.games += 1,
            Tally::MoverWon => (self.games, self.wins) = (self.games + 1, self.wins + 1),
            Tally::Draw => (self.games, self.draws) = (self.games + 1, self.draws + 1),
            Tally::MoverLost => (self.games, self.losses) = (self.games + 1, self.losses + 1),
            Tally::Added => {
                if let Some(stats) = added() {
                    self.games += stats.games;
                    self.wins += stats.wins;
                    self.draws += stats.draws;
                    self.losses += stats.losses;
                }
            }
        }
    }
}

/// The positions of one key range of a book: records whose `packed` is the head's `order`
/// in its part, which part that is (by position), and their moves.
#[derive(Default)]
struct RangeBook {
    positions: Vec<PositionRecord>,
    head_parts: Vec<u32>,
    moves: Vec<MoveStats>,
    keep_positions: bool,
}

impl<P: MovePayload> RangeOutput<P> for RangeBook {
    fn begin(&mut self, room: usize, keep_positions: bool) {
        // Room for every position and move of the range (at most one per occurrence):
        // untouched room costs no memory, regrowing costs copies.
        self.keep_positions = keep_positions;
        self.positions.clear();
        self.positions.reserve(room);
        self.head_parts.clear();
        self.head_parts.reserve(if keep_positions { room } else { 0 });
        self.moves.clear();
        self.moves.reserve(room);
    }

    fn met(&mut self, part: &BookBuilder, first: P) {
        self.moves.push(MoveStats::new(first.mv(part)));
    }

    fn position(&mut self, (part, key, turn, order): (u32, u64, Color, Option<u32>), _: &[u16], tallies: &[MoveTally]) {
        // `met` appended the position's moves.
        let first_move = self.moves.len() - tallies.len();
        for (stats, tally) in self.moves[first_move..].iter_mut().zip(tallies) {
            (stats.games, stats.wins, stats.draws, stats.losses) = (tally.games, tally.wins, tally.draws, tally.losses);
        }
        if self.keep_positions {
            self.head_parts.push(part);
        }
        self.positions.push(PositionRecord {
            key,
            turn,
            packed: order.filter(|_| self.keep_positions).unwrap_or(NO_POSITION),
            first_move: first_move as u32,
            move_count: (self.moves.len() - first_move) as u32,
        });
    }
}

impl RangeBook {
    /// The range as a book of its own (its `packed` not yet indices into one), without the
    /// room it was given.
    fn into_book(mut self) -> Book {
        self.positions.shrink_to_fit();
        self.moves.shrink_to_fit();
        Book { positions: self.positions, packed: Vec::new(), moves: self.moves }
    }
}

/// The book of builders whose occurrences are sorted (`BookBuilder::sort`), as if their games
/// had been added to one builder in turn: the sorted parts are cut into at most `ranges` key
/// ranges, each finished on its own thread (each key's occurrences taken from the parts in
/// order, so moves keep the order first met) by the book engine ([`super::engine`]). Without
/// positions each range's book is handed to `per_range` on the thread that finished it, and
/// what it makes is returned in key order (the book is never whole: joining the ranges would
/// copy it); with positions the ranges are joined, each part replays its games for the
/// positions its heads need, and `per_range` gets the whole book.
fn finish_sorted<T: Send>(parts: &[BookBuilder], ranges: usize, per_range: impl Fn(&mut Book) -> T + Sync) -> Vec<T> {
    match parts.first().map(|part| &part.occurrences) {
        None => Vec::new(),
        Some(Occurrences::Moves(_)) => finish_sorted_carrying::<Move, T>(parts, ranges, per_range),
        Some(Occurrences::Ordered(_)) => finish_sorted_carrying::<u32, T>(parts, ranges, per_range),
        // Only the counting builds (`count_from_pgn_in_ranges`) make such builders.
        Some(Occurrences::Codes(_)) => unreachable!("a book's builders keep their moves"),
    }
}

/// The ranges of builders whose occurrences are sorted and carry `P`, without positions, each
/// merged into an output (one of `new_output`'s, reused from range to range) handed to
/// `per_range` on the thread that merged it; what it makes is handed to `consume` in key
/// order, each as soon as it and those before it are made ([`engine::in_key_order`]).
fn finish_in_ranges<P: Payload, O: RangeOutput<P>, T: Send>(
    parts: &[BookBuilder],
    ranges: usize,
    new_output: impl Fn() -> O + Sync,
    per_range: impl Fn(&mut O) -> T + Sync,
    consume: impl FnMut(T) + Send,
) {
    let sorted: Vec<&[Occurrence<P>]> =
        parts.iter().map(|part| P::occurrences(part).expect("pieces built alike carry the same payload")).collect();
    let ranges = engine::split(&sorted, ranges);
    // Each range's output fits the cache, and its vectors serve the next range.
    let scratch = engine::Scratch::new();
    let finish = |runs| {
        let mut range = scratch.take(&new_output);
        finish_range(parts, runs, &mut range);
        let made = per_range(&mut range);
        scratch.give_back(range);
        made
    };
    engine::in_key_order(ranges, finish, consume);
}

/// [`finish_sorted`] of parts whose occurrences carry `P`: parts built alike carry the same
/// (pieces of one input: added statistics come to a builder of its own).
fn finish_sorted_carrying<P: MovePayload, T: Send>(
    parts: &[BookBuilder],
    ranges: usize,
    per_range: impl Fn(&mut Book) -> T + Sync,
) -> Vec<T> {
    use rayon::prelude::*;

    let Some(options) = parts.first().map(|part| &part.options) else { return Vec::new() };
    if !options.keep_positions {
        let as_book = |range: &mut RangeBook| {
            let (positions, moves) = (std::mem::take(&mut range.positions), std::mem::take(&mut range.moves));
            let mut book = Book { positions, packed: Vec::new(), moves };
            let made = per_range(&mut book);
            (range.positions, range.moves) = (book.positions, book.moves);
            made
        };
        let mut made = Vec::new();
        finish_in_ranges::<P, RangeBook, T>(parts, ranges, RangeBook::default, as_book, |range| made.push(range));
        return made;
    }
    let sorted: Vec<&[Occurrence<P>]> =
        parts.iter().map(|part| P::occurrences(part).expect("pieces built alike carry the same payload")).collect();
    let ranges = engine::split(&sorted, ranges);
    let mut made = Vec::with_capacity(ranges.len());
    let finish = |runs| {
        let mut range = RangeBook::default();
        finish_range(parts, runs, &mut range);
        range
    };
    let mut built: Vec<RangeBook> = Vec::with_capacity(ranges.len());
    engine::in_key_order(ranges, finish, |range| built.push(range));
    let mut head_parts = Vec::with_capacity(built.iter().map(|range| range.head_parts.len()).sum());
    let mut books = Vec::with_capacity(built.len());
    for range in built {
        head_parts.extend_from_slice(&range.head_parts);
        books.push(range.into_book());
    }
    let mut book = Book::concat(books);
    let mut heads: Vec<Heads> = parts.iter().map(|part| Heads::new(part.moves.len())).collect();
    for (position, &part) in book.positions.iter().zip(&head_parts) {
        heads[part as usize].insert(position.packed);
    }
    let packed: Vec<Vec<PackedPosition>> =
        parts.par_iter().zip(&mut heads).map(|(part, heads)| part.replay(heads)).collect();
    let mut offsets = Vec::with_capacity(packed.len());
    book.packed.reserve_exact(book.positions.len());
    for part in packed {
        offsets.push(book.packed.len() as u32);
        book.packed.extend_from_slice(&part);
    }
    for (position, &part) in book.positions.iter_mut().zip(&head_parts) {
        position.packed = offsets[part as usize] + heads[part as usize].rank(position.packed);
    }
    made.push(per_range(&mut book));
    made
}

/// How many occurrences ahead `finish_range` asks for the move it will need: the occurrences
/// are in key order, so their moves are read in random order, a cache miss each.
const PREFETCH_AHEAD: usize = 16;

/// Asks the processor to fetch `items[i]` into the cache (nothing where there is no safe way).
fn prefetch<T>(items: &[T], i: usize) {
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, i);
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = items.get(i) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has (it is in the
        // x86-64 baseline target); a prefetch only hints the cache and reads nothing.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast()) };
    }
}

/// One key range of the book: `runs[i]` is part `i`'s occurrences in the range, sorted.
/// `range` is emptied first and reused.
fn finish_range<P: Payload>(parts: &[BookBuilder], runs: Vec<&[Occurrence<P>]>, range: &mut impl RangeOutput<P>) {
    let keep_positions = parts.first().is_some_and(|part| part.options.keep_positions);
    range.begin(runs.iter().map(|run| run.len()).sum(), keep_positions);
    // The codes (`move_code`) of the current position's moves and their counts, in the order
    // first met.
    let (mut codes, mut tallies): (Vec<u16>, Vec<MoveTally>) = (Vec::new(), Vec::new());
    let mut groups = engine::KeyGroups::new(runs);
    while let Some((_, mut holding)) = groups.next_group() {
        let Some(first @ (part_index, group, rest)) = holding.next() else { break };
        prefetch_moves(&parts[part_index], rest);
        let head = group[0];
        let turn = if head.code & BLACK_MOVED == 0 { Color::White } else { Color::Black };
        let head = (part_index as u32, head.key(), turn, head.payload.order());
        // Most positions (96 % of those of 4,001 master games) are met once: their one move is
        // counted without the vectors' upkeep and the search of the codes met.
        let second = if group.len() == 1 { holding.next() } else { None };
        if let ([occurrence], None) = (group, second) {
            let part = &parts[part_index];
            let mut tally = MoveTally::default();
            tally.count(occurrence.tally, || added_stats(part, occurrence.payload));
            range.met(part, occurrence.payload);
            range.position(head, &[occurrence.code & !BLACK_MOVED], &[tally]);
            continue;
        }
        codes.clear();
        tallies.clear();
        let later = second
            .into_iter()
            .chain(holding)
            .inspect(|&(part_index, _, rest)| prefetch_moves(&parts[part_index], rest));
        for (part_index, group, _) in std::iter::once(first).chain(later) {
            let part = &parts[part_index];
            for occurrence in group {
                let code = occurrence.code & !BLACK_MOVED;
                let i = codes.iter().position(|&c| c == code).unwrap_or_else(|| {
                    codes.push(code);
                    tallies.push(MoveTally::default());
                    range.met(part, occurrence.payload);
                    codes.len() - 1
                });
                tallies[i].count(occurrence.tally, || added_stats(part, occurrence.payload));
            }
        }
        range.position(head, &codes, &tallies);
    }
}

/// Asks for the move of the occurrence [`PREFETCH_AHEAD`] into what follows a run's group, when
/// the occurrences carry orders.
fn prefetch_moves<P: Payload>(part: &BookBuilder, rest: &[Occurrence<P>]) {
    if let Some(order) = rest.get(PREFETCH_AHEAD).and_then(|ahead| ahead.payload.order()) {
        prefetch(&part.moves, order as usize);
    }
}

/// The statistics added with an occurrence of `part` (`Tally::Added`), found by its order.
fn added_stats<P: Payload>(part: &BookBuilder, payload: P) -> Option<MoveStats> {
    let order = payload.order()?;
    let i = part.added.binary_search_by_key(&order, |(order, _)| *order).ok()?;
    Some(part.added[i].1)
}

impl BookBuilder {
    /// Replays the games, packing the positions of the occurrences in `heads` (in `order`
    /// order), then counts the heads before each word of `heads` for `Heads::rank`. Added
    /// statistics are not played: their moves all leave their start.
    fn replay(&self, heads: &mut Heads) -> Vec<PackedPosition> {
        let mut packed = Vec::new();
        for (i, start) in self.starts.iter().enumerate() {
            let end = self.starts.get(i + 1).map_or(self.moves.len(), |next| next.order as usize);
            let mut pos = Cow::Borrowed(&start.position);
            for (order, &mv) in self.moves.iter().enumerate().take(end).skip(start.order as usize) {
                if heads.contains(order) {
                    packed.push(PackedPosition::new(&pos));
                }
                if start.moves_in_turn {
                    pos.to_mut().play_unchecked(mv);
                }
            }
        }
        heads.count_before_words();
        packed
    }
}

/// A game being counted: the keys of its positions and its result.
struct GameCount {
    keys: KeyTrail,
    result: GameResult,
    plies_left: u32,
    ended: bool,
}

impl GameCount {
    /// Counts `mv` played from `pos`, unless the ply limit was reached or a null move ended the
    /// game (then `Break`).
    fn add(
        &mut self,
        builder: &mut BookBuilder,
        pos: &impl crate::view::PositionView,
        mv: Option<Move>,
    ) -> ControlFlow<()> {
        let Some(mv) = mv.filter(|_| !self.ended && self.plies_left > 0) else {
            self.ended = true;
            return ControlFlow::Break(());
        };
        let tally = match (self.result, pos.turn()) {
            (GameResult::Unknown, _) => Tally::Unknown,
            (GameResult::Draw, _) => Tally::Draw,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => Tally::MoverWon,
            _ => Tally::MoverLost,
        };
        builder.push(self.keys.key(pos), pos.turn(), mv, tally);
        builder.summary.moves_added += 1;
        self.plies_left -= 1;
        self.keys.play(pos, mv);
        ControlFlow::Continue(())
    }
}

/// A book built from games (or what was made of it range by range, see
/// [`build_from_pgn_in_ranges`]), with what reading them found.
pub struct GamesBuild<B = Book> {
    /// The book (or what was made of it).
    pub book: B,
    /// What the builder did with the games.
    pub summary: BuildSummary,
    /// Games that could not be read (PGN: unsupported variants, invalid FEN, syntax; SCID:
    /// damaged records).
    pub unreadable: u64,
    /// Warnings of the PGN games read (of games the book leaves out, such as Chess960 games
    /// or games below `min_elo`, only those found before their moves: they are not played).
    pub warnings: u64,
    /// PGN games counted up to an illegal or ambiguous move of their main line (within the
    /// ply limit): the moves after it are not in the book.
    pub cut: u64,
}

impl GamesBuild {
    /// This build followed by `later`'s, as if its games came after these.
    pub fn merge(self, later: GamesBuild) -> GamesBuild {
        let counts = self.counts().merge(later.counts());
        counts.with_book(self.book.merge(later.book))
    }
}

impl<B> GamesBuild<B> {
    /// What reading found, without the book.
    fn counts(&self) -> GamesBuild<()> {
        self.with_book(())
    }

    /// What reading found, with another book (or what was made of it).
    pub fn with_book<C>(&self, book: C) -> GamesBuild<C> {
        GamesBuild { book, summary: self.summary, unreadable: self.unreadable, warnings: self.warnings, cut: self.cut }
    }
}

impl GamesBuild<()> {
    fn merge(self, later: GamesBuild<()>) -> GamesBuild<()> {
        let (a, b) = (self.summary, later.summary);
        GamesBuild {
            book: (),
            summary: BuildSummary {
                games_added: a.games_added + b.games_added,
                games_chess960: a.games_chess960 + b.games_chess960,
                games_below_min_elo: a.games_below_min_elo + b.games_below_min_elo,
                games_invalid_start: a.games_invalid_start + b.games_invalid_start,
                moves_added: a.moves_added + b.moves_added,
            },
            unreadable: self.unreadable + later.unreadable,
            warnings: self.warnings + later.warnings,
            cut: self.cut + later.cut,
        }
    }
}

/// Builds from PGN text in parallel: the text is cut between games into `pieces` pieces (one
/// per rayon thread when `None`; `RAYON_NUM_THREADS=1` spends the least memory), each read
/// and sorted on its own, then the book finished in one key range per rayon thread, which
/// gives the same book as reading the text in one piece.
pub fn build_from_pgn(input: &[u8], options: &BuildOptions, pieces: Option<usize>) -> GamesBuild {
    let ranges = rayon::current_num_threads();
    let mut built =
        build_in(input, options, BookBuilder::new, pieces, |parts| finish_sorted(parts, ranges, std::mem::take));
    let book = Book::concat(std::mem::take(&mut built.book));
    built.with_book(book)
}

/// Key ranges per rayon thread in [`build_from_pgn_in_ranges`]: small ranges' books fit the
/// cache, and their memory is reused from one range to the next.
const RANGES_PER_THREAD: usize = 64;

/// Builds from PGN text as [`build_from_pgn`] does, but never holds the whole book: it is
/// finished in many small key ranges, each handed to `per_range` on the thread that finished
/// it (its vectors are then reused for that thread's next range, unless `per_range` takes
/// them), and what `per_range` makes of them is returned in key order (each range's keys
/// above the ones before). For writers that need one pass over the book in key order, such as
/// Polyglot's entries. A book with positions ([`BuildOptions::keep_positions`]) is finished
/// whole and is `per_range`'s only range.
pub fn build_from_pgn_in_ranges<T: Send>(
    input: &[u8],
    options: &BuildOptions,
    pieces: Option<usize>,
    per_range: impl Fn(&mut Book) -> T + Sync,
) -> GamesBuild<Vec<T>> {
    let ranges = rayon::current_num_threads() * RANGES_PER_THREAD;
    build_in(input, options, BookBuilder::new, pieces, |parts| finish_sorted(parts, ranges, per_range))
}

/// [`build_from_pgn_in_ranges`] without the book between: each key range is merged into an
/// output of `new_output`'s (reused from range to range) and handed to `per_range`, and what
/// that makes is handed to `consume` in key order as the ranges are done (a writer writes
/// while the merge goes on, and holds no more than the ranges done out of order). Positions
/// are never kept (`options.keep_positions` is ignored), nor the moves: the output names
/// them by their codes.
pub(crate) fn count_from_pgn_in_ranges<O: RangeOutput<()>, T: Send>(
    input: &[u8],
    options: &BuildOptions,
    new_output: impl Fn() -> O + Sync,
    per_range: impl Fn(&mut O) -> T + Sync,
    consume: impl FnMut(T) + Send,
) -> GamesBuild<()> {
    let options = &BuildOptions { keep_positions: false, ..options.clone() };
    let ranges = rayon::current_num_threads() * RANGES_PER_THREAD;
    build_in(input, options, BookBuilder::counting_codes, None, |parts| {
        finish_in_ranges::<(), O, T>(parts, ranges, new_output, per_range, consume)
    })
}

/// The pieces of PGN text (one per rayon thread when `pieces` is `None`) built into builders
/// of `new_builder`'s and sorted on their threads, then finished by `finish`.
fn build_in<B>(
    input: &[u8],
    options: &BuildOptions,
    new_builder: fn(BuildOptions) -> BookBuilder,
    pieces: Option<usize>,
    finish: impl FnOnce(&[BookBuilder]) -> B,
) -> GamesBuild<B> {
    let pieces = pieces.unwrap_or_else(rayon::current_num_threads);
    let built =
        walk_pieces(input, &walk_options(options), pieces, |games| build_piece(games, new_builder(options.clone())));
    finish_pieces(built, finish)
}

/// Builds from PGN text read from a stream (a decompressed file, a pipe) as
/// [`build_from_pgn`] builds from text in memory, the same book: the stream is read a piece at
/// a time on this thread while the pieces read are walked on the rayon threads, so the text is
/// never held whole. A read error is returned as it came.
pub fn build_from_pgn_stream(input: &mut dyn Read, options: &BuildOptions) -> io::Result<GamesBuild> {
    let ranges = rayon::current_num_threads();
    let mut built = build_streamed(input, options, BookBuilder::new, engine::STREAM_PIECE, |parts| {
        finish_sorted(parts, ranges, std::mem::take)
    })?;
    let book = Book::concat(std::mem::take(&mut built.book));
    Ok(built.with_book(book))
}

/// [`build_from_pgn_in_ranges`] of PGN text read from a stream, as
/// [`build_from_pgn_stream`] reads it.
pub fn build_from_pgn_stream_in_ranges<T: Send>(
    input: &mut dyn Read,
    options: &BuildOptions,
    per_range: impl Fn(&mut Book) -> T + Sync,
) -> io::Result<GamesBuild<Vec<T>>> {
    let ranges = rayon::current_num_threads() * RANGES_PER_THREAD;
    build_streamed(input, options, BookBuilder::new, engine::STREAM_PIECE, |parts| {
        finish_sorted(parts, ranges, per_range)
    })
}

/// [`count_from_pgn_in_ranges`] of PGN text read from a stream, as
/// [`build_from_pgn_stream`] reads it.
pub(crate) fn count_from_pgn_stream_in_ranges<O: RangeOutput<()>, T: Send>(
    input: &mut dyn Read,
    options: &BuildOptions,
    new_output: impl Fn() -> O + Sync,
    per_range: impl Fn(&mut O) -> T + Sync,
    consume: impl FnMut(T) + Send,
) -> io::Result<GamesBuild<()>> {
    let options = &BuildOptions { keep_positions: false, ..options.clone() };
    let ranges = rayon::current_num_threads() * RANGES_PER_THREAD;
    build_streamed(input, options, BookBuilder::counting_codes, engine::STREAM_PIECE, |parts| {
        finish_in_ranges::<(), O, T>(parts, ranges, new_output, per_range, consume)
    })
}

/// The pieces of a stream read in pieces of about `piece` bytes, built into builders of
/// `new_builder`'s and sorted on their threads, then finished by `finish`.
fn build_streamed<B>(
    input: &mut dyn Read,
    options: &BuildOptions,
    new_builder: fn(BuildOptions) -> BookBuilder,
    piece: usize,
    finish: impl FnOnce(&[BookBuilder]) -> B,
) -> io::Result<GamesBuild<B>> {
    let built = engine::walk_stream(input, &walk_options(options), piece, |games| {
        build_piece(games, new_builder(options.clone()))
    })?;
    Ok(finish_pieces(built, finish))
}

fn walk_options(options: &BuildOptions) -> WalkOptions {
    WalkOptions { max_plies: options.max_ply, file: None }
}

/// One piece of PGN text counted into a builder of its own, its occurrences sorted (on the
/// thread that read it), with what reading it found.
fn build_piece(games: &mut PgnWalk<'_>, mut builder: BookBuilder) -> (BookBuilder, GamesBuild<()>) {
    let (mut unreadable, mut warnings, mut cut) = (0, 0, 0);
    for item in games {
        match item {
            Ok(mut game) => {
                builder.add_walked(&mut game);
                warnings += game.diagnostics.len() as u64;
                cut += u64::from(game.diagnostics.iter().any(Diagnostic::is_error));
            }
            Err(_) => unreadable += 1,
        }
    }
    builder.sort();
    let counts = GamesBuild { book: (), summary: builder.summary(), unreadable, warnings, cut };
    (builder, counts)
}

/// What `finish` makes of the pieces built in text order ([`build_piece`]), with what reading
/// them found.
fn finish_pieces<B>(
    built: Vec<(BookBuilder, GamesBuild<()>)>,
    finish: impl FnOnce(&[BookBuilder]) -> B,
) -> GamesBuild<B> {
    let empty = GamesBuild { book: (), summary: BuildSummary::default(), unreadable: 0, warnings: 0, cut: 0 };
    let (parts, counts): (Vec<BookBuilder>, Vec<GamesBuild<()>>) = built.into_iter().unzip();
    let counts = counts.into_iter().fold(empty, GamesBuild::<()>::merge);
    let made = finish(&parts);
    // Freeing the parts' occurrences and moves (tens of megabytes) is left to a pool thread,
    // while the caller goes on with what was made (writing it).
    rayon::spawn(move || drop(parts));
    counts.with_book(made)
}

/// Builds from games read one by one (a SCID database through [`crate::games::open`]); an
/// `Err` item counts as an unreadable game. PGN text goes faster through [`build_from_pgn`].
pub fn build_from_games<E>(games: impl IntoIterator<Item = Result<Game, E>>, options: &BuildOptions) -> GamesBuild {
    let mut builder = BookBuilder::new(options.clone());
    let mut unreadable = 0;
    for game in games {
        match game {
            Ok(game) => {
                builder.add_game(&game);
            }
            Err(_) => unreadable += 1,
        }
    }
    GamesBuild { summary: builder.summary(), book: builder.finish(), unreadable, warnings: 0, cut: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_polyglot_move_of_a_move_code_is_polyglots_encoding() {
        use shakmaty::fen::Fen;
        // Castling both ways for both sides, promotions to every piece (with and without a
        // capture), en passant, and ordinary moves.
        let fens = [
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
            "1n2k3/P7/8/8/8/8/7p/4K1N1 w - - 0 1",
            "1n2k3/P7/8/8/8/8/7p/4K1N1 b - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut seen = 0;
        for fen in fens {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            for mv in pos.legal_moves() {
                assert_eq!(polyglot_move(move_code(mv)), crate::polyglot::encode_move(mv), "{fen}: {mv:?}");
                seen += 1;
            }
        }
        assert!(seen > 100, "{seen}");
    }

    #[test]
    fn pieces_merge_into_the_same_book() {
        let sample = include_bytes!("../../../../samples/famous-games.pgn");
        let options = BuildOptions::default();
        let whole = build_from_pgn(sample, &options, Some(1)).book;
        assert_eq!(whole.move_count(), 556);
        for pieces in [2, 5, 12] {
            let split = build_from_pgn(sample, &options, Some(pieces));
            assert_eq!(split.summary.games_added, 12);
            assert!(split.book == whole, "{pieces} pieces");
        }
        // The positions replayed in `finish` are the ones the keys name.
        for position in whole.positions() {
            let pos = position.position().unwrap();
            assert_eq!((position_key(&pos), pos.turn()), (position.key, position.turn()));
        }
        // Without positions: the same keys, sides to move and moves, in one piece or several.
        let keys_only = BuildOptions { keep_positions: false, ..options };
        for pieces in [1, 5] {
            let light = build_from_pgn(sample, &keys_only, Some(pieces)).book;
            assert_eq!(light.len(), whole.len());
            for (a, b) in light.positions().zip(whole.positions()) {
                assert_eq!((a.key, a.turn(), a.moves, a.position()), (b.key, b.turn(), b.moves, None));
            }
        }
    }

    #[test]
    fn occurrences_sort_by_key_keeping_their_order() {
        let mut rng = tabiya_testdata::Xorshift::new(3);
        for len in [0, 1, 5, 17, 1000, 20_000] {
            // Few keys spread over the key space (many equal); many keys under 3 values of the
            // top 12 bits (buckets split again, runs short and long); keys nearly all distinct.
            let spread: Vec<u64> = (0..50).map(|_| rng.next_u64()).collect();
            let crowded: Vec<u64> = (0..2000).map(|i| ((i % 3) << 52) | (rng.next_u64() >> 12)).collect();
            // Buckets of about 100 and of about 300 (sorted whole, split again).
            let hundreds: Vec<u64> = (0..2000).map(|i| ((i % 200) << 52) | (rng.next_u64() >> 12)).collect();
            let threes: Vec<u64> = (0..2000).map(|i| ((i % 60) << 52) | (rng.next_u64() >> 12)).collect();
            let distinct: Vec<u64> = (0..len.max(1)).map(|_| rng.next_u64()).collect();
            for keys in [&spread, &crowded, &hundreds, &threes, &distinct] {
                let mut occurrences: Vec<Occurrence<u32>> = (0..len as u32)
                    .map(|order| Occurrence::new(keys[rng.below(keys.len())], 0, Tally::Unknown, order))
                    .collect();
                let mut expected = occurrences.clone();
                expected.sort_by_key(Occurrence::key);
                sort_by_key_keeping_order(&mut occurrences);
                let pairs = |v: &[Occurrence<u32>]| v.iter().map(|o| (o.key(), o.payload)).collect::<Vec<_>>();
                assert_eq!(pairs(&occurrences), pairs(&expected), "{len}");
            }
        }
    }

    #[test]
    fn key_ranges_give_the_same_book_as_one() {
        let sample = include_bytes!("../../../../samples/famous-games.pgn");
        for keep_positions in [true, false] {
            let options = BuildOptions { keep_positions, ..BuildOptions::default() };
            let whole = Book::concat(
                build_in(sample, &options, BookBuilder::new, Some(1), |parts| finish_sorted(parts, 1, std::mem::take))
                    .book,
            );
            assert_eq!(whole.move_count(), 556);
            for (pieces, ranges) in [(1, 2), (1, 7), (3, 2), (5, 16), (12, 3), (2, 128)] {
                let split = build_in(sample, &options, BookBuilder::new, Some(pieces), |parts| {
                    finish_sorted(parts, ranges, std::mem::take)
                })
                .book;
                if keep_positions {
                    assert_eq!(split.len(), 1);
                } else {
                    assert!(split.len() > 1 && split.len() <= ranges, "{} of {ranges}", split.len());
                }
                let split = Book::concat(split);
                assert!(split == whole, "{pieces} pieces, {ranges} ranges, positions {keep_positions}");
                assert_eq!(split.packed.len(), if keep_positions { whole.len() } else { 0 });
            }
            // From a stream read in pieces of about 1, 3,000 and 100,000 bytes.
            for piece in [1, 3000, 100_000] {
                let streamed = build_streamed(&mut &sample[..], &options, BookBuilder::new, piece, |parts| {
                    finish_sorted(parts, 7, std::mem::take)
                })
                .unwrap();
                assert_eq!(streamed.summary.games_added, 12);
                let streamed = Book::concat(streamed.book);
                assert!(streamed == whole, "a stream in pieces of {piece} bytes, positions {keep_positions}");
            }
        }
    }

    /// A stream of hundreds of pieces (one game each) merges into the book of one piece, and
    /// into make-book's entries for it, byte for byte.
    #[test]
    fn hundreds_of_pieces_merge_into_the_book_of_one() {
        let sample = include_bytes!("../../../../samples/famous-games.pgn");
        let text = [&sample[..], b"\n"].concat().repeat(30);
        let make = crate::polyglot::MakeOptions { min_games: 1, ..Default::default() };
        let bytes = |book: &Book| {
            let mut out = Vec::new();
            crate::polyglot::write_entries(&crate::polyglot::entries_from_book(book, &make), &mut out).unwrap();
            out
        };
        for keep_positions in [false, true] {
            let options = BuildOptions { keep_positions, ..BuildOptions::default() };
            let whole = Book::concat(
                build_in(&text, &options, BookBuilder::new, Some(1), |parts| finish_sorted(parts, 1, std::mem::take))
                    .book,
            );
            assert_eq!(whole.move_count(), 556);
            let streamed = build_streamed(&mut &text[..], &options, BookBuilder::new, 1, |parts| {
                finish_sorted(parts, 7, std::mem::take)
            })
            .unwrap();
            assert_eq!(streamed.summary.games_added, 360);
            let streamed = Book::concat(streamed.book);
            assert!(streamed == whole, "positions {keep_positions}");
            assert_eq!(bytes(&streamed), bytes(&whole));
        }
    }

    #[test]
    fn added_moves_keep_their_positions_and_counts() {
        use shakmaty::uci::UciMove;

        let start = Chess::default();
        let e4 = UciMove::from_ascii(b"e2e4").unwrap().to_move(&start).unwrap();
        let after_e4 = start.clone().play(e4).unwrap();
        let c5 = UciMove::from_ascii(b"c7c5").unwrap().to_move(&after_e4).unwrap();
        let stats = |mv, games, wins| MoveStats { mv, games, wins, draws: 0, losses: games - wins };
        let mut builder = BookBuilder::new(BuildOptions::default());
        let d4 = UciMove::from_ascii(b"d2d4").unwrap().to_move(&start).unwrap();
        builder.add_stats(&after_e4, &[stats(c5, 5, 2)]);
        builder.add_stats(&start, &[stats(e4, 3, 1), stats(d4, 2, 0)]);
        builder.add_stats(&after_e4, &[stats(c5, 1, 1)]);
        builder.add_stats(&start, &[stats(d4, 1, 1)]);
        let book = builder.finish();
        assert_eq!(book.len(), 2);
        let sicilian = book.get(&after_e4).unwrap();
        assert_eq!(sicilian.position(), Some(after_e4.clone()));
        assert_eq!(sicilian.moves, [stats(c5, 6, 3)]);
        let opening = book.get(&start).unwrap();
        assert_eq!(opening.position(), Some(start.clone()));
        assert_eq!(opening.moves, [stats(e4, 3, 1), stats(d4, 3, 1)]);
    }
}
