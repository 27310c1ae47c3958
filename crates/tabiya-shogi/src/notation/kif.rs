//! KIF and KI2 (柿木将棋 formats): `キー：値` headers, the board diagram with both hands written
//! out, then the moves — KIF one per numbered line with the origin `(xy)`, KI2 as `▲７三銀 △同　金`.
//! The text is Unicode here; `.kif`/`.ki2` files are Shift-JIS, `.kifu`/`.ki2u` UTF-8.

use shogi_core::{Color, Hand, Move, PartialPosition, Piece, Square};

use super::handicap;
use super::japanese::{self, DropMarker, Style, board_name, parse_piece};
use super::{Ending, Kifu, line_error, numbered_lines};
use crate::Error;
use crate::board::{self, HAND_KINDS};

const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const RULE: &str = "+---------------------------+";

/// Which of the two formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    /// KIF: numbered moves with their origin.
    Kif,
    /// KI2: `▲７六歩 △３四歩`, several moves a line.
    Ki2,
}

fn count_kanji(n: u8) -> String {
    match n {
        0..=1 => String::new(),
        2..=9 => RANKS[usize::from(n - 1)].to_string(),
        10 => "十".into(),
        11..=19 => format!("十{}", RANKS[usize::from(n - 11)]),
        // More than a set holds: written so that it reads back.
        _ => n.to_string(),
    }
}

fn hand_text(hand: Hand) -> String {
    let parts: Vec<String> = HAND_KINDS
        .iter()
        .zip(board::hand_counts(hand))
        .filter(|(_, n)| *n > 0)
        .map(|(&k, n)| format!("{}{}", japanese::piece_name(k), count_kanji(n)))
        .collect();
    if parts.is_empty() { "なし".into() } else { parts.join("　") }
}

/// Writes a record as KIF or KI2 (`\r\n` line ends). A record that ends in mate gets `詰み` and
/// `まで N手詰`.
pub fn write(kifu: &Kifu, flavour: Flavour) -> String {
    let mut out = String::new();
    let mut line = |s: &str| {
        out.push_str(s);
        out.push_str("\r\n");
    };
    for (key, value) in &kifu.headers {
        match key.starts_with('&') && value.is_empty() {
            true => line(key),
            false => line(&format!("{key}：{value}")),
        }
    }
    let start = &kifu.start;
    line(&format!("後手の持駒：{}", hand_text(start.hand_of_a_player(Color::White))));
    line("  ９ ８ ７ ６ ５ ４ ３ ２ １");
    line(RULE);
    for rank in 1..=9u8 {
        let mut row = String::from("|");
        for file in (1..=9u8).rev() {
            match Square::new(file, rank).and_then(|s| start.piece_at(s)) {
                None => row.push_str(" ・"),
                Some(p) => {
                    row.push(if p.color() == Color::White { 'v' } else { ' ' });
                    row.push(board_name(p.piece_kind()));
                }
            }
        }
        row.push('|');
        row.push(RANKS[usize::from(rank - 1)]);
        line(&row);
    }
    line(RULE);
    line(&format!("先手の持駒：{}", hand_text(start.hand_of_a_player(Color::Black))));
    if start.side_to_move() == Color::White {
        line("後手番");
    }
    if flavour == Flavour::Kif {
        line("手数----指手---------消費時間--");
    }
    for comment in &kifu.comments {
        line(&format!("*{comment}"));
    }
    let style = if flavour == Flavour::Kif { Style::Kif } else { Style::Ki2 };
    let written = japanese::write_line(start, &kifu.moves, style);
    let first = start.side_to_move();
    match flavour {
        Flavour::Kif => {
            for (i, text) in written.iter().enumerate() {
                line(&format!("{:>4} {text}", i + 1));
                for comment in kifu.comments_on(i + 1) {
                    line(&format!("*{comment}"));
                }
            }
        }
        Flavour::Ki2 => {
            let marks = written.iter().enumerate().map(|(i, text)| {
                let black = (i % 2 == 0) == (first == Color::Black);
                format!("{}{text}", if black { '▲' } else { '△' })
            });
            // Eight moves a line; a line also ends at a move with comments, which follow it.
            let mut row: Vec<String> = Vec::new();
            for (i, mark) in marks.enumerate() {
                row.push(mark);
                let mut comments = kifu.comments_on(i + 1).peekable();
                if row.len() == 8 || comments.peek().is_some() || i + 1 == written.len() {
                    line(&row.join(" "));
                    row.clear();
                }
                for comment in comments {
                    line(&format!("*{comment}"));
                }
            }
        }
    }
    if let Some(end) = kifu.written_end() {
        let played = kifu.moves.len();
        if flavour == Flavour::Kif {
            line(&format!("{:>4} {}", played + 1, end.kif()));
        }
        line(&summary(end, played, first));
    }
    out
}

