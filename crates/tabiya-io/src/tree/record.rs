//! A position's moves with their statistics (any game: positions are opaque keys, moves
//! 16-bit codes), how two counts of the same move add up, and their
//! encoding: the one byte layout of the tree file's records and of the builder's sorted runs.
//!
//! Adding up is associative and commutative (sums, least and greatest years, the best-rated
//! games by a total order with duplicates removed), which is what makes the tree of A + B the
//! merge of the trees of A and B, whatever the order the counts meet in.

use std::io::{self, Read, Write};

/// Best-rated games kept per move.
pub const TOP_GAMES: usize = 5;

/// A game among a move's best rated: its rating (the mean of both players', an unknown rating
/// counting 0) and its number in the tree's game table. Better games sort first: higher rating,
/// then lower number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TopGame {
    /// The mean of the two players' ratings.
    pub rating: u16,
    /// The game's number in the tree's game table, from 0.
    pub game: u64,
}

impl TopGame {
    fn order(&self) -> (std::cmp::Reverse<u16>, u64) {
        (std::cmp::Reverse(self.rating), self.game)
    }
}

/// One move of a position with everything counted for it, from the point of view of the side
/// that plays it. `games - wins - draws - losses` games had no known result.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TreeMove {
    /// The move in UCI as `from | to << 6 | promotion role << 12` (castling as the king's two
    /// squares, `e1g1`).
    pub code: u16,
    /// Times it was played (a game that repeats a position and a move counts each time).
    pub games: u64,
    /// Games the mover won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the mover lost.
    pub losses: u64,
    /// The sum of the mover's ratings, over the games where it is known.
    pub mover_rating_sum: u64,
    /// Games where the mover's rating is known.
    pub mover_rated: u64,
    /// The sum of the opponent's ratings, over the games where it is known.
    pub opponent_rating_sum: u64,
    /// Games where the opponent's rating is known.
    pub opponent_rated: u64,
    /// The first year it was played in (0: no game with a known year).
    pub first_year: u16,
    /// The last year it was played in (0: no game with a known year).
    pub last_year: u16,
    /// Its best-rated games, best first, at most [`TOP_GAMES`].
    pub top: Vec<TopGame>,
    /// Its exact value when the position was solved (Othello: the mover's final disc
    /// difference with best play); the same in every count of a position.
    pub exact: Option<i8>,
}

/// One game's move: what the builder counts, [`TreeMove::count`] adds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The move's code ([`TreeMove::code`]).
    pub code: u16,
    /// 1 the mover won, 0 lost, 2 draw, 3 unknown.
    pub outcome: Outcome,
    /// The mover's rating (0: unknown).
    pub mover_rating: u16,
    /// The opponent's rating (0: unknown).
    pub opponent_rating: u16,
    /// The game's year (0: unknown).
    pub year: u16,
    /// The game's number in the tree's game table.
    pub game: u64,
}

/// A game's result from the mover's point of view (its number is the one a move played once
/// is written with).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The mover won.
    Won = 0,
    /// Draw.
    Drawn = 1,
    /// The mover lost.
    Lost = 2,
    /// No known result.
    Unknown = 3,
}

impl Played {
    /// What one game adds to a move's sums, in the order of [`TreeMove`]'s fields: games, wins,
    /// draws, losses, the mover's rating sum and rated games, the opponent's.
    fn sums(&self) -> [u64; 8] {
        let outcome = |o: Outcome| u64::from(self.outcome == o);
        let rated = |rating: u16| u64::from(rating > 0);
        [
            1,
            outcome(Outcome::Won),
            outcome(Outcome::Drawn),
            outcome(Outcome::Lost),
            u64::from(self.mover_rating),
            rated(self.mover_rating),
            u64::from(self.opponent_rating),
            rated(self.opponent_rating),
        ]
    }

    /// The game as one of a move's best rated.
    fn top_game(&self) -> TopGame {
        let rating = ((u32::from(self.mover_rating) + u32::from(self.opponent_rating)) / 2) as u16;
        TopGame { rating, game: self.game }
    }
}

fn min_year(a: u16, b: u16) -> u16 {
    match (a, b) {
        (0, y) | (y, 0) => y,
        (a, b) => a.min(b),
    }
}

