//! A position index kept beside a SCID database (`games.tpx` beside `games.si4`): what makes a
//! `--fen` search of the common positions answer without replaying games.
//!
//! It holds, for every position that at least [`PositionIndex::MIN_GAMES`] games reach within
//! their first [`PositionIndex::PLIES`] plies, the list of those games (numbers delta-coded in
//! LEB128), keyed by the position's Zobrist hash (64 bits; the chess-openings identity of
//! [`crate::openings`]); and for every game, what it still has at that ply (pawns at home, men
//! and pawns a side: 4 bytes), so that a game that may reach the position later is found
//! without decoding the others.
//!
//! A search ([`PositionIndex::search`]) is then exact: the listed games, plus those replayed
//! because they are longer than the indexed plies and their state there allows the position;
//! a position not in the index (rare, or deeper) falls back to [`search_scid`]'s pruned replay
//! ([`ScidPositions::notices`] says so). The file is read in place (mapped): opening it reads
//! its header, a search the pages of one posting list and the 4-byte states. What a search
//! finds is a [`Candidate`] a game: `select --count` counts the games that pass unread, `-o`
//! reads only them.
//! Two different positions with one 64-bit hash would be taken for each other: about one chance
//! in 10¹³ for an index of 2 million positions.

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{ByColor, Chess, Color, EnPassantMode, Position};
use tabiya_io::{ByteReader, DataError, Diagnostic, FileBytes, Location};

use super::search::{PositionQuery, Reach, ScidSearch, replay_scid, scid_home_numbers, search_scid};
use crate::pgn::pieces::locked;
use crate::scid::Database;

/// The position index of a SCID database: the tables as its file holds them (little-endian),
/// read in place, so that opening it reads nothing but its header and a search reads only the
/// pages it touches.
#[derive(Debug)]
pub struct PositionIndex {
    /// Games of the database it was made from, and the length of its game file: an index
    /// that does not match is stale.
    games: u32,
    game_file_len: u64,
    /// Positions indexed.
    positions: usize,
    /// The file: header, then position keys (u64, sorted), `positions + 1` offsets (u32:
    /// offsets `i` and `i + 1` bound key `i`'s games in the postings), the postings, each
    /// game's state after the indexed plies (4 bytes: pawns at home in SCID's numbering, then
    /// men − 1 and pawns of White and of Black, 4 bits each), and the games that could not be
    /// decoded (u32; always replayed, and reported, by a search).
    bytes: FileBytes,
    postings: Range<usize>,
}

const MAGIC: &[u8; 16] = b"tabiya positions";
const VERSION: u32 = 1;
/// Magic, version, plies, minimum games, games, game file length, three table lengths.
const HEADER_LEN: usize = 16 + 4 * 4 + 8 + 3 * 4;

impl PositionIndex {
    /// Plies indexed from each game's start.
    pub const PLIES: usize = 20;
    /// Positions reached by fewer games are left to the replay.
    pub const MIN_GAMES: usize = 4;

    /// The index file of a database: the stem with `.tpx`.
    pub fn path_for(db: &Database) -> PathBuf {
        db.paths.stem().with_extension("tpx")
    }

