//! Writing [`Game`]s as PGN. The default layout is the PGN standard's export format (seven-tag
//! roster first, lines of at most 80 columns, SAN, `$n` NAGs); [`WriterOptions`] lets callers
//! reproduce other programs' layouts byte for byte.

use std::io::{self, Write};

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingMode, CastlingSide, Chess, Color, Move, Position, Role, Square, attacks};

use crate::game::{Game, Line};
use crate::text::{Text, TextBuf};

/// How moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// Standard algebraic notation with check and mate suffixes (`Nf3`, `exd5+`, `O-O`).
    San,
    /// Long algebraic / UCI (`g1f3`, `e5d6`, `e7e8q`).
    Long,
}

/// How movetext is laid out into lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Tokens separated by single spaces, a line broken before a token that would not fit.
    Standard,
    /// SCID's export (its `TextBuffer`): move numbers, moves, `{`, comment words and `}` are
    /// separate words; a space is written after every move and a line is broken when a word or
    /// a space would reach `line_width`, which leaves trailing spaces; a pre-game comment ends
    /// its line; variations are written `( 1...e5 )`.
    Scid,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// How lines end.
pub enum LineEnding {
    /// `\n`.
    Lf,
    /// `\r\n`.
    CrLf,
}

/// The layout of written PGN.
#[derive(Debug, Clone)]
pub struct WriterOptions {
    /// Longest movetext line in bytes; 0 writes the whole movetext on one line. Tokens are
    /// never split, so a single longer token makes a longer line.
    pub line_width: usize,
    /// Write comments.
    pub comments: bool,
    /// Write variations.
    pub variations: bool,
    /// Write NAGs.
    pub nags: bool,
    /// SAN or long algebraic moves.
    pub notation: Notation,
    /// Write Event, Site, Date, Round, White, Black, Result first (with `?` for missing ones),
    /// then the other tags in their order; otherwise tags are written as they are.
    pub seven_tag_roster_first: bool,
    /// Write tags beyond the seven-tag roster.
    pub other_tags: bool,
    /// `1. e4` rather than `1.e4`.
    pub space_after_move_number: bool,
    /// `{ text }` rather than `{text}`. Comments are otherwise written as read.
    pub pad_comments: bool,
    /// A blank line between the tags and the movetext.
    pub blank_line_after_tags: bool,
    /// A blank line after each game.
    pub blank_line_after_game: bool,
    /// How lines end.
    pub line_ending: LineEnding,
    /// How the movetext is laid out into lines.
    pub layout: Layout,
    /// Escape `"` and `\` in tag values (the PGN standard); SCID writes values verbatim.
    pub escape_tag_values: bool,
}

impl WriterOptions {
    /// SCID 5.0.2's `sc_base export … PGN` layout: byte-identical to SCID's own export.
    pub fn scid() -> WriterOptions {
        WriterOptions {
            line_width: 75,
            space_after_move_number: false,
            layout: Layout::Scid,
            escape_tag_values: false,
            ..WriterOptions::default()
        }
    }
}

impl Default for WriterOptions {
    fn default() -> WriterOptions {
        WriterOptions {
            line_width: 80,
            comments: true,
            variations: true,
            nags: true,
            notation: Notation::San,
            seven_tag_roster_first: true,
            other_tags: true,
            space_after_move_number: true,
            pad_comments: false,
            blank_line_after_tags: true,
            blank_line_after_game: true,
            line_ending: LineEnding::Lf,
            layout: Layout::Standard,
            escape_tag_values: true,
        }
    }
}

const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Writes one game: tags, movetext, result.
pub fn write_game(game: &Game, options: &WriterOptions, out: &mut impl Write) -> io::Result<()> {
    let mut text = Vec::with_capacity(1024);
    push_game(game, options, &mut text);
    out.write_all(&text)
}

/// Appends one game to `out`, as [`write_game`] writes it: many games can share one buffer.
pub fn push_game(game: &Game, options: &WriterOptions, out: &mut Vec<u8>) {
    push_game_with_san(game, &[], options, out);
}

