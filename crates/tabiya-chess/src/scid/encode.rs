//! Game → record bytes and index fields, as SCID 5.0.2's PGN import and `Game::Encode` do:
//! which tags go to the index, the names, the extra tags, the move bytes, comment markers and
//! strings, and every derived field.

use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role};

use super::Version;
use super::decode::{COMMENT, COMMON_TAGS, END_GAME, END_VARIATION, NAG, START_VARIATION, null_move, start_position};
use super::derived::{MainLine, MainLineFields};
use super::fields::{Date, Eco, MAX_RATING, RATING_TYPES, encode_count, flags_from_letters, result_code, start_flags};
use super::index::{FLAG_CHESS960, IndexEntry};
use super::pieces::{PieceLists, en_passant_victim};
use crate::game::{Game, Line};

/// The longest game record SCID stores (a record must fit in one 128 KiB block).
pub const MAX_RECORD: usize = 1 << 17;
/// SCID's PGN import drops tag pairs whose name and value together exceed this many bytes.
const MAX_TAG_PAIR: usize = 240;
/// SCID keeps at most this many NAGs per move.
const MAX_NAGS: usize = 8;

/// A game ready to be stored: its record and its five names in one buffer (one allocation per
/// game), and its index entry (names, offset and length not yet filled).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// The game record, then the five names.
    bytes: Vec<u8>,
    record_len: usize,
    /// Where each name ends in `bytes`.
    name_ends: [usize; 5],
    pub entry: IndexEntry,
    /// An EventDate that SCID 4 cannot store within ±3 years of the game date (dropped).
    pub dropped_event_date: Option<Date>,
}

impl Encoded {
    /// The game record, as stored in the game file.
    pub fn record(&self) -> &[u8] {
        &self.bytes[..self.record_len]
    }

    /// Event, Site, Round, White, Black: the order in which SCID adds new names.
    pub fn names(&self) -> [&[u8]; 5] {
        let mut start = self.record_len;
        self.name_ends.map(|end| {
            let name = &self.bytes[start..end];
            start = end;
            name
        })
    }
}

/// Encodes a game for `version`; `Err` says why it cannot be stored.
pub fn encode_game(game: &Game, version: Version) -> Result<Encoded, String> {
    let chess960 = game.castling_mode == CastlingMode::Chess960;
    if chess960 && version != Version::Scid5 {
        return Err("Chess960 games cannot be stored in SCID 4".into());
    }
    let mut entry = IndexEntry::default();
    entry.flags = if chess960 { FLAG_CHESS960 } else { 0 };
    // Room for the tags, one byte per move and the names: most games need no reallocation.
    let mut record = Vec::with_capacity(RECORD_ROOM + game.moves.nodes.len());
    let mut names = [""; 5];
    // The extra tags open the record, in PGN order.
    for (name, value) in &game.tags {
        if name.is_empty() || name.len() + value.len() > MAX_TAG_PAIR {
            continue;
        }
        match name.as_str() {
            "ECO" => entry.eco = Eco::parse(value).map_or(0, |e| e.0),
            "FEN" | "Result" => {}
            "Date" => entry.date = Date::from_pgn(value),
            "EventDate" => entry.event_date = Date::from_pgn(value),
            "ScidFlags" => entry.flags |= flags_from_letters(value),
            "Event" => names[0] = value,
            "Site" => names[1] = value,
            "Round" => names[2] = value,
            "White" => names[3] = value,
            "Black" => names[4] = value,
            _ if name.len() >= 8 && rating_tag(&mut entry, name, value) => {}
            _ => {
                if name == "UTCDate" && entry.date == Date::UNKNOWN {
                    let date = Date::from_pgn(value);
                    if date.year() != 0 && date.month() != 0 && date.day() != 0 {
                        entry.date = date;
                    }
                }
                push_extra_tag(&mut record, name, value);
            }
        }
    }
    entry.set_result(result_code(game.result));

    let custom_start = game.start.is_some();
    let start = match &game.start {
        Some(fen) => start_position(fen, game.castling_mode)?,
        None => Chess::default(),
    };
    let lists = if custom_start {
        PieceLists::from_position(&start).map_err(|_| "more than 16 pieces of one colour".to_owned())?
    } else {
        PieceLists::standard()
    };
    let mut cursor = Cursor { lists, turn: start.turn(), pos: None };
    record.push(0);
    // The start-board byte depends on the main line's promotions: written once they are known.
    let start_byte_at = record.len();
    record.push(0);
    if let Some(fen) = &game.start {
        record.extend_from_slice(fen.to_string().as_bytes());
        record.push(0);
    }
    let moves_at = record.len();
    let mut writer = MoveWriter::new(record);
    let mut info = writer.moves(&game.moves, cursor.clone(), MainLineFields::new(&start, custom_start));
    if writer.null_move {
        // Rare: the game has null moves, so the walk follows the position this time.
        let mut record = writer.out;
        record.truncate(moves_at);
        writer = MoveWriter::new(record);
        cursor.pos = Some(start.clone());
        info = writer.moves(&game.moves, cursor, MainLineFields::new(&start, custom_start));
    }
    entry.plies = info.plies.min(1023) as u16;
    entry.material = info.material;
    entry.stored_line = info.stored_line;
    entry.home_pawn_count = info.home_pawn_count;
    entry.home_pawns = info.home_pawns;
    entry.flags |= start_flags(custom_start, info.promotion, info.underpromotion);
    let MoveWriter { out: mut bytes, comments, comment_count, variations, nags, .. } = writer;
    bytes[start_byte_at] = (entry.flags & 7) as u8;
    bytes.extend_from_slice(&comments);
    entry.set_variation_code(encode_count(variations));
    entry.set_comment_code(encode_count(comment_count));
    entry.set_nag_code(encode_count(nags));
    let record_len = bytes.len();
    if record_len >= MAX_RECORD {
        return Err(format!("record of {record_len} bytes exceeds SCID's 128 KiB game limit"));
    }
    entry.set_length(record_len as u32);
    let mut dropped_event_date = None;
    if version != Version::Scid5 && !super::index::event_date_fits_si4(entry.event_date, entry.date) {
        dropped_event_date = Some(entry.event_date);
    }
    let name_ends = names.map(|name| {
        bytes.extend_from_slice(name.as_bytes());
        bytes.len()
    });
    Ok(Encoded { bytes, record_len, name_ends, entry, dropped_event_date })
}