impl TreeMove {
    /// A move counted once.
    pub fn of(played: &Played) -> TreeMove {
        let mut m = TreeMove::default();
        m.restart(played);
        m
    }

    /// Counts one more game of the move.
    pub fn count(&mut self, p: &Played) {
        let [games, wins, draws, losses, mover_rating_sum, mover_rated, opponent_rating_sum, opponent_rated] = p.sums();
        self.games += games;
        self.wins += wins;
        self.draws += draws;
        self.losses += losses;
        self.mover_rating_sum += mover_rating_sum;
        self.mover_rated += mover_rated;
        self.opponent_rating_sum += opponent_rating_sum;
        self.opponent_rated += opponent_rated;
        self.first_year = min_year(self.first_year, p.year);
        self.last_year = self.last_year.max(p.year);
        self.add_top(&[p.top_game()]);
    }

    /// Adds another count of the same move.
    pub fn add(&mut self, other: &TreeMove) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.mover_rating_sum += other.mover_rating_sum;
        self.mover_rated += other.mover_rated;
        self.opponent_rating_sum += other.opponent_rating_sum;
        self.opponent_rated += other.opponent_rated;
        self.first_year = min_year(self.first_year, other.first_year);
        self.last_year = self.last_year.max(other.last_year);
        self.add_top(&other.top);
        self.exact = self.exact.or(other.exact);
    }

    /// Keeps the best [`TOP_GAMES`] of the top games and `games`, each once.
    fn add_top(&mut self, games: &[TopGame]) {
        for game in games {
            let at = self.top.partition_point(|t| t.order() < game.order());
            if at < TOP_GAMES && self.top.get(at) != Some(game) {
                self.top.insert(at, *game);
                self.top.truncate(TOP_GAMES);
            }
        }
    }

    /// Makes this the move of `played` counted once, keeping the room of its top games (the
    /// builder counts millions of moves through a few of these).
    pub(crate) fn restart(&mut self, played: &Played) {
        let mut top = std::mem::take(&mut self.top);
        top.clear();
        *self = TreeMove { code: played.code, top, ..TreeMove::default() };
        self.count(played);
    }

    /// Its sums in the order of its fields: games, wins, draws, losses, the mover's rating sum
    /// and rated games, the opponent's ([`Played`]'s for one game).
    pub fn sums(&self) -> [u64; 8] {
        [
            self.games,
            self.wins,
            self.draws,
            self.losses,
            self.mover_rating_sum,
            self.mover_rated,
            self.opponent_rating_sum,
            self.opponent_rated,
        ]
    }

    /// The one game whose move this is, when its counts are exactly one game's (most moves of a
    /// tree): [`TreeMove::of`] of it gives the move back.
    fn played_once(&self) -> Option<Played> {
        let [top] = self.top.as_slice() else { return None };
        let outcome = match (self.wins, self.draws, self.losses) {
            (1, 0, 0) => Outcome::Won,
            (0, 1, 0) => Outcome::Drawn,
            (0, 0, 1) => Outcome::Lost,
            (0, 0, 0) => Outcome::Unknown,
            _ => return None,
        };
        let played = Played {
            code: self.code,
            outcome,
            mover_rating: u16::try_from(self.mover_rating_sum).ok()?,
            opponent_rating: u16::try_from(self.opponent_rating_sum).ok()?,
            year: self.last_year,
            game: top.game,
        };
        let once = played.sums() == self.sums()
            && self.first_year == self.last_year
            && played.top_game() == *top
            && self.exact.is_none();
        once.then_some(played)
    }

    /// Game numbers moved up by `shift` (the games of the trees before this one in a merge).
    pub fn shift_games(&mut self, shift: u64) {
        for top in &mut self.top {
            top.game += shift;
        }
    }
}

/// Adds the moves of `other` (counted after `moves`) into `moves`: both in the order first
/// played, `other`'s new moves go after the others, so the order stays the order first played
/// over both.
pub fn add_moves(moves: &mut Vec<TreeMove>, other: Vec<TreeMove>) {
    for m in other {
        match moves.iter_mut().find(|x| x.code == m.code) {
            Some(known) => known.add(&m),
            None => moves.push(m),
        }
    }
}