/// [`push_game`] for a game whose moves were already played by the caller (the SCID decoder):
/// `san` holds every move's SAN in the order the writer meets them (a move, its variations,
/// the next move). For SCID's layout in SAN from the standard start, with variations, the
/// writer then takes the text from there instead of playing the game again; otherwise, or when
/// `san` does not hold one entry per move, or the game has a null move (whose numbering the
/// writer decides as it plays), it plays the game as [`push_game`] does. The text is the same.
pub fn push_game_with_san(game: &Game, san: &[SanPlus], options: &WriterOptions, out: &mut Vec<u8>) {
    let mut text =
        PgnText { options, buf: out, line_len: 0, open_paren: false, given: [].iter(), word: Vec::with_capacity(24) };
    text.tags(game);
    if options.blank_line_after_tags {
        text.newline();
    }
    let given = options.layout == Layout::Scid
        && options.notation == Notation::San
        && options.variations
        && game.start.is_none()
        && move_count(&game.moves) == Some(san.len());
    if given {
        text.given = san.iter();
        text.scid_line(&game.moves, Cursor::Ply(0), game.castling_mode, true);
    } else if let Ok(pos) = game.start_position() {
        // From a start position that is not legal chess no move can be written.
        match options.layout {
            Layout::Standard => text.line(&game.moves, pos, game.castling_mode, true),
            Layout::Scid => text.scid_line(&game.moves, Cursor::Position(pos), game.castling_mode, true),
        }
    }
    match options.layout {
        Layout::Standard => text.token(game.result.as_pgn().as_bytes()),
        Layout::Scid => text.scid_word(game.result.as_pgn().as_bytes()),
    }
    text.newline();
    if options.blank_line_after_game {
        text.newline();
    }
}

/// The text of one game being laid out.
struct PgnText<'a> {
    options: &'a WriterOptions,
    buf: &'a mut Vec<u8>,
    /// Length of the movetext line being filled.
    line_len: usize,
    /// A variation was opened: its `(` sticks to the next token.
    open_paren: bool,
    /// The SAN of the moves still to write, when the caller gave it (see [`push_game_with_san`]).
    given: std::slice::Iter<'a, SanPlus>,
    /// The move being written (its number and text), reused from move to move: a buffer made
    /// per move cost an allocation and a free for each.
    word: Vec<u8>,
}

/// Where a line being written stands.
#[derive(Clone)]
enum Cursor {
    /// The position, on which each move is played to find its SAN.
    Position(Chess),
    /// Plies from the standard start; the SAN comes from [`PgnText::given`].
    Ply(u32),
}

impl Cursor {
    fn turn(&self) -> Color {
        match self {
            Cursor::Position(pos) => pos.turn(),
            Cursor::Ply(ply) => Color::from_white(ply % 2 == 0),
        }
    }

    fn fullmoves(&self) -> u32 {
        match self {
            Cursor::Position(pos) => pos.fullmoves().get(),
            Cursor::Ply(ply) => ply / 2 + 1,
        }
    }
}

/// Moves in a line and all its variations.
/// The moves of `line` and its variations, `None` when one of them is a null move.
fn move_count(line: &Line) -> Option<usize> {
    let mut count = line.nodes.len();
    for node in &line.nodes {
        node.mv?;
        for variation in node.variations() {
            count += move_count(variation)?;
        }
    }
    Some(count)
}