/// The `まで…` line after the moves: `まで17手詰` for a mate (the tsume form), else who won
/// or how the game stopped, as 柿木将棋 writes it.
fn summary(end: Ending, played: usize, first: Color) -> String {
    // The side to move after the moves is the one the ending befalls.
    let loser = if played.is_multiple_of(2) { first } else { first.flip() };
    let winner = if loser == Color::Black { "後手" } else { "先手" };
    match end {
        Ending::Mate => format!("まで{played}手詰"),
        Ending::Resign => format!("まで{played}手で{winner}の勝ち"),
        Ending::TimeUp => format!("まで{played}手で時間切れにより{winner}の勝ち"),
        Ending::IllegalMove => format!("まで{played}手で{winner}の反則勝ち"),
        Ending::EnteringKing => {
            format!("まで{played}手で入玉宣言により{}の勝ち", if winner == "先手" { "後手" } else { "先手" })
        }
        other => format!("まで{played}手で{}", other.kif()),
    }
}

/// The ending a `まで…` summary line states (KI2 has no ending move line).
fn summary_end(line: &str) -> Option<Ending> {
    let rest = line.strip_prefix("まで")?;
    [
        ("手詰", Ending::Mate),
        ("詰み", Ending::Mate),
        ("封じ手", Ending::Sealed),
        ("中断", Ending::Interrupt),
        ("千日手", Ending::Repetition),
        ("持将棋", Ending::Impasse),
        ("時間切れ", Ending::TimeUp),
        ("反則", Ending::IllegalMove),
        ("入玉", Ending::EnteringKing),
        ("の勝ち", Ending::Resign),
    ]
    .into_iter()
    .find(|(word, _)| rest.contains(word))
    .map(|(_, end)| end)
}

