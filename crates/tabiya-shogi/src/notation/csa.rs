//! CSA records (V2.2): `P1`…`P9` board rows, `P+`/`P-` hand lines (`00AL` gives every remaining
//! piece to that side), the turn, moves such as `+0073GI` and `-7273KI`, `%TSUMI`; records
//! separated by `/`. Tsume metadata has no standard key and is written as `'key：value` comment
//! lines, which the reader takes back as headers.

use shogi_core::{Color, Move, PartialPosition, Piece, PieceKind, Square};

use super::{Ending, Kifu, MoveTime, line_error, numbered_lines, set_time};
use crate::Error;
use crate::board::{self, HAND_KINDS};

const CODES: [(&str, PieceKind); 14] = [
    ("FU", PieceKind::Pawn),
    ("KY", PieceKind::Lance),
    ("KE", PieceKind::Knight),
    ("GI", PieceKind::Silver),
    ("KI", PieceKind::Gold),
    ("KA", PieceKind::Bishop),
    ("HI", PieceKind::Rook),
    ("OU", PieceKind::King),
    ("TO", PieceKind::ProPawn),
    ("NY", PieceKind::ProLance),
    ("NK", PieceKind::ProKnight),
    ("NG", PieceKind::ProSilver),
    ("UM", PieceKind::ProBishop),
    ("RY", PieceKind::ProRook),
];

/// CSA's `$` game information and the KIF headers that say the same, so that each survives
/// CSA → CSA and maps to the other format (`N+`/`N-` are 先手/後手).
const INFO_KEYS: [(&str, &str); 6] = [
    ("EVENT", "棋戦"),
    ("SITE", "場所"),
    ("START_TIME", "開始日時"),
    ("END_TIME", "終了日時"),
    ("TIME_LIMIT", "持ち時間"),
    ("OPENING", "戦型"),
];

fn code(kind: PieceKind) -> &'static str {
    CODES.iter().find(|(_, k)| *k == kind).map_or("??", |(c, _)| c)
}

fn kind(code: &str) -> Option<PieceKind> {
    CODES.iter().find(|(c, _)| *c == code).map(|(_, k)| *k)
}

fn sign(color: Color) -> char {
    if color == Color::Black { '+' } else { '-' }
}

/// Writes records as one CSA text (`\r\n` line ends, `/` between records). With `all_to_gote`,
/// gote's hand is written as `P-00AL` (the tsume convention) instead of piece by piece.
pub fn write(records: &[Kifu], all_to_gote: bool) -> String {
    let mut out = String::from("V2.2\r\n");
    for (i, kifu) in records.iter().enumerate() {
        if i > 0 {
            out.push_str("/\r\n");
        }
        write_one(&mut out, kifu, all_to_gote);
    }
    out
}

fn write_one(out: &mut String, kifu: &Kifu, all_to_gote: bool) {
    let mut line = |s: &str| {
        out.push_str(s);
        out.push_str("\r\n");
    };
    for (key, value) in &kifu.headers {
        match key.as_str() {
            "先手" | "下手" => line(&format!("N+{value}")),
            "後手" | "上手" => line(&format!("N-{value}")),
            _ => match INFO_KEYS.iter().find(|(_, kif)| kif == key) {
                Some((csa, _)) => line(&format!("${csa}:{value}")),
                None => line(&format!("'{key}：{value}")),
            },
        }
    }
    for comment in &kifu.comments {
        line(&format!("'*{comment}"));
    }
    let start = &kifu.start;
    for rank in 1..=9u8 {
        let mut row = format!("P{rank}");
        for file in (1..=9u8).rev() {
            match Square::new(file, rank).and_then(|s| start.piece_at(s)) {
                None => row.push_str(" * "),
                Some(p) => {
                    row.push(sign(p.color()));
                    row.push_str(code(p.piece_kind()));
                }
            }
        }
        line(&row);
    }
    for color in [Color::Black, Color::White] {
        let hand = board::hand_counts(start.hand_of_a_player(color));
        if color == Color::White && all_to_gote {
            line("P-00AL");
            continue;
        }
        let pieces: String = HAND_KINDS
            .iter()
            .zip(hand)
            .flat_map(|(&k, n)| std::iter::repeat_n(format!("00{}", code(k)), n.into()))
            .collect();
        if !pieces.is_empty() {
            line(&format!("P{}{pieces}", sign(color)));
        }
    }
    line(&sign(start.side_to_move()).to_string());
    let mut position = start.clone();
    for (i, &mv) in kifu.moves.iter().enumerate() {
        let side = sign(position.side_to_move());
        let text = match mv {
            Move::Drop { piece, to } => format!("{side}00{}{}{}", to.file(), to.rank(), code(piece.piece_kind())),
            Move::Normal { from, to, promote } => {
                let kind = position.piece_at(from).map_or(PieceKind::Pawn, |p| p.piece_kind());
                let after = if promote { kind.promote().unwrap_or(kind) } else { kind };
                format!("{side}{}{}{}{}{}", from.file(), from.rank(), to.file(), to.rank(), code(after))
            }
        };
        line(&text);
        if let Some(time) = kifu.time_of(i + 1) {
            line(&format!("T{}", time.seconds));
        }
        if position.make_move(mv).is_none() {
            break;
        }
        for comment in kifu.comments_on(i + 1) {
            line(&format!("'*{comment}"));
        }
    }
    if let Some(end) = kifu.written_end() {
        line(end.csa());
        if end == Ending::Sealed {
            line(SEALED);
        }
        if let Some(time) = kifu.time_of(kifu.moves.len() + 1) {
            line(&format!("T{}", time.seconds));
        }
    }
}

