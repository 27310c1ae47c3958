//! KIF and KI2 (柿木将棋 formats): `キー：値` headers, the board diagram with both hands written
//! out (or a `手合割` that names the start), then the moves — KIF one per numbered line with the
//! origin `(xy)` and the time column `( 0:16/00:00:16)`, KI2 as `▲７三銀 △同　金` — and after
//! them the variations, each a `変化：N手` block. The text is Unicode here; `.kif`/`.ki2` files
//! are Shift-JIS, `.kifu`/`.ki2u` UTF-8.

use shogi_core::{Color, Hand, Move, PartialPosition, Piece, Square};

use super::handicap;
use super::japanese::{self, DropMarker, Style, board_name, parse_piece};
use super::{Ending, Kifu, MoveTime, Variation, line_error, numbered_lines, set_time};
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
    // 柿木将棋 writes no board when `手合割` names the start position (平手, 香落ち, …).
    let named = kifu.header("手合割").and_then(handicap::start).is_some_and(|named| named == *start);
    if !named {
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
    }
    if flavour == Flavour::Kif {
        line("手数----指手---------消費時間--");
    }
    for comment in &kifu.comments {
        line(&format!("*{comment}"));
    }
    let line = LineView {
        ply: 1,
        moves: &kifu.moves,
        times: &kifu.times,
        comments: &kifu.move_comments,
        end: kifu.written_end(),
        variations: &kifu.variations,
        first_has_sibling: false,
    };
    let handicap = kifu.header("手合割").is_some_and(handicap::is_handicap);
    let names = if handicap { ["下手", "上手"] } else { ["先手", "後手"] };
    let mut writer = Writer { out, flavour, first: start.side_to_move(), names };
    writer.line(line, start.clone(), None, [0, 0], true);
    for (ply, variation, has_sibling) in line.branches() {
        writer.variation(line, start, ply, variation, has_sibling);
    }
    writer.out
}

/// One line of play to write: the main line or a variation.
#[derive(Clone, Copy)]
struct LineView<'a> {
    ply: usize,
    moves: &'a [Move],
    times: &'a [Option<MoveTime>],
    comments: &'a [(usize, String)],
    end: Option<Ending>,
    variations: &'a [Variation],
    /// Whether another alternative to its first move follows it (KIF's `+` on that move).
    first_has_sibling: bool,
}

impl<'a> LineView<'a> {
    fn of(variation: &'a Variation, first_has_sibling: bool) -> LineView<'a> {
        LineView {
            ply: variation.ply,
            moves: &variation.moves,
            times: &variation.times,
            comments: &variation.move_comments,
            end: variation.end,
            variations: &variation.variations,
            first_has_sibling,
        }
    }

    fn comments_on(&self, n: usize) -> impl Iterator<Item = &'a str> {
        self.comments.iter().filter(move |(ply, _)| *ply == n).map(|(_, text)| text.as_str())
    }

    /// Whether move number `n` (or the ending, one past the moves) has an alternative.
    fn branches_at(&self, n: usize) -> bool {
        (n == self.ply && self.first_has_sibling) || self.variations.iter().any(|v| v.ply == n)
    }

    /// The variations off this line in the order 柿木将棋 writes them: from its last branch
    /// point back to its first, the alternatives of one move in file order; with each, whether
    /// another alternative to the same move follows it.
    fn branches(&self) -> Vec<(usize, &'a Variation, bool)> {
        let mut plies: Vec<usize> = self.variations.iter().map(|v| v.ply).collect();
        plies.sort_unstable();
        plies.dedup();
        let mut order = Vec::new();
        for &ply in plies.iter().rev() {
            let at: Vec<&Variation> = self.variations.iter().filter(|v| v.ply == ply).collect();
            for (i, v) in at.iter().enumerate() {
                order.push((ply, *v, i + 1 < at.len()));
            }
        }
        order
    }
}

