//! Game records (.sg4/.sg5): extra tags, start board, the move stream and comments → [`Record`].

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, CastlingSide, Chess, FromSetup, Move, Position, PositionError, Role, Square, attacks};
use tabiya_io::{ByteReader, DataError, Diagnostic, Location};

use super::codes;
use super::fields::Date;
use super::move_codes::{KING_STEPS, KNIGHT_STEPS};
use super::pieces::PieceLists;
use crate::fast::rules;
use crate::game::{Line, Node};
use crate::pgn::write::san_plus;
use crate::text::{Text, TextBuf};

/// Names of the common tags stored as one byte (codes 241–250).
pub const COMMON_TAGS: [&str; 10] = [
    "WhiteCountry",
    "BlackCountry",
    "Annotator",
    "PlyCount",
    "EventDate",
    "Opening",
    "Variation",
    "Setup",
    "Source",
    "SetUp",
];

/// Move-stream markers (slot 0, codes 11–15).
pub const NAG: u8 = 11;
/// Move-stream marker: a comment follows (its text is after the moves).
pub const COMMENT: u8 = 12;
/// Move-stream marker: a variation starts.
pub const START_VARIATION: u8 = 13;
/// Move-stream marker: the variation ends.
pub const END_VARIATION: u8 = 14;
/// Move-stream marker: the game ends.
pub const END_GAME: u8 = 15;

/// Deepest variation nesting accepted: far beyond real games, shallow enough for the stack.
pub const MAX_VARIATION_DEPTH: usize = 200;

/// What a game record holds besides the index fields.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    /// Extra tags in stored order (Annotator, titles, …).
    pub tags: Vec<(TextBuf, TextBuf)>,
    /// Start-board byte: bit 0 FEN, bit 1 promotion, bit 2 under-promotion.
    pub start_flags: u8,
    /// The start position, when the game does not start from the standard one.
    pub start: Option<Fen>,
    /// The FEN as stored (SCID's own six-field FEN).
    pub start_text: Option<String>,
    /// The moves with their NAGs, comment places and variations.
    pub moves: Line,
}

/// A position and its piece lists: what decoding and encoding carry from move to move.
#[derive(Debug, Clone)]
pub struct State {
    /// The position.
    pub pos: Chess,
    /// Where each piece stands, in SCID's piece numbering.
    pub lists: PieceLists,
}

impl State {
    /// Plays a move read from the move stream, whose piece is in `slot` of the mover's list; with
    /// `san`, its SAN (as the PGN writer makes it) is pushed there.
    pub fn play_read(&mut self, m: Move, slot: usize, san: Option<&mut Vec<SanPlus>>) {
        let us = self.pos.turn();
        match m {
            // The slot is known: no search for it (a promotion keeps it too).
            Move::Normal { capture, to, .. } => {
                if capture.is_some() {
                    self.lists.capture(!us, to);
                }
                self.lists.put(us, slot, to);
            }
            _ => self.lists.play(us, m),
        }
        match san {
            Some(san) => san.push(san_plus(&mut self.pos, m)),
            None => self.pos.play_unchecked(m),
        }
    }

    /// Plays a move (or a null move) on the position and the lists.
    pub fn play(&mut self, mv: Option<Move>) {
        match mv {
            Some(m) => {
                self.lists.play(self.pos.turn(), m);
                self.pos.play_unchecked(m);
            }
            None => self.pos = null_move(&self.pos),
        }
    }
}

/// The position after a null move ([`crate::game::pass`]), tolerating a pass out of check as
/// SCID does.
pub fn null_move(pos: &Chess) -> Chess {
    Chess::from_setup(crate::game::passed(pos), pos.castles().mode())
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .unwrap_or_else(|_| pos.clone())
}

/// Parses SCID's FEN into a position, tolerating what SCID tolerates (castling rights without
/// the rook, an impossible en passant square).
pub fn start_position(fen: &Fen, mode: CastlingMode) -> Result<Chess, String> {
    fen.clone()
        .into_position::<Chess>(mode)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .map_err(|e| e.to_string())
}

