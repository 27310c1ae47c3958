//! The index fields SCID derives from a game's moves (spec section 6): ply count, promotion
//! flags, final material, StoredLineCode, home-pawn list and the rounded annotation counts.

use std::sync::OnceLock;

use shakmaty::san::San;
use shakmaty::{Board, ByColor, ByRole, Chess, Color, Move, Position, Rank, Role, Square};

use super::stored_lines::STORED_LINES;
use crate::game::{Line, Node};
use crate::text::TextBuf;

/// What the main line determines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MainLine {
    /// Main-line plies (may exceed the 10 bits SCID stores).
    pub plies: usize,
    /// A pawn promotes in the main line.
    pub promotion: bool,
    /// A pawn promotes to a knight, bishop or rook.
    pub underpromotion: bool,
    /// Number of home-pawn moves recorded (SCID's pawn-structure search key).
    pub home_pawn_count: u8,
    /// The home-pawn moves, packed.
    pub home_pawns: [u8; 8],
    /// Final material signature (24 bits).
    pub material: u32,
    /// SCID's stored-line (opening dictionary) code.
    pub stored_line: u8,
}

/// Computes the main-line fields from the start position (`custom_start` = the game has a FEN).
pub fn main_line(start: &Chess, custom_start: bool, nodes: &[Node]) -> MainLine {
    let mut fields = MainLineFields::new(start, custom_start);
    let mut pos = start.clone();
    for node in nodes {
        fields.push(pos.turn(), node.mv);
        match node.mv {
            Some(m) => pos.play_unchecked(m),
            None => pos = super::decode::null_move(&pos),
        }
    }
    fields.finish()
}

/// The main-line fields gathered move by move, from the moves alone: material counts follow
/// captures and promotions and the home pawns follow the pawns that leave their squares, so no
/// position is replayed. [`MainLineFields::push`] takes a whole move; the encoder, which
/// already dispatches on each move to write it, calls the parts ([`MainLineFields::capture`],
/// [`MainLineFields::pawn_move`], [`MainLineFields::en_passant`], then
/// [`MainLineFields::end_move`]) from that one dispatch.
#[derive(Debug, Clone)]
pub struct MainLineFields {
    info: MainLine,
    /// Pieces by colour and role.
    material: ByColor<ByRole<u8>>,
    /// The pawns still on their home squares: bit 15 − file for White's second rank, 7 − file
    /// for Black's seventh, the number a pawn has in the home-pawn list. Empty for a game with
    /// a FEN, which has no home-pawn list.
    home_pawns: u16,
    /// The dictionary prefix matched so far; `None` once the main line has left the dictionary.
    dictionary_node: Option<usize>,
}

/// Material of the standard start.
const START_MATERIAL: ByRole<u8> = ByRole { pawn: 8, knight: 2, bishop: 2, rook: 2, queen: 1, king: 1 };

impl MainLineFields {
    /// Starts on `start`; `custom_start` for games from a FEN.
    pub fn new(start: &Chess, custom_start: bool) -> MainLineFields {
        MainLineFields {
            info: MainLine::default(),
            material: if custom_start {
                start.board().material()
            } else {
                ByColor { white: START_MATERIAL, black: START_MATERIAL }
            },
            home_pawns: if custom_start { 0 } else { 0xFFFF },
            dictionary_node: (!custom_start).then_some(0),
        }
    }

    /// The next main-line move (`None` = null move), played by `us`.
    #[inline]
    pub fn push(&mut self, us: Color, mv: Option<Move>) {
        match mv {
            Some(Move::Normal { role, from, capture, to, promotion }) => {
                if let Some(captured) = capture {
                    self.capture(!us, captured, to);
                }
                if role == Role::Pawn {
                    self.pawn_move(us, from, promotion);
                }
            }
            Some(Move::EnPassant { from, to }) => self.en_passant(us, from, to),
            Some(Move::Castle { .. } | Move::Put { .. }) | None => {}
        }
        self.end_move(mv);
    }

    /// `them` lose their `role` on `on`.
    #[inline]
    pub fn capture(&mut self, them: Color, role: Role, on: Square) {
        let count = self.material.get_mut(them).get_mut(role);
        *count = count.saturating_sub(1);
        if role == Role::Pawn {
            self.pawn_leaves(them, on);
        }
    }

    /// A pawn of `us` moves from `from` (a capture is [`MainLineFields::capture`] besides),
    /// maybe promoting.
    #[inline]
    pub fn pawn_move(&mut self, us: Color, from: Square, promotion: Option<Role>) {
        self.pawn_leaves(us, from);
        if let Some(piece) = promotion {
            self.info.promotion = true;
            self.info.underpromotion |= piece != Role::Queen;
            let ours = self.material.get_mut(us);
            *ours.get_mut(Role::Pawn) = ours.pawn.saturating_sub(1);
            *ours.get_mut(piece) += 1;
        }
    }

    /// An en passant capture by `us`.
    pub fn en_passant(&mut self, us: Color, from: Square, to: Square) {
        let victim = super::pieces::en_passant_victim(from, to);
        self.capture(!us, Role::Pawn, victim);
        self.pawn_move(us, from, None);
    }

    /// A pawn of `color` leaves `from`, moved or taken: a pawn leaving its home square joins
    /// the home-pawn list.
    #[inline]
    fn pawn_leaves(&mut self, color: Color, from: Square) {
        let number = match (color, from.rank()) {
            (Color::White, Rank::Second) => 15 - from.file() as u8,
            (Color::Black, Rank::Seventh) => 7 - from.file() as u8,
            _ => return,
        };
        let bit = 1 << number;
        if self.home_pawns & bit != 0 {
            self.home_pawns &= !bit;
            let n = usize::from(self.info.home_pawn_count);
            if n < 16 {
                self.info.home_pawns[n / 2] |= if n % 2 == 0 { number << 4 } else { number };
                self.info.home_pawn_count += 1;
            }
        }
    }