impl PgnText<'_> {
    fn newline(&mut self) {
        self.buf.extend_from_slice(match self.options.line_ending {
            LineEnding::Lf => b"\n",
            LineEnding::CrLf => b"\r\n",
        });
        self.line_len = 0;
    }

    fn tag(&mut self, name: &Text, value: &Text) {
        self.buf.push(b'[');
        self.buf.extend_from_slice(name.as_bytes());
        self.buf.extend_from_slice(b" \"");
        if self.options.escape_tag_values {
            // Both escaped characters are ASCII: no UTF-8 sequence holds their bytes.
            for &b in value.as_bytes() {
                if b == b'"' || b == b'\\' {
                    self.buf.push(b'\\');
                }
                self.buf.push(b);
            }
        } else {
            self.buf.extend_from_slice(value.as_bytes());
        }
        self.buf.extend_from_slice(b"\"]");
        self.newline();
    }

    fn tags(&mut self, game: &Game) {
        let roster_index = |name: &Text| SEVEN_TAG_ROSTER.iter().position(|(n, _)| name == *n);
        if self.options.seven_tag_roster_first {
            // The first value of each roster tag, found in one pass over the tags.
            let mut values: [Option<&Text>; 7] = [None; 7];
            for (name, value) in &game.tags {
                if let Some(i) = roster_index(name) {
                    values[i].get_or_insert(value);
                }
            }
            let result = game.result.as_pgn();
            for ((name, missing), value) in SEVEN_TAG_ROSTER.into_iter().zip(values) {
                let value = value.unwrap_or(Text::new(if name == "Result" { result } else { missing }));
                self.tag(Text::new(name), value);
            }
        }
        for (name, value) in &game.tags {
            let roster = roster_index(name).is_some();
            if (roster && !self.options.seven_tag_roster_first) || (!roster && self.options.other_tags) {
                self.tag(name, value);
            }
        }
        if let Some(fen) = &game.start
            && game.tag("FEN").is_none()
        {
            if game.tag("SetUp").is_none() {
                self.tag(Text::new("SetUp"), Text::new("1"));
            }
            self.tag(Text::new("FEN"), Text::new(&fen.to_string()));
        }
    }

    /// Appends a movetext token, starting a new line when it would not fit.
    fn token(&mut self, token: &[u8]) {
        let paren = usize::from(self.open_paren);
        if self.line_len > 0 {
            if self.options.line_width > 0 && self.line_len + 1 + paren + token.len() > self.options.line_width {
                self.newline();
            } else {
                self.buf.push(b' ');
                self.line_len += 1;
            }
        }
        if std::mem::take(&mut self.open_paren) {
            self.buf.push(b'(');
        }
        self.buf.extend_from_slice(token);
        self.line_len += paren + token.len();
    }

    /// Appends text to the previous token (a variation's closing parenthesis).
    fn glue(&mut self, text: &str) {
        self.buf.extend_from_slice(text.as_bytes());
        self.line_len += text.len();
    }

    fn comment(&mut self, text: &Text) {
        let (open, close) = if self.options.pad_comments { ("{ ", " }") } else { ("{", "}") };
        if self.options.line_width == 0 {
            self.token(&[open.as_bytes(), text.as_bytes(), close.as_bytes()].concat());
            return;
        }
        // Wrapped comments are split at white space, as the export format does: Unicode's in
        // UTF-8 text, ASCII's in text of another encoding.
        let words: Vec<&[u8]> = match text.to_str() {
            Some(text) => text.split_whitespace().map(str::as_bytes).collect(),
            None => text.as_bytes().split(u8::is_ascii_whitespace).filter(|w| !w.is_empty()).collect(),
        };
        if words.is_empty() {
            self.token(format!("{open}{close}").as_bytes());
            return;
        }
        let last = words.len() - 1;
        for (i, word) in words.iter().enumerate() {
            let mut token = Vec::with_capacity(word.len() + 2);
            if i == 0 {
                token.extend_from_slice(open.trim_end().as_bytes());
                if self.options.pad_comments {
                    self.token(&token);
                    token.clear();
                }
            }
            token.extend_from_slice(word);
            if i == last && !self.options.pad_comments {
                token.extend_from_slice(close.as_bytes());
            }
            self.token(&token);
        }
        if self.options.pad_comments {
            self.token(close.trim_start().as_bytes());
        }
    }

    /// Writes a line of moves from `pos`. `number_black` asks for a move number before a
    /// Black move (at the start of a line, after a comment or a variation).
    fn line(&mut self, line: &Line, mut pos: Chess, mode: CastlingMode, mut number_black: bool) {
        if self.options.comments {
            for comment in &line.comments {
                self.comment(comment);
                number_black = true;
            }
        }
        for node in &line.nodes {
            // Variations start from the position before the move; copy it only when needed.
            let before = (self.options.variations && !node.variations().is_empty()).then(|| pos.clone());
            let number = pos.fullmoves().get();
            let mut token = std::mem::take(&mut self.word);
            token.clear();
            let numbered = pos.turn() == Color::White || number_black;
            if numbered {
                let mut digits = Short::default();
                push_number(&mut digits, number);
                digits.append_to(&mut token);
                token.extend_from_slice(if pos.turn() == Color::White { b"." } else { b"..." });
                if self.options.space_after_move_number {
                    self.token(&token);
                    token.clear();
                }
            }
            let null_in_check = match node.mv {
                Some(m) => {
                    move_text(self.options.notation, &mut token, &mut pos, m, mode);
                    false
                }
                None => {
                    token.extend_from_slice(b"--");
                    play_null(pos.clone()).map(|next| pos = next).is_none()
                }
            };
            self.token(&token);
            self.word = token;
            if null_in_check {
                return;
            }
            number_black = false;
            if self.options.nags {
                for &nag in node.nags() {
                    let mut word = Short::default();
                    word.push(b'$');
                    push_number(&mut word, u32::from(nag));
                    self.token(word.as_bytes());
                }
            }
            if self.options.comments {
                for comment in node.comments() {
                    self.comment(comment);
                    number_black = true;
                }
            }
            if self.options.variations {
                for (variation, before) in node.variations().iter().zip(std::iter::repeat(&before).flatten()) {
                    self.open_paren = true;
                    self.line(variation, before.clone(), mode, true);
                    if std::mem::take(&mut self.open_paren) {
                        self.token(b"(");
                    }
                    self.glue(")");
                    number_black = true;
                }
            }
        }
    }

    /// SCID's `PrintWord`: a line break first if the word would reach the line width.
    fn scid_word(&mut self, word: &[u8]) {
        let start = self.buf.len();
        self.buf.extend_from_slice(word);
        self.scid_placed_word(start);
    }

    /// [`PgnText::scid_word`] for a word built on the stack.
    #[inline]
    fn scid_short_word(&mut self, word: &Short) {
        let start = self.buf.len();
        word.append_to(self.buf);
        self.scid_placed_word(start);
    }

    /// [`PgnText::scid_word`] for the word just appended at `start`: words are written straight
    /// into the text, and the rare line break is put in before them afterwards.
    #[inline]
    fn scid_placed_word(&mut self, start: usize) {
        let len = self.buf.len() - start;
        if self.options.line_width > 0 && self.line_len + len >= self.options.line_width {
            let newline: &[u8] = match self.options.line_ending {
                LineEnding::Lf => b"\n",
                LineEnding::CrLf => b"\r\n",
            };
            self.buf.splice(start..start, newline.iter().copied());
            self.line_len = 0;
        }
        self.line_len += len;
    }

    /// SCID's `PrintSpace`: a space, or a line break where the space would reach the width.
    fn scid_space(&mut self) {
        if self.options.line_width > 0 && self.line_len + 1 >= self.options.line_width {
            self.newline();
        } else {
            self.buf.push(b' ');
            self.line_len += 1;
        }
    }

    /// SCID's `PrintString`: words split at spaces, line breaks kept.
    fn scid_string(&mut self, text: &[u8]) {
        let mut rest = text;
        loop {
            let end = rest.iter().position(|&b| b == b' ' || b == b'\n').unwrap_or(rest.len());
            self.scid_word(&rest[..end]);
            match rest.get(end) {
                None => return,
                Some(b'\n') => self.newline(),
                Some(_) => self.scid_space(),
            }
            rest = &rest[end + 1..];
        }
    }

    /// A comment as SCID writes it: `{`, the words, `}`, then a space.
    fn scid_comment(&mut self, comments: &[TextBuf]) -> bool {
        // Most places have no comment: no need to join anything.
        if !self.options.comments || comments.iter().all(|c| c.is_empty()) {
            return false;
        }
        let text = comments.iter().filter(|c| !c.is_empty()).map(|c| c.as_bytes()).collect::<Vec<_>>().join(&b' ');
        let (open, close) = if self.options.pad_comments { ("{ ", " }") } else { ("{", "}") };
        self.scid_string(open.as_bytes());
        self.scid_string(&text);
        self.scid_string(close.as_bytes());
        self.scid_space();
        true
    }

    /// SCID's `Game::WriteMoveList` for plain PGN.
    fn scid_line(&mut self, line: &Line, mut at: Cursor, mode: CastlingMode, main: bool) {
        if self.scid_comment(&line.comments) && main {
            self.newline();
        }
        let mut number = true;
        for node in &line.nodes {
            // Variations start from the position before the move; copy it only when needed.
            let before = (self.options.variations && !node.variations().is_empty()).then(|| at.clone());
            let white = at.turn() == Color::White;
            if number || white {
                let mut word = Short::default();
                push_number(&mut word, at.fullmoves());
                word.push_all(if white { b"." } else { b"..." });
                if self.options.space_after_move_number {
                    word.push(b' ');
                }
                self.scid_short_word(&word);
                number = false;
            }
            match (&mut at, node.mv) {
                (Cursor::Position(pos), Some(m)) => {
                    let start = self.buf.len();
                    move_text(self.options.notation, self.buf, pos, m, mode);
                    self.scid_placed_word(start);
                }
                (Cursor::Position(pos), None) => {
                    self.scid_word(b"--");
                    if let Some(next) = play_null(pos.clone()) {
                        *pos = next;
                    }
                }
                (Cursor::Ply(ply), mv) => {
                    let mut word = Short::default();
                    match (self.given.next(), mv) {
                        (Some(&san), Some(_)) => push_san(&mut word, san),
                        _ => word.push_all(b"--"),
                    }
                    self.scid_short_word(&word);
                    *ply += 1;
                }
            }
            if self.options.nags && self.options.comments {
                for &nag in node.nags() {
                    self.scid_space();
                    let mut word = Short::default();
                    word.push(b'$');
                    push_number(&mut word, u32::from(nag));
                    self.scid_short_word(&word);
                }
            }
            self.scid_space();
            number |= !node.comments().is_empty() && self.scid_comment(node.comments());
            if self.options.variations {
                for (variation, before) in node.variations().iter().zip(std::iter::repeat(&before).flatten()) {
                    self.scid_word(b"(");
                    self.scid_space();
                    self.scid_line(variation, before.clone(), mode, false);
                    self.scid_word(b")");
                    self.scid_space();
                    number = true;
                }
            }
        }
    }
}