/// Bytes reserved per record besides one per move.
const RECORD_ROOM: usize = 192;

/// An extra tag: a common tag's one-byte code or its name, then its value (at most 255 bytes).
fn push_extra_tag(record: &mut Vec<u8>, name: &str, value: &str) {
    match COMMON_TAGS.iter().position(|t| *t == name) {
        Some(i) => record.push(241 + i as u8),
        None => {
            record.push(name.len() as u8);
            record.extend_from_slice(name.as_bytes());
        }
    }
    let value = &value.as_bytes()[..value.len().min(255)];
    record.push(value.len() as u8);
    record.extend_from_slice(value);
}

/// `White<Type>` / `Black<Type>`: the first rating per colour goes to the index (SCID's
/// `setRating`); a rating above 4000 is dropped. Returns whether the tag was consumed.
fn rating_tag(entry: &mut IndexEntry, name: &str, value: &str) -> bool {
    let (black, elo, rating_type) = if let Some(t) = name.strip_prefix("White") {
        (false, entry.white_elo(), t)
    } else if let Some(t) = name.strip_prefix("Black") {
        (true, entry.black_elo(), t)
    } else {
        return false;
    };
    if elo != 0 {
        return false;
    }
    let Some(t) = RATING_TYPES.iter().position(|t| *t == rating_type) else { return false };
    let value = strtoul(value);
    let elo = if value > u64::from(MAX_RATING) { 0 } else { value as u16 };
    entry.set_rating(black, elo, t as u8);
    true
}

/// C's `strtoul(s, NULL, 10)`: leading white space, an optional sign, then digits.
fn strtoul(s: &str) -> u64 {
    let t = s.trim_start();
    let t = t.strip_prefix('+').unwrap_or(t);
    t.bytes()
        .take_while(u8::is_ascii_digit)
        .fold(0u64, |acc, d| acc.saturating_mul(10).saturating_add(u64::from(d - b'0')))
}

/// Where the encoder stands in a line: the piece lists and whose move it is. The moves of a
/// `Game` are legal, so nothing else of the position is needed, except for null moves: a null
/// move passes the turn only where the position allows it (see [`null_move`]), so a game with
/// null moves is walked a second time with the position.
#[derive(Clone)]
struct Cursor {
    lists: PieceLists,
    turn: Color,
    pos: Option<Chess>,
}

impl Cursor {
    /// Passes the turn after `mv` (the lists are updated by the writer).
    #[inline]
    fn next_turn(&mut self, mv: Option<Move>) {
        match &mut self.pos {
            Some(pos) => {
                match mv {
                    Some(m) => pos.play_unchecked(m),
                    None => *pos = null_move(pos),
                }
                self.turn = pos.turn();
            }
            None => self.turn = !self.turn,
        }
    }
}