    /// Ends the move `mv` (after its parts above): counts the ply and follows the opening
    /// dictionary.
    #[inline]
    pub fn end_move(&mut self, mv: Option<Move>) {
        self.info.plies += 1;
        if let Some(node) = self.dictionary_node {
            self.follow_dictionary(node, mv);
        }
    }

    fn follow_dictionary(&mut self, node: usize, mv: Option<Move>) {
        self.dictionary_node = mv.and_then(line_move).and_then(|m| dictionary().child(node, m));
        if let Some(code) = self.dictionary_node.map(|n| dictionary().code(n)).filter(|&c| c != 0) {
            self.info.stored_line = code;
        }
    }

    /// The fields of the main line played.
    pub fn finish(mut self) -> MainLine {
        self.info.material = signature(&self.material);
        self.info
    }
}

/// Material of a position: 2 bits per piece type (capped at 3), 4 bits per pawn count.
pub fn material_signature(board: &Board) -> u32 {
    signature(&board.material())
}

fn signature(material: &ByColor<ByRole<u8>>) -> u32 {
    let side = |pieces: &ByRole<u8>| {
        let count = |role: Role| u32::from(*pieces.get(role)).min(3);
        count(Role::Queen) << 10
            | count(Role::Rook) << 8
            | count(Role::Bishop) << 6
            | count(Role::Knight) << 4
            | u32::from(pieces.pawn).min(15)
    };
    side(&material.white) << 12 | side(&material.black)
}

/// A dictionary move as a number: `from << 6 | to`, or [`CASTLE_KEY`] + the castling side.
type LineMove = u16;

const CASTLE_KEY: LineMove = 1 << 12;

fn line_move(m: Move) -> Option<LineMove> {
    match m {
        Move::Castle { king, rook } => Some(CASTLE_KEY + LineMove::from(rook > king)),
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => {
            Some(LineMove::from(u8::from(from)) << 6 | LineMove::from(u8::from(to)))
        }
        Move::Put { .. } => None,
    }
}

/// The 254 dictionary lines as a tree of moves: node 0 is the empty line; a node's code is the
/// first dictionary line (1-based) ending there, 0 if none.
struct Dictionary {
    children: Vec<Vec<(LineMove, usize)>>,
    codes: Vec<u8>,
}

impl Dictionary {
    fn child(&self, node: usize, m: LineMove) -> Option<usize> {
        self.children[node].iter().find(|(want, _)| *want == m).map(|&(_, next)| next)
    }

    fn code(&self, node: usize) -> u8 {
        self.codes[node]
    }
}

/// The dictionary, parsed once.
fn dictionary() -> &'static Dictionary {
    static TREE: OnceLock<Dictionary> = OnceLock::new();
    TREE.get_or_init(|| {
        let mut tree = Dictionary { children: vec![Vec::new()], codes: vec![0] };
        for (i, text) in STORED_LINES.iter().enumerate() {
            let mut pos = Chess::default();
            let mut node = 0;
            for token in text.split_whitespace() {
                let san = token.rsplit('.').next().unwrap_or(token);
                let m = San::from_ascii(san.as_bytes())
                    .ok()
                    .and_then(|s| s.to_move(&pos).ok())
                    .expect("the stored-line dictionary is valid SAN");
                let step = line_move(m).expect("dictionary moves are board moves");
                node = match tree.child(node, step) {
                    Some(next) => next,
                    None => {
                        tree.children.push(Vec::new());
                        tree.codes.push(0);
                        let next = tree.children.len() - 1;
                        tree.children[node].push((step, next));
                        next
                    }
                };
                pos.play_unchecked(m);
            }
            // The first of two equal lines wins, as in SCID.
            if tree.codes[node] == 0 {
                tree.codes[node] = (i + 1) as u8;
            }
        }
        tree
    })
}

/// Code (1–254) of the longest dictionary line that the main line starts with; 0 when none
/// matches.
pub fn stored_line_code(nodes: &[Node]) -> u8 {
    let mut fields = MainLineFields::new(&Chess::default(), false);
    let mut turn = Color::White;
    for node in nodes {
        fields.push(turn, node.mv);
        turn = !turn;
        if fields.dictionary_node.is_none() {
            break;
        }
    }
    fields.info.stored_line
}

/// Variations, comments and NAGs of a whole game (all depths), before rounding.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Variations.
    pub variations: usize,
    /// Comments.
    pub comments: usize,
    /// NAGs.
    pub nags: usize,
}

/// Counts as SCID does: every variation, every NAG byte, every place with a non-empty comment.
pub fn counts(line: &Line) -> Counts {
    let mut c = Counts { comments: usize::from(has_comment(&line.comments)), ..Counts::default() };
    for node in &line.nodes {
        c.nags += node.nags().len();
        c.comments += usize::from(has_comment(node.comments()));
        for v in node.variations() {
            let inner = counts(v);
            c.variations += 1 + inner.variations;
            c.comments += inner.comments;
            c.nags += inner.nags;
        }
    }
    c
}

fn has_comment(comments: &[TextBuf]) -> bool {
    comments.iter().any(|c| !c.is_empty())
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
        let Some(path) = tabiya_testdata::corpus_file("scid/storedlines.txt") else { return };
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines, STORED_LINES);
    }

    #[test]
    fn dictionary_has_254_lines_and_finds_the_longest_match() {
        let mut codes: Vec<u8> = dictionary().codes.iter().copied().filter(|&c| c != 0).collect();
        codes.sort_unstable();
        assert_eq!(codes, (1..=254).collect::<Vec<u8>>());
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