/// Hands the unsigned LEB128 bytes of `n` to `emit`, lowest seven bits first.
#[inline(always)]
fn leb128(mut n: u64, mut emit: impl FnMut(u8)) {
    while n >= 0x80 {
        emit(n as u8 | 0x80);
        n >>= 7;
    }
    emit(n as u8);
}

/// Writes an unsigned LEB128 number.
pub fn write_varint(out: &mut impl Write, n: u64) -> io::Result<()> {
    let (mut buf, mut len) = ([0u8; 10], 0);
    leb128(n, |byte| {
        buf[len] = byte;
        len += 1;
    });
    out.write_all(&buf[..len])
}

/// Appends an unsigned LEB128 number, byte by byte (a record's numbers mostly take one: a
/// copy of a slice would cost a call each).
#[inline(always)]
fn push_varint(out: &mut Vec<u8>, n: u64) {
    leb128(n, |byte| out.push(byte));
}

/// Reads bytes as records: positions, moves and their numbers, with the offset reached.
///
/// It reads its input ahead into a buffer of its own: a record's bytes are taken one by one,
/// and a read of the input for each (a merge of runs reads every record so) costs ten times the
/// decoding.
pub struct Decoder<R> {
    input: R,
    /// Bytes read from the input and not yet decoded: `buffer[at..end]`.
    buffer: Vec<u8>,
    at: usize,
    end: usize,
    /// Bytes decoded so far.
    pub offset: u64,
    /// Whether a move's code carries the bit of a move played once (version 3 on): version 2
    /// wrote every move with its counts.
    once_bit: bool,
}

/// The buffer's first size: a probe decodes a few records from a memory map, so the buffer
/// grows (doubling at each refill) only as far as the decoding goes.
const FIRST_BUFFER: usize = 256;
/// The buffer's largest size.
const MAX_BUFFER: usize = 1 << 16;

fn cut_short() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "failed to fill whole buffer")
}