struct MoveWriter {
    out: Vec<u8>,
    /// The comment strings, each ended by a NUL: they follow the moves in the record.
    comments: Vec<u8>,
    comment_count: usize,
    variations: usize,
    nags: usize,
    /// A null move was met while walking without the position.
    null_move: bool,
}

impl MoveWriter {
    fn new(out: Vec<u8>) -> MoveWriter {
        MoveWriter { out, comments: Vec::new(), comment_count: 0, variations: 0, nags: 0, null_move: false }
    }

    /// A comment place: SCID joins the comments of one place and marks it when non-empty.
    #[inline]
    fn comment(&mut self, comments: &[String]) {
        if !comments.is_empty() {
            self.joined_comment(comments);
        }
    }

    fn joined_comment(&mut self, comments: &[String]) {
        let start = self.comments.len();
        for c in comments {
            self.comments.extend_from_slice(c.trim_matches([' ', '\n', '\r', '\t', '\x0b']).as_bytes());
        }
        if self.comments.len() > start {
            self.out.push(COMMENT);
            self.comments.push(0);
            self.comment_count += 1;
        }
    }

    /// Writes the whole move tree and returns the main line's derived fields.
    fn moves(&mut self, moves: &Line, cursor: Cursor, mut main_line: MainLineFields) -> MainLine {
        self.comment(&moves.comments);
        self.line(cursor, moves, Some(&mut main_line));
        self.out.push(END_GAME);
        main_line.finish()
    }

    /// Writes a line from `cursor`; `main_line` gathers the derived fields of the main line.
    fn line(&mut self, mut cursor: Cursor, line: &Line, mut main_line: Option<&mut MainLineFields>) {
        for node in &line.nodes {
            // Most moves carry nothing else: each test below is one length check.
            let before = (!node.variations().is_empty()).then(|| cursor.clone());
            match node.mv {
                Some(m) => self.mv(&mut cursor.lists, cursor.turn, m, main_line.as_deref_mut()),
                None => {
                    self.null_move |= cursor.pos.is_none();
                    self.out.push(0);
                    if let Some(fields) = main_line.as_deref_mut() {
                        fields.end_move(None);
                    }
                }
            }
            cursor.next_turn(node.mv);
            if !node.nags().is_empty() {
                for &nag in node.nags().iter().filter(|&&n| n != 0).take(MAX_NAGS) {
                    self.out.extend_from_slice(&[NAG, nag]);
                    self.nags += 1;
                }
            }
            self.comment(node.comments());
            if let Some(before) = before {
                for variation in node.variations() {
                    self.variations += 1;
                    self.out.push(START_VARIATION);
                    self.comment(&variation.comments);
                    self.line(before.clone(), variation, None);
                    self.out.push(END_VARIATION);
                }
            }
        }
    }

    /// Writes the move `m` of `us`, and plays it on the lists and the main-line fields: one
    /// dispatch on the move for all three.
    #[inline]
    fn mv(&mut self, lists: &mut PieceLists, us: Color, m: Move, mut fields: Option<&mut MainLineFields>) {
        let (from, to) = match m {
            Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
            // The code says which side; the king is the piece that moves.
            Move::Castle { king, rook } => (king, rook),
            Move::Put { to, .. } => (shakmaty::Square::A1, to),
        };
        let slot = lists.slot_of(us, from).unwrap_or(0) as u8;
        let (f, t) = (from as i32, to as i32);
        let (ff, fr, tf, tr) = (f & 7, f >> 3, t & 7, t >> 3);
        let code: i32 = match m {
            Move::Normal { role, capture, promotion, .. } => {
                if let Some(captured) = capture {
                    lists.capture(!us, to);
                    if let Some(fields) = fields.as_deref_mut() {
                        fields.capture(!us, captured, to);
                    }
                }
                lists.move_piece(us, from, to);
                match role {
                    Role::King => step_code(&KING_CODES, t - f),
                    Role::Queen | Role::Rook if fr == tr => tf,
                    Role::Rook => 8 + tr,
                    Role::Queen if ff == tf => 8 + tr,
                    Role::Queen => {
                        // A diagonal queen move takes a second byte: the target square + 64.
                        self.out.extend_from_slice(&[slot << 4 | ff as u8, (t + 64) as u8]);
                        if let Some(fields) = fields {
                            fields.end_move(Some(m));
                        }
                        return;
                    }
                    Role::Bishop => {
                        if (tr - fr) * (tf - ff) < 0 {
                            tf + 8
                        } else {
                            tf
                        }
                    }
                    Role::Knight => step_code(&KNIGHT_CODES, t - f),
                    Role::Pawn => {
                        if let Some(fields) = fields.as_deref_mut() {
                            fields.pawn_move(us, from, to, promotion);
                        }
                        pawn_code(t - f, promotion)
                    }
                }
            }
            Move::EnPassant { .. } => {
                lists.capture(!us, en_passant_victim(from, to));
                lists.move_piece(us, from, to);
                if let Some(fields) = fields.as_deref_mut() {
                    fields.en_passant(us, from, to);
                }
                pawn_code(t - f, None)
            }
            Move::Castle { king, rook } => {
                lists.castle(us, king, rook);
                if rook < king { 9 } else { 10 }
            }
            Move::Put { .. } => 0,
        };
        self.out.push(slot << 4 | code as u8);
        if let Some(fields) = fields {
            fields.end_move(Some(m));
        }
    }
}