/// Appends the text of `m` and plays it.
fn move_text(notation: Notation, out: &mut Vec<u8>, pos: &mut Chess, m: Move, mode: CastlingMode) {
    match notation {
        Notation::San => {
            let mut word = Short::default();
            push_san(&mut word, san_plus(pos, m));
            word.append_to(out);
        }
        Notation::Long => {
            out.extend_from_slice(m.to_uci(mode).to_string().as_bytes());
            pos.play_unchecked(m);
        }
    }
}

/// SAN with its check or mate suffix, playing the move. Same text as
/// `SanPlus::from_move_and_play_unchecked`, which tests every position for game over (all legal
/// moves); here legal moves are generated only after a check, the only case where mate is possible.
pub(crate) fn san_plus(pos: &mut Chess, m: Move) -> SanPlus {
    let san = match m {
        // A pawn is never disambiguated by more than the file it captures from.
        Move::Normal { role: Role::Pawn, from, capture, to, promotion } => {
            let capture = capture.is_some();
            San::Normal { role: Role::Pawn, file: capture.then(|| from.file()), rank: None, capture, to, promotion }
        }
        Move::EnPassant { from, to } => {
            San::Normal { role: Role::Pawn, file: Some(from.file()), rank: None, capture: true, to, promotion: None }
        }
        // No other piece of this kind even attacks the target square: no disambiguation, and
        // no need for shakmaty's legal-candidate generation.
        Move::Normal { role, from, capture, to, promotion } if !other_attacker(pos, role, from, to) => {
            San::Normal { role, file: None, rank: None, capture: capture.is_some(), to, promotion }
        }
        _ => San::from_move(pos, m),
    };
    pos.play_unchecked(m);
    let suffix = pos.checkers().any().then(|| if is_mate(pos) { Suffix::Checkmate } else { Suffix::Check });
    SanPlus { san, suffix }
}

