//! Game → record bytes and index fields, as SCID 5.0.2's PGN import and `Game::Encode` do:
//! which tags go to the index, the names, the extra tags, the move bytes, comment markers and
//! strings, and every derived field.

use std::borrow::Cow;

use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role, Square};
use tabiya_io::{Diagnostic, Location, Unit};

use super::Version;
use super::decode::{COMMENT, COMMON_TAGS, END_GAME, END_VARIATION, NAG, START_VARIATION, null_move, start_position};
use super::derived::MainLineFields;
use super::fields::{Date, Eco, MAX_RATING, RATING_TYPES, encode_count, flags_from_letters, result_code, start_flags};
use super::index::{FLAG_CHESS960, IndexEntry};
use super::move_codes::{DIAGONAL_QUEEN, move_code, promotion_code};
use super::names::scid_text;
use super::pieces::{PieceLists, en_passant_victim};
use crate::game::{Game, Line, Node};
use crate::text::TextBuf;

/// The longest game record SCID stores (a record must fit in one 128 KiB block).
pub const MAX_RECORD: usize = 1 << 17;
/// SCID's PGN import drops tag pairs whose name and value together exceed this many bytes.
const MAX_TAG_PAIR: usize = 240;
/// SCID's NAG array per move: it holds at most one fewer (`Game::AddNag`).
const MAX_NAGS: usize = 8;

/// A game ready to be stored: its record and its five names in one buffer (one allocation per
/// game), and its index entry (names, offset and length not yet filled).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// The game record, then the five names.
    bytes: Vec<u8>,
    record_len: u32,
    /// Where each name ends in `bytes`.
    name_ends: [u32; 5],
    /// The index entry, names not yet given IDs.
    pub entry: IndexEntry,
    /// An EventDate that SCID 4 cannot store within ±3 years of the game date (dropped).
    pub dropped_event_date: Option<Date>,
    /// NAGs not stored as given: SCID keeps one move assessment ($1–$6) and one position
    /// assessment ($10–$21) per move, the last given, and at most 7 NAGs (the rule of `scid_nags`).
    pub replaced_nags: usize,
    /// Tags dropped for their length: SCID's import drops a tag pair over 240
    /// bytes, and SCID 5.0.2 reads what it stored.
    pub dropped_tags: Vec<String>,
}

impl Encoded {
    /// The warnings for what SCID's import rules left out of game `number`: NAGs replaced
    /// (`scid.replaced_nags`), tag pairs over 240 bytes (`scid.tag_too_long`).
    pub fn diagnostics(&self, number: u64) -> Vec<Diagnostic> {
        let at = || Location::of(Unit::Game, number);
        let mut found = Vec::new();
        if self.replaced_nags > 0 {
            let message = format!(
                "{} NAGs replaced by a later one of the same kind or beyond SCID's 7 per move, as SCID 5.0.2 \
                 imports them",
                self.replaced_nags
            );
            found.push(Diagnostic::warning(super::codes::REPLACED_NAGS, at(), message));
        }
        for name in &self.dropped_tags {
            let message =
                format!("tag {name} dropped: SCID stores a tag pair of at most {MAX_TAG_PAIR} bytes (name and value)");
            found.push(Diagnostic::warning(super::codes::TAG_TOO_LONG, at(), message));
        }
        found
    }

    /// The game record, as stored in the game file.
    pub fn record(&self) -> &[u8] {
        &self.bytes[..self.record_len as usize]
    }