fn damaged(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

impl<R: Read> Decoder<R> {
    /// Reads from `input`, whose first byte is at `offset` of its file.
    pub fn new(input: R, offset: u64) -> Decoder<R> {
        Decoder { input, buffer: Vec::new(), at: 0, end: 0, offset, once_bit: true }
    }

    /// Reads the records of a file of layout `version` (2 or later; the layout of the version
    /// this tabiya writes unless told).
    pub fn of_version(mut self, version: u16) -> Decoder<R> {
        self.once_bit = version >= 3;
        self
    }

    /// Reads more of the input once every byte read is decoded: false at its end.
    #[cold]
    fn fill(&mut self) -> io::Result<bool> {
        let len = (self.buffer.len() * 2).clamp(FIRST_BUFFER, MAX_BUFFER);
        self.buffer.resize(len, 0);
        (self.at, self.end) = (0, 0);
        self.end = loop {
            match self.input.read(&mut self.buffer) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                read => break read?,
            }
        };
        Ok(self.end > 0)
    }

    #[inline]
    fn byte(&mut self) -> io::Result<u8> {
        if self.at == self.end && !self.fill()? {
            return Err(cut_short());
        }
        let b = self.buffer[self.at];
        self.at += 1;
        self.offset += 1;
        Ok(b)
    }

    /// Fills `out` from the input.
    fn read_exact(&mut self, out: &mut [u8]) -> io::Result<()> {
        let mut done = 0;
        while done < out.len() {
            if self.at == self.end && !self.fill()? {
                return Err(cut_short());
            }
            let n = (self.end - self.at).min(out.len() - done);
            out[done..done + n].copy_from_slice(&self.buffer[self.at..self.at + n]);
            (self.at, done) = (self.at + n, done + n);
        }
        self.offset += out.len() as u64;
        Ok(())
    }

    /// An unsigned LEB128 number.
    pub fn varint(&mut self) -> io::Result<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(damaged(format!("a number longer than 10 bytes before offset {}", self.offset)))
    }

    /// The rest of a move played once ([`MoveBytes::played_once`]).
    fn played_once(&mut self, code: u16) -> io::Result<Played> {
        let mover_rating = self.u16_varint("a rating")?;
        let opponent_rating = self.u16_varint("a rating")?;
        let year = self.u16_varint("a year")?;
        let game = self.varint()?;
        let outcome = [Outcome::Won, Outcome::Drawn, Outcome::Lost, Outcome::Unknown][(game & 3) as usize];
        Ok(Played { code, outcome, mover_rating, opponent_rating, year, game: game >> 2 })
    }

    /// A number that must fit 16 bits.
    fn u16_varint(&mut self, what: &str) -> io::Result<u16> {
        let at = self.offset;
        u16::try_from(self.varint()?).map_err(|_| damaged(format!("{what} at offset {at} is over 65535")))
    }

    /// `len` bytes.
    pub fn bytes(&mut self, len: usize) -> io::Result<Vec<u8>> {
        let mut v = vec![0; len];
        self.read_exact(&mut v)?;
        Ok(v)
    }

    /// A string: its length, then its bytes.
    pub fn text(&mut self) -> io::Result<Vec<u8>> {
        let len = self.varint()?;
        if len > 1 << 20 {
            return Err(damaged(format!("a text of {len} bytes before offset {}", self.offset)));
        }
        self.bytes(len as usize)
    }

    /// The next position (its key of `K` bytes) and its moves, or `None` at the end of the
    /// input.
    pub fn position<const K: usize>(&mut self) -> io::Result<Option<([u8; K], Vec<TreeMove>)>> {
        let mut key = [0; K];
        if self.at == self.end && !self.fill()? {
            return Ok(None);
        }
        self.read_exact(&mut key)?;
        let count = self.varint()?;
        if count == 0 || count > 256 {
            return Err(damaged(format!("{count} moves in the position before offset {}", self.offset)));
        }
        let mut moves = Vec::with_capacity(count as usize);
        for _ in 0..count {
            moves.push(self.tree_move()?);
        }
        Ok(Some((key, moves)))
    }

    fn tree_move(&mut self) -> io::Result<TreeMove> {
        let at = self.offset;
        let head = self.varint()?;
        let (code, once) = if self.once_bit { (head >> 1, head & 1 == 1) } else { (head, false) };
        let code = u16::try_from(code).map_err(|_| damaged(format!("a move at offset {at} is over 65535")))?;
        if once {
            return self.played_once(code).map(|played| TreeMove::of(&played));
        }
        let mut numbers = [0u64; 8];
        for n in &mut numbers {
            *n = self.varint()?;
        }
        let [games, wins, draws, losses, mover_rating_sum, mover_rated, opponent_rating_sum, opponent_rated] = numbers;
        let first_year = self.u16_varint("a year")?;
        let last_year = self.u16_varint("a year")?;
        let flags = self.byte()?;
        let tops = flags & 0x7f;
        let exact = if flags & 0x80 != 0 { Some(self.byte()? as i8) } else { None };
        if usize::from(tops) > TOP_GAMES {
            return Err(damaged(format!("{tops} top games before offset {}", self.offset)));
        }
        let mut top = Vec::with_capacity(usize::from(tops));
        for _ in 0..tops {
            let rating = self.u16_varint("a rating")?;
            top.push(TopGame { rating, game: self.varint()? });
        }
        Ok(TreeMove {
            code,
            games,
            wins,
            draws,
            losses,
            mover_rating_sum,
            mover_rated,
            opponent_rating_sum,
            opponent_rated,
            first_year,
            last_year,
            top,
            exact,
        })
    }
}

/// Appends a position and its moves (in the order first played) to `out`, as
/// [`Decoder::position`] reads them: a record is encoded whole in memory, then written at once.
pub fn encode_position<const K: usize>(out: &mut Vec<u8>, key: &[u8; K], moves: &[TreeMove]) {
    MoveBytes::default().position(out, key, moves);
}

/// The most bytes a move's record takes: its code (3), ten numbers (10 each), the top games'
/// count and the exact value, and each top game's rating (3) and number (10).
const MOVE_BYTES: usize = 3 + 10 * 10 + 2 + TOP_GAMES * 13;

/// A move's record gathered on the stack and appended to the position's at once: a byte
/// written here is a store, where a push onto the vector checks its room each time. Its 256
/// bytes are more than a record takes, so that a `u8` length is always a place in it: no bounds
/// check either. The builder keeps one for every record it encodes ([`Encoded`]): zeroing a new
/// one for each position played once was a `memset` call each, 2 % of a tree build's
/// instructions.
///
/// [`Encoded`]: super::file::Encoded
pub(crate) struct MoveBytes {
    bytes: [u8; 256],
    len: u8,
}

