//! The Japanese move notation of T-BASE `.tjn` files, KI2 and KIF: tokens such as `14龍`,
//! `13金合`, `同金`, `22角成`, `33金打`, `23金寄`, `７三銀不成`, `同　金`, resolved against a position
//! to legal moves, and written back from moves.
//!
//! Resolving filters the legal moves to the destination square (the previous destination for
//! `同`) by the piece before the move, the promotion flag, drop or board move (`打`/`合` → drop;
//! otherwise a board move when one exists, else a drop) and the direction markers. The writer
//! tries marker combinations in the official order and keeps the first one that the resolver
//! maps back to the move, so whatever it writes reads back to the same move.

use shogi_core::{Color, IllegalMoveKind, Move, PartialPosition, Piece, PieceKind, Square};

use crate::board;

/// Where a move token leaves its piece: the board or a drop (`打`), a defender's interposition
/// (`合`, also a drop) or unspecified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DropMarker {
    #[default]
    /// No 打: a drop only if no piece can move there.
    Unspecified,
    /// `打`
    Drop,
    /// `合`
    Interpose,
}

/// A direction marker of KI2 (and T-BASE) notation, relative to the side that moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// `上` (also `行`, `入`): moves forward.
    Up,
    /// `引`: moves backward.
    Back,
    /// `寄`: moves sideways.
    Sideways,
    /// `直`: moves straight forward.
    Straight,
    /// `右`: the rightmost of the pieces that could move there.
    Right,
    /// `左`: the leftmost.
    Left,
}

impl Direction {
    fn kanji(self) -> &'static str {
        match self {
            Direction::Up => "上",
            Direction::Back => "引",
            Direction::Sideways => "寄",
            Direction::Straight => "直",
            Direction::Right => "右",
            Direction::Left => "左",
        }
    }
}

/// One move as written, before it is resolved against a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The destination; `None` for `同` (the previous move's destination).
    pub to: Option<Square>,
    /// The piece before the move (`龍` = promoted rook).
    pub kind: PieceKind,
    /// `Some(true)` for `成`, `Some(false)` for `不成`/`生`, `None` when not written.
    pub promote: Option<bool>,
    /// 打 written, or not.
    pub drop: DropMarker,
    /// 上, 引, 寄, 右, 左, 直, in the order written.
    pub directions: Vec<Direction>,
}

/// How moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// T-BASE `.tjn`: ASCII digits (`14龍`), `同金`, `合` on the defender's drops, `打` and
    /// direction markers only when needed.
    Tbase,
    /// KI2: full-width file and kanji rank (`１四龍`), `同　金`, `打` and markers only when needed.
    Ki2,
    /// KIF: like KI2 but `打` on every drop, no direction markers, the origin `(xy)` appended.
    Kif,
}

const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The value 0–9 of an ASCII or full-width digit.
pub(crate) fn numeral_digit(c: char) -> Option<u32> {
    c.to_digit(10).or_else(|| ('０'..='９').contains(&c).then(|| c as u32 - '０' as u32))
}

/// The value 1–9 of an ASCII, full-width or kanji numeral.
fn numeral(c: char) -> Option<u8> {
    match numeral_digit(c) {
        Some(d) => (d >= 1).then_some(d as u8),
        None => RANKS.iter().position(|&x| x == c).map(|i| i as u8 + 1),
    }
}

/// The kanji of a piece kind in moves and hands (`龍`, `成銀`).
pub fn piece_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "玉",
        PieceKind::Rook => "飛",
        PieceKind::Bishop => "角",
        PieceKind::Gold => "金",
        PieceKind::Silver => "銀",
        PieceKind::Knight => "桂",
        PieceKind::Lance => "香",
        PieceKind::Pawn => "歩",
        PieceKind::ProRook => "龍",
        PieceKind::ProBishop => "馬",
        PieceKind::ProSilver => "成銀",
        PieceKind::ProKnight => "成桂",
        PieceKind::ProLance => "成香",
        PieceKind::ProPawn => "と",
    }
}