    /// Event, Site, Round, White, Black: the order in which SCID adds new names.
    pub fn names(&self) -> [&[u8]; 5] {
        let mut start = self.record_len as usize;
        self.name_ends.map(|end| {
            let end = end as usize;
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
    let mut names: [Cow<'_, [u8]>; 5] = Default::default();
    let mut dropped_tags = Vec::new();
    // The extra tags open the record, in PGN order.
    for (name, value) in &game.tags {
        if name.is_empty() {
            continue;
        }
        // Values as SCID's import stores them, before it measures them.
        let value = scid_text(value.as_bytes());
        if name.len() + value.len() > MAX_TAG_PAIR {
            dropped_tags.push(name.to_str_lossy().into_owned());
            continue;
        }
        let text = || String::from_utf8_lossy(&value);
        match name.as_bytes() {
            b"ECO" => entry.eco = Eco::parse(&text()).map_or(0, |e| e.0),
            b"FEN" | b"Result" => {}
            b"Date" => entry.date = Date::from_pgn(&text()),
            b"EventDate" => entry.event_date = Date::from_pgn(&text()),
            b"ScidFlags" => entry.flags |= flags_from_letters(&text()),
            b"Event" => names[0] = value,
            b"Site" => names[1] = value,
            b"Round" => names[2] = value,
            b"White" => names[3] = value,
            b"Black" => names[4] = value,
            _ if name.len() >= 8 && rating_tag(&mut entry, name.as_bytes(), &text()) => {}
            _ => {
                if name == "UTCDate" && entry.date == Date::UNKNOWN {
                    let date = Date::from_pgn(&text());
                    if date.year() != 0 && date.month() != 0 && date.day() != 0 {
                        entry.date = date;
                    }
                }
                push_extra_tag(&mut record, name.as_bytes(), &value);
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
    let mut main_line = MainLineFields::new(&start, custom_start);
    writer.moves(&game.moves, lists, Alternating(start.turn()), &mut main_line);
    if writer.null_move {
        // Rare: the game has null moves, so the walk follows the position this time.
        let mut record = writer.out;
        record.truncate(moves_at);
        writer = MoveWriter::new(record);
        main_line = MainLineFields::new(&start, custom_start);
        writer.moves(&game.moves, lists, Replayed(start), &mut main_line);
    }
    let info = main_line.finish();
    entry.plies = info.plies.min(1023) as u16;
    entry.material = info.material;
    entry.stored_line = info.stored_line;
    entry.home_pawn_count = info.home_pawn_count;
    entry.home_pawns = info.home_pawns;
    entry.flags |= start_flags(custom_start, info.promotion, info.underpromotion);
    let MoveWriter { out: mut bytes, comments, comment_count, variations, nags, replaced_nags, .. } = writer;
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
    // Each tag pair holds at most 240 bytes: the offsets fit u32 (as the record length does).
    let name_ends = names.map(|name| {
        bytes.extend_from_slice(&name);
        bytes.len() as u32
    });
    Ok(Encoded {
        bytes,
        record_len: record_len as u32,
        name_ends,
        entry,
        dropped_event_date,
        replaced_nags,
        dropped_tags,
    })
}

/// Bytes reserved per record besides one per move.
const RECORD_ROOM: usize = 192;

/// An extra tag: a common tag's one-byte code or its name, then its value (at most 255 bytes).
fn push_extra_tag(record: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    match COMMON_TAGS.iter().position(|t| t.as_bytes() == name) {
        Some(i) => record.push(241 + i as u8),
        None => {
            record.push(name.len() as u8);
            record.extend_from_slice(name);
        }
    }
    let value = &value[..value.len().min(255)];
    record.push(value.len() as u8);
    record.extend_from_slice(value);
}

/// `White<Type>` / `Black<Type>`: the first rating per colour goes to the index (SCID's
/// `setRating`); a rating above 4000 is dropped. Returns whether the tag was consumed.
fn rating_tag(entry: &mut IndexEntry, name: &[u8], value: &str) -> bool {
    let (black, elo, rating_type) = if let Some(t) = name.strip_prefix(b"White") {
        (false, entry.white_elo(), t)
    } else if let Some(t) = name.strip_prefix(b"Black") {
        (true, entry.black_elo(), t)
    } else {
        return false;
    };
    if elo != 0 {
        return false;
    }
    let Some(t) = RATING_TYPES.iter().position(|t| t.as_bytes() == rating_type) else { return false };
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

/// Whose move it is along a line. The moves of a `Game` are legal, so the piece lists and
/// whose move it is are all the encoder needs of the position, except for null moves: a null
/// move passes the turn only where the position allows it (see [`null_move`]), so a game with
/// null moves is walked a second time with the position.
trait Turn: Clone {
    /// Whether the turn after a null move is known (the position is replayed).
    const FOLLOWS_NULL_MOVES: bool;

    fn color(&self) -> Color;

    /// Passes the turn after `mv`.
    fn pass(&mut self, mv: Option<Move>);
}

/// The sides alternate: the first walk, which gives up on null moves.
#[derive(Clone, Copy)]
struct Alternating(Color);

impl Turn for Alternating {
    const FOLLOWS_NULL_MOVES: bool = false;

    fn color(&self) -> Color {
        self.0
    }

    #[inline]
    fn pass(&mut self, _: Option<Move>) {
        self.0 = !self.0;
    }
}

/// The position is replayed: the walk of games with null moves.
#[derive(Clone)]
struct Replayed(Chess);

impl Turn for Replayed {
    const FOLLOWS_NULL_MOVES: bool = true;

    fn color(&self) -> Color {
        self.0.turn()
    }

    fn pass(&mut self, mv: Option<Move>) {
        match mv {
            Some(m) => self.0.play_unchecked(m),
            None => self.0 = null_move(&self.0),
        }
    }
}

/// What a line gathers besides its bytes: the main line its derived fields, a variation nothing.
trait LineFields {
    fn capture(&mut self, them: Color, role: Role, on: Square);
    fn pawn_move(&mut self, us: Color, from: Square, promotion: Option<Role>);
    fn en_passant(&mut self, us: Color, from: Square, to: Square);
    fn end_move(&mut self, mv: Option<Move>);
}

impl LineFields for MainLineFields {
    #[inline]
    fn capture(&mut self, them: Color, role: Role, on: Square) {
        MainLineFields::capture(self, them, role, on);
    }

    #[inline]
    fn pawn_move(&mut self, us: Color, from: Square, promotion: Option<Role>) {
        MainLineFields::pawn_move(self, us, from, promotion);
    }

    #[inline]
    fn en_passant(&mut self, us: Color, from: Square, to: Square) {
        MainLineFields::en_passant(self, us, from, to);
    }

    #[inline]
    fn end_move(&mut self, mv: Option<Move>) {
        MainLineFields::end_move(self, mv);
    }
}

/// A variation's fields: none.
struct Variation;

impl LineFields for Variation {
    fn capture(&mut self, _: Color, _: Role, _: Square) {}
    fn pawn_move(&mut self, _: Color, _: Square, _: Option<Role>) {}
    fn en_passant(&mut self, _: Color, _: Square, _: Square) {}
    fn end_move(&mut self, _: Option<Move>) {}
}

struct MoveWriter {
    out: Vec<u8>,
    /// The comment strings, each ended by a NUL: they follow the moves in the record.
    comments: Vec<u8>,
    comment_count: usize,
    variations: usize,
    nags: usize,
    /// NAGs that SCID's rule replaced or refused (the rule of `scid_nags`).
    replaced_nags: usize,
    /// A null move was met while walking without the position.
    null_move: bool,
}

impl MoveWriter {
    fn new(out: Vec<u8>) -> MoveWriter {
        MoveWriter {
            out,
            comments: Vec::new(),
            comment_count: 0,
            variations: 0,
            nags: 0,
            replaced_nags: 0,
            null_move: false,
        }
    }

    /// A comment place: SCID joins the comments of one place and marks it when non-empty.
    #[inline]
    fn comment(&mut self, comments: &[TextBuf]) {
        if !comments.is_empty() {
            self.joined_comment(comments);
        }
    }

    fn joined_comment(&mut self, comments: &[TextBuf]) {
        let start = self.comments.len();
        for c in comments {
            // SCID's import trims each comment (`pgn::trim`), then stores it as it stores text.
            let is_space = |b: &u8| matches!(b, b' ' | b'\n' | b'\r' | b'\t' | b'\x0b');
            let bytes = c.as_bytes();
            let first = bytes.iter().position(|b| !is_space(b)).unwrap_or(bytes.len());
            let last = bytes.iter().rposition(|b| !is_space(b)).map_or(first, |i| i + 1);
            self.comments.extend_from_slice(&scid_text(&bytes[first..last]));
        }
        if self.comments.len() > start {
            self.out.push(COMMENT);
            self.comments.push(0);
            self.comment_count += 1;
        }
    }

    /// Writes the whole move tree; `main_line` gathers the main line's derived fields.
    fn moves(&mut self, moves: &Line, lists: PieceLists, turn: impl Turn, main_line: &mut MainLineFields) {
        self.comment(&moves.comments);
        self.line(moves, lists, turn, main_line);
        self.out.push(END_GAME);
    }

    /// Writes a line from the position of `lists` and `turn`.
    fn line<T: Turn>(&mut self, line: &Line, mut lists: PieceLists, mut turn: T, fields: &mut impl LineFields) {
        for node in &line.nodes {
            // Most moves have no variations: the position before them is kept only when needed.
            if node.variations().is_empty() {
                self.node(node, &mut lists, &mut turn, fields);
            } else {
                let (before, before_turn) = (lists, turn.clone());
                self.node(node, &mut lists, &mut turn, fields);
                for variation in node.variations() {
                    self.variations += 1;
                    self.out.push(START_VARIATION);
                    self.comment(&variation.comments);
                    self.line(variation, before, before_turn.clone(), &mut Variation);
                    self.out.push(END_VARIATION);
                }
            }
        }
    }

    /// Writes a node's move, NAGs and comment.
    #[inline(always)]
    fn node<T: Turn>(&mut self, node: &Node, lists: &mut PieceLists, turn: &mut T, fields: &mut impl LineFields) {
        match node.mv {
            Some(m) => self.mv(lists, turn.color(), m, fields),
            None => {
                self.null_move |= !T::FOLLOWS_NULL_MOVES;
                self.out.push(0);
                fields.end_move(None);
            }
        }
        turn.pass(node.mv);
        // Most moves carry nothing else: each test below is one length check.
        if !node.nags().is_empty() {
            let (nags, count) = scid_nags(node.nags());
            self.replaced_nags += node.nags().iter().filter(|&&n| n != 0).count() - count;
            for &nag in &nags[..count] {
                self.out.extend_from_slice(&[NAG, nag]);
                self.nags += 1;
            }
        }
        self.comment(node.comments());
    }

    /// Writes the move `m` of `us`, and plays it on the lists and the line's fields: one
    /// dispatch on the kind of move for all three, and the code of a normal move from a table.
    #[inline(always)]
    fn mv(&mut self, lists: &mut PieceLists, us: Color, m: Move, fields: &mut impl LineFields) {
        // The encoder's moves are legal: the piece is where the move says. Its slot is read
        // before the lists play the move.
        let (from, to, code, slot) = match m {
            Move::Normal { role, from, capture, to, promotion } => {
                if let Some(captured) = capture {
                    lists.capture(!us, to);
                    fields.capture(!us, captured, to);
                }
                let mut code = move_code(role, from, to);
                if role == Role::Pawn {
                    fields.pawn_move(us, from, promotion);
                    code += promotion_code(promotion);
                }
                let slot = lists.slot_at(from);
                lists.put(us, slot, to);
                (from, to, code, slot)
            }
            Move::EnPassant { from, to } => {
                lists.capture(!us, en_passant_victim(from, to));
                fields.en_passant(us, from, to);
                let slot = lists.slot_at(from);
                lists.put(us, slot, to);
                (from, to, move_code(Role::Pawn, from, to), slot)
            }
            // The code says which side; the king is the piece that moves.
            Move::Castle { king, rook } => {
                let slot = lists.slot_at(king);
                lists.castle(us, king, rook);
                (king, rook, if rook < king { 9 } else { 10 }, slot)
            }
            Move::Put { to, .. } => (Square::A1, to, 0, lists.slot_at(Square::A1)),
        };
        let piece = slot as u8;
        if code == DIAGONAL_QUEEN {
            // The from file, then the target square + 64.
            self.out.extend_from_slice(&[piece << 4 | from.file() as u8, to as u8 + 64]);
        } else {
            self.out.push(piece << 4 | code);
        }
        fields.end_move(Some(m));
    }
}

/// The NAGs SCID 5.0.2 stores for a move given `given` in order (its `Game::AddNag`): a move
/// assessment ($1–$6) replaces the one already there, and goes first when it is new; so does a
/// position assessment ($10–$21) in its place; a move with 7 NAGs takes no more (not even a
/// replacement); $0 is no NAG.
fn scid_nags(given: &[u8]) -> ([u8; MAX_NAGS], usize) {
    let move_nag = |nag: u8| (1..=6).contains(&nag);
    let position_nag = |nag: u8| (10..=21).contains(&nag);
    let (mut nags, mut count) = ([0u8; MAX_NAGS], 0);
    for &nag in given {
        if count + 1 >= MAX_NAGS || nag == 0 {
            continue;
        }
        let same_kind = |&old: &u8| (move_nag(nag) && move_nag(old)) || (position_nag(nag) && position_nag(old));
        if let Some(old) = nags[..count].iter().position(same_kind) {
            nags[old] = nag;
        } else if move_nag(nag) {
            nags.copy_within(..count, 1);
            nags[0] = nag;
            count += 1;
        } else {
            nags[count] = nag;
            count += 1;
        }
    }
    (nags, count)
}

#[cfg(test)]
mod tests {
    use shakmaty::san::San;

    use super::*;
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
            let record = decode_record(encoded.record(), 0, false, &mut Vec::new()).unwrap();
            assert_eq!(record.moves, game.moves);
            assert_eq!(encoded.entry.plies, 9);
            // Black's f7 pawn is gone, White's queen is gone: no queen, 8 pawns for White.
            assert_eq!(encoded.entry.material, 0x2A86A7);
        }
    }
}
