//! Writing [`Game`]s as PGN. The default layout is the PGN standard's export format (seven-tag
//! roster first, lines of at most 80 columns, SAN, `$n` NAGs); [`WriterOptions`] lets callers
//! reproduce other programs' layouts byte for byte.

use std::io::{self, Write};

use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::game::{Game, Line};

/// How moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// Standard algebraic notation with check and mate suffixes (`Nf3`, `exd5+`, `O-O`).
    San,
    /// Long algebraic / UCI (`g1f3`, `e5d6`, `e7e8q`).
    Long,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    Lf,
    CrLf,
}

/// The layout of written PGN.
#[derive(Debug, Clone)]
pub struct WriterOptions {
    /// Longest movetext line in bytes; 0 writes the whole movetext on one line. Tokens are
    /// never split, so a single longer token makes a longer line.
    pub line_width: usize,
    pub comments: bool,
    pub variations: bool,
    pub nags: bool,
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
    pub blank_line_after_tags: bool,
    pub blank_line_after_game: bool,
    pub line_ending: LineEnding,
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
    let mut text = PgnText { options, buf: String::with_capacity(1024), line_len: 0, open_paren: false };
    text.tags(game);
    if options.blank_line_after_tags {
        text.newline();
    }
    // From a start position that is not legal chess no move can be written.
    if let Ok(pos) = game.start_position() {
        text.line(&game.moves, pos, game.castling_mode, true);
    }
    text.token(game.result.as_pgn());
    text.newline();
    if options.blank_line_after_game {
        text.newline();
    }
    out.write_all(text.buf.as_bytes())
}

/// The text of one game being laid out.
struct PgnText<'a> {
    options: &'a WriterOptions,
    buf: String,
    /// Length of the movetext line being filled.
    line_len: usize,
    /// A variation was opened: its `(` sticks to the next token.
    open_paren: bool,
}

impl PgnText<'_> {
    fn newline(&mut self) {
        self.buf.push_str(match self.options.line_ending {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        });
        self.line_len = 0;
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.buf.push('[');
        self.buf.push_str(name);
        self.buf.push_str(" \"");
        for c in value.chars() {
            if c == '"' || c == '\\' {
                self.buf.push('\\');
            }
            self.buf.push(c);
        }
        self.buf.push_str("\"]");
        self.newline();
    }

    fn tags(&mut self, game: &Game) {
        let is_roster = |name: &str| SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == name);
        if self.options.seven_tag_roster_first {
            for (name, missing) in SEVEN_TAG_ROSTER {
                let result = game.result.as_pgn();
                let value = game.tag(name).unwrap_or(if name == "Result" { result } else { missing });
                self.tag(name, value);
            }
        }
        for (name, value) in &game.tags {
            let roster = is_roster(name);
            if (roster && !self.options.seven_tag_roster_first) || (!roster && self.options.other_tags) {
                self.tag(name, value);
            }
        }
        if let Some(fen) = &game.start
            && game.tag("FEN").is_none()
        {
            if game.tag("SetUp").is_none() {
                self.tag("SetUp", "1");
            }
            self.tag("FEN", &fen.to_string());
        }
    }

    /// Appends a movetext token, starting a new line when it would not fit.
    fn token(&mut self, token: &str) {
        let paren = usize::from(self.open_paren);
        if self.line_len > 0 {
            if self.options.line_width > 0 && self.line_len + 1 + paren + token.len() > self.options.line_width {
                self.newline();
            } else {
                self.buf.push(' ');
                self.line_len += 1;
            }
        }
        if std::mem::take(&mut self.open_paren) {
            self.buf.push('(');
        }
        self.buf.push_str(token);
        self.line_len += paren + token.len();
    }

    /// Appends text to the previous token (a variation's closing parenthesis).
    fn glue(&mut self, text: &str) {
        self.buf.push_str(text);
        self.line_len += text.len();
    }

    fn comment(&mut self, text: &str) {
        let (open, close) = if self.options.pad_comments { ("{ ", " }") } else { ("{", "}") };
        if self.options.line_width == 0 {
            self.token(&format!("{open}{text}{close}"));
            return;
        }
        // Wrapped comments are split at white space, as the export format does.
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            self.token(&format!("{open}{close}"));
            return;
        }
        let last = words.len() - 1;
        for (i, word) in words.iter().enumerate() {
            let mut token = String::with_capacity(word.len() + 2);
            if i == 0 {
                token.push_str(open.trim_end());
                if self.options.pad_comments {
                    self.token(&token);
                    token.clear();
                }
            }
            token.push_str(word);
            if i == last && !self.options.pad_comments {
                token.push_str(close);
            }
            self.token(&token);
        }
        if self.options.pad_comments {
            self.token(close.trim_start());
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
            let before = pos.clone();
            let number = pos.fullmoves().get();
            let mut token = String::with_capacity(12);
            let numbered = pos.turn() == Color::White || number_black;
            if numbered {
                token.push_str(&number.to_string());
                token.push_str(if pos.turn() == Color::White { "." } else { "..." });
                if self.options.space_after_move_number {
                    self.token(&token);
                    token.clear();
                }
            }
            match node.mv {
                Some(m) => {
                    self.move_text(&mut token, &mut pos, m, mode);
                }
                None => {
                    token.push_str("--");
                    match play_null(pos) {
                        Some(next) => pos = next,
                        None => {
                            self.token(&token);
                            return;
                        }
                    }
                }
            }
            self.token(&token);
            number_black = false;
            if self.options.nags {
                for nag in &node.nags {
                    self.token(&format!("${nag}"));
                }
            }
            if self.options.comments {
                for comment in &node.comments {
                    self.comment(comment);
                    number_black = true;
                }
            }
            if self.options.variations {
                for variation in &node.variations {
                    self.open_paren = true;
                    self.line(variation, before.clone(), mode, true);
                    if std::mem::take(&mut self.open_paren) {
                        self.token("(");
                    }
                    self.glue(")");
                    number_black = true;
                }
            }
        }
    }

    fn move_text(&self, token: &mut String, pos: &mut Chess, m: Move, mode: CastlingMode) {
        match self.options.notation {
            Notation::San => SanPlus::from_move_and_play_unchecked(pos, m).append_to_string(token),
            Notation::Long => {
                token.push_str(&m.to_uci(mode).to_string());
                pos.play_unchecked(m);
            }
        }
    }
}

/// The position after a null move, or `None` if the side to move is in check (a null move
/// there leaves a position shakmaty cannot represent).
fn play_null(pos: Chess) -> Option<Chess> {
    pos.swap_turn().ok()
}
