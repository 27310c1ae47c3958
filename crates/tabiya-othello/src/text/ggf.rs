//! GGF, the Generic Game Format of the GGS server:
//! `(;GM[Othello]PC[place]DT[date]PB[black]PW[white]RE[+2.000]TY[8]BO[8 <64 squares> *]B[f5//1.2]W[d6]…;)`.
//!
//! Properties other than moves are kept in order as tags; moves keep their evaluation and time
//! fields. `BO` is the start position: `*` black, `O` white, `-` empty, then the side to move.

use tabiya_io::Location;

use super::TextError;
use crate::board::Square;

/// One move: its colour, its square (None = pass) and the optional `/eval/time` fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GgfMove {
    /// True for a move of Black (`B[…]`), false for White (`W[…]`).
    pub black: bool,
    /// Square index `8 · row + column`, a1 = 0; `None` for a pass (`PA`).
    pub square: Option<Square>,
    /// What follows the square, e.g. `/1.2/0.5` (evaluation and time), kept as written.
    pub annotation: String,
}

/// One game: its tags (GM, PC, DT, PB, PW, RE, BO, …) in file order and its moves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GgfGame {
    /// Every property but the moves, as (key, value) in file order.
    pub tags: Vec<(String, String)>,
    /// The moves, passes included.
    pub moves: Vec<GgfMove>,
}

/// The standard 8×8 start position as GGF writes it, Black to move.
pub const STANDARD_BOARD: &str = "8 ---------------------------O*------*O--------------------------- *";

impl GgfGame {
    /// The value of the first tag named `key`.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Whether `BO` is absent or the standard 8×8 start with Black to move (whitespace ignored).
    pub fn starts_from_standard_position(&self) -> bool {
        let squash = |s: &str| s.split_whitespace().collect::<String>();
        self.tag("BO").is_none_or(|bo| squash(bo) == squash(STANDARD_BOARD))
    }

    /// Black's final disc difference from `RE` (`+2.000`, `-10`, `+4:r`), if it has one.
    pub fn result(&self) -> Option<i32> {
        let re = self.tag("RE")?;
        let number: String = re.chars().take_while(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.')).collect();
        number.parse::<f64>().ok().filter(|f| f.abs() <= 64.0).map(|f| f.round() as i32)
    }

    /// The game as GGF text, `(;…;)`.
    pub fn format(&self) -> String {
        let mut out = String::from("(;");
        for (k, v) in &self.tags {
            push_property(&mut out, k, v);
        }
        for m in &self.moves {
            let square = match m.square {
                Some(s) => s.to_string(),
                None => "PA".to_owned(),
            };
            push_property(&mut out, if m.black { "B" } else { "W" }, &format!("{square}{}", m.annotation));
        }
        out.push_str(";)");
        out
    }
}

/// GGF moves of a game replayed from the start: each square with its colour, and a `PA` where
/// the side to move had to pass. Bit `i` of `white_moves` is set when move `i` is White's
/// ([`Replay::white_moves`](crate::wthor::Replay)).
pub fn moves_with_passes(squares: &[Square], white_moves: u64) -> Vec<GgfMove> {
    let mut moves = Vec::with_capacity(squares.len() + 4);
    let mut black_to_move = true;
    for (i, &square) in squares.iter().enumerate() {
        let black = white_moves >> i & 1 == 0;
        if black != black_to_move {
            moves.push(GgfMove { black: black_to_move, square: None, annotation: String::new() });
        }
        moves.push(GgfMove { black, square: Some(square), annotation: String::new() });
        black_to_move = !black;
    }
    moves
}

fn push_property(out: &mut String, key: &str, value: &str) {
    out.push_str(key);
    out.push('[');
    for c in value.chars() {
        if matches!(c, ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(']');
}

/// Every game of a GGF text. Text between games is ignored (GGS files hold one game a line).
pub fn parse(text: &str) -> impl Iterator<Item = Result<GgfGame, TextError>> + '_ {
    let mut parser = Parser { text: text.as_bytes(), pos: 0, game: 0 };
    std::iter::from_fn(move || parser.next_game())
}

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
    game: u64,
}

impl Parser<'_> {
    fn error(&self, expected: &str, found: impl Into<String>) -> TextError {
        TextError::new(Location::at(self.pos as u64).with_record(self.game), expected, found)
    }

    fn next_game(&mut self) -> Option<Result<GgfGame, TextError>> {
        let start = self.text.get(self.pos..)?.windows(2).position(|w| w == b"(;")?;
        self.pos += start + 2;
        self.game += 1;
        let result = self.game_body();
        if result.is_err() {
            // Resynchronise on the next game.
            self.pos =
                self.text[self.pos..].windows(2).position(|w| w == b";)").map_or(self.text.len(), |p| self.pos + p + 2);
        }
        Some(result)
    }

