//! Building a book from games (spec 10): which positions and moves a game adds, W/D/L from the
//! player to move, game references, the 682-byte limit, links between book positions.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;

use shakmaty::{CastlingMode, Chess, Color, Position};

use super::conventions::MAX_ELEMENT_SIZE;
use super::element::Element;
use super::error::KvetkaError;
use super::key::{self, key_of};
use super::ksf::{GameRecord, SOURCE_PGN, Source, Sources};
use super::moves::encode_move;
use super::text::encode_ansi;
use super::{Book, Header, Key, SourceRef};
use crate::game::{Game, GameResult};
use crate::pgn::{PgnReader, ReadOptions};

/// A hasher for keys: their bytes are already well mixed by the board code.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
}

pub(crate) type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;
pub(crate) type KeySet = HashSet<Key, BuildHasherDefault<KeyHasher>>;

/// What a build did, and what it had to leave out (spec 10.5, 10.6).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct BuildReport {
    pub games_read: u64,
    pub games_added: u64,
    /// Games below an Elo threshold of the header.
    pub games_filtered: u64,
    /// Games the PGN reader could not read.
    pub games_unreadable: u64,
    /// Chess960 games: Kvetka books hold standard chess only.
    pub games_chess960: u64,
    /// Games with result `*`: positions and moves, no statistics.
    pub games_without_result: u64,
    /// Positions whose code needs more than 176 bits (the game stops before them).
    pub positions_too_long: u64,
    /// Under-promotions (the game stops before them).
    pub moves_underpromotion: u64,
    /// A third knight, bishop or rook or a fourth queen moving; null moves.
    pub moves_without_code: u64,
    /// Moves added by `links` between book positions.
    pub link_moves: u64,
    /// Game links dropped to keep elements within 682 bytes.
    pub links_dropped: u64,
    /// Comments dropped because the element did not fit even without links.
    pub comments_dropped: u64,
    pub positions: u64,
}

/// Statistics and references of one position while games are added.
#[derive(Debug, Clone, Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    /// Move codes seen, as a 256-bit set (so they come out in ascending order).
    moves: [u64; 4],
    first_game: Option<SourceRef>,
    last_of: Vec<SourceRef>,
}

/// Accumulates games into positions; [`Builder::finish`] makes the book.
#[derive(Debug)]
pub struct Builder {
    header: Header,
    tallies: KeyMap<Tally>,
    sources: Vec<Source>,
    report: BuildReport,
}

/// Where a game is, for the `.ksf` (used when the header's element_type bit 0 is set).
#[derive(Debug, Clone, Copy)]
pub struct GamePlace {
    pub offset: u32,
    pub length: u32,
}

impl Builder {
    pub fn new(header: Header) -> Builder {
        Builder { header, tallies: KeyMap::default(), sources: Vec::new(), report: BuildReport::default() }
    }

    pub fn report(&self) -> &BuildReport {
        &self.report
    }

    /// Starts a new source (a PGN file); the games added next belong to it.
    pub fn add_source(&mut self, address: String) -> Result<(), KvetkaError> {
        if self.sources.len() > usize::from(u16::MAX) {
            return Err(KvetkaError::unrepresentable("more than 65,536 sources"));
        }
        self.sources.push(Source { source_type: SOURCE_PGN, is_bad: 0, address, games: Vec::new() });
        Ok(())
    }

    /// Whether the header's Elo thresholds let the game in (spec 10.1; unknown Elo = 0).
    pub fn accepts(&self, game: &Game) -> bool {
        let elo = |tag| game.tag(tag).and_then(|v| v.trim().parse::<u16>().ok()).unwrap_or(0);
        let (white, black) = (elo("WhiteElo"), elo("BlackElo"));
        let h = &self.header;
        white >= h.min_white_elo
            && black >= h.min_black_elo
            && white.max(black) >= h.min_strong_elo
            && white.min(black) >= h.min_weak_elo
    }