/// Decodes one record. `base` is the record's offset in the game file (for error locations);
/// `chess960` comes from the SCID 5 index.
pub fn decode_record(
    data: &[u8],
    base: u64,
    chess960: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Record, DataError> {
    decode(data, base, chess960, false, diagnostics).map(|(record, _)| record)
}

/// [`decode_record`], also giving the SAN of every move in the order of the move stream (a move,
/// its variations, the next move), found while the moves are played anyway: what
/// [`crate::pgn::write::push_game_with_san`] takes. `None` for a game from a FEN or with a null
/// move, which the writer plays itself.
pub fn decode_record_with_san(
    data: &[u8],
    base: u64,
    chess960: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(Record, Option<Vec<SanPlus>>), DataError> {
    decode(data, base, chess960, true, diagnostics)
}

fn decode(
    data: &[u8],
    base: u64,
    chess960: bool,
    with_san: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(Record, Option<Vec<SanPlus>>), DataError> {
    let mut r = ByteReader::with_base(data, base);
    let mut record = Record { tags: read_tags(&mut r)?, ..Record::default() };
    record.start_flags = r.u8("start-board byte")?;
    let (state, start) = read_start(&mut r, record.start_flags, chess960)?;
    if let Some((fen, text)) = start {
        record.start = Some(fen);
        record.start_text = Some(text);
    }
    // About one byte per move.
    let san = (with_san && record.start.is_none()).then(|| Vec::with_capacity(r.remaining().min(600)));
    let mut moves = MoveDecoder { data: r.rest(), pos: 0, base: r.offset(), markers: 0, san };
    moves.line(state, &mut record.moves, 0)?;
    let (markers, san) = (moves.markers, moves.san);
    r.skip(moves.pos, "move stream")?;
    // The comments: one NUL-terminated string per marker, in tree order.
    let mut strings = Vec::new();
    while !r.is_empty() {
        match r.nul_terminated("NUL-terminated comment") {
            Ok(s) => strings.push(TextBuf::from(s)),
            Err(_) => {
                let at = Location::at(r.offset());
                diagnostics.push(Diagnostic::warning(
                    codes::COMMENT_UNTERMINATED,
                    at,
                    "last comment is not NUL-terminated",
                ));
                strings.push(TextBuf::from(r.rest()));
                break;
            }
        }
    }
    // Most games have neither: nothing to place, no place to visit.
    if markers > 0 || !strings.is_empty() {
        assign_comments(&mut record.moves, strings, base, diagnostics);
    }
    Ok((record, san))
}

/// The start state after the start-board byte `flags`: the standard position, or the FEN that
/// follows (with its text as stored).
fn read_start(r: &mut ByteReader, flags: u8, chess960: bool) -> Result<(State, Option<(Fen, String)>), DataError> {
    if flags & 1 == 0 {
        return Ok((State { pos: Chess::default(), lists: PieceLists::standard() }, None));
    }
    let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    let at = r.offset();
    let text = r.nul_terminated("NUL-terminated FEN")?;
    let fen = Fen::from_ascii(text)
        .map_err(|e| DataError::new(Location::at(at), "a FEN").found(format!("{:?} ({e})", Text::new(text))))?;
    let pos = start_position(&fen, mode).map_err(|e| DataError::new(Location::at(at), "a legal FEN").found(e))?;
    let lists =
        PieceLists::from_position(&pos).map_err(|_| DataError::new(Location::at(at), "at most 16 pieces per side"))?;
    // `Fen::from_ascii` read it: the text is ASCII.
    Ok((State { pos, lists }, Some((fen, String::from_utf8_lossy(text).into_owned()))))
}

/// Plays the main line of a record without making the game: `visit` sees the start position,
/// then the position after each main-line move, and ends the walk early by returning `false`.
/// Variations are decoded (their bytes are moves of their own positions) and dropped; comments
/// are not read. The replay of the position search ([`crate::games::search`]).
pub fn visit_main_line(
    data: &[u8],
    base: u64,
    chess960: bool,
    visit: impl FnMut(&Chess) -> bool,
) -> Result<(), DataError> {
    let mut r = ByteReader::with_base(data, base);
    read_tags(&mut r)?;
    let flags = r.u8("start-board byte")?;
    let (state, _) = read_start(&mut r, flags, chess960)?;
    let mut moves = MoveDecoder { data: r.rest(), pos: 0, base: r.offset(), markers: 0, san: None };
    moves.visit_main_line(state, visit)
}

/// Reads the extra tags up to their 0 terminator.
fn read_tags(r: &mut ByteReader) -> Result<Vec<(TextBuf, TextBuf)>, DataError> {
    let mut tags = Vec::new();
    loop {
        let code = r.u8("tag code or name length")?;
        let name = match code {
            0 => return Ok(tags),
            1..=240 => TextBuf::from(r.bytes(usize::from(code), "tag name")?),
            241..=250 => TextBuf::from(COMMON_TAGS[usize::from(code - 241)]),
            251..=254 => TextBuf::default(),
            255 => {
                let d = r.u24_be("binary EventDate")?;
                tags.push((TextBuf::from("EventDate"), TextBuf::from(Date(d & 0xFFFFF).to_pgn())));
                continue;
            }
        };
        let len = usize::from(r.u8("tag value length")?);
        let value = TextBuf::from(r.bytes(len, "tag value")?);
        if !name.is_empty() {
            tags.push((name, value));
        }
    }
}

/// Reads the move stream. It keeps its own position rather than a [`ByteReader`]: one move is
/// one byte, and the reader's checked `u8` cost more than the rest of reading a byte.
struct MoveDecoder<'a> {
    data: &'a [u8],
    pos: usize,
    /// Offset of `data` in the game file (for error locations).
    base: u64,
    /// Comment markers seen: with none and no strings, comments need no placing.
    markers: usize,
    /// The SAN of the moves so far, when asked for and every move so far had one.
    san: Option<Vec<SanPlus>>,
}

/// Marks a comment to be filled from the strings at the end of the record.
const PLACEHOLDER: TextBuf = TextBuf::new();

impl MoveDecoder<'_> {
    fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// The next byte, or an error naming `what` was expected.
    #[inline]
    fn byte(&mut self, what: &str) -> Result<u8, DataError> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.end_of_record(what)),
        }
    }

    #[cold]
    fn end_of_record(&self, what: &str) -> DataError {
        DataError::new(Location::at(self.offset()), format!("1 bytes: {what}")).found("0 bytes before the end")
    }

    /// Decodes moves into `line` until the end of the variation (depth > 0) or of the game.
    fn line(&mut self, mut state: State, line: &mut Line, depth: usize) -> Result<(), DataError> {
        // The state before the last move: variations branch from there.
        let mut before: Option<State> = None;
        if depth == 0 {
            // About one byte per move: avoids regrowing the main line.
            line.nodes.reserve((self.data.len() - self.pos).min(600));
        }
        loop {
            let at = self.offset();
            let byte =
                self.byte(if depth == 0 { "move byte or end-of-game marker 15" } else { "move byte or marker" })?;
            match byte {
                NAG => {
                    let nag = self.byte("NAG value")?;
                    match line.nodes.last_mut() {
                        Some(node) => node.notes_mut().nags.push(nag),
                        None => return Err(DataError::new(Location::at(at), "a move before a NAG")),
                    }
                }
                COMMENT => {
                    self.markers += 1;
                    match line.nodes.last_mut() {
                        Some(node) => node.notes_mut().comments.push(PLACEHOLDER),
                        None => line.comments.push(PLACEHOLDER),
                    }
                }
                START_VARIATION if depth >= MAX_VARIATION_DEPTH => {
                    return Err(DataError::new(
                        Location::at(at),
                        format!("variations nested at most {MAX_VARIATION_DEPTH} deep"),
                    ));
                }
                START_VARIATION => {
                    let (Some(from), Some(node)) = (before.clone(), line.nodes.last_mut()) else {
                        return Err(DataError::new(Location::at(at), "a move before a variation"));
                    };
                    let mut variation = Line::default();
                    self.line(from, &mut variation, depth + 1)?;
                    node.notes_mut().variations.push(variation);
                }
                END_VARIATION if depth > 0 => return Ok(()),
                END_GAME if depth == 0 => return Ok(()),
                END_VARIATION | END_GAME => {
                    let expected = if depth == 0 { "end-of-game marker 15" } else { "end-of-variation marker 14" };
                    return Err(DataError::new(Location::at(at), expected).found(byte.to_string()));
                }
                _ => {
                    let mv = self.decode_move(&state, byte, at)?;
                    // Variations branch from the state before this move: keep it only if one follows.
                    before = variation_follows(self.data.get(self.pos..).unwrap_or_default()).then(|| state.clone());
                    match mv {
                        Some(m) => state.play_read(m, usize::from(byte >> 4), self.san.as_mut()),
                        None => {
                            // A null move: the writer plays the game itself.
                            self.san = None;
                            state.play(None);
                        }
                    }
                    line.nodes.push(Node::new(mv));
                }
            }
        }
    }

    /// The main line only, position by position (see [`visit_main_line`]).
    fn visit_main_line(&mut self, mut state: State, mut visit: impl FnMut(&Chess) -> bool) -> Result<(), DataError> {
        let mut before: Option<State> = None;
        let mut going = visit(&state.pos);
        while going {
            let at = self.offset();
            match self.byte("move byte or end-of-game marker 15")? {
                NAG => {
                    self.byte("NAG value")?;
                }
                COMMENT => {}
                START_VARIATION => {
                    let Some(from) = before.clone() else {
                        return Err(DataError::new(Location::at(at), "a move before a variation"));
                    };
                    self.line(from, &mut Line::default(), 1)?;
                }
                END_GAME => return Ok(()),
                END_VARIATION => {
                    return Err(
                        DataError::new(Location::at(at), "end-of-game marker 15").found(END_VARIATION.to_string())
                    );
                }
                byte => {
                    let mv = self.decode_move(&state, byte, at)?;
                    before = variation_follows(self.data.get(self.pos..).unwrap_or_default()).then(|| state.clone());
                    match mv {
                        Some(m) => state.play_read(m, usize::from(byte >> 4), None),
                        None => state.play(None),
                    }
                    going = visit(&state.pos);
                }
            }
        }
        Ok(())
    }

    /// One move: `(slot << 4) | code`, a second byte for diagonal queen moves. `None` = null move.
    fn decode_move(&mut self, state: &State, byte: u8, at: u64) -> Result<Option<Move>, DataError> {
        let pos = &state.pos;
        let us = pos.turn();
        let slot = usize::from(byte >> 4);
        let code = i32::from(byte & 15);
        let bad = |what: String| DataError::new(Location::at(at), "a legal move").found(what);
        let from = state.lists.square(us, slot).ok_or_else(|| bad(format!("byte {byte:#04x}: empty slot {slot}")))?;
        let role = pos
            .board()
            .role_at(from)
            .ok_or_else(|| bad(format!("byte {byte:#04x}: slot {slot} points at empty {from}")))?;
        let f = from as i32;
        let (file, rank) = (f & 7, f >> 3);
        let mut promotion = None;
        let to: i32 = match role {
            Role::King => match code {
                0 => return Ok(None),
                1..=8 => f + KING_STEPS[(code - 1) as usize],
                9 | 10 => {
                    let side = if code == 9 { CastlingSide::QueenSide } else { CastlingSide::KingSide };
                    return pos
                        .castling_moves(side)
                        .first()
                        .copied()
                        .map(Some)
                        .ok_or_else(|| bad(format!("byte {byte:#04x}: castling {side:?} is not legal")));
                }
                _ => return Err(bad(format!("byte {byte:#04x}: king code {code}"))),
            },
            Role::Queen if code == file => {
                let second = self.byte("second byte of a diagonal queen move")?;
                if !(64..128).contains(&second) {
                    return Err(
                        DataError::new(Location::at(at + 1), "diagonal queen target 64–127").found(second.to_string())
                    );
                }
                i32::from(second) - 64
            }
            Role::Queen | Role::Rook if code < 8 => rank * 8 + code,
            Role::Queen | Role::Rook => (code - 8) * 8 + file,
            Role::Bishop if code < 8 => f + 9 * (code - file),
            Role::Bishop => f - 7 * (code - 8 - file),
            Role::Knight => match code {
                1..=8 => f + KNIGHT_STEPS[(code - 1) as usize],
                _ => return Err(bad(format!("byte {byte:#04x}: knight code {code}"))),
            },
            Role::Pawn => {
                let sign = if us == shakmaty::Color::White { 1 } else { -1 };
                let delta = match code {
                    15 => 16,
                    _ => [7, 8, 9][(code % 3) as usize],
                };
                if (3..15).contains(&code) {
                    promotion = Some([Role::Queen, Role::Rook, Role::Bishop, Role::Knight][(code / 3 - 1) as usize]);
                }
                f + sign * delta
            }
        };
        if !(0..64).contains(&to) {
            return Err(bad(format!("byte {byte:#04x}: {role:?} from {from} leaves the board")));
        }
        let to = Square::new(to as u32);
        let mv = if role == Role::Pawn
            && to.file() != from.file()
            && !pos.board().occupied().contains(to)
            && Some(to) == pos.ep_square(shakmaty::EnPassantMode::Legal)
        {
            Move::EnPassant { from, to }
        } else {
            Move::Normal { role, from, capture: pos.board().role_at(to), to, promotion }
        };
        if !is_legal(pos, mv) {
            return Err(bad(format!("byte {byte:#04x}: {role:?} {from}→{to} is not legal here")));
        }
        Ok(Some(mv))
    }
}