/// The comment line that follows `%CHUDAN` when the game was adjourned with a sealed move: the
/// CSA standard (V2.2, V3.0) has no statement for it, so tabiya writes the game as interrupted
/// and says why in a comment, which it reads back as [`Ending::Sealed`].
const SEALED: &str = "'封じ手";

/// Reads every record of a CSA text.
pub fn read(text: &str) -> Result<Vec<Kifu>, Error> {
    let mut records = Vec::new();
    let mut reader = Reader::default();
    for (offset, number, raw) in numbered_lines(text) {
        let line = raw.trim_end();
        if line == "/" {
            records.push(std::mem::take(&mut reader).finish());
            continue;
        }
        for statement in line.split(',') {
            reader.statement(statement).map_err(|e| {
                let code = match statement.trim() {
                    s if s.len() > 1 && s.starts_with(['+', '-']) && e.starts_with("a legal move") => {
                        "csa.illegal_move"
                    }
                    s if s.len() > 1 && s.starts_with(['+', '-']) => "csa.move",
                    _ => "csa.statement",
                };
                line_error(code, offset, number, e, line)
            })?;
        }
    }
    if reader.touched {
        records.push(reader.finish());
    }
    Ok(records)
}

#[derive(Default)]
struct Reader {
    kifu: Option<Kifu>,
    position: Option<PartialPosition>,
    all_to: Option<Color>,
    touched: bool,
}

impl Reader {
    fn kifu(&mut self) -> &mut Kifu {
        self.touched = true;
        self.kifu.get_or_insert_with(|| Kifu::new(PartialPosition::empty()))
    }

    fn finish(mut self) -> Kifu {
        self.settle_hands();
        self.kifu.take().unwrap_or_else(|| Kifu::new(PartialPosition::empty()))
    }

    /// Gives the remaining pieces to the `00AL` side once the position is complete.
    fn settle_hands(&mut self) {
        let Some(color) = self.all_to.take() else { return };
        let kifu = self.kifu();
        let other = kifu.start.hand_of_a_player(color.flip());
        if let Ok(rest) = board::remaining_pieces(&kifu.start, other) {
            *kifu.start.hand_of_a_player_mut(color) = rest;
        }
    }

    fn statement(&mut self, s: &str) -> Result<(), String> {
        let s = s.trim_end();
        if let Some(seconds) = s.strip_prefix('T') {
            return self.time(seconds);
        }
        if s == SEALED && self.kifu().end == Some(Ending::Interrupt) {
            self.kifu().end = Some(Ending::Sealed);
            return Ok(());
        }
        if s.is_empty() || s.starts_with('V') || s.starts_with('N') && s.len() > 1 && s[1..].starts_with(['+', '-']) {
            if let Some(name) = s.strip_prefix("N+").or_else(|| s.strip_prefix("N-")) {
                let key = if s.starts_with("N+") { "先手" } else { "後手" };
                self.kifu().headers.push((key.into(), name.into()));
            }
            return Ok(());
        }
        if let Some(comment) = s.strip_prefix('\'') {
            if let Some(text) = comment.strip_prefix('*') {
                let kifu = self.kifu();
                match kifu.moves.len() {
                    0 => kifu.comments.push(text.to_owned()),
                    n => kifu.move_comments.push((n, text.to_owned())),
                }
            } else if let Some((key, value)) = comment.split_once('：') {
                self.kifu().headers.push((key.to_owned(), value.to_owned()));
            }
            return Ok(());
        }
        if let Some(rest) = s.strip_prefix('$') {
            if let Some((key, value)) = rest.split_once(':') {
                let key = INFO_KEYS.iter().find(|(csa, _)| *csa == key).map_or(key, |(_, kif)| kif);
                self.kifu().headers.push((key.to_owned(), value.to_owned()));
            }
            return Ok(());
        }
        if let Some(removed) = s.strip_prefix("PI") {
            return self.handicap(removed);
        }
        if let Some(rest) = s.strip_prefix('P') {
            return self.placement(rest);
        }
        if s == "+" || s == "-" {
            let color = if s == "+" { Color::Black } else { Color::White };
            self.settle_hands();
            self.kifu().start.side_to_move_set(color);
            return Ok(());
        }
        if s.starts_with('%') {
            // A statement without an Ending (`%+ILLEGAL_ACTION`, `%HIKIWAKE`) is kept as a header.
            match Ending::from_csa(s) {
                Some(end) => self.kifu().end = Some(end),
                None => self.kifu().headers.push(("終局".into(), s.into())),
            }
            return Ok(());
        }
        if s.starts_with(['+', '-']) {
            return self.play(s);
        }
        Err("a CSA statement".into())
    }