/// Reads one KIF or KI2 record (the flavour is recognised from the moves). Without a board the
/// start is the initial position; variations (`変化：`) are not read.
pub fn read(text: &str) -> Result<Kifu, Error> {
    let mut kifu = Kifu::new(PartialPosition::empty());
    let mut board_rows = 0u8;
    // Where the board starts (byte offset, line), for a board with a wrong number of rows.
    let mut board_start = (0, 0);
    let mut has_board = false;
    let mut turn_given = false;
    let mut previous: Option<Square> = None;
    let mut position: Option<PartialPosition> = None;
    for (offset, number, raw) in numbered_lines(text) {
        let line = raw.trim_start_matches('\u{feff}').trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with("変化：") || line.starts_with("変化:") {
            break;
        }
        if let Some(comment) = line.strip_prefix('*') {
            match kifu.moves.len() {
                0 => kifu.comments.push(comment.to_owned()),
                n => kifu.move_comments.push((n, comment.to_owned())),
            }
            continue;
        }
        if line.starts_with('&') {
            // A display directive of 柿木将棋 (`&読み込み時表示`): kept as a header without value.
            kifu.headers.push((line.to_owned(), String::new()));
            continue;
        }
        if line.starts_with('|') {
            let rank = board_rows + 1;
            if !has_board {
                board_start = (offset, number);
            }
            read_row(&mut kifu.start, line, rank).map_err(|e| line_error("kif.board_row", offset, number, e, line))?;
            board_rows += 1;
            has_board = true;
            continue;
        }
        if line.starts_with("+---") || line.starts_with("  ９") || line.starts_with("手数--") {
            continue;
        }
        if line.starts_with("まで") {
            kifu.end = kifu.end.or(summary_end(line));
            continue;
        }
        // A header is `key：value` before the moves; a move line starts with spaces or its number
        // and may hold `:` in its time (`( 0:00/00:00:00)`).
        let is_header = position.is_none() && !line.starts_with(|c: char| c.is_ascii_digit() || c.is_whitespace());
        if let Some((key, value)) = line.split_once('：').or_else(|| line.split_once(':')).filter(|_| is_header) {
            let hand_color = match key {
                "後手の持駒" | "上手の持駒" => Some(Color::White),
                "先手の持駒" | "下手の持駒" => Some(Color::Black),
                _ => None,
            };
            match hand_color {
                Some(color) => read_hand(&mut kifu.start, color, value)
                    .map_err(|e| line_error("kif.hand", offset, number, e, line))?,
                None => kifu.headers.push((key.to_owned(), value.trim().to_owned())),
            }
            continue;
        }
        if let Some(side) = match line {
            "後手番" | "上手番" => Some(Color::White),
            "先手番" | "下手番" => Some(Color::Black),
            _ => None,
        } {
            kifu.start.side_to_move_set(side);
            turn_given = true;
            continue;
        }
        let current = position.get_or_insert_with(|| {
            let handicap = kifu.header("手合割").map(str::to_owned);
            if !has_board {
                kifu.start = handicap.as_deref().and_then(handicap::start).unwrap_or_else(PartialPosition::startpos);
            } else if !turn_given && handicap.as_deref().is_some_and(handicap::is_handicap) {
                // A handicap diagram without a turn line: the handicap side (上手) moves first.
                kifu.start.side_to_move_set(Color::White);
            }
            kifu.start.clone()
        });
        let body = line.trim_start();
        if body.starts_with(['▲', '△', '☗', '☖']) {
            let tokens = japanese::parse_tokens(body).map_err(|(at, expected)| {
                line_error("kif.move", offset, number, expected, body.get(at..).unwrap_or(""))
            })?;
            for token in tokens {
                let mv = japanese::resolve(current, previous, &token)
                    .map_err(|e| line_error("kif.illegal_move", offset, number, e, body))?;
                play(current, &mut kifu.moves, &mut previous, mv);
            }
            continue;
        }
        let Some((ply, text)) = body.split_once(' ').filter(|(n, _)| n.bytes().all(|b| b.is_ascii_digit())) else {
            return Err(line_error("kif.line", offset, number, "a header, board row, or numbered move", line));
        };
        let text = text.trim_start();
        if let Some(end) = Ending::from_kif(text) {
            kifu.end = Some(end);
            break;
        }
        if ["反則", "不戦"].iter().any(|end| text.starts_with(end)) {
            break;
        }
        let mv = kif_move(current, previous, text)
            .map_err(|e| line_error("kif.illegal_move", offset, number, format!("move {ply}: {e}"), text))?;
        play(current, &mut kifu.moves, &mut previous, mv);
    }
    if has_board && board_rows != 9 {
        let (offset, line) = board_start;
        let location = tabiya_io::Location::of(tabiya_io::Unit::Line, line as u64).with_offset(offset as u64);
        let what = format!("expected a board of 9 rows from line {line}, found {board_rows} rows");
        return Err(Error::Record(tabiya_io::Diagnostic::error("kif.board_rows", location, what)));
    }
    Ok(kifu)
}

fn play(position: &mut PartialPosition, moves: &mut Vec<Move>, previous: &mut Option<Square>, mv: Move) {
    // Callers pass legal moves only, which `make_move` accepts.
    if position.make_move(mv).is_some() {
        moves.push(mv);
        *previous = Some(mv.to());
    }
}