/// King and knight move codes, 1 + the index of the step (to − from) in SCID's lists
/// (king −9, −8, −7, −1, 1, 7, 8, 9; knight −17, −15, −10, −6, 6, 10, 15, 17), by step + 17.
const KING_CODES: [u8; 35] = step_codes([-9, -8, -7, -1, 1, 7, 8, 9]);
const KNIGHT_CODES: [u8; 35] = step_codes([-17, -15, -10, -6, 6, 10, 15, 17]);

const fn step_codes(steps: [i32; 8]) -> [u8; 35] {
    let mut codes = [0; 35];
    let mut i = 0;
    while i < 8 {
        codes[(steps[i] + 17) as usize] = i as u8 + 1;
        i += 1;
    }
    codes
}

fn step_code(codes: &[u8; 35], step: i32) -> i32 {
    usize::try_from(step + 17).ok().and_then(|i| codes.get(i)).map_or(0, |&c| i32::from(c))
}

/// A pawn move's code from its square difference: 15 for a double step, else capture left,
/// push or capture right, plus 3, 6, 9 or 12 for a promotion to queen, rook, bishop, knight.
fn pawn_code(difference: i32, promotion: Option<Role>) -> i32 {
    let diff = difference.abs();
    if diff == 16 {
        return 15;
    }
    let base = match diff {
        7 => 0,
        8 => 1,
        _ => 2,
    };
    let promo = match promotion {
        Some(Role::Queen) => 3,
        Some(Role::Rook) => 6,
        Some(Role::Bishop) => 9,
        Some(Role::Knight) => 12,
        _ => 0,
    };
    base + promo
}

#[cfg(test)]
mod tests {
    use shakmaty::san::San;
    use tabiya_io::Warnings;

    use super::*;
    use crate::game::Node;
    use crate::scid::decode::decode_record;

    /// Plays SAN moves (`--` = null move, which keeps the turn when the side to move is in
    /// check, as the decoder does) into a main line.
    fn line(moves: &[&str]) -> Line {
        let mut pos = Chess::default();
        let mut line = Line::default();
        for san in moves {
            let mv = (*san != "--").then(|| San::from_ascii(san.as_bytes()).unwrap().to_move(&pos).unwrap());
            match mv {
                Some(m) => pos.play_unchecked(m),
                None => pos = null_move(&pos),
            }
            line.nodes.push(Node::new(mv));
        }
        line
    }

    #[test]
    fn null_moves_round_trip_in_and_out_of_check() {
        // 3...-- passes the turn; 4...-- comes in check, so Black moves again (Kxf7).
        let moves = line(&["e4", "e5", "Qh5", "Nc6", "Nc3", "--", "Qxf7", "--", "Kxf7"]);
        let mut moves_with_variation = moves.clone();
        moves_with_variation.nodes[5].notes_mut().variations.push(line(&["e4", "e5", "Qh5", "Nc6", "Nc3", "Nf6"]));
        moves_with_variation.nodes[5].notes_mut().variations[0].nodes.drain(..5);
        for moves in [moves, moves_with_variation] {
            let game = Game { moves, ..Game::default() };
            let encoded = encode_game(&game, Version::Scid4).unwrap();
            let record = decode_record(encoded.record(), 0, false, &mut Warnings::default()).unwrap();
            assert_eq!(record.moves, game.moves);
            assert_eq!(encoded.entry.plies, 9);
            // Black's f7 pawn is gone, White's queen is gone: no queen, 8 pawns for White.
            assert_eq!(encoded.entry.material, 0x2A86A7);
        }
    }
}