/// Whether the side to move, in check, has no legal move. Most checks leave the king a safe
/// square, which is found without generating every legal move.
fn is_mate(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else { return pos.legal_moves().is_empty() };
    let without_king = board.occupied().without(king);
    let escapes = attacks::king_attacks(king) & !board.by_color(us);
    if escapes.into_iter().any(|to| pos.king_attackers(to, !us, without_king).is_empty()) {
        return false;
    }
    pos.legal_moves().is_empty()
}

/// A short word (a move, a move number, a NAG) built on the stack and appended to the text
/// with one fixed-size copy.
#[derive(Default)]
struct Short {
    bytes: [u8; 16],
    len: usize,
}

impl Short {
    /// Words hold at most 15 bytes (`1234567890... ` is the longest); more would wrap around.
    #[inline]
    fn push(&mut self, b: u8) {
        self.bytes[self.len & 15] = b;
        self.len += 1;
    }

    #[inline]
    fn push_all(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.push(b);
        }
    }

    /// The word's bytes.
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len.min(16)]
    }

    #[inline]
    fn append_to(&self, out: &mut Vec<u8>) {
        let end = out.len() + self.len.min(16);
        out.extend_from_slice(&self.bytes);
        out.truncate(end);
    }
}

/// Appends `n` in decimal (move numbers and NAGs, without the formatting machinery).
fn push_number(out: &mut Short, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_all(&digits[i..]);
}