/// A KIF move: `７三銀打`, `同　金(72)`, `２二角成(55)`; the origin decides the move.
fn kif_move(position: &PartialPosition, previous: Option<Square>, text: &str) -> Result<Move, String> {
    let (token, len) = japanese::parse_token(text).map_err(|(_, e)| format!("expected {e}"))?;
    let to = token.to.or(previous).ok_or("expected a previous move for 同")?;
    let rest = text[len..].trim_start();
    let mv = match rest.strip_prefix('(').and_then(|r| r.get(..2)) {
        Some(origin) if token.drop == DropMarker::Unspecified => {
            let mut digits = origin.bytes().map(|b| b.wrapping_sub(b'0'));
            let (file, rank) = (digits.next().unwrap_or(0), digits.next().unwrap_or(0));
            let from = Square::new(file, rank).ok_or("expected an origin (xy)")?;
            Move::Normal { from, to, promote: token.promote == Some(true) }
        }
        _ => Move::Drop { piece: Piece::new(token.kind, position.side_to_move()), to },
    };
    if board::moving_piece(position, mv).map(|p| p.piece_kind()) != Some(token.kind) || !board::is_legal(position, mv) {
        return Err(format!("expected a legal move, {} is not", board::usi(mv)));
    }
    Ok(mv)
}

fn read_row(position: &mut PartialPosition, line: &str, rank: u8) -> Result<(), String> {
    if rank > 9 {
        return Err("at most 9 board rows".into());
    }
    let cells: Vec<char> = line.chars().skip(1).take(18).collect();
    if cells.len() != 18 {
        return Err("9 cells of 2 characters".into());
    }
    for (i, pair) in cells.chunks(2).enumerate() {
        let file = 9 - i as u8;
        let color = if pair[0] == 'v' { Color::White } else { Color::Black };
        if pair[1] == '・' {
            continue;
        }
        let mut name = [0u8; 4];
        let (kind, _) = parse_piece(pair[1].encode_utf8(&mut name)).ok_or(format!("a piece kanji in file {file}"))?;
        if let Some(square) = Square::new(file, rank) {
            position.piece_set(square, Some(Piece::new(kind, color)));
        }
    }
    Ok(())
}

fn read_hand(position: &mut PartialPosition, color: Color, text: &str) -> Result<(), String> {
    let text = text.trim();
    if text == "なし" || text.is_empty() {
        return Ok(());
    }
    for part in text.split(['　', ' ']).filter(|p| !p.is_empty()) {
        let (kind, len) = parse_piece(part).ok_or(format!("a piece in hand, found {part:?}"))?;
        if board::hand_slot(kind).is_none() {
            return Err(format!("a piece that can be held, found {part:?}"));
        }
        let count = kanji_number(&part[len..]).ok_or(format!("a kanji count, found {part:?}"))?;
        let hand = position.hand_of_a_player_mut(color);
        for _ in 0..count {
            *hand = hand.added(kind).unwrap_or(*hand);
        }
    }
    Ok(())
}