/// Writes lines of play as KIF or KI2 text.
struct Writer {
    out: String,
    flavour: Flavour,
    /// The side that moves first in the record, for KI2's ▲/△.
    first: Color,
    /// What the summary calls sente and gote: 先手 and 後手, or 下手 and 上手 in a handicap game.
    names: [&'static str; 2],
}

impl Writer {
    fn push(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push_str("\r\n");
    }

    /// Writes `line` from `position` (before its first move), the recaptured square `previous`
    /// and the players' running totals `totals` (sente, gote; for times that give none). The
    /// main line ends with the `まで…` summary; a KI2 variation with an ending too (KI2 has no
    /// ending move line).
    fn line(
        &mut self,
        line: LineView<'_>,
        mut position: PartialPosition,
        mut previous: Option<Square>,
        mut totals: [u32; 2],
        main: bool,
    ) {
        let style = if self.flavour == Flavour::Kif { Style::Kif } else { Style::Ki2 };
        let mut row: Vec<String> = Vec::new();
        for (i, &mv) in line.moves.iter().enumerate() {
            let n = line.ply + i;
            let text = japanese::write(&position, previous, mv, style);
            let side = position.side_to_move();
            let mut comments = line.comments_on(n).peekable();
            match self.flavour {
                Flavour::Kif => {
                    let time = time_column(&text, line.times.get(i).copied().flatten(), side, &mut totals);
                    let mark = if line.branches_at(n) { "+" } else { "" };
                    self.push(&format!("{n:>4} {text}{time}{mark}"));
                }
                Flavour::Ki2 => {
                    // Eight moves a line; a line also ends at a move with comments, which follow it.
                    row.push(format!("{}{text}", if side == Color::Black { '▲' } else { '△' }));
                    if row.len() == 8 || comments.peek().is_some() || i + 1 == line.moves.len() {
                        self.push(&row.join(" "));
                        row.clear();
                    }
                }
            }
            for comment in comments {
                self.push(&format!("*{comment}"));
            }
            if position.make_move(mv).is_none() {
                break;
            }
            previous = Some(mv.to());
        }
        if let Some(end) = line.end {
            let played = line.ply - 1 + line.moves.len();
            if self.flavour == Flavour::Kif {
                let n = played + 1;
                let time = time_column(
                    end.kif(),
                    line.times.get(line.moves.len()).copied().flatten(),
                    position.side_to_move(),
                    &mut totals,
                );
                let mark = if line.branches_at(n) { "+" } else { "" };
                self.push(&format!("{n:>4} {}{time}{mark}", end.kif()));
            }
            if main || self.flavour == Flavour::Ki2 {
                self.push(&summary(end, played, self.first, self.names));
            }
        }
    }