const _: () = assert!(MOVE_BYTES < 256, "a move's record fits in MoveBytes, its length in a u8");

impl Default for MoveBytes {
    fn default() -> MoveBytes {
        MoveBytes { bytes: [0; 256], len: 0 }
    }
}

impl MoveBytes {
    /// Appends a position and its moves to `out` ([`encode_position`]).
    pub(crate) fn position<const K: usize>(&mut self, out: &mut Vec<u8>, key: &[u8; K], moves: &[TreeMove]) {
        out.extend_from_slice(key);
        push_varint(out, moves.len() as u64);
        for m in moves {
            match m.played_once() {
                Some(played) => self.played_once(&played),
                None => {
                    // The first [`TOP_GAMES`]: all a move keeps (TreeMove::add_top) and a reader
                    // takes.
                    let top = &m.top[..m.top.len().min(TOP_GAMES)];
                    self.move_record(m.code, m.sums(), [m.first_year, m.last_year], top, m.exact);
                }
            }
            out.extend_from_slice(self.written());
        }
    }

    /// Appends a position whose one move was played once, by `played`: the bytes
    /// [`encode_position`] gives `[TreeMove::of(played)]` (most of a tree's positions), without
    /// counting the move first.
    pub(crate) fn position_played_once<const K: usize>(&mut self, out: &mut Vec<u8>, key: &[u8; K], played: &Played) {
        out.extend_from_slice(key);
        out.push(1);
        self.played_once(played);
        out.extend_from_slice(self.written());
    }

    #[inline(always)]
    fn byte(&mut self, byte: u8) {
        self.bytes[usize::from(self.len)] = byte;
        self.len += 1;
    }

    #[inline(always)]
    fn varint(&mut self, n: u64) {
        leb128(n, |byte| self.byte(byte));
    }

    /// A move's record in place of the one before: its code times two, its sums, first and last
    /// year, the number of its top games (bit 7 set when the exact value follows), then its top
    /// games.
    #[inline(always)]
    fn move_record(&mut self, code: u16, sums: [u64; 8], years: [u16; 2], top: &[TopGame], exact: Option<i8>) {
        self.len = 0;
        self.varint(u64::from(code) << 1);
        for n in sums {
            self.varint(n);
        }
        for year in years {
            self.varint(u64::from(year));
        }
        self.byte(top.len() as u8 | if exact.is_some() { 0x80 } else { 0 });
        if let Some(exact) = exact {
            self.byte(exact as u8);
        }
        for game in top {
            self.varint(u64::from(game.rating));
            self.varint(game.game);
        }
    }

    /// The record of a move played once, by `played`, in place of the one before: its code
    /// times two plus one, the mover's and the opponent's ratings, the year, then the game's
    /// number times four plus the outcome (0 won, 1 drawn, 2 lost, 3 unknown). What the move's
    /// counts would say is all in these: 11 bytes where the counts take 21 (most of a tree's
    /// moves are played once). A game number too large to be shifted takes the counts.
    #[inline(always)]
    fn played_once(&mut self, played: &Played) {
        if played.game >= 1 << 62 {
            let top = [played.top_game()];
            return self.move_record(played.code, played.sums(), [played.year; 2], &top, None);
        }
        self.len = 0;
        self.varint(u64::from(played.code) << 1 | 1);
        self.varint(u64::from(played.mover_rating));
        self.varint(u64::from(played.opponent_rating));
        self.varint(u64::from(played.year));
        self.varint(played.game << 2 | played.outcome as u64);
    }

