//! Building a book from games (spec 10): which positions and moves a game adds, W/D/L from the
//! player to move, game references, the 682-byte limit, links between book positions.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;

use rayon::prelude::*;
use shakmaty::{CastlingMode, Color, Position};

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
    /// Games that could not be read (PGN syntax, damaged SCID records).
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

impl BuildReport {
    fn add(&mut self, other: &BuildReport) {
        let pairs = [
            (&mut self.games_read, other.games_read),
            (&mut self.games_added, other.games_added),
            (&mut self.games_filtered, other.games_filtered),
            (&mut self.games_unreadable, other.games_unreadable),
            (&mut self.games_chess960, other.games_chess960),
            (&mut self.games_without_result, other.games_without_result),
            (&mut self.positions_too_long, other.positions_too_long),
            (&mut self.moves_underpromotion, other.moves_underpromotion),
            (&mut self.moves_without_code, other.moves_without_code),
            (&mut self.link_moves, other.link_moves),
            (&mut self.links_dropped, other.links_dropped),
            (&mut self.comments_dropped, other.comments_dropped),
            (&mut self.positions, other.positions),
        ];
        for (mine, theirs) in pairs {
            *mine += theirs;
        }
    }
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
            let context = format!("{}: the game at byte {}: {tag}", source.address, place.offset);
            encode_ansi(game.tag(tag).unwrap_or(""), &context)
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

    /// Adds games read one by one (a SCID database through [`crate::games::open`]); an `Err`
    /// item counts as an unreadable game. A `.ksf` reference names a PGN file and the game's
    /// byte offset in it (the source types are PGN file, web page and ChessBase file: none is a
    /// SCID database), so a book that keeps references refuses these games rather than store
    /// offsets that point nowhere.
    pub fn add_games<E>(&mut self, games: impl IntoIterator<Item = Result<Game, E>>) -> Result<(), KvetkaError> {
        if self.header.references() {
            return Err(KvetkaError::unrepresentable("game references to games that are not in a PGN file"));
        }
        for game in games {
            match game {
                Ok(game) => self.add_game(&game, GamePlace { offset: 0, length: 0 })?,
                Err(_) => self.report.games_unreadable += 1,
            }
        }
        Ok(())
    }

    /// Adds every game of a PGN file as a new source (its full path). The file is read in
    /// parallel, in pieces that start at a game, and the pieces are combined in file order, so
    /// the book is the same as when read in one piece.
    pub fn add_pgn(&mut self, path: &Path, bytes: &[u8]) -> Result<(), KvetkaError> {
        self.add_pgn_in_pieces(path, bytes, rayon::current_num_threads())
    }