    /// Adds one game. `place` is where it is in the current source (needed for references).
    pub fn add_game(&mut self, game: &Game, place: GamePlace) -> Result<(), KvetkaError> {
        self.report.games_read += 1;
        if game.castling_mode == CastlingMode::Chess960 {
            self.report.games_chess960 += 1;
            return Ok(());
        }
        if !self.accepts(game) {
            self.report.games_filtered += 1;
            return Ok(());
        }
        let reference = self.record_game(game, place)?;
        let Ok(mut pos) = game.start_position() else {
            self.report.games_unreadable += 1;
            return Ok(());
        };
        self.report.games_added += 1;
        if game.result == GameResult::Unknown {
            self.report.games_without_result += 1;
        }
        let plies = if self.header.max_move == 0xff { usize::MAX } else { usize::from(self.header.max_move) };
        let (mut current, mut norm) = match key::encode(&pos) {
            Ok(k) => k,
            Err(_) => {
                self.report.positions_too_long += 1;
                return Ok(());
            }
        };
        let mut seen: Vec<Key> = Vec::with_capacity(game.moves.nodes.len().min(plies) + 1);
        self.count(current, pos.turn(), game.result, reference, &mut seen);
        for node in game.moves.nodes.iter().take(plies) {
            let Some(mv) = &node.mv else {
                self.report.moves_without_code += 1;
                break;
            };
            let Some(code) = encode_move(&norm, mv) else {
                if mv.promotion().is_some() {
                    self.report.moves_underpromotion += 1;
                } else {
                    self.report.moves_without_code += 1;
                }
                break;
            };
            pos.play_unchecked(*mv);
            let Ok((next, next_norm)) = key::encode(&pos) else {
                self.report.positions_too_long += 1;
                break;
            };
            if let Some(t) = self.tallies.get_mut(&current) {
                t.moves[usize::from(code >> 6)] |= 1 << (code & 63);
            }
            self.count(next, pos.turn(), game.result, reference, &mut seen);
            (current, norm) = (next, next_norm);
        }
        if let (Some(r), Some(t)) = (reference, self.tallies.get_mut(&current)) {
            t.last_of.push(r);
        }
        Ok(())
    }

    /// Counts a position once per game.
    fn count(&mut self, key: Key, turn: Color, result: GameResult, reference: Option<SourceRef>, seen: &mut Vec<Key>) {
        if seen.contains(&key) {
            return;
        }
        seen.push(key);
        let t = self.tallies.entry(key).or_default();
        let stat = match (result, turn) {
            (GameResult::Draw, _) => &mut t.draws,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => &mut t.wins,
            (GameResult::WhiteWins, Color::Black) | (GameResult::BlackWins, Color::White) => &mut t.losses,
            (GameResult::Unknown, _) => return set_first(t, reference),
        };
        *stat = stat.saturating_add(1);
        set_first(t, reference);
    }

    /// The `.ksf` record of a game; `None` when the book keeps no references.
    fn record_game(&mut self, game: &Game, place: GamePlace) -> Result<Option<SourceRef>, KvetkaError> {
        if !self.header.references() {
            return Ok(None);
        }
        let index = self.sources.len().saturating_sub(1);
        let Some(source) = self.sources.last_mut() else {
            return Err(KvetkaError::unrepresentable("a game reference without a source"));
        };
        let number = source.games.len();
        let name = |tag: &str| {
            encode_ansi(game.tag(tag).unwrap_or(""), &format!("{} game {}: {tag}", source.address, number + 1))
        };
        let elo = |tag| game.tag(tag).and_then(|v| v.trim().parse::<u16>().ok()).unwrap_or(0);
        let record = GameRecord {
            address: place.offset,
            length: place.length,
            white: name("White")?,
            black: name("Black")?,
            white_elo: elo("WhiteElo"),
            black_elo: elo("BlackElo"),
            result: match game.result {
                GameResult::BlackWins => 0,
                GameResult::WhiteWins => 1,
                GameResult::Draw => 2,
                GameResult::Unknown => 3,
            },
        };
        source.games.push(record);
        Ok(Some(SourceRef { source: index as u16, game: number as u32 }))
    }

    /// Adds every game of a PGN file as a new source (its full path).
    pub fn add_pgn(&mut self, path: &Path, bytes: &[u8]) -> Result<(), KvetkaError> {
        if self.header.references() {
            let full = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            self.add_source(full.display().to_string())?;
        }
        let options = ReadOptions { variations: false, comments: false, file: Some(path.to_path_buf()) };
        // A game's length reaches to the next game's first byte, so each game waits for the next.
        let mut pending: Option<(Game, u64)> = None;
        for item in PgnReader::with_options(bytes, options) {
            match item {
                Ok(read) => {
                    if let Some((game, offset)) = pending.take() {
                        self.add_game(&game, place(offset, read.offset))?;
                    }
                    pending = Some((read.game, read.offset));
                }
                Err(_) => self.report.games_unreadable += 1,
            }
        }
        if let Some((game, offset)) = pending {
            self.add_game(&game, place(offset, bytes.len() as u64))?;
        }
        Ok(())
    }