    fn written(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(code: u16, outcome: Outcome, rating: u16, year: u16, game: u64) -> Played {
        Played { code, outcome, mover_rating: rating, opponent_rating: rating, year, game }
    }

    #[test]
    fn counts_add_up_in_any_grouping() {
        let games: Vec<Played> = (0..40u64)
            .map(|g| {
                let outcome = [Outcome::Won, Outcome::Drawn, Outcome::Lost, Outcome::Unknown][g as usize % 4];
                played(7, outcome, (g % 7) as u16 * 100, if g % 3 == 0 { 0 } else { 1990 + (g % 5) as u16 * 3 }, g)
            })
            .collect();
        let one = |games: &[Played]| {
            let mut m = TreeMove::of(&games[0]);
            games[1..].iter().for_each(|p| m.count(p));
            m
        };
        let whole = one(&games);
        for cut in [1, 13, 39] {
            let mut split = one(&games[cut..]);
            split.add(&one(&games[..cut]));
            assert_eq!(split, whole, "{cut}");
        }
        assert_eq!((whole.games, whole.wins, whole.draws, whole.losses), (40, 10, 10, 10));
        assert_eq!((whole.first_year, whole.last_year), (1990, 2002));
        assert_eq!(whole.top.iter().map(|t| t.game).collect::<Vec<_>>(), [6, 13, 20, 27, 34]);
        let mut bytes = Vec::new();
        let key = [3; 26];
        let solved = TreeMove { exact: Some(-12), ..whole.clone() };
        encode_position(&mut bytes, &key, &[whole.clone(), solved.clone()]);
        let mut decoder = Decoder::new(&bytes[..], 0);
        assert_eq!(decoder.position().unwrap(), Some((key, vec![whole, solved])));
        assert_eq!(decoder.position::<26>().unwrap(), None);
        assert_eq!(decoder.offset, bytes.len() as u64);
    }

    /// A position played once is its key, one move and the move's one game, laid out as the
    /// format says: the code times two plus one, the mover's rating, the opponent's, the year,
    /// the game's number times four plus the outcome; read back, the move counted once. A game
    /// number past 2^62 takes the counts' layout (the code times two, one game, won / drawn /
    /// lost, each rating and whether it is known, the year twice, one top game).
    #[test]
    fn a_position_played_once() {
        let cases = [
            Played {
                code: 0x0c1c,
                outcome: Outcome::Won,
                mover_rating: 2805,
                opponent_rating: 2740,
                year: 2014,
                game: 0,
            },
            Played { code: 3, outcome: Outcome::Drawn, mover_rating: 0, opponent_rating: 127, year: 0, game: 1 << 20 },
            Played {
                code: 0x7fff,
                outcome: Outcome::Lost,
                mover_rating: 1,
                opponent_rating: 0,
                year: 1,
                game: (1 << 62) - 1,
            },
            Played {
                code: 0,
                outcome: Outcome::Unknown,
                mover_rating: 65535,
                opponent_rating: 65535,
                year: 65535,
                game: 5,
            },
            Played {
                code: 0xffff,
                outcome: Outcome::Won,
                mover_rating: 9,
                opponent_rating: 8,
                year: 7,
                game: u64::MAX,
            },
        ];
        for (number, played) in cases.into_iter().enumerate() {
            let mut bytes = Vec::new();
            MoveBytes::default().position_played_once(&mut bytes, &[7; 4], &played);
            let mut expected = vec![7, 7, 7, 7, 1];
            let (mover, opponent) = (u64::from(played.mover_rating), u64::from(played.opponent_rating));
            let numbers = if number < 4 {
                let outcome = [0, 1, 2, 3][number];
                vec![u64::from(played.code) * 2 + 1, mover, opponent, u64::from(played.year), played.game * 4 + outcome]
            } else {
                vec![u64::from(played.code) * 2, 1, 1, 0, 0, mover, 1, opponent, 1, 7, 7, 1, 8, played.game]
            };
            for n in numbers {
                write_varint(&mut expected, n).unwrap();
            }
            assert_eq!(bytes, expected, "{played:?}");
            let (key, moves) = Decoder::new(&bytes[..], 0).position::<4>().unwrap().unwrap();
            assert_eq!((key, moves), ([7; 4], vec![TreeMove::of(&played)]), "{played:?}");
            // A move counted once from anywhere (a merge, a run) is written the same.
            let mut counted = Vec::new();
            encode_position(&mut counted, &[7; 4], &[TreeMove::of(&played)]);
            assert_eq!(counted, bytes, "{played:?}");
        }
    }

    /// The same record byte by byte, worked out by hand from the layout: key 7 7 7 7, one move;
    /// code 3100 × 2 + 1 = 6201 = b9 30, the mover's 2805 = f5 15, the opponent's 2740 = b4 15,
    /// 2014 = de 0f, game 0 × 4 + won 0 = 00. Version 2 wrote the move's counts, and is read
    /// as the same move: code 3100 = 9c 18, one game, won (1 0 0), the mover's rating and known,
    /// the opponent's, the year twice, one top game (the mean 2772 = d4 15, game 0).
    #[test]
    fn a_position_played_once_byte_by_byte() {
        let played = Played {
            code: 3100,
            outcome: Outcome::Won,
            mover_rating: 2805,
            opponent_rating: 2740,
            year: 2014,
            game: 0,
        };
        let mut bytes = Vec::new();
        MoveBytes::default().position_played_once(&mut bytes, &[7; 4], &played);
        assert_eq!(bytes, [7, 7, 7, 7, 1, 0xb9, 0x30, 0xf5, 0x15, 0xb4, 0x15, 0xde, 0x0f, 0]);
        let version_2 = [
            7, 7, 7, 7, 1, 0x9c, 0x18, 1, 1, 0, 0, 0xf5, 0x15, 1, 0xb4, 0x15, 1, 0xde, 0x0f, 0xde, 0x0f, 1, 0xd4, 0x15,
            0,
        ];
        let read = Decoder::new(&version_2[..], 0).of_version(2).position::<4>().unwrap();
        assert_eq!(read, Some(([7; 4], vec![TreeMove::of(&played)])));
    }

    /// Moves whose counts are one game's but for one field keep their counts: each is read
    /// back as it was, never as the game it is nearly.
    #[test]
    fn a_move_nearly_played_once_keeps_its_counts() {
        let once = TreeMove::of(&Played {
            code: 12,
            outcome: Outcome::Drawn,
            mover_rating: 2500,
            opponent_rating: 2400,
            year: 1999,
            game: 77,
        });
        let nearly = [
            TreeMove { games: 2, ..once.clone() },
            TreeMove { wins: 1, ..once.clone() },
            TreeMove { losses: 1, ..once.clone() },
            TreeMove { mover_rated: 0, ..once.clone() },
            TreeMove { opponent_rating_sum: 70_000, ..once.clone() },
            TreeMove { first_year: 1998, ..once.clone() },
            TreeMove { top: vec![TopGame { rating: 2449, game: 77 }], ..once.clone() },
            TreeMove { top: Vec::new(), ..once.clone() },
            TreeMove { exact: Some(4), ..once.clone() },
        ];
        for m in nearly {
            let mut bytes = Vec::new();
            encode_position(&mut bytes, &[1; 2], std::slice::from_ref(&m));
            assert_eq!(bytes[3] & 1, 0, "{m:?} written as counts");
            assert_eq!(Decoder::new(&bytes[..], 0).position().unwrap(), Some(([1; 2], vec![m.clone()])), "{m:?}");
        }
    }

    /// Numbers at every length's edges go out as LEB128 (the bytes written one by one by
    /// `write_varint`) and come back.
    #[test]
    fn numbers_at_the_edges_of_their_lengths() {
        let edges = [0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 0x1f_ffff, 0x20_0000, u64::from(u32::MAX), u64::MAX];
        for &n in &edges {
            let m = TreeMove {
                code: (n % 0x1_0000) as u16,
                games: n,
                wins: n / 3,
                mover_rating_sum: n,
                opponent_rated: n,
                first_year: (n % 0x1_0000) as u16,
                top: vec![TopGame { rating: (n % 0x1_0000) as u16, game: n }],
                ..TreeMove::default()
            };
            let mut bytes = Vec::new();
            encode_position(&mut bytes, &[9; 3], std::slice::from_ref(&m));
            let mut expected = vec![9, 9, 9, 1];
            for number in [u64::from(m.code) << 1, m.games, m.wins, 0, 0, m.mover_rating_sum, 0, 0, m.opponent_rated] {
                write_varint(&mut expected, number).unwrap();
            }
            for number in [u64::from(m.first_year), 0] {
                write_varint(&mut expected, number).unwrap();
            }
            expected.push(1);
            write_varint(&mut expected, u64::from(m.top[0].rating)).unwrap();
            write_varint(&mut expected, n).unwrap();
            assert_eq!(bytes, expected, "{n}");
            assert_eq!(Decoder::new(&bytes[..], 0).position().unwrap(), Some(([9; 3], vec![m])), "{n}");
        }
    }
}