    /// `T16`: the seconds of the move before (of the ending after a `%` statement). V3.0's
    /// fractions (`T16.250`) are read as whole seconds, what KIF's time column holds.
    fn time(&mut self, text: &str) -> Result<(), String> {
        let whole = text.split_once('.').map_or(text, |(whole, _)| whole);
        let seconds = whole.parse::<u32>().map_err(|_| format!("seconds after T, found {text:?}"))?;
        let kifu = self.kifu();
        let index = match (kifu.end, kifu.moves.len()) {
            (Some(_), n) => n,
            (None, 0) => return Err("a move before its time".into()),
            (None, n) => n - 1,
        };
        set_time(&mut kifu.times, index, MoveTime { seconds, total: None });
        Ok(())
    }

    fn placement(&mut self, rest: &str) -> Result<(), String> {
        let mut chars = rest.chars();
        let first = chars.next().ok_or("P1–P9, P+ or P-")?;
        if let Some(rank) = first.to_digit(10).filter(|d| (1..=9).contains(d)) {
            // Trailing spaces of an empty last cell are often trimmed.
            let padded = format!("{:<27}", chars.as_str());
            let cells = padded.as_bytes();
            for (i, cell) in cells.chunks(3).take(9).enumerate() {
                let square = Square::new(9 - i as u8, rank as u8).ok_or("a square")?;
                let piece = match cell {
                    // ` * `, `*  ` as some programs write it, or blanks of a trimmed row.
                    _ if matches!(cell.trim_ascii(), b"*" | b"") => None,
                    [c, a, b] => {
                        let color = match c {
                            b'+' => Color::Black,
                            b'-' => Color::White,
                            _ => return Err(format!("' * ', +XX or -XX in P{rank}")),
                        };
                        let code = std::str::from_utf8(&[*a, *b]).map_err(|_| "a piece code")?.to_owned();
                        Some(Piece::new(kind(&code).ok_or(format!("a piece code, found {code}"))?, color))
                    }
                    _ => return Err(format!("9 cells in P{rank}")),
                };
                self.place(square, piece)?;
            }
            return Ok(());
        }
        let color = match first {
            '+' => Color::Black,
            '-' => Color::White,
            _ => return Err("P1–P9, PI, P+ or P-".into()),
        };
        let items = chars.as_str().as_bytes();
        if !items.len().is_multiple_of(4) {
            return Err("pieces of 4 characters (xyPC)".into());
        }
        for item in items.chunks(4) {
            let text = std::str::from_utf8(item).ok().filter(|t| t.is_ascii()).ok_or("ASCII pieces")?;
            if text == "00AL" {
                self.all_to = Some(color);
                continue;
            }
            let kind = kind(&text[2..]).ok_or(format!("a piece code, found {text}"))?;
            let kifu = self.kifu();
            if &text[..2] == "00" {
                let hand = kifu.start.hand_of_a_player_mut(color);
                *hand = hand.added(kind).ok_or(format!("a piece that can be held, found {text}"))?;
            } else {
                let square = square(&text[..2]).ok_or(format!("a square, found {text}"))?;
                self.place(square, Some(Piece::new(kind, color)))?;
            }
        }
        Ok(())
    }