    /// Makes the index of `db`, replaying the first [`Self::PLIES`] plies of every game on all
    /// cores.
    pub fn build(db: &Database) -> PositionIndex {
        let per_game: Vec<Option<(Vec<u64>, [u8; 4])>> =
            (0..db.len()).into_par_iter().map(|n| opening_of(db, n)).collect();
        let mut lists: HashMap<u64, Vec<u32>> = HashMap::new();
        let mut after = Vec::with_capacity(db.len() * 4);
        let mut unindexed = Vec::new();
        for (n, game) in per_game.into_iter().enumerate() {
            match game {
                Some((keys, state)) => {
                    for key in keys {
                        lists.entry(key).or_default().push(n as u32);
                    }
                    after.extend_from_slice(&state);
                }
                None => {
                    unindexed.extend_from_slice(&(n as u32).to_le_bytes());
                    after.extend_from_slice(&[0; 4]);
                }
            }
        }
        let mut kept: Vec<(u64, Vec<u32>)> = lists.into_iter().filter(|(_, g)| g.len() >= Self::MIN_GAMES).collect();
        kept.sort_unstable_by_key(|(key, _)| *key);
        let mut keys = Vec::with_capacity(kept.len() * 8);
        let mut offsets = Vec::with_capacity(kept.len() * 4 + 4);
        let mut postings = Vec::new();
        offsets.extend_from_slice(&0u32.to_le_bytes());
        for (key, games) in &kept {
            keys.extend_from_slice(&key.to_le_bytes());
            let mut last = 0;
            for &game in games {
                tabiya_io::varint::write_leb128(&mut postings, u64::from(game - last));
                last = game;
            }
            offsets.extend_from_slice(&(postings.len() as u32).to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_LEN + keys.len() + offsets.len() + postings.len() + after.len());
        out.extend_from_slice(MAGIC);
        for n in [VERSION, Self::PLIES as u32, Self::MIN_GAMES as u32, db.len() as u32] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&(db.game_file().len() as u64).to_le_bytes());
        for n in [kept.len(), postings.len(), unindexed.len() / 4] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for table in [keys, offsets, postings, after, unindexed] {
            out.extend_from_slice(&table);
        }
        Self::from_file_bytes(FileBytes::Owned(out)).expect("an index as made is read back")
    }

    /// Whether the index was made from `db` as it is (same games, same game file length).
    pub fn fits(&self, db: &Database) -> bool {
        self.games as usize == db.len() && self.game_file_len == db.game_file().len() as u64
    }

    /// The index file beside `db`: `Ok(None)` when there is none; an error (a warning, to be
    /// reported) when it cannot be read or was made from another state of the database (games
    /// added, removed or replaced since: a stale index would miss them).
    pub fn open(db: &Database) -> Result<Option<PositionIndex>, Diagnostic> {
        let path = Self::path_for(db);
        if !path.exists() {
            return Ok(None);
        }
        let bytes =
            tabiya_io::read_input(&path).map_err(|e| Self::not_used(&path, Location::default(), e.to_string()))?;
        let index = Self::from_file_bytes(bytes).map_err(|e| {
            let found = e.found.map(|f| format!(", found {f}")).unwrap_or_default();
            Self::not_used(&path, e.location, format!("expected {}{found}", e.expected))
        })?;
        if !index.fits(db) {
            let why = format!(
                "made from {} games and a game file of {} bytes, the database has {} and {}",
                index.games,
                index.game_file_len,
                db.len(),
                db.game_file().len()
            );
            return Err(Self::not_used(&path, Location::default(), why));
        }
        Ok(Some(index))
    }

    fn not_used(path: &std::path::Path, at: Location, why: String) -> Diagnostic {
        Diagnostic::warning(
            "index.not_used",
            at.in_file(path),
            format!("{why}: the position index is not used (games replayed); `tabiya index --force` remakes it"),
        )
    }

    /// The index of `db` from its file when there is one that fits, else made and written
    /// there (atomically). A file that cannot be read or written is not an error: the index
    /// is made in memory.
    pub fn open_or_build(db: &Database) -> PositionIndex {
        let path = Self::path_for(db);
        if let Ok(Some(index)) = Self::open(db) {
            return index;
        }
        let index = Self::build(db);
        let _ = tabiya_io::write_atomic(&path, index.as_bytes());
        index
    }