    fn game_body(&mut self) -> Result<GgfGame, TextError> {
        let mut game = GgfGame::default();
        loop {
            while self.text.get(self.pos).is_some_and(|b| b.is_ascii_whitespace()) {
                self.pos += 1;
            }
            match self.text.get(self.pos..self.pos + 2) {
                Some(b";)") => {
                    self.pos += 2;
                    return Ok(game);
                }
                None => return Err(self.error("a property or `;)`", "the end of the text")),
                Some(_) => {}
            }
            let key_start = self.pos;
            while self.text.get(self.pos).is_some_and(|b| b.is_ascii_uppercase()) {
                self.pos += 1;
            }
            if self.pos == key_start || self.text.get(self.pos) != Some(&b'[') {
                let found = self.text.get(self.pos).map_or("the end".into(), |&b| char::from(b).to_string());
                return Err(self.error("a property NAME[value]", found));
            }
            let key = String::from_utf8_lossy(&self.text[key_start..self.pos]).into_owned();
            let value_at = self.pos;
            self.pos += 1;
            let value = self.value()?;
            match key.as_str() {
                "B" | "W" => {
                    let (square_text, annotation) = value.split_at(value.find('/').unwrap_or(value.len()));
                    let square = if square_text.eq_ignore_ascii_case("PA") || square_text.eq_ignore_ascii_case("pass") {
                        None
                    } else {
                        Some(square_text.trim().parse::<Square>().map_err(|_| {
                            TextError::new(
                                Location::at(value_at as u64).with_record(self.game),
                                "a move a1–h8 or PA",
                                square_text,
                            )
                        })?)
                    };
                    game.moves.push(GgfMove { black: key == "B", square, annotation: annotation.to_owned() });
                }
                _ => game.tags.push((key, value)),
            }
        }
    }

    /// A bracketed value after its `[`, with `\` escapes resolved.
    fn value(&mut self) -> Result<String, TextError> {
        let mut bytes = Vec::new();
        loop {
            match self.text.get(self.pos) {
                None => return Err(self.error("`]` closing the value", "the end of the text")),
                Some(b']') => {
                    self.pos += 1;
                    return Ok(String::from_utf8_lossy(&bytes).into_owned());
                }
                Some(b'\\') if self.pos + 1 < self.text.len() => {
                    bytes.push(self.text[self.pos + 1]);
                    self.pos += 2;
                }
                Some(&b) => {
                    bytes.push(b);
                    self.pos += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Zebra]RB[2197.01]\
RW[2326.67]TI[05:00//02:00]TY[8]RE[+2.000]BO[8 ---------------------------O*------*O--------------------------- *]\
B[f5//0.01]W[d6/-1.50/0.02]B[PA]W[c3];)";

    #[test]
    fn reads_tags_moves_and_passes() {
        let games: Vec<_> = parse(&format!("{GAME}\n{GAME}\n")).collect();
        assert_eq!(games.len(), 2);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.tag("PB"), Some("Saio1200"));
        assert_eq!(g.tag("RE"), Some("+2.000"));
        assert_eq!(g.result(), Some(2));
        let with = |re: &str| GgfGame { tags: vec![("RE".into(), re.into())], moves: vec![] }.result();
        assert_eq!((with("-10"), with("+4:r"), with("?"), with("+99.000")), (Some(-10), Some(4), None, None));
        assert!(g.starts_from_standard_position());
        assert_eq!(g.moves.len(), 4);
        assert_eq!(g.moves[0], GgfMove { black: true, square: Square::from_index(37), annotation: "//0.01".into() });
        assert_eq!(g.moves[2], GgfMove { black: true, square: None, annotation: String::new() });
        assert_eq!(g.format(), GAME, "writes back as read");
    }

    #[test]
    fn errors_name_the_game_and_offset() {
        let text = format!("{GAME}\n(;GM[Othello]B[z9];)\n{GAME}");
        let results: Vec<_> = parse(&text).collect();
        assert_eq!(results.len(), 3);
        let err = results[1].as_ref().unwrap_err();
        assert_eq!(err.location.number, Some(2));
        assert_eq!(err.found, "z9");
        assert!(results[2].is_ok(), "the parser resynchronises");
        for cut in 0..GAME.len() {
            let _ = parse(&GAME[..cut]).count();
        }
    }

    #[test]
    fn escapes_round_trip() {
        let g = GgfGame { tags: vec![("PC".into(), r"a]b\c".into())], moves: vec![] };
        assert_eq!(g.format(), r"(;PC[a\]b\\c];)");
        assert_eq!(parse(&g.format()).next().unwrap().unwrap(), g);
    }
}