    /// `PI` followed by the pieces taken off the initial position (`PI82HI22KA` for 二枚落ち):
    /// each `xyPC` must name the piece on that square.
    fn handicap(&mut self, removed: &str) -> Result<(), String> {
        let mut start = PartialPosition::startpos();
        if !removed.len().is_multiple_of(4) || !removed.is_ascii() {
            return Err("PI and pieces of 4 characters (xyPC)".into());
        }
        for item in removed.as_bytes().chunks(4) {
            let text = std::str::from_utf8(item).map_err(|_| "ASCII pieces")?;
            let square = square(&text[..2]).ok_or(format!("a square, found {text}"))?;
            let on_board = start.piece_at(square).map(|p| p.piece_kind());
            if on_board.is_none() || on_board != kind(&text[2..]) {
                return Err(format!("a piece of the initial position, found {text}"));
            }
            start.piece_set(square, None);
        }
        self.kifu().start = start;
        Ok(())
    }

    /// Puts a piece on an empty square. A square given twice is an error: shogi_core's `piece_set`
    /// would keep a king it overwrites as the king's square.
    fn place(&mut self, square: Square, piece: Option<Piece>) -> Result<(), String> {
        let start = &mut self.kifu().start;
        if start.piece_at(square).is_some() {
            return Err(format!("square {}{} given once, found it given again", square.file(), square.rank()));
        }
        if piece.is_some() {
            start.piece_set(square, piece);
        }
        Ok(())
    }

    fn play(&mut self, s: &str) -> Result<(), String> {
        self.settle_hands();
        if s.len() < 7 || !s.is_ascii() {
            return Err("a move such as +7776FU".into());
        }
        let start = self.kifu().start.clone();
        let position = self.position.get_or_insert(start);
        let to = square(&s[3..5]).ok_or("a destination square")?;
        let after = kind(&s[5..7]).ok_or("a piece code")?;
        let mv = if &s[1..3] == "00" {
            Move::Drop { piece: Piece::new(after, position.side_to_move()), to }
        } else {
            let from = square(&s[1..3]).ok_or("an origin square")?;
            let before = position.piece_at(from).map(|p| p.piece_kind());
            Move::Normal { from, to, promote: before != Some(after) }
        };
        if !board::is_legal(position, mv) {
            return Err(format!("a legal move, {} is not", board::usi(mv)));
        }
        position.make_move(mv).ok_or("a legal move")?;
        self.kifu().moves.push(mv);
        Ok(())
    }
}

fn square(text: &str) -> Option<Square> {
    let mut digits = text.bytes().map(|b| b.wrapping_sub(b'0'));
    Square::new(digits.next()?, digits.next()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{japanese, sfen};

    #[test]
    fn tsume_record() {
        let start = sfen::parse("9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1").unwrap();
        let tokens =
            japanese::parse_tokens("73銀同金94桂同馬71銀92玉82金93玉94歩同角84角同金92金同玉62龍93玉82龍").unwrap();
        let mut kifu = Kifu::new(start);
        kifu.moves = japanese::resolve_line(&kifu.start, &tokens).unwrap();
        kifu.headers.push(("作品番号".into(), "0003".into()));
        kifu.end = Some(Ending::Mate);
        let text = write(std::slice::from_ref(&kifu), true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "V2.2");
        assert_eq!(lines[1], "'作品番号：0003");
        assert_eq!(lines[3], "P2 * -OU-KI *  *  *  *  *  * ");
        assert_eq!(lines[5], "P4 *  *  * +RY *  *  *  *  * ");
        assert_eq!(lines[6], "P5+FU-UM * -KI *  *  *  *  * ");
        assert_eq!(lines[11], "P+00KI00GI00GI00KE");
        assert_eq!(lines[12], "P-00AL");
        assert_eq!(lines[13], "+");
        assert_eq!(lines[14], "+0073GI");
        assert_eq!(lines[15], "-7273KI");
        assert_eq!(lines[30], "+6282RY");
        assert_eq!(lines[31], "%TSUMI");
        let back = read(&text).unwrap();
        assert_eq!(back, [kifu]);
        // Left-aligned empty cells (`*  `) and trimmed rows read the same.
        let other = text.replace(" * ", "*  ").replace("P1*  *  *  *  *  *  *  *  *  ", "P1*");
        assert_eq!(read(&other).unwrap(), back);
        // 8二 holds the gote king: placing a sente gold there is an error, not an overwrite.
        let twice = text.replace("P+00KI", "P+82KI");
        assert_eq!(
            read(&twice).unwrap_err().to_string(),
            "<input>@0x133 (line 12): expected square 82 given once, found it given again, found \"P+82KI00GI00GI00KE\""
        );
    }
}