/// The one-character kanji of a piece on a KIF/KI2 board (`全` for 成銀).
pub fn board_name(kind: PieceKind) -> char {
    match kind {
        PieceKind::ProSilver => '全',
        PieceKind::ProKnight => '圭',
        PieceKind::ProLance => '杏',
        other => piece_name(other).chars().next().unwrap_or('？'),
    }
}

/// The piece kind a kanji names, and how many bytes of `text` it takes.
pub fn parse_piece(text: &str) -> Option<(PieceKind, usize)> {
    for (name, kind) in [("成銀", PieceKind::ProSilver), ("成桂", PieceKind::ProKnight), ("成香", PieceKind::ProLance)]
    {
        if text.starts_with(name) {
            return Some((kind, name.len()));
        }
    }
    let c = text.chars().next()?;
    let kind = match c {
        '玉' | '王' => PieceKind::King,
        '飛' => PieceKind::Rook,
        '角' => PieceKind::Bishop,
        '金' => PieceKind::Gold,
        '銀' => PieceKind::Silver,
        '桂' => PieceKind::Knight,
        '香' => PieceKind::Lance,
        '歩' => PieceKind::Pawn,
        '龍' | '竜' => PieceKind::ProRook,
        '馬' => PieceKind::ProBishop,
        'と' => PieceKind::ProPawn,
        '全' => PieceKind::ProSilver,
        '圭' => PieceKind::ProKnight,
        '杏' => PieceKind::ProLance,
        _ => return None,
    };
    Some((kind, c.len_utf8()))
}

fn is_space(c: char) -> bool {
    c == ' ' || c == '　' || c == '\t'
}

/// Parses the move at the start of `text` (leading spaces and `▲△☗☖` skipped). Returns the token
/// and the number of bytes it took, or what was expected at which byte offset.
pub fn parse_token(text: &str) -> Result<(Token, usize), (usize, &'static str)> {
    let start = text.len() - text.trim_start_matches(|c: char| is_space(c) || "▲△☗☖".contains(c)).len();
    let mut at = start;
    let rest = &text[at..];
    let to = if let Some(after) = rest.strip_prefix('同') {
        at += '同'.len_utf8();
        at += after.len() - after.trim_start_matches(is_space).len();
        None
    } else {
        let mut chars = rest.chars();
        let file = chars.next().and_then(numeral).ok_or((at, "a file digit or 同"))?;
        let file_len = rest.chars().next().map_or(0, char::len_utf8);
        let rank_char = chars.next();
        let rank = rank_char.and_then(numeral).ok_or((at + file_len, "a rank digit"))?;
        at += file_len + rank_char.map_or(0, char::len_utf8);
        Some(Square::new(file, rank).ok_or((at, "a square"))?)
    };
    let (kind, len) = parse_piece(&text[at..]).ok_or((at, "a piece (玉飛角金銀桂香歩龍馬と全圭杏)"))?;
    at += len;
    let mut token = Token { to, kind, promote: None, drop: DropMarker::Unspecified, directions: Vec::new() };
    loop {
        let rest = &text[at..];
        let (taken, len) = if rest.starts_with("不成") {
            token.promote = Some(false);
            (true, "不成".len())
        } else {
            let Some(c) = rest.chars().next() else { break };
            let taken = match c {
                '成' => {
                    token.promote = Some(true);
                    true
                }
                '生' => {
                    token.promote = Some(false);
                    true
                }
                '打' => {
                    token.drop = DropMarker::Drop;
                    true
                }
                '合' => {
                    token.drop = DropMarker::Interpose;
                    true
                }
                _ => match direction(c) {
                    Some(d) => {
                        token.directions.push(d);
                        true
                    }
                    None => false,
                },
            };
            (taken, c.len_utf8())
        };
        if !taken {
            break;
        }
        at += len;
    }
    Ok((token, at))
}