/// `Position::is_legal` for the moves the decoder builds, without generating moves for the
/// usual ones: the piece can make that move on this board, and its own king is not attacked
/// afterwards. En passant and castling (rare) go through shakmaty.
fn is_legal(pos: &Chess, mv: Move) -> bool {
    let Move::Normal { role, from, capture, to, promotion } = mv else { return pos.is_legal(mv) };
    let board = pos.board();
    let us = pos.turn();
    let occupied = board.occupied();
    if !board.by_color(us).contains(from) || board.by_color(us).contains(to) || capture == Some(Role::King) {
        return false;
    }
    let reaches = match role {
        Role::Pawn => {
            let last_rank = to.rank() == us.fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First);
            let pushes = capture.is_none()
                && rules::pawn_push_from(to, us, shakmaty::Bitboard::from_square(from), occupied).contains(from);
            let captures = capture.is_some() && attacks::pawn_attacks(us, from).contains(to);
            (pushes || captures) && last_rank == promotion.is_some()
        }
        _ => promotion.is_none() && attacks::attacks(from, role.of(us), occupied).contains(to),
    };
    reaches && rules::king_safe_after(pos, role, from, to)
}

/// Whether a variation starts after the current move's NAGs and comment marker.
fn variation_follows(rest: &[u8]) -> bool {
    let mut i = 0;
    loop {
        match rest.get(i) {
            Some(&NAG) => i += 2,
            Some(&COMMENT) => i += 1,
            Some(&START_VARIATION) => return true,
            _ => return false,
        }
    }
}