/// `""` → 1, `二` → 2, `十` → 10, `十六` → 16; digits too (`16`, `１６`, as some programs write).
fn kanji_number(text: &str) -> Option<u8> {
    let digits: String = text
        .chars()
        .map(|c| char::from_digit(super::japanese::numeral_digit(c)?, 10))
        .collect::<Option<_>>()
        .unwrap_or_default();
    if !digits.is_empty() && digits.chars().count() == text.chars().count() {
        return digits.parse().ok();
    }
    let digit = |c: char| RANKS.iter().position(|&r| r == c).map(|i| i as u8 + 1);
    let mut chars = text.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (None, _, _) => Some(1),
        (Some('十'), None, _) => Some(10),
        (Some('十'), Some(c), None) => digit(c).map(|d| 10 + d),
        (Some(c), None, _) => digit(c),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen;

    fn example() -> Kifu {
        let start = sfen::parse("9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1").unwrap();
        let tokens =
            japanese::parse_tokens("73銀同金94桂同馬71銀92玉82金93玉94歩同角84角同金92金同玉62龍93玉82龍").unwrap();
        let moves = japanese::resolve_line(&start, &tokens).unwrap();
        let mut kifu = Kifu::new(start);
        kifu.moves = moves;
        kifu.headers = vec![("作品番号".into(), "0003".into()), ("作者".into(), "初代宗桂".into())];
        kifu.end = Some(Ending::Mate);
        kifu
    }

    #[test]
    fn kif_text() {
        let text = write(&example(), Flavour::Kif);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "作品番号：0003");
        assert_eq!(lines[2], "後手の持駒：飛　金　銀二　桂三　香四　歩十六");
        assert_eq!(lines[5], "| ・ ・ ・ ・ ・ ・ ・ ・ ・|一");
        assert_eq!(lines[6], "| ・v玉v金 ・ ・ ・ ・ ・ ・|二", "files 9→1: 8二 gote king, 7二 gote gold");
        assert_eq!(lines[8], "| ・ ・ ・ 龍 ・ ・ ・ ・ ・|四");
        assert_eq!(lines[9], "| 歩v馬 ・v金 ・ ・ ・ ・ ・|五");
        assert_eq!(lines[15], "先手の持駒：金　銀二　桂");
        assert_eq!(lines[17], "   1 ７三銀打");
        assert_eq!(lines[18], "   2 同　金(72)");
        assert_eq!(lines[33], "  17 ８二龍(62)");
        assert_eq!(lines[34], "  18 詰み");
        assert_eq!(lines[35], "まで17手詰");
    }

    #[test]
    fn kif_and_ki2_read_back() {
        let kifu = example();
        for flavour in [Flavour::Kif, Flavour::Ki2] {
            let text = write(&kifu, flavour);
            assert_eq!(read(&text).unwrap(), kifu, "{flavour:?}");
        }
        let ki2 = write(&kifu, Flavour::Ki2);
        assert!(ki2.contains("▲７三銀 △同　金 ▲９四桂 △同　馬 ▲７一銀 △９二玉 ▲８二金 △９三玉\r\n"), "{ki2}");
    }

    /// A board cut short names the line it starts on.
    #[test]
    fn short_board_names_its_line() {
        let text = "作者：x\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
            | ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n| ・v玉v金 ・ ・ ・ ・ ・ ・|二\n+---------------------------+\n";
        let Err(Error::Record(d)) = read(text) else { panic!("a 2-row board reads") };
        assert_eq!(d.message, "expected a board of 9 rows from line 4, found 2 rows");
        assert_eq!(d.location.number, Some(4));
    }

    /// Times, `先手番` and arabic hand counts, as rsshogi 1.7.0 writes KIF.
    #[test]
    fn kif_with_times_reads() {
        let text = "後手の持駒：歩16　香四　桂三　銀二　金　飛\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
            | ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n| ・v玉v金 ・ ・ ・ ・ ・ ・|二\n| ・v歩 ・ ・ ・ ・ ・ ・ ・|三\n\
            | ・ ・ ・ 龍 ・ ・ ・ ・ ・|四\n| 歩v馬 ・v金 ・ ・ ・ ・ ・|五\n| ・ ・v角 ・ ・ ・ ・ ・ ・|六\n\
            | ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n\
            +---------------------------+\n先手の持駒：桂　銀二　金\n先手番\n手数----指手---------消費時間--\n   \
            1 ７三銀打     ( 0:00/00:00:00)\n   2 同　金(72)   ( 0:00/00:00:00)\n";
        let kifu = read(text).unwrap();
        assert_eq!(sfen::write(&kifu.start), "9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1");
        assert_eq!(kifu.moves.iter().map(|&m| board::usi(m)).collect::<Vec<_>>(), ["S*7c", "7b7c"]);
        assert!(kifu.headers.is_empty());
    }

    #[test]
    fn kanji_counts() {
        assert_eq!(kanji_number(""), Some(1));
        assert_eq!(kanji_number("十六"), Some(16));
        assert_eq!(kanji_number("十"), Some(10));
        assert_eq!(kanji_number("三"), Some(3));
        assert_eq!(kanji_number("16"), Some(16));
        assert_eq!(kanji_number("１６"), Some(16));
        assert_eq!(kanji_number("1x"), None);
        assert_eq!(count_kanji(16), "十六");
        assert_eq!(count_kanji(25), "25");
        assert_eq!(kanji_number("25"), Some(25));
    }
}