    /// The index as its file holds it.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Reads an index file's header and checks its tables' lengths (an index of other plies
    /// or another version is refused); the tables are read as searches need them. A mapped file stays valid when `tabiya index --force` replaces it: the new index
    /// is written beside it and renamed over it.
    fn from_file_bytes(bytes: FileBytes) -> Result<PositionIndex, DataError> {
        let mut r = ByteReader::new(&bytes);
        if r.bytes(16, "magic")? != MAGIC {
            return Err(DataError::new(Location::at(0), "the magic \"tabiya positions\""));
        }
        let settings = [r.u32_le("version")?, r.u32_le("plies")?, r.u32_le("minimum games")?];
        if settings != [VERSION, Self::PLIES as u32, Self::MIN_GAMES as u32] {
            return Err(DataError::new(Location::at(16), "an index of this version").found(format!("{settings:?}")));
        }
        let games = r.u32_le("games")?;
        let game_file_len = r.u64_le("game file length")?;
        let [positions, postings, unindexed] =
            [r.u32_le("keys")?, r.u32_le("postings length")?, r.u32_le("unindexed games")?].map(|n| n as usize);
        let need = positions * 12 + 4 + postings + games as usize * 4 + unindexed * 4;
        if r.remaining() != need {
            return Err(r.error(format!("{need} bytes of tables")).found(format!("{}", r.remaining())));
        }
        let start = HEADER_LEN + positions * 12 + 4;
        Ok(PositionIndex { games, game_file_len, positions, bytes, postings: start..start + postings })
    }

    /// Positions indexed.
    pub fn positions(&self) -> usize {
        self.positions
    }

    fn key(&self, i: usize) -> u64 {
        let at = HEADER_LEN + i * 8;
        u64::from_le_bytes(self.bytes[at..at + 8].try_into().expect("8 bytes"))
    }

    fn offset(&self, i: usize) -> usize {
        let at = HEADER_LEN + self.positions * 8 + i * 4;
        u32::from_le_bytes(self.bytes[at..at + 4].try_into().expect("4 bytes")) as usize
    }

    /// Game `n`'s state after the indexed plies.
    fn after(&self, n: usize) -> [u8; 4] {
        let at = self.postings.end + n * 4;
        self.bytes[at..at + 4].try_into().expect("4 bytes")
    }

    /// The games that could not be decoded when the index was made.
    fn unindexed(&self) -> impl Iterator<Item = usize> + '_ {
        let start = self.postings.end + self.games as usize * 4;
        self.bytes[start..].chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
    }

    /// Where a position key is among the keys.
    fn find(&self, key: u64) -> Option<usize> {
        let (mut low, mut high) = (0, self.positions);
        while low < high {
            let middle = low + (high - low) / 2;
            match self.key(middle).cmp(&key) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(middle),
            }
        }
        None
    }

    /// The games listed for a position key, in order; `None` when it is not in the index, or
    /// its list is not where the offsets say (a damaged file: the caller replays).
    fn listed(&self, key: u64) -> Option<Vec<usize>> {
        let i = self.find(key)?;
        let (start, end) = (self.offset(i), self.offset(i + 1));
        let mut list = self.bytes[self.postings.clone()].get(start..end)?;
        let mut games = Vec::new();
        let mut game = 0u64;
        while !list.is_empty() {
            let (delta, used) = tabiya_io::varint::decode_leb128(list).ok()?;
            game += delta;
            games.push(game as usize);
            list = &list[used..];
        }
        Some(games)
    }

    /// Whether `query`'s position is in the index (else [`Self::search`] replays).
    pub fn holds(&self, query: &PositionQuery) -> bool {
        self.find(crate::openings::key(query.target())).is_some()
    }

    /// The games of `db` (which the index [`fits`](Self::fits)) whose main line reaches
    /// `query`'s position: the same games as [`search_scid`], found from the index when the
    /// position is in it.
    pub fn search(&self, db: &Database, query: &PositionQuery) -> ScidSearch {
        let listed = self.fits(db).then(|| self.listed(crate::openings::key(query.target()))).flatten();
        let Some(listed) = listed else {
            return search_scid(db, query);
        };
        // Games that may reach the position after the indexed plies, and those not indexed.
        // A cheap test a game, on one thread.
        let mut later: Vec<usize> = (db.entries.iter().enumerate())
            .filter(|(n, entry)| {
                usize::from(entry.plies) > Self::PLIES
                    && unpack(self.after(*n)).allows(query)
                    && entry.length() > 0
                    && query.may_match_scid(entry)
            })
            .map(|(n, _)| n)
            .collect();
        later.extend(self.unindexed().filter(|&n| n < db.len()));
        later.retain(|n| listed.binary_search(n).is_err());
        let replayed: Vec<(usize, Result<bool, Diagnostic>)> =
            later.par_iter().with_min_len(256).map(|&n| (n, replay_scid(db, n, &db.entries[n], query))).collect();
        let mut search = ScidSearch { games: listed, replayed: replayed.len(), problems: Vec::new() };
        for (n, result) in replayed {
            match result {
                Ok(true) => search.games.push(n),
                Ok(false) => {}
                Err(problem) => search.problems.push((n, problem)),
            }
        }
        search.games.sort_unstable();
        search
    }

    /// The index file's size, in bytes.
    pub fn byte_len(&self) -> usize {
        self.bytes.len()
    }
}