    /// Writes `variation`, which branches off `parent` (from `start`) at move `ply`, then the
    /// variations off it: a blank line, `変化：N手`, its moves.
    fn variation(
        &mut self,
        parent: LineView<'_>,
        start: &PartialPosition,
        ply: usize,
        variation: &Variation,
        has_sibling: bool,
    ) {
        let (position, previous, totals) = replay(start, parent, ply);
        self.push("");
        self.push(&format!("変化：{ply}手"));
        for comment in variation.move_comments.iter().filter(|(n, _)| *n + 1 == ply) {
            self.push(&format!("*{}", comment.1));
        }
        let line = LineView::of(variation, has_sibling);
        self.line(line, position.clone(), previous, totals, false);
        for (at, child, more) in line.branches() {
            self.variation(line, &position, at, child, more);
        }
    }
}

/// The position, recaptured square and running totals before move number `ply` of `line`,
/// which starts from `start`.
fn replay(start: &PartialPosition, line: LineView<'_>, ply: usize) -> (PartialPosition, Option<Square>, [u32; 2]) {
    let mut position = start.clone();
    let mut previous = None;
    let mut totals = [0, 0];
    for (i, &mv) in line.moves.iter().take(ply.saturating_sub(line.ply)).enumerate() {
        add_time(&mut totals, position.side_to_move(), line.times.get(i).copied().flatten());
        if position.make_move(mv).is_none() {
            break;
        }
        previous = Some(mv.to());
    }
    (position, previous, totals)
}

/// Counts a move's time into its side's running total; returns the total after it.
fn add_time(totals: &mut [u32; 2], side: Color, time: Option<MoveTime>) -> Option<u32> {
    let time = time?;
    let slot = usize::from(side == Color::White);
    totals[slot] = time.total.unwrap_or(totals[slot].saturating_add(time.seconds));
    Some(totals[slot])
}

/// KIF's time column after a move text, as 柿木将棋 lays it out: the text padded to 13
/// columns (a full-width character takes two, as in Shift-JIS bytes), then
/// `( m:ss/hh:mm:ss)`, this move's time and the mover's total. Empty without a time; the total
/// is counted from the earlier moves where the record gives none (CSA's `T`).
fn time_column(text: &str, time: Option<MoveTime>, side: Color, totals: &mut [u32; 2]) -> String {
    let (Some(total), Some(time)) = (add_time(totals, side, time), time) else { return String::new() };
    let width: usize = text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    let pad = " ".repeat(13usize.saturating_sub(width).max(1));
    let (s, t) = (time.seconds, total);
    format!("{pad}({:>2}:{:02}/{:02}:{:02}:{:02})", s / 60, s % 60, t / 3600, t / 60 % 60, t % 60)
}

/// A KIF time column's text without its parentheses (` 0:16/00:00:16`): this move's time as
/// `m:ss`, the total as `h:mm:ss`.
fn parse_time(text: &str) -> Option<MoveTime> {
    let seconds = |part: &str| {
        part.trim().split(':').try_fold(0u32, |sum, n| sum.checked_mul(60)?.checked_add(n.trim().parse::<u32>().ok()?))
    };
    let (this, total) = text.split_once('/')?;
    Some(MoveTime { seconds: seconds(this)?, total: Some(seconds(total)?) })
}

/// A KIF move text split from its time column and its variation mark `+`.
fn split_time(text: &str) -> (&str, Option<MoveTime>) {
    let text = text.trim_end();
    let text = text.strip_suffix('+').unwrap_or(text).trim_end();
    if let Some(open) = text.strip_suffix(')').and_then(|t| t.rfind('('))
        && let Some(time) = parse_time(&text[open + 1..text.len() - 1])
    {
        return (text[..open].trim_end(), Some(time));
    }
    (text, None)
}

/// The `まで…` line after the moves: `まで17手詰` for a mate (the tsume form), else who won
/// or how the game stopped, as 柿木将棋 writes it.
/// `names` are sente's and gote's (下手 and 上手 in a handicap game).
fn summary(end: Ending, played: usize, first: Color, names: [&str; 2]) -> String {
    // The side to move after the moves is the one the ending befalls.
    let loser = if played.is_multiple_of(2) { first } else { first.flip() };
    let (winner, loser) = if loser == Color::Black { (names[1], names[0]) } else { (names[0], names[1]) };
    match end {
        Ending::Mate => format!("まで{played}手詰"),
        Ending::Resign => format!("まで{played}手で{winner}の勝ち"),
        Ending::TimeUp => format!("まで{played}手で時間切れにより{winner}の勝ち"),
        Ending::IllegalMove => format!("まで{played}手で{winner}の反則勝ち"),
        Ending::EnteringKing => {
            format!("まで{played}手で入玉宣言により{loser}の勝ち")
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
/// start is the initial position. Times and the `変化：N手` blocks after the main line are
/// kept in [`Kifu::times`] and [`Kifu::variations`].
pub fn read(text: &str) -> Result<Kifu, Error> {
    let mut kifu = Kifu::new(PartialPosition::empty());
    let mut board_rows = 0u8;
    // Where the board starts (byte offset, line), for a board with a wrong number of rows.
    let mut board_start = (0, 0);
    let mut has_board = false;
    let mut turn_given = false;
    let mut previous: Option<Square> = None;
    let mut position: Option<PartialPosition> = None;
    // The main line as it is read; its moves, times, comments and ending go to `kifu` at the end.
    let mut main = Variation::new(1);
    let mut ended = false;
    let lines: Vec<(usize, usize, &str)> = numbered_lines(text).collect();
    let mut rest = &lines[lines.len()..];
    for (i, &(offset, number, raw)) in lines.iter().enumerate() {
        let line = raw.trim_start_matches('\u{feff}').trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if variation_start(line).is_some() {
            rest = &lines[i..];
            break;
        }
        if let Some(comment) = line.strip_prefix('*') {
            match main.moves.len() {
                _ if ended => {}
                0 => kifu.comments.push(comment.to_owned()),
                n => main.move_comments.push((n, comment.to_owned())),
            }
            continue;
        }
        if ended {
            // After the ending only the summary and the variations count.
            if line.starts_with("まで") {
                main.end = main.end.or(summary_end(line));
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
            main.end = main.end.or(summary_end(line));
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
        ended = read_move_line(&mut main, current, &mut previous, line, (offset, number))?;
    }
    if has_board && board_rows != 9 {
        let (offset, line) = board_start;
        let location = tabiya_io::Location::of(tabiya_io::Unit::Line, line as u64).with_offset(offset as u64);
        let what = format!("expected a board of 9 rows from line {line}, found {board_rows} rows");
        return Err(Error::Record(tabiya_io::Diagnostic::error("kif.board_rows", location, what)));
    }
    let start = kifu.start.clone();
    read_variations(&mut kifu, &main, &start, rest)?;
    kifu.moves = main.moves;
    kifu.times = main.times;
    kifu.move_comments = main.move_comments;
    kifu.end = main.end;
    Ok(kifu)
}

/// The N of a `変化：N手` line (ASCII or full-width digits).
fn variation_start(line: &str) -> Option<usize> {
    let rest = line.strip_prefix("変化：").or_else(|| line.strip_prefix("変化:"))?;
    let digits = rest.trim().strip_suffix('手')?;
    digits.chars().try_fold(0usize, |n, c| n.checked_mul(10)?.checked_add(japanese::numeral_digit(c)? as usize))
}

/// Reads one move line into `line`, played from `current`: KI2's `▲７六歩 △３四歩`, or a KIF
/// numbered move or ending with its time column. Returns whether the line ended the play.
fn read_move_line(
    line: &mut Variation,
    current: &mut PartialPosition,
    previous: &mut Option<Square>,
    text: &str,
    (offset, number): (usize, usize),
) -> Result<bool, Error> {
    let body = text.trim_start();
    if body.starts_with(['▲', '△', '☗', '☖']) {
        let tokens = japanese::parse_tokens(body)
            .map_err(|(at, expected)| line_error("kif.move", offset, number, expected, body.get(at..).unwrap_or("")))?;
        for token in tokens {
            let mv = japanese::resolve(current, *previous, &token)
                .map_err(|e| line_error("kif.illegal_move", offset, number, e, body))?;
            play(current, &mut line.moves, previous, mv);
        }
        return Ok(false);
    }
    let Some((ply, text)) = body.split_once(' ').filter(|(n, _)| n.bytes().all(|b| b.is_ascii_digit())) else {
        return Err(line_error("kif.line", offset, number, "a header, board row, or numbered move", text));
    };
    let (text, time) = split_time(text.trim_start());
    let index = line.moves.len();
    if let Some(time) = time {
        set_time(&mut line.times, index, time);
    }
    if let Some(end) = Ending::from_kif(text) {
        line.end = Some(end);
        return Ok(true);
    }
    if ["反則", "不戦"].iter().any(|end| text.starts_with(end)) {
        return Ok(true);
    }
    let mv = kif_move(current, *previous, text)
        .map_err(|e| line_error("kif.illegal_move", offset, number, format!("move {ply}: {e}"), text))?;
    play(current, &mut line.moves, previous, mv);
    Ok(false)
}

/// Where a variation may branch: before move `n` of the line read last, the position, the
/// recaptured square, and the path to the line that holds move `n` (indices into the
/// variation lists from the main line down; empty for the main line).
#[derive(Clone)]
struct BranchPoint {
    position: PartialPosition,
    previous: Option<Square>,
    owner: Vec<usize>,
}

/// The branch points along `line` (played from `position` after `previous`), owned by `owner`:
/// one before each move and one after the last.
fn branch_points(
    line: &Variation,
    mut position: PartialPosition,
    mut previous: Option<Square>,
    owner: &[usize],
) -> Vec<BranchPoint> {
    let mut points = Vec::with_capacity(line.moves.len() + 1);
    for &mv in &line.moves {
        points.push(BranchPoint { position: position.clone(), previous, owner: owner.to_vec() });
        if position.make_move(mv).is_none() {
            break;
        }
        previous = Some(mv.to());
    }
    points.push(BranchPoint { position, previous, owner: owner.to_vec() });
    points
}

/// The variation list of the line at `path` (the main line's for an empty path).
fn branches_mut<'a>(kifu: &'a mut Kifu, path: &[usize]) -> &'a mut Vec<Variation> {
    let mut list = &mut kifu.variations;
    for &i in path {
        list = &mut list[i].variations;
    }
    list
}

/// Reads the `変化：N手` blocks (`lines` starts at the first) into `kifu.variations`. As
/// 柿木将棋 writes them (and rsshogi reads them), a block branches off the line read last:
/// its moves replace that line's from move N on; when that line itself starts at move N, the
/// block is another alternative to the same move.
fn read_variations(
    kifu: &mut Kifu,
    main: &Variation,
    start: &PartialPosition,
    lines: &[(usize, usize, &str)],
) -> Result<(), Error> {
    let mut active = branch_points(main, start.clone(), None, &[]);
    let mut i = 0;
    while i < lines.len() {
        let (offset, number, raw) = lines[i];
        i += 1;
        let header = raw.trim();
        let Some(ply) = variation_start(header) else {
            if header.is_empty() {
                continue;
            }
            return Err(line_error("kif.line", offset, number, "a 変化：N手 line after the main line", header));
        };
        let Some(point) = active.get(ply.wrapping_sub(1)).cloned() else {
            let expected = format!("a variation from move 1 to {}", active.len());
            return Err(line_error("kif.variation", offset, number, expected, header));
        };
        let mut variation = Variation::new(ply);
        let mut position = point.position.clone();
        let mut previous = point.previous;
        let mut ended = false;
        while let Some(&(offset, number, raw)) = lines.get(i) {
            let line = raw.trim_end();
            if variation_start(line.trim()).is_some() {
                break;
            }
            i += 1;
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(comment) = line.strip_prefix('*') {
                let n = ply - 1 + variation.moves.len();
                variation.move_comments.push((n, comment.to_owned()));
            } else if line.starts_with("まで") {
                variation.end = variation.end.or(summary_end(line));
            } else if !ended {
                ended = read_move_line(&mut variation, &mut position, &mut previous, line, (offset, number))?;
            }
        }
        // A block on the first move of the line read last is a sibling of that line.
        let mut parent = point.owner.clone();
        let sibling = match parent.split_last() {
            Some((&last, up)) => {
                let list = branches_mut(kifu, up);
                list[last].ply == ply
            }
            None => false,
        };
        if sibling {
            parent.pop();
        }
        let list = branches_mut(kifu, &parent);
        parent.push(list.len());
        active.truncate(ply - 1);
        active.extend(branch_points(&variation, point.position, point.previous, &parent));
        list.push(variation);
    }
    Ok(())
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