fn direction(c: char) -> Option<Direction> {
    Some(match c {
        // 行 and 入 are older spellings of a forward move (龍行, 馬入).
        '上' | '行' | '入' => Direction::Up,
        '引' => Direction::Back,
        '寄' => Direction::Sideways,
        '直' => Direction::Straight,
        '右' => Direction::Right,
        '左' => Direction::Left,
        _ => return None,
    })
}

/// Splits a run of moves written back to back (`14龍13金合22金同金`) into tokens. The error gives
/// the byte offset in `text` and what was expected there.
pub fn parse_tokens(text: &str) -> Result<Vec<Token>, (usize, &'static str)> {
    let mut tokens = Vec::new();
    let mut at = 0;
    while !text[at..].trim_matches(is_space).is_empty() {
        let (token, len) = parse_token(&text[at..]).map_err(|(offset, expected)| (at + offset, expected))?;
        tokens.push(token);
        at += len;
    }
    Ok(tokens)
}

/// The legal move a token means in `position` (`previous` = the last move's destination, for `同`),
/// or what was expected.
pub fn resolve(position: &PartialPosition, previous: Option<Square>, token: &Token) -> Result<Move, String> {
    let to = token.to.or(previous).ok_or("a previous move for 同")?;
    let side = position.side_to_move();
    let name = piece_name(token.kind);
    let mut board_moves = Vec::new();
    if token.drop == DropMarker::Unspecified {
        let piece = Piece::new(token.kind, side);
        let promote = token.promote == Some(true);
        for from in position.piece_bitboard(piece) {
            let mv = Move::Normal { from, to, promote };
            if board::is_legal(position, mv) {
                board_moves.push(mv);
            }
        }
    }
    let mut candidates = if !board_moves.is_empty() || !token.directions.is_empty() || token.promote.is_some() {
        board_moves
    } else {
        let drop = Move::Drop { piece: Piece::new(token.kind, side), to };
        if board::is_legal(position, drop) { vec![drop] } else { Vec::new() }
    };
    filter_directions(&mut candidates, side, &token.directions);
    match candidates.as_slice() {
        [mv] => Ok(*mv),
        [] => {
            // Say why a drop that is otherwise possible is not legal (二歩, 打ち歩詰め, …).
            let drop = Move::Drop { piece: Piece::new(token.kind, side), to };
            let why = match board::illegality(position, drop) {
                Some(IllegalMoveKind::TwoPawns) => " (a drop there would be 二歩)",
                Some(IllegalMoveKind::DropPawnMate) => " (a drop there would be 打ち歩詰め)",
                Some(IllegalMoveKind::DropStuck) => " (a dropped piece there could never move)",
                _ => "",
            };
            Err(format!("a legal move of {name} to {}{why}", square_name(to)))
        }
        several => Err(format!(
            "one legal move, found {} ({}): add a direction marker",
            several.len(),
            several.iter().map(|&m| board::usi(m)).collect::<Vec<_>>().join(" ")
        )),
    }
}

fn filter_directions(candidates: &mut Vec<Move>, side: Color, directions: &[Direction]) {
    let rank = |s: Square| s.relative_rank(side) as i8;
    let file = |s: Square| s.relative_file(side) as i8;
    for &d in directions {
        match d {
            Direction::Right | Direction::Left => {
                let files = candidates.iter().filter_map(|m| m.from()).map(file);
                let extreme = if d == Direction::Right { files.min() } else { files.max() };
                candidates.retain(|m| m.from().map(file) == extreme);
            }
            _ => candidates.retain(|m| {
                let Move::Normal { from, to, .. } = *m else { return false };
                match d {
                    Direction::Up => rank(to) < rank(from),
                    Direction::Back => rank(to) > rank(from),
                    Direction::Sideways => rank(to) == rank(from),
                    _ => rank(to) < rank(from) && file(to) == file(from),
                }
            }),
        }
    }
}

/// `2三`-style name of a square, for messages.
fn square_name(square: Square) -> String {
    format!("{}{}", square.file(), RANKS[usize::from(square.rank().clamp(1, 9) - 1)])
}