/// Appends the text shakmaty's `SanPlus::append_to_string` writes.
fn push_san(out: &mut Short, san: SanPlus) {
    const ROLES: &[u8; 7] = b"?PNBRQK";
    let square = |out: &mut Short, sq: Square| {
        out.push(b'a' + u8::from(sq.file()));
        out.push(b'1' + u8::from(sq.rank()));
    };
    match san.san {
        San::Normal { role, file, rank, capture, to, promotion } => {
            if role != Role::Pawn {
                out.push(ROLES[role as usize]);
            }
            if let Some(file) = file {
                out.push(b'a' + u8::from(file));
            }
            if let Some(rank) = rank {
                out.push(b'1' + u8::from(rank));
            }
            if capture {
                out.push(b'x');
            }
            square(out, to);
            if let Some(promotion) = promotion {
                out.push(b'=');
                out.push(ROLES[promotion as usize]);
            }
        }
        San::Castle(CastlingSide::KingSide) => out.push_all(b"O-O"),
        San::Castle(CastlingSide::QueenSide) => out.push_all(b"O-O-O"),
        San::Put { role, to } => {
            if role != Role::Pawn {
                out.push(ROLES[role as usize]);
            }
            out.push(b'@');
            square(out, to);
        }
        San::Null => out.push_all(b"--"),
    }
    match san.suffix {
        Some(Suffix::Check) => out.push(b'+'),
        Some(Suffix::Checkmate) => out.push(b'#'),
        None => {}
    }
}

/// Whether another piece of ours of `role` (not a pawn) than the one on `from` attacks `to`.
/// The usual answers need no attack table: the only piece of its kind, or the other bishop on
/// the other colour.
fn other_attacker(pos: &Chess, role: Role, from: shakmaty::Square, to: shakmaty::Square) -> bool {
    let mut others = pos.our(role).without(from);
    if role == Role::Bishop {
        let same_colour =
            if to.is_light() { shakmaty::Bitboard::LIGHT_SQUARES } else { shakmaty::Bitboard::DARK_SQUARES };
        others &= same_colour;
    }
    others.any() && (attacks::attacks(to, role.of(pos.turn()), pos.board().occupied()) & others).any()
}

/// The position after a null move ([`crate::game::pass`]), or `None` if the side to move is in
/// check.
fn play_null(pos: Chess) -> Option<Chess> {
    crate::game::pass(&pos)
}

