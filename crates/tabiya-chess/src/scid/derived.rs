//! The index fields SCID derives from a game's moves (spec section 6): ply count, promotion
//! flags, final material, StoredLineCode, home-pawn list and the rounded annotation counts.

use std::sync::OnceLock;

use shakmaty::san::San;
use shakmaty::{Board, CastlingSide, Chess, Color, Move, Position, Role, Square};

use super::decode::State;
use super::stored_lines::STORED_LINES;
use crate::game::{Line, Node};

/// What the main line determines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MainLine {
    /// Main-line plies (may exceed the 10 bits SCID stores).
    pub plies: usize,
    pub promotion: bool,
    pub underpromotion: bool,
    pub home_pawn_count: u8,
    pub home_pawns: [u8; 8],
    /// Final material signature (24 bits).
    pub material: u32,
    pub stored_line: u8,
}

/// Computes the main-line fields from the start `state` (`custom_start` = the game has a FEN).
pub fn main_line(start: &Chess, custom_start: bool, nodes: &[Node]) -> MainLine {
    let mut info = MainLine::default();
    let mut pos = start.clone();
    let mut hp_old = HOME_PAWNS_START;
    for node in nodes {
        info.plies += 1;
        if let Some(Move::Normal { promotion: Some(role), .. }) = node.mv {
            info.promotion = true;
            info.underpromotion |= role != Role::Queen;
        }
        match node.mv {
            Some(m) => pos.play_unchecked(m),
            None => pos = super::decode::null_move(&pos),
        }
        if !custom_start {
            let hp_new = home_pawn_signature(pos.board());
            let changed = u32::from(hp_old).wrapping_sub(u32::from(hp_new));
            if changed != 0 {
                hp_old = hp_new;
                let idx = (31 - changed.leading_zeros()) as u8 & 15;
                let n = usize::from(info.home_pawn_count);
                if n < 16 {
                    info.home_pawns[n / 2] |= if n % 2 == 0 { idx << 4 } else { idx };
                    info.home_pawn_count += 1;
                }
            }
        }
    }
    info.material = material_signature(pos.board());
    if !custom_start {
        info.stored_line = stored_line_code(nodes);
    }
    info
}

const HOME_PAWNS_START: u16 = 0xFFFF;

/// Bit 15 = a2 … bit 8 = h2, bit 7 = a7 … bit 0 = h7: set while the original pawn is there.
fn home_pawn_signature(board: &Board) -> u16 {
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    let mut sig = 0u16;
    for file in 0..8 {
        if white >> (8 + file) & 1 != 0 {
            sig |= 1 << (15 - file);
        }
        if black >> (48 + file) & 1 != 0 {
            sig |= 1 << (7 - file);
        }
    }
    sig
}

/// Material of a position: 2 bits per piece type (capped at 3), 4 bits per pawn count.
pub fn material_signature(board: &Board) -> u32 {
    let count = |color: Color, role: Role| (board.by_color(color) & board.by_role(role)).count() as u32;
    let side = |c: Color| {
        count(c, Role::Queen).min(3) << 10
            | count(c, Role::Rook).min(3) << 8
            | count(c, Role::Bishop).min(3) << 6
            | count(c, Role::Knight).min(3) << 4
            | count(c, Role::Pawn).min(15)
    };
    side(Color::White) << 12 | side(Color::Black)
}

/// A dictionary move: from and to squares, or a castling side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineMove {
    Step(Square, Square),
    Castle(CastlingSide),
}

fn line_move(m: Move) -> Option<LineMove> {
    match m {
        Move::Castle { king, rook } => {
            Some(LineMove::Castle(if rook > king { CastlingSide::KingSide } else { CastlingSide::QueenSide }))
        }
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => Some(LineMove::Step(from, to)),
        Move::Put { .. } => None,
    }
}

/// The 254 dictionary lines as moves, parsed once.
fn dictionary() -> &'static [Vec<LineMove>] {
    static LINES: OnceLock<Vec<Vec<LineMove>>> = OnceLock::new();
    LINES.get_or_init(|| {
        STORED_LINES
            .iter()
            .map(|text| {
                let mut pos = Chess::default();
                let mut moves = Vec::new();
                for token in text.split_whitespace() {
                    let san = token.rsplit('.').next().unwrap_or(token);
                    let m = San::from_ascii(san.as_bytes())
                        .ok()
                        .and_then(|s| s.to_move(&pos).ok())
                        .expect("the stored-line dictionary is valid SAN");
                    moves.extend(line_move(m));
                    pos.play_unchecked(m);
                }
                moves
            })
            .collect()
    })
}

/// Code (1–254) of the longest dictionary line that the main line starts with; the first of
/// equally long lines wins, as in SCID. 0 when none matches.
pub fn stored_line_code(nodes: &[Node]) -> u8 {
    let mut best = 0;
    let mut longest = 0;
    for (i, line) in dictionary().iter().enumerate() {
        if line.len() > longest
            && line.len() <= nodes.len()
            && line.iter().zip(nodes).all(|(want, node)| node.mv.and_then(line_move) == Some(*want))
        {
            best = i + 1;
            longest = line.len();
        }
    }
    best as u8
}

/// Variations, comments and NAGs of a whole game (all depths), before rounding.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub variations: usize,
    pub comments: usize,
    pub nags: usize,
}

/// Counts as SCID does: every variation, every NAG byte, every place with a non-empty comment.
pub fn counts(line: &Line) -> Counts {
    let mut c = Counts { comments: usize::from(has_comment(&line.comments)), ..Counts::default() };
    for node in &line.nodes {
        c.nags += node.nags.len();
        c.comments += usize::from(has_comment(&node.comments));
        for v in &node.variations {
            let inner = counts(v);
            c.variations += 1 + inner.variations;
            c.comments += inner.comments;
            c.nags += inner.nags;
        }
    }
    c
}

fn has_comment(comments: &[String]) -> bool {
    comments.iter().any(|c| !c.is_empty())
}

/// The state a game starts from: position and piece lists.
pub fn start_state(pos: Chess, custom_start: bool) -> Result<State, super::pieces::TooManyPieces> {
    let lists = if custom_start {
        super::pieces::PieceLists::from_position(&pos)?
    } else {
        super::pieces::PieceLists::standard()
    };
    Ok(State { pos, lists })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_start_material() {
        assert_eq!(material_signature(Chess::default().board()), 0x6A86A8);
    }

    #[test]
    fn embedded_dictionary_is_the_corpus_list_verbatim() {
        let Some(path) = tabiya_io::corpus::corpus_file("scid/storedlines.txt") else { return };
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines, STORED_LINES);
    }

    #[test]
    fn dictionary_has_254_lines_and_finds_the_longest_match() {
        assert_eq!(dictionary().len(), 254);
        let mut pos = Chess::default();
        let mut nodes = Vec::new();
        for san in ["e4", "c5", "Nf3", "Nc6", "d4", "cxd4", "Nxd4", "g6", "c4"] {
            let m = San::from_ascii(san.as_bytes()).unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
            nodes.push(Node::new(Some(m)));
        }
        // five game 1: code 156 = 1.e4 c5 2.Nf3 Nc6 3.d4 cxd4 4.Nxd4 g6.
        assert_eq!(stored_line_code(&nodes), 156);
        assert_eq!(STORED_LINES[155], "1.e4 c5 2.Nf3 Nc6 3.d4 cxd4 4.Nxd4 g6");
    }
}