/// What a filter knows of one game of a SCID database before the game is read
/// ([`crate::games::select::GameFilter::scid_candidates`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Candidate {
    /// The game cannot pass: it is not read.
    Rejected,
    /// The game passes: it is read only for what is made of it (a count needs nothing).
    Passes,
    /// The game must be read and judged whole.
    Read,
}

impl Candidate {
    /// The game passes two filters: rejected by either, passing when both say it passes.
    pub fn and(self, other: Candidate) -> Candidate {
        match (self, other) {
            (Candidate::Rejected, _) | (_, Candidate::Rejected) => Candidate::Rejected,
            (Candidate::Passes, Candidate::Passes) => Candidate::Passes,
            _ => Candidate::Read,
        }
    }

    /// The game passes either of two filters: passing when either says it passes, rejected
    /// by both.
    pub fn or(self, other: Candidate) -> Candidate {
        match (self, other) {
            (Candidate::Passes, _) | (_, Candidate::Passes) => Candidate::Passes,
            (Candidate::Rejected, Candidate::Rejected) => Candidate::Rejected,
            _ => Candidate::Read,
        }
    }
}

/// The game passes the opposite filter.
impl std::ops::Not for Candidate {
    type Output = Candidate;

    fn not(self) -> Candidate {
        match self {
            Candidate::Rejected => Candidate::Passes,
            Candidate::Passes => Candidate::Rejected,
            Candidate::Read => Candidate::Read,
        }
    }
}

/// The position searches of one SCID database: through its position index when the database
/// has a current one (read at the first search), else by [`search_scid`]'s pruned replay; the
/// same games either way. What kept the index file from being used is kept for the caller to
/// report ([`ScidPositions::notices`]).
pub struct ScidPositions<'a> {
    db: &'a Database,
    index: OnceLock<Result<Option<PositionIndex>, Diagnostic>>,
    /// The positions searched by replay although the index is there: not in it.
    not_indexed: Mutex<Vec<String>>,
}