#[cfg(test)]
mod tests {
    use shakmaty::EnPassantMode::Legal;
    use shakmaty::fen::Fen;
    use tabiya_testdata::Xorshift;

    use super::*;

    fn move_text_given(out: &mut Vec<u8>, san: SanPlus) {
        let mut word = Short::default();
        push_san(&mut word, san);
        word.append_to(out);
    }

    /// Every legal move of the positions of random games (promotions, castling, mates and
    /// ambiguous pieces among them): `san_plus` + `push_san` write what shakmaty writes.
    #[test]
    fn san_text_is_shakmatys_for_every_legal_move() {
        let mut rng = Xorshift::new(7);
        let mut seen = [0usize; 5]; // moves, checks, disambiguated, promotions, castles
        for _ in 0..300 {
            let mut pos = Chess::default();
            for _ in 0..250 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for &m in &legal {
                    let expected = SanPlus::from_move(pos.clone(), m);
                    let mut ours = b"x".to_vec();
                    move_text(Notation::San, &mut ours, &mut pos.clone(), m, CastlingMode::Standard);
                    assert_eq!(
                        ours[1..],
                        *expected.to_string().as_bytes(),
                        "{m:?} in {}",
                        Fen::from_position(&pos, Legal)
                    );
                    let disambiguated = match expected.san {
                        San::Normal { role, file, rank, .. } => role != Role::Pawn && (file, rank) != (None, None),
                        _ => false,
                    };
                    let flags = [true, expected.suffix.is_some(), disambiguated, m.is_promotion(), m.is_castle()];
                    for (count, flag) in seen.iter_mut().zip(flags) {
                        *count += usize::from(flag);
                    }
                }
                pos.play_unchecked(legal[rng.below(legal.len())]);
            }
        }
        // Drops and null moves, which a caller may give to `push_game_with_san`.
        for suffix in [None, Some(Suffix::Check), Some(Suffix::Checkmate)] {
            let drops = Role::ALL.into_iter().map(|role| San::Put { role, to: Square::G7 });
            for san in drops.chain([San::Null]) {
                let mut ours = Vec::new();
                move_text_given(&mut ours, SanPlus { san, suffix });
                assert_eq!(ours, SanPlus { san, suffix }.to_string().as_bytes());
            }
        }
        // 1,791,992 moves: 115,908 checks, 37,358 disambiguated, 12,916 promotions, 810 castles.
        let at_least = [1_000_000, 100_000, 30_000, 10_000, 500];
        assert!(seen.iter().zip(at_least).all(|(&n, least)| n >= least), "{seen:?}");
    }

    /// A game with a null move is written by playing it even when every move's SAN is given:
    /// the writer numbers the moves after a null move as it plays them.
    #[test]
    fn a_null_move_is_played_even_with_san_given() {
        let pgn = b"[Event \"n\"]\n\n1. e4 e5 2. Nf3 -- 3. Bc4 Nc6 *\n\n";
        let game = crate::pgn::PgnReader::from_bytes(pgn, Default::default()).next().unwrap().unwrap().game;
        let mut pos = Chess::default();
        let mut san = Vec::new();
        for node in &game.moves.nodes {
            match node.mv {
                Some(m) => {
                    san.push(SanPlus::from_move_and_play_unchecked(&mut pos, m));
                }
                None => {
                    san.push(SanPlus { san: San::Null, suffix: None });
                    pos = pos.swap_turn().unwrap();
                }
            }
        }
        let options = WriterOptions::scid();
        let (mut played, mut given) = (Vec::new(), Vec::new());
        push_game(&game, &options, &mut played);
        push_game_with_san(&game, &san, &options, &mut given);
        assert_eq!(String::from_utf8_lossy(&given), String::from_utf8_lossy(&played));
        // SCID numbers the move after a null move as it does.
        assert!(played.ends_with(b"\n\n1.e4 e5 2.Nf3 -- 3.Bc4 Nc6 *\n\n"), "{}", String::from_utf8_lossy(&played));
    }
}