    fn add_pgn_in_pieces(&mut self, path: &Path, bytes: &[u8], pieces: usize) -> Result<(), KvetkaError> {
        let references = self.header.references();
        let address = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()).display().to_string();
        if references {
            self.add_source(address.clone())?;
        }
        let bounds = game_pieces(bytes, pieces);
        let parts: Vec<Result<Builder, KvetkaError>> = bounds
            .par_windows(2)
            .map(|w| {
                let mut part = Builder::new(self.header.clone());
                if references {
                    part.add_source(address.clone())?;
                }
                part.add_pgn_piece(path, &bytes[w[0]..w[1]], w[0] as u64)?;
                Ok(part)
            })
            .collect();
        for part in parts {
            self.absorb(part?);
        }
        Ok(())
    }

    /// The games of `piece`, which starts at byte `base` of the file.
    fn add_pgn_piece(&mut self, path: &Path, piece: &[u8], base: u64) -> Result<(), KvetkaError> {
        let options = ReadOptions {
            variations: false,
            comments: false,
            file: Some(path.to_path_buf()),
            ..ReadOptions::default()
        };
        // A game's length reaches to the next game's first byte, so each game waits for the next.
        let mut pending: Option<(Game, u64)> = None;
        for item in PgnReader::with_options(piece, options) {
            match item {
                Ok(read) => {
                    if let Some((game, offset)) = pending.take() {
                        self.add_game(&game, place(base + offset, base + read.offset))?;
                    }
                    pending = Some((read.game, read.offset));
                }
                Err(_) => self.report.games_unreadable += 1,
            }
        }
        if let Some((game, offset)) = pending {
            self.add_game(&game, place(base + offset, base + piece.len() as u64))?;
        }
        Ok(())
    }

    /// Adds what `part` collected from the games that follow this builder's games in the
    /// current source.
    fn absorb(&mut self, part: Builder) {
        let source = self.sources.len().saturating_sub(1) as u16;
        let first_game = self.sources.last().map_or(0, |s| s.games.len() as u32);
        let shift = |r: SourceRef| SourceRef { source, game: r.game + first_game };
        if let (Some(mine), Some(theirs)) = (self.sources.last_mut(), part.sources.into_iter().next()) {
            mine.games.extend(theirs.games);
        }
        for (key, t) in part.tallies {
            let mine = self.tallies.entry(key).or_default();
            mine.wins = mine.wins.saturating_add(t.wins);
            mine.draws = mine.draws.saturating_add(t.draws);
            mine.losses = mine.losses.saturating_add(t.losses);
            for (a, b) in mine.moves.iter_mut().zip(t.moves) {
                *a |= b;
            }
            if mine.first_game.is_none() {
                mine.first_game = t.first_game.map(shift);
            }
            mine.last_of.extend(t.last_of.into_iter().map(shift));
        }
        self.report.add(&part.report);
    }

    /// The book: elements in key order, greedy blocks, comments from `names`, links if the
    /// header asks for them, the `.ksf` when references are kept.
    pub fn finish(mut self, names: Option<&OpeningNames>) -> Result<(Book, BuildReport), KvetkaError> {
        let references = self.header.references();
        let mut elements = Vec::with_capacity(self.tallies.len());
        // Consumed, so the table is freed before the blocks are packed.
        for (key, t) in std::mem::take(&mut self.tallies) {
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

/// Starts of pieces of about `bytes.len() / pieces` bytes, each at a line `[Event ` after an
/// empty line (so never inside a game), then the end.
fn game_pieces(bytes: &[u8], pieces: usize) -> Vec<usize> {
    let mut bounds = vec![0];
    for k in 1..pieces.max(1) {
        let from = (bytes.len() * k / pieces).max(*bounds.last().unwrap_or(&0));
        let found = bytes[from..].windows(10).position(|w| w.starts_with(b"\n\n[Event ") || w == b"\n\r\n[Event ");
        if let Some(at) = found {
            let start = from + at + if bytes[from + at + 1] == b'\r' { 3 } else { 2 };
            if start > *bounds.last().unwrap_or(&0) {
                bounds.push(start);
            }
        }
    }
    bounds.push(bytes.len());
    bounds
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
        let options = ReadOptions {
            variations: false,
            comments: false,
            file: Some(path.to_path_buf()),
            ..ReadOptions::default()
        };
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
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = "[Event \"a\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event \"b\"]\n\n1. e4 c5 0-1\n\n\
        [Event \"c\"]\n\n1. d4 d5 1/2-1/2\n\n[Event \"d\"]\n\n1. e4 e5 2. Nc3 *\n\n[Event \"e\"]\n\n1. e4 e5 2. Nf3 0-1\n";

    #[test]
    fn pieces_start_at_games() {
        let bounds = game_pieces(GAMES.as_bytes(), 3);
        assert_eq!(bounds.len(), 4);
        for &b in &bounds[1..3] {
            assert!(GAMES[b..].starts_with("[Event "), "{b}");
        }
        assert_eq!(game_pieces(b"1. e4 *", 4), [0, 7]);
        let crlf = GAMES.replace('\n', "\r\n");
        let bounds = game_pieces(crlf.as_bytes(), 2);
        assert_eq!(bounds.len(), 3);
        assert!(crlf[bounds[1]..].starts_with("[Event "));
    }

    #[test]
    fn reading_in_pieces_builds_the_same_book() {
        let header = Header { element_type: 1, ..Header::default() };
        let build = |pieces| {
            let mut b = Builder::new(header.clone());
            b.add_pgn_in_pieces(Path::new("x.pgn"), GAMES.as_bytes(), pieces).unwrap();
            b.finish(None).unwrap()
        };
        let (one, report) = build(1);
        assert_eq!(report.games_added, 5);
        for pieces in [2, 3, 5] {
            assert_eq!(build(pieces), (one.clone(), report.clone()), "{pieces} pieces");
        }
    }
}