/// Visits every comment place in marker order: a line's start, then per move its own place and
/// its variations.
fn for_each_comment(line: &mut Line, f: &mut impl FnMut(Place<'_>)) {
    f(Place::Start(&mut line.comments));
    for node in &mut line.nodes {
        f(Place::After(node));
        if let Some(notes) = node.existing_notes_mut() {
            for v in &mut notes.variations {
                for_each_comment(v, f);
            }
        }
    }
}

/// A comment place: the start of a line, or after a move (whose notes are made only when a
/// comment is put there).
enum Place<'a> {
    Start(&'a mut Vec<TextBuf>),
    After(&'a mut Node),
}

impl Place<'_> {
    fn comments(&self) -> &[TextBuf] {
        match self {
            Place::Start(comments) => comments,
            Place::After(node) => node.comments(),
        }
    }

    fn comments_mut(&mut self) -> &mut Vec<TextBuf> {
        match self {
            Place::Start(comments) => comments,
            Place::After(node) => &mut node.notes_mut().comments,
        }
    }
}

/// Gives the comment strings to their places, as SCID's decoder does: first to the marked places
/// in order; strings left over go one by one to the places after the last marked one (SCID
/// writes no markers at all for games where most places carry a comment).
fn assign_comments(line: &mut Line, strings: Vec<TextBuf>, base: u64, diagnostics: &mut Vec<Diagnostic>) {
    let (mut places, mut markers, mut last_marked) = (0usize, 0usize, None);
    for_each_comment(line, &mut |place| {
        let marked = place.comments().len();
        if marked > 0 {
            markers += marked;
            last_marked = Some(places);
        }
        places += 1;
    });
    let first_unmarked = last_marked.map_or(0, |i| i + 1);
    if strings.len() < markers {
        let message = format!("{} comment markers without a string", markers - strings.len());
        diagnostics.push(Diagnostic::warning(codes::COMMENT_MARKERS, Location::at(base), message));
    } else if strings.len() - markers > places - first_unmarked {
        let message = "more comment strings than places to put them";
        diagnostics.push(Diagnostic::warning(codes::COMMENT_MARKERS, Location::at(base), message));
    }
    let mut strings = strings.into_iter();
    let mut place = 0usize;
    for_each_comment(line, &mut |mut at| {
        if !at.comments().is_empty() {
            let comments = at.comments_mut();
            for c in comments.iter_mut() {
                *c = strings.next().unwrap_or_default();
            }
            comments.retain(|c| !c.is_empty());
        }
        if place >= first_unmarked
            && let Some(s) = strings.next().filter(|s| !s.is_empty())
        {
            at.comments_mut().push(s);
        }
        place += 1;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_without_markers_go_to_places_in_order() {
        // No tags, standard start, 1.e4 e5, end; three strings and no comment markers.
        let record = [0, 0, 0xCF, 0xCF, END_GAME, b'a', 0, 0, b'c', 0];
        let mut warnings = Vec::new();
        let r = decode_record(&record, 0, false, &mut warnings).unwrap();
        assert_eq!(r.moves.comments, ["a"]);
        assert!(r.moves.nodes[0].comments().is_empty());
        assert_eq!(r.moves.nodes[1].comments(), ["c"]);
        assert!(warnings.is_empty());
    }

    #[test]
    fn marked_comments_then_leftovers_after_the_last_mark() {
        // 1.e4 {x} e5, then two strings: "x" for the marker, "y" for the place after it (e5).
        let record = [0, 0, 0xCF, COMMENT, 0xCF, END_GAME, b'x', 0, b'y', 0];
        let r = decode_record(&record, 0, false, &mut Vec::new()).unwrap();
        assert_eq!(r.moves.nodes[0].comments(), ["x"]);
        assert_eq!(r.moves.nodes[1].comments(), ["y"]);
    }

    #[test]
    fn diagonal_queen_move_takes_a_second_byte() {
        // fenstd game 2: 1.e4 e5 2.Qh5 = 43 67 (queen slot 4, code = its file d, then h5 + 64).
        let record = [0, 0, 0xCF, 0xCF, 0x43, 0x67, END_GAME];
        let r = decode_record(&record, 0, false, &mut Vec::new()).unwrap();
        assert_eq!(r.moves.nodes[2].mv.map(|m| m.to()), Some(Square::H5));
    }
}