/// Marker combinations in the order the official notation prefers them: movement first, then
/// 直, then right/left, then right/left with a movement.
const MARKER_CHOICES: [&[Direction]; 13] = {
    use Direction::*;
    [
        &[],
        &[Up],
        &[Back],
        &[Sideways],
        &[Straight],
        &[Right],
        &[Left],
        &[Up, Right],
        &[Up, Left],
        &[Back, Right],
        &[Back, Left],
        &[Sideways, Right],
        &[Sideways, Left],
    ]
};

/// Writes a legal move of `position` in the given style; `previous` is the last move's
/// destination (for `同`).
pub fn write(position: &PartialPosition, previous: Option<Square>, mv: Move, style: Style) -> String {
    let kind = board::moving_piece(position, mv).map_or(PieceKind::Pawn, |p| p.piece_kind());
    let to = mv.to();
    let mut text = String::new();
    if previous == Some(to) {
        text.push('同');
        if style != Style::Tbase {
            text.push('　');
        }
    } else if style == Style::Tbase {
        text.push_str(&format!("{}{}", to.file(), to.rank()));
    } else {
        text.push(WIDE_DIGITS[usize::from(to.file() - 1)]);
        text.push(RANKS[usize::from(to.rank() - 1)]);
    }
    text.push_str(piece_name(kind));
    match mv {
        Move::Drop { .. } => {
            let written =
                Token { to: Some(to), kind, promote: None, drop: DropMarker::Unspecified, directions: vec![] };
            let defender = position.side_to_move() == board::DEFENDER;
            if style == Style::Tbase && defender {
                text.push('合');
            } else if style == Style::Kif || resolve(position, Some(to), &written) != Ok(mv) {
                text.push('打');
            }
        }
        Move::Normal { from, to, promote } => {
            if style != Style::Kif {
                let chosen = MARKER_CHOICES.iter().find(|markers| {
                    let written = Token {
                        to: Some(to),
                        kind,
                        promote: Some(promote),
                        drop: DropMarker::Unspecified,
                        directions: markers.to_vec(),
                    };
                    resolve(position, Some(to), &written) == Ok(mv)
                });
                for d in chosen.copied().unwrap_or_default() {
                    text.push_str(d.kanji());
                }
            }
            if promote {
                text.push('成');
            } else if board::is_legal(position, Move::Normal { from, to, promote: true }) {
                text.push_str("不成");
            }
            if style == Style::Kif {
                text.push_str(&format!("({}{})", from.file(), from.rank()));
            }
        }
    }
    text
}

/// Resolves a line of tokens from `start`; returns the moves, or the index of the first token
/// that does not resolve with what was expected.
pub fn resolve_line(start: &PartialPosition, tokens: &[Token]) -> Result<Vec<Move>, (usize, String)> {
    let mut position = start.clone();
    let mut previous = None;
    let mut moves = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        let mv = resolve(&position, previous, token).map_err(|e| (i, e))?;
        // `resolve` only returns legal moves, which `make_move` accepts.
        position.make_move(mv).ok_or((i, "a legal move".to_owned()))?;
        previous = Some(mv.to());
        moves.push(mv);
    }
    Ok(moves)
}