impl<'a> ScidPositions<'a> {
    /// The searches of `db`; nothing is read yet.
    pub fn new(db: &'a Database) -> ScidPositions<'a> {
        ScidPositions { db, index: OnceLock::new(), not_indexed: Mutex::new(Vec::new()) }
    }

    /// The games whose main line reaches `query`'s position.
    pub fn search(&self, query: &PositionQuery) -> ScidSearch {
        match self.index.get_or_init(|| PositionIndex::open(self.db)) {
            Ok(Some(index)) => {
                if !index.holds(query) {
                    let fen = Fen::from_position(query.target(), EnPassantMode::Legal).to_string();
                    locked(&self.not_indexed).push(fen);
                }
                index.search(self.db, query)
            }
            _ => search_scid(self.db, query),
        }
    }

    /// What the search of `query` tells of each game before it is read: the games that reach
    /// the position pass; those that could not be decoded (reading them says why) and those
    /// without a record (which a search passes over) must be read and judged as a reading of
    /// every game would; the others are rejected.
    pub fn candidates(&self, query: &PositionQuery) -> Vec<Candidate> {
        let search = self.search(query);
        let mut candidates: Vec<Candidate> = (self.db.entries.iter())
            .map(|entry| if entry.length() == 0 { Candidate::Read } else { Candidate::Rejected })
            .collect();
        for n in search.games {
            candidates[n] = Candidate::Passes;
        }
        for (n, _) in search.problems {
            candidates[n] = Candidate::Read;
        }
        candidates
    }

    /// What the caller should say of the searches run (warnings): why the index file beside
    /// the database was not used (stale or unreadable), and each position that was not in it
    /// (searched by replay, which finds the same games, more slowly).
    pub fn notices(&self) -> Vec<Diagnostic> {
        let mut notices: Vec<Diagnostic> =
            self.index.get().and_then(|i| i.as_ref().err()).into_iter().cloned().collect();
        let path = PositionIndex::path_for(self.db);
        for fen in locked(&self.not_indexed).iter() {
            notices.push(Diagnostic::warning(
                "index.position_not_indexed",
                Location::default().in_file(&path),
                format!(
                    "{fen}: not in the position index (it holds the positions at least {} games reach \
                     within {} plies); its games were found by replaying the games that may reach it",
                    PositionIndex::MIN_GAMES,
                    PositionIndex::PLIES
                ),
            ));
        }
        notices
    }
}

/// A game's position keys over its first plies (each once) and its state after them; `None`
/// when it cannot be decoded.
fn opening_of(db: &Database, n: usize) -> Option<(Vec<u64>, [u8; 4])> {
    let entry = db.entries.get(n)?;
    let record = db.raw_record(n).ok()?;
    let mut keys = Vec::with_capacity(PositionIndex::PLIES + 1);
    let mut last: Option<Chess> = None;
    crate::scid::decode::visit_main_line(record, entry.offset(), entry.chess960(), |pos| {
        keys.push(crate::openings::key(pos));
        last = Some(pos.clone());
        keys.len() <= PositionIndex::PLIES
    })
    .ok()?;
    keys.sort_unstable();
    keys.dedup();
    Some((keys, pack(&Reach::of(last?.board()))))
}

fn pack(reach: &Reach) -> [u8; 4] {
    let [a, b] = scid_home_numbers(reach.home).to_le_bytes();
    let side = |c: Color| ((*reach.men.get(c) - 1) << 4 | *reach.pawns.get(c)) as u8;
    [a, b, side(Color::White), side(Color::Black)]
}

/// A game's state after the indexed plies: pawns at home (SCID's numbers), men and pawns a
/// side.
struct After {
    home: u16,
    men: ByColor<u32>,
    pawns: ByColor<u32>,
}

fn unpack(b: [u8; 4]) -> After {
    let side = |x: u8| (u32::from(x >> 4) + 1, u32::from(x & 15));
    let (white, black) = (side(b[2]), side(b[3]));
    After {
        home: u16::from_le_bytes([b[0], b[1]]),
        men: ByColor { white: white.0, black: black.0 },
        pawns: ByColor { white: white.1, black: black.1 },
    }
}

impl After {
    /// Whether a game in this state can still reach `query`'s position.
    fn allows(&self, query: &PositionQuery) -> bool {
        let reach = &query.reach;
        self.home & query.home_numbers == query.home_numbers
            && Color::ALL
                .into_iter()
                .all(|c| self.pawns.get(c) >= reach.pawns.get(c) && self.men.get(c) >= reach.men.get(c))
    }
}