    /// The book: elements in key order, greedy blocks, comments from `names`, links if the
    /// header asks for them, the `.ksf` when references are kept.
    pub fn finish(mut self, names: Option<&OpeningNames>) -> Result<(Book, BuildReport), KvetkaError> {
        let references = self.header.references();
        let mut elements = Vec::with_capacity(self.tallies.len());
        for (key, t) in self.tallies.drain() {
            let mut e = Element::new(key);
            (e.wins, e.draws, e.losses) = (t.wins, t.draws, t.losses);
            e.moves = codes(&t.moves);
            if references {
                e.set_some_source(t.first_game);
                e.set_game_links(t.last_of);
            }
            if let Some(name) = names.and_then(|n| n.get(&key)) {
                e.set_comment(Some(name.clone()));
            }
            elements.push(e);
        }
        for e in &mut elements {
            fit(e, self.header.element_type, &mut self.report);
        }
        if self.header.links != 0 {
            let keys: KeySet = elements.iter().map(|e| e.key).collect();
            self.report.link_moves += add_links(&mut elements, &keys);
        }
        self.report.positions = elements.len() as u64;
        let mut book = Book::from_elements(self.header, elements)?;
        if references {
            book.sources = Some(Sources { sources: self.sources });
        }
        Ok((book, self.report))
    }
}

fn place(offset: u64, next: u64) -> GamePlace {
    let clamp = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    GamePlace { offset: clamp(offset), length: clamp(next.saturating_sub(offset)) }
}

fn set_first(t: &mut Tally, reference: Option<SourceRef>) {
    if t.first_game.is_none() {
        t.first_game = reference;
    }
}

/// The codes of a 256-bit set, ascending.
fn codes(set: &[u64; 4]) -> Vec<u8> {
    (0..=255u8).filter(|&c| set[usize::from(c >> 6)] >> (c & 63) & 1 == 1).collect()
}

/// Drops game links from the end, then the comment, until the element fits in 682 bytes.
pub(crate) fn fit(e: &mut Element, element_type: u8, report: &mut BuildReport) {
    while e.encoded_size(element_type) > MAX_ELEMENT_SIZE && !e.links().is_empty() {
        let mut links = e.links().to_vec();
        // Remove enough at once: each link is 6 bytes.
        let excess = (e.encoded_size(element_type) - MAX_ELEMENT_SIZE).div_ceil(6).clamp(1, links.len());
        links.truncate(links.len() - excess);
        report.links_dropped += excess as u64;
        e.set_game_links(links);
    }
    if e.encoded_size(element_type) > MAX_ELEMENT_SIZE && e.comment.is_some() {
        e.set_comment(None);
        report.comments_dropped += 1;
    }
}

/// `links`: from every position, every legal encodable move that leads to another position
/// of the book (`keys`, spec 10.4). Returns the number of moves added.
pub(crate) fn add_links(elements: &mut [Element], keys: &KeySet) -> u64 {
    let mut added = 0;
    for e in elements.iter_mut() {
        let Ok(norm) = key::decode(&e.key) else { continue };
        let Ok(pos) = norm.real_position() else { continue };
        let mut set = [0u64; 4];
        for &c in &e.moves {
            set[usize::from(c >> 6)] |= 1 << (c & 63);
        }
        for mv in pos.legal_moves() {
            let Some(code) = encode_move(&norm, &mv) else { continue };
            if set[usize::from(code >> 6)] >> (code & 63) & 1 == 1 {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            if key_of(&crate::boardcode::Normalized::new(&next)).is_ok_and(|k| keys.contains(&k)) {
                set[usize::from(code >> 6)] |= 1 << (code & 63);
                added += 1;
            }
        }
        e.moves = codes(&set);
    }
    added
}

/// Opening names by position, from an ECO file in PGN form (pgn-extract's `eco.pgn`): the
/// position after each line's moves gets `ECO|Opening|Variation` (spec 3.3).
#[derive(Debug, Default)]
pub struct OpeningNames {
    names: KeyMap<String>,
}

impl OpeningNames {
    /// Reads the lines; a position reached by several lines keeps the first line's name.
    pub fn from_pgn(path: &Path, bytes: &[u8]) -> OpeningNames {
        let options = ReadOptions { variations: false, comments: false, file: Some(path.to_path_buf()) };
        let mut names = KeyMap::default();
        for read in PgnReader::with_options(bytes, options).flatten() {
            let game = &read.game;
            let (Some(eco), Some(opening)) = (game.tag("ECO"), game.tag("Opening")) else { continue };
            let mut name = format!("{eco}|{opening}");
            if let Some(variation) = game.tag("Variation").filter(|v| !v.is_empty()) {
                name = format!("{name}|{variation}");
            }
            let Ok(mut pos) = game.start_position() else { continue };
            let mut legal = true;
            for node in &game.moves.nodes {
                match &node.mv {
                    Some(mv) if pos.is_legal(*mv) => pos.play_unchecked(*mv),
                    _ => legal = false,
                }
            }
            if let (true, Ok((key, _))) = (legal, key::encode(&pos)) {
                names.entry(key).or_insert(name);
            }
        }
        OpeningNames { names }
    }

    pub fn get(&self, key: &Key) -> Option<&String> {
        self.names.get(key)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The name of a position (for probing a book without comments).
    pub fn name_of(&self, pos: &Chess) -> Option<&String> {
        self.get(&key::encode(pos).ok()?.0)
    }
}