/// Writes a line of legal moves from `start`, one string per move.
pub fn write_line(start: &PartialPosition, moves: &[Move], style: Style) -> Vec<String> {
    let mut position = start.clone();
    let mut previous = None;
    let mut written = Vec::with_capacity(moves.len());
    for &mv in moves {
        written.push(write(&position, previous, mv, style));
        if position.make_move(mv).is_none() {
            break;
        }
        previous = Some(mv.to());
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen;

    /// tbase.md §14.3: the seed's #0003 line on the board that makes it legal.
    const SEED_0003_BOARD: &str = "7gl/8k/9/5+R3/4B4/9/9/9/9 b GPrb2g4s4n3l17p 1";
    const SEED_0003_LINE: &str = "14龍13金合22金同金13龍同玉24金12玉22角成同玉33金打21玉22歩12玉23金寄";
    const SEED_0003_USI: &str = "4d1d G*1c G*2b 2a2b 1d1c 1b1c G*2d 1c1b 5e2b+ 1b2b G*3c 2b2a P*2b 2a1b 3c2c";

    fn usi_line(moves: &[Move]) -> String {
        moves.iter().map(|&m| board::usi(m)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn seed_line_resolves_and_writes_back() {
        let start = sfen::parse(SEED_0003_BOARD).unwrap();
        let tokens = parse_tokens(SEED_0003_LINE).unwrap();
        assert_eq!(tokens.len(), 15);
        let moves = resolve_line(&start, &tokens).unwrap();
        assert_eq!(usi_line(&moves), SEED_0003_USI);
        assert_eq!(write_line(&start, &moves, Style::Tbase).concat(), SEED_0003_LINE);
    }

    #[test]
    fn last_move_needs_the_sideways_marker() {
        let start = sfen::parse(SEED_0003_BOARD).unwrap();
        let mut tokens = parse_tokens(SEED_0003_LINE).unwrap();
        tokens[14].directions.clear();
        let (index, expected) = resolve_line(&start, &tokens).unwrap_err();
        assert_eq!(index, 14);
        assert!(expected.contains("2d2c") && expected.contains("3c2c"), "{expected}");
    }

    #[test]
    fn notations_of_one_square() {
        let a = parse_tokens("１四龍").unwrap();
        let b = parse_tokens("1四龍").unwrap();
        let c = parse_tokens("14竜").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a[0].to, Some(Square::SQ_1D));
        assert_eq!(a[0].kind, PieceKind::ProRook);
        let t = parse_tokens("▲２二銀右不成 △同　成銀 ▲３三桂生").unwrap();
        assert_eq!(t[0].directions, [Direction::Right]);
        assert_eq!(t[0].promote, Some(false));
        assert_eq!((t[1].to, t[1].kind), (None, PieceKind::ProSilver));
        assert_eq!((t[2].kind, t[2].promote), (PieceKind::Knight, Some(false)));
        assert_eq!(parse_tokens("14龍x"), Err((5, "a file digit or 同")));
        assert_eq!(parse_tokens("1"), Err((1, "a rank digit")));
    }

    #[test]
    fn illegal_drops_say_why() {
        // tbase.md §14.6: P*1b would mate the king on 1a: 打ち歩詰め.
        let position = sfen::parse("8k/6S2/7G1/9/9/9/9/9/9 b P2r2b3g3s4n4l17p 1").unwrap();
        let token = &parse_tokens("12歩").unwrap()[0];
        assert_eq!(
            resolve(&position, None, token),
            Err("a legal move of 歩 to 1二 (a drop there would be 打ち歩詰め)".into())
        );
        let position = sfen::parse("8k/9/9/9/9/9/9/8P/9 b P2r2b4g4s4n4l16p 1").unwrap();
        let token = &parse_tokens("15歩").unwrap()[0];
        assert_eq!(
            resolve(&position, None, token),
            Err("a legal move of 歩 to 1五 (a drop there would be 二歩)".into())
        );
    }

    #[test]
    fn kif_and_ki2_styles() {
        let start = sfen::parse(SEED_0003_BOARD).unwrap();
        let moves = resolve_line(&start, &parse_tokens(SEED_0003_LINE).unwrap()).unwrap();
        let ki2 = write_line(&start, &moves, Style::Ki2);
        assert_eq!(ki2[..4], ["１四龍", "１三金", "２二金", "同　金"]);
        assert_eq!(ki2[10], "３三金打");
        assert_eq!(ki2[14], "２三金寄");
        let kif = write_line(&start, &moves, Style::Kif);
        assert_eq!(kif[..4], ["１四龍(44)", "１三金打", "２二金打", "同　金(21)"]);
        assert_eq!(kif[8], "２二角成(55)");
    }
}
