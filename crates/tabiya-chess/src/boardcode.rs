//! The position and move code that ChessBase CTG and Kvetka books share.
//!
//! Both formats key a position the same way, and both name a move the same way; only the
//! bytes around the board code and the move-code tables differ.
//!
//! 1. **Normalisation** ([`Normalized::new`]): a Black-to-move position is turned into
//!    White-to-move by mirroring the board vertically and swapping the colours (castling rights
//!    and the en-passant square follow); then, when nobody can castle and White's king is on
//!    files a–d, the files are mirrored (a ↔ h). [`Frame`] records which maps were applied.
//! 2. **Board code** ([`write_board`], [`read_board`]): the squares in [`SQUARE_ORDER`]
//!    (a1, a2, …, a8, b1, …, h8), each as a prefix-free code, MSB-first, the last bit being the
//!    colour: empty `0`, pawn `11c`, knight `1001c`, bishop `1010c`, rook `1011c`,
//!    queen `10001c`, king `10000c`.
//! 3. **Move shape** ([`MoveShape`]): which white piece of a type moves (counted in square
//!    order in the normalised board) and by how many files and ranks, modulo 8; castling is
//!    its own shape. Each format maps shapes to its own byte codes.
//!
//! What follows the board code — CTG's header byte and variable-length ep/castling trailer,
//! Kvetka's fixed 4-bit ep and castling fields and 22-byte padding — belongs to each format.
//! [`Normalized::ep_file`] and [`Normalized::castling`] give the values both trailers hold.
//!
//! ```
//! use shakmaty::{Chess, Position, Square};
//! use tabiya_chess::boardcode::{BitWriter, MoveShape, Normalized, write_board};
//!
//! let start = Chess::default();
//! let norm = Normalized::new(&start);
//! let mut bits = BitWriter::new();
//! write_board(&norm.board, &mut bits);
//! assert_eq!(bits.len(), 164);
//! assert_eq!(&bits.as_bytes()[..3], &[0xb6, 0x0f, 0x79]);
//!
//! // 1.e4 is the fifth white pawn (a2, b2, …, e2 in square order) moving two ranks up.
//! let e4 = MoveShape::Piece { role: shakmaty::Role::Pawn, ordinal: 5, dx: 0, dy: 2 };
//! let mv = norm.real_move(&start, e4).unwrap();
//! assert_eq!((mv.from(), mv.to()), (Some(Square::E2), Square::E4));
//! assert_eq!(norm.shape_of(&mv), Some(e4));
//! ```

use shakmaty::{
    Bitboard, Board, CastlingMode, CastlingSide, Chess, Color, File, FromSetup, Move, Piece, Position, PositionError,
    Rank, Role, Setup, Square,
};

use crate::nibbles;
use crate::view::PositionView;

/// The order in which both formats visit the squares, and count pieces: a1, a2, …, a8, b1, …, h8.
pub const SQUARE_ORDER: [Square; 64] = {
    let mut order = [Square::A1; 64];
    let mut i = 0;
    while i < 64 {
        order[i] = Square::new(((i % 8) * 8 + i / 8) as u32);
        i += 1;
    }
    order
};

/// Which of the two normalising maps were applied to a real position. Both are their own
/// inverses and commute, so the same map takes real squares to normalised ones and back.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Frame {
    /// Black was to move: ranks mirrored (r → 9 − r) and colours swapped.
    pub flipped: bool,
    /// Nobody could castle and White's king (after the flip) was on files a–d: files mirrored.
    pub mirrored: bool,
}

impl Frame {
    /// A real square in the normalised frame, or a normalised square in the real frame.
    pub fn square(self, sq: Square) -> Square {
        let sq = if self.flipped { sq.flip_vertical() } else { sq };
        if self.mirrored { sq.flip_horizontal() } else { sq }
    }

    /// A real file in the normalised frame, or the other way round.
    pub fn file(self, file: File) -> File {
        if self.mirrored { file.flip_horizontal() } else { file }
    }

    /// The side to move of the real position.
    pub fn turn(self) -> Color {
        if self.flipped { Color::Black } else { Color::White }
    }

    /// A bitboard of the real frame in the normalised one, or the other way round.
    pub fn bitboard(self, bb: Bitboard) -> Bitboard {
        let bb = if self.flipped { bb.flip_vertical() } else { bb };
        if self.mirrored { bb.flip_horizontal() } else { bb }
    }

    /// The real squares whose normalised squares come before `real`'s in [`SQUARE_ORDER`]:
    /// those of the files before (higher real files when mirrored), and of its file those
    /// below (above when flipped).
    fn earlier_in_order(self, real: Square) -> Bitboard {
        const A_FILE: u64 = 0x0101_0101_0101_0101;
        let (index, file) = (real as u32, real.file() as u32);
        let files = if self.mirrored { 0xfe << file & 0xff } else { (1 << file) - 1 };
        let ranks = if self.flipped { u64::MAX << index << 1 } else { (1 << index) - 1 };
        Bitboard((files * A_FILE) | ((A_FILE << file) & ranks))
    }

    /// The normalised board of a real one (colours swapped when flipped), or the other way round.
    pub fn board(self, board: &Board) -> Board {
        let mut board = board.clone();
        if self.flipped {
            board.mirror();
        }
        if self.mirrored {
            board.flip_horizontal();
        }
        board
    }
}

/// Castling rights of the normalised position, as four bits in the order both formats store
/// them: Black O-O, Black O-O-O, White O-O, White O-O-O (most significant first).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CastlingBits(u8);

impl CastlingBits {
    /// No castling right.
    pub const NONE: CastlingBits = CastlingBits(0);

    /// The low four bits of `nibble`, Black O-O in bit 3.
    pub fn from_nibble(nibble: u8) -> CastlingBits {
        CastlingBits(nibble & 0x0f)
    }

    /// The four bits, Black O-O in bit 3, White O-O-O in bit 0.
    pub fn nibble(self) -> u8 {
        self.0
    }

    /// No right at all.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `color` may castle on `side`.
    pub fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// These rights and `color`'s on `side`.
    #[must_use]
    pub fn with(self, color: Color, side: CastlingSide) -> CastlingBits {
        CastlingBits(self.0 | Self::bit(color, side))
    }

    fn bit(color: Color, side: CastlingSide) -> u8 {
        match (color, side) {
            (Color::Black, CastlingSide::KingSide) => 8,
            (Color::Black, CastlingSide::QueenSide) => 4,
            (Color::White, CastlingSide::KingSide) => 2,
            (Color::White, CastlingSide::QueenSide) => 1,
        }
    }

    /// The rook squares of the standard set-up that carry these rights, as shakmaty keeps them.
    fn rook_squares(self) -> Bitboard {
        let mut rooks = Bitboard::EMPTY;
        for (color, side) in ALL_RIGHTS {
            if self.has(color, side) {
                let file = if side == CastlingSide::KingSide { File::H } else { File::A };
                rooks.add(Square::from_coords(file, color.backrank()));
            }
        }
        rooks
    }
}

const ALL_RIGHTS: [(Color, CastlingSide); 4] = [
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
];

/// A position as both formats store it: White to move, maybe mirrored, with the castling
/// rights and the en-passant file the key holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Normalized {
    /// The normalised board; White is the side to move.
    pub board: Board,
    /// Castling rights in the normalised colours (the FEN rights, not "castling is legal now").
    pub castling: CastlingBits,
    /// The file of the pawn that has just made a double step, in the normalised frame, when a
    /// pawn of the side to move stands directly beside it (whether or not the capture is legal:
    /// a pinned pawn still counts).
    pub ep_file: Option<File>,
    /// How to get back to the real position.
    pub frame: Frame,
}

/// How a real position is normalised, without the normalised board: the frame and what the
/// trailers hold. Enough to code the board ([`BoardCode::framed`]) and to name moves
/// ([`Normalization::shape_of`]) from the real board, as a book builder does at every ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Normalization {
    /// As in [`Normalized::castling`].
    pub castling: CastlingBits,
    /// As in [`Normalized::ep_file`].
    pub ep_file: Option<File>,
    /// How the real position maps to the normalised one.
    pub frame: Frame,
}

impl Normalization {
    /// How `pos` is normalised.
    pub fn new(pos: &impl PositionView) -> Normalization {
        let flipped = pos.turn() == Color::Black;
        let castling = ALL_RIGHTS.iter().fold(CastlingBits::NONE, |bits, &(color, side)| {
            if pos.castles().has(color, side) { bits.with(if flipped { !color } else { color }, side) } else { bits }
        });
        // The side to move's king becomes White's; flipping the ranks keeps its file.
        let king = pos.king_of(pos.turn());
        let mirrored = castling.is_empty() && king.is_some_and(|king| king.file() <= File::D);
        let frame = Frame { flipped, mirrored };
        let ep_file = pos.pseudo_legal_ep_square().map(|sq| frame.file(sq.file()));
        Normalization { castling, ep_file, frame }
    }

    /// [`Normalized::shape_of`] for a move of the real position `pos`.
    pub fn shape_of(&self, pos: &impl PositionView, mv: &Move) -> Option<MoveShape> {
        let turn = self.frame.turn();
        shape_of(self.frame, mv, |role| pos.by_piece(Piece { color: turn, role }))
    }
}

impl Normalized {
    /// Normalises a real position.
    pub fn new(pos: &Chess) -> Normalized {
        let Normalization { castling, ep_file, frame } = Normalization::new(pos);
        Normalized { board: frame.board(pos.board()), castling, ep_file, frame }
    }

    /// A position read back from a key: the frame is unknown, so it is the identity.
    pub fn from_key_parts(board: Board, castling: CastlingBits, ep_file: Option<File>) -> Normalized {
        Normalized { board, castling, ep_file, frame: Frame::default() }
    }

    /// Every real position this normalised one stands for, as the same position in each
    /// frame: as stored, colour-flipped, and, when nobody can castle and White's king is on
    /// files e–h, the left–right mirrors of both.
    ///
    /// This is the one place where a book keyed by normalised positions (CTG, Kvetka) turns
    /// into real positions for a book keyed by them (Polyglot): **every orientation** is
    /// written, not only the positions reachable from the initial position, so that the
    /// Polyglot book answers every position the normalised book answers (a CTG or Kvetka
    /// probe of a colour-flipped or mirrored position finds the same record).
    pub fn orientations(&self) -> impl Iterator<Item = Normalized> + '_ {
        let king_on_e_to_h = self.board.king_of(Color::White).is_some_and(|k| k.file() >= File::E);
        let mirrors = if self.castling.is_empty() && king_on_e_to_h { 2 } else { 1 };
        (0..2 * mirrors)
            .map(move |i| Normalized { frame: Frame { flipped: i % 2 == 1, mirrored: i >= 2 }, ..self.clone() })
    }

    /// The forms a look-up of this position tries, in order: as it is, then, when it has an
    /// en-passant file, without it (books store some such positions without the file).
    pub fn lookup_forms(&self) -> impl Iterator<Item = Normalized> + '_ {
        let without_ep = self.ep_file.map(|_| Normalized { ep_file: None, ..self.clone() });
        std::iter::once(self.clone()).chain(without_ep)
    }

    /// The position in the real frame (the normalised one when the frame is the identity),
    /// halfmove clock 0 and move number 1, as a shakmaty set-up.
    pub fn real_setup(&self) -> Setup {
        let frame = self.frame;
        let board = frame.board(&self.board);
        let mut castling = self.castling;
        let mut ep_square = self.ep_file.map(|file| Square::from_coords(frame.file(file), Rank::Sixth));
        if frame.flipped {
            castling = ALL_RIGHTS.iter().fold(CastlingBits::NONE, |bits, &(color, side)| {
                if self.castling.has(color, side) { bits.with(!color, side) } else { bits }
            });
            ep_square = ep_square.map(Square::flip_vertical);
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = frame.turn();
        setup.castling_rights = castling.rook_squares();
        setup.ep_square = ep_square;
        setup
    }

    /// The real position as a playable shakmaty position. The error is boxed (it is large) and
    /// lets a lenient caller `ignore_…` what it tolerates.
    pub fn real_position(&self) -> Result<Chess, Box<PositionError<Chess>>> {
        Chess::from_setup(self.real_setup(), CastlingMode::Standard).map_err(Box::new)
    }

    /// The square of the `ordinal`-th (from 1) white piece of `role` in [`SQUARE_ORDER`].
    pub fn nth_piece(&self, role: Role, ordinal: u8) -> Option<Square> {
        let pieces = self.board.by_piece(Piece { color: Color::White, role });
        let n = usize::from(ordinal).checked_sub(1)?;
        SQUARE_ORDER.iter().copied().filter(|&sq| pieces.contains(sq)).nth(n)
    }

    /// The shape of a move of the real position this was made from; `None` for an
    /// under-promotion, which neither format can store. The ordinal is not bounded here: each
    /// format rejects the ordinals its table lacks (a third knight, …).
    pub fn shape_of(&self, mv: &Move) -> Option<MoveShape> {
        shape_of(self.frame, mv, |role| self.frame.bitboard(self.board.by_piece(Piece { color: Color::White, role })))
    }

    /// The from and to squares of a shape in the normalised frame (castling: the king's move
    /// e1 → g1 or c1), or `None` when the piece does not exist.
    pub fn squares(&self, shape: MoveShape) -> Option<(Square, Square)> {
        match shape {
            MoveShape::Castle(side) => Some((Square::E1, Square::from_coords(side.king_to_file(), Rank::First))),
            MoveShape::Piece { role, ordinal, dx, dy } => {
                let from = self.nth_piece(role, ordinal)?;
                let file = File::new((from.file() as u32 + u32::from(dx)) & 7);
                let rank = Rank::new((from.rank() as u32 + u32::from(dy)) & 7);
                Some((from, Square::from_coords(file, rank)))
            }
        }
    }

    /// The legal move of `real` (the position this was made from) that `shape` names, or
    /// `None` when there is none. A pawn reaching the last rank promotes to a queen.
    pub fn real_move(&self, real: &Chess, shape: MoveShape) -> Option<Move> {
        self.find_move(&real.legal_moves(), shape)
    }

    /// [`Normalized::real_move`] among the legal moves of the real position, generated once
    /// by a caller that decodes several moves.
    pub fn find_move(&self, legal: &[Move], shape: MoveShape) -> Option<Move> {
        let (from, to) = self.squares(shape)?;
        let (from, to) = (self.frame.square(from), self.frame.square(to));
        legal.iter().copied().find(|mv| match mv {
            Move::Castle { .. } => matches!(shape, MoveShape::Castle(side) if mv.castling_side() == Some(side)),
            _ => {
                !matches!(shape, MoveShape::Castle(_))
                    && mv.from() == Some(from)
                    && mv.to() == to
                    && mv.promotion().is_none_or(|role| role == Role::Queen)
            }
        })
    }
}

/// The shape of a move of a real position normalised by `frame`; `pieces(role)` gives the
/// real position's pieces of a role of the side to move.
fn shape_of(frame: Frame, mv: &Move, pieces: impl FnOnce(Role) -> Bitboard) -> Option<MoveShape> {
    if let Some(side) = mv.castling_side() {
        return Some(MoveShape::Castle(side));
    }
    if mv.promotion().is_some_and(|role| role != Role::Queen) {
        return None;
    }
    let real_from = mv.from()?;
    let (from, to) = (frame.square(real_from), frame.square(mv.to()));
    let role = mv.role();
    let before = (pieces(role) & frame.earlier_in_order(real_from)).count();
    Some(MoveShape::Piece {
        role,
        ordinal: u8::try_from(before + 1).ok()?,
        dx: (to.file() as u8).wrapping_sub(from.file() as u8) & 7,
        dy: (to.rank() as u8).wrapping_sub(from.rank() as u8) & 7,
    })
}

/// How a move is named in both formats, before each maps it to its byte code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveShape {
    /// The `ordinal`-th (from 1) white piece of `role` in [`SQUARE_ORDER`] of the normalised
    /// board moves `dx` files right and `dy` ranks up, both modulo 8 (7 = one to the left or down).
    Piece {
        /// The piece's kind.
        role: Role,
        /// Which of White's pieces of that kind, from 1, in [`SQUARE_ORDER`].
        ordinal: u8,
        /// Files to the right, modulo 8.
        dx: u8,
        /// Ranks up, modulo 8.
        dy: u8,
    },
    /// Castling, the king moving e1 → g1 (king side) or e1 → c1 (queen side).
    Castle(CastlingSide),
}

/// The code of one square, as (bits, number of bits): empty `0`, pawn `11c`, knight `1001c`,
/// bishop `1010c`, rook `1011c`, queen `10001c`, king `10000c` (c = 1 for Black).
pub fn square_code(piece: Option<Piece>) -> (u32, u32) {
    nibble_code(piece.map_or(0, |p| p.role as u32 | u32::from(p.color == Color::Black) << 3))
}

/// [`square_code`] of a square given as a nibble: 0 empty, else the shakmaty role number
/// (pawn 1 … king 6) plus 8 for Black. Nibbles no square has (7, 8, 15) give the empty code.
const fn nibble_code(nibble: u32) -> (u32, u32) {
    let (prefix, len) = match nibble & 7 {
        1 => (0b11, 2),
        2 => (0b1001, 4),
        3 => (0b1010, 4),
        4 => (0b1011, 4),
        5 => (0b10001, 5),
        6 => (0b10000, 5),
        _ => return (0, 1),
    };
    ((prefix << 1) | nibble >> 3, len + 1)
}

/// The board code of a position: at most 64 × 6 = 384 bits, most significant first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardCode {
    /// The bits, from bit 63 of word 0; zero after `len` (one word more than 384 bits need,
    /// so that a code crossing into the next word never needs a bounds check).
    pub words: [u64; 7],
    /// Bits used.
    pub len: usize,
}

/// The code of two consecutive squares of a file given as two nibbles (the first square in
/// the low one; see [`nibble_code`]): the bits in the low 12 bits, their number above them.
/// 512 bytes, built at compile time: a file's code is four look-ups that stay in the first-level
/// cache (a table of four squares, 256 KiB, made each look-up wait for the second-level cache or
/// memory, a tenth of a Kvetka build).
static PAIR_CODES: [u16; 1 << 8] = {
    let mut codes = [0; 1 << 8];
    let mut index = 0;
    while index < 1 << 8 {
        let (first, first_len) = nibble_code(index as u32 & 15);
        let (second, second_len) = nibble_code(index as u32 >> 4);
        codes[index] = ((first_len + second_len) << 12 | first << second_len | second) as u16;
        index += 1;
    }
    codes
};

impl BoardCode {
    /// The code of every square in [`SQUARE_ORDER`].
    pub fn new(board: &Board) -> BoardCode {
        BoardCode::framed(board, Frame::default())
    }

    /// The code of the board `frame` makes of `board` (a real board: the normalised one's
    /// code without building it).
    pub fn framed(board: &Board, frame: Frame) -> BoardCode {
        let planes = Planes::new(board, frame.flipped);
        BoardCode::join(&std::array::from_fn(|file| planes.file_code(file, frame.flipped)), frame.mirrored)
    }

    /// The codes of the eight normalised files, a to h, one after the other: `files` holds
    /// them by real file (each as (bits, number of bits ≤ 48)), in reverse order when the
    /// frame mirrors the files.
    fn join(files: &FileCodes, mirrored: bool) -> BoardCode {
        let mut words = [0u64; 7];
        let mut at = 0;
        let reverse = if mirrored { 7 } else { 0 };
        for file in 0..8 {
            let (code, len) = files[file ^ reverse];
            // The file's bits from the top of a word, or-ed in at bit `at`: what does not fit
            // goes to the next word (shifting by 64 - shift in two steps: nothing when it fits).
            let aligned = code << (64 - len);
            let (word, shift) = (at / 64, at % 64);
            words[word] |= aligned >> shift;
            words[word + 1] |= (aligned << 1) << (63 - shift);
            at += len as usize;
        }
        BoardCode { words, len: at }
    }
}

/// The bits a format puts right after the board code (Kvetka's ep and castling fields), and
/// how long the board code and these bits may be together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tail {
    /// The bits, in the low `len`.
    pub bits: u64,
    /// 1 to 63.
    pub len: u32,
    /// At least 72 (no board code is shorter), at most 190.
    pub max_len: u32,
}

/// The code of `board` in `frame` followed by `tail`, most significant first in 192 bits (zeros
/// after), or the number of bits they take when over `tail.max_len`.
pub fn tailed_code(board: &Board, frame: Frame, tail: Tail) -> Result<[u64; 3], usize> {
    let planes = Planes::new(board, frame.flipped);
    join_tailed(&std::array::from_fn(|file| planes.file_code(file, frame.flipped)), frame.mirrored, tail)
}

/// [`BoardCode::join`] with `tail` after the files, left-aligned in 192 bits, all in registers.
/// Each half (files 1–4 of the normalised board, then files 5–8 and the tail) is joined in a
/// `u128`, each code shifting those before it up by fewer than 64 bits (two instructions);
/// then the second half goes under the first. A half longer than 128 bits (a board crowded on
/// four files) takes the 192-bit shift register of [`shift_register`]. Inlined into the
/// builders' loop: returned through memory, its words stalled the caller's first reads of them.
#[inline(always)]
fn join_tailed(files: &FileCodes, mirrored: bool, tail: Tail) -> Result<[u64; 3], usize> {
    let reverse = if mirrored { 7 } else { 0 };
    let (first, second) = (|i: usize| files[i ^ reverse], |i: usize| files[(i + 4) ^ reverse]);
    let first_len: u32 = (0..4).map(|i| first(i).1).sum();
    let second_len: u32 = (0..4).map(|i| second(i).1).sum::<u32>() + tail.len;
    let len = first_len + second_len;
    if len > tail.max_len {
        return Err(len as usize);
    }
    if first_len > 128 || second_len > 128 {
        let codes: [(u64, u32); 9] =
            std::array::from_fn(|i| if i < 8 { files[i ^ reverse] } else { (tail.bits, tail.len) });
        return Ok(shift_register(&codes, len));
    }
    // Every count is 1 to 63 (file codes take 8 to 48 bits): masked, the compiler leaves out
    // the shifts of 64 bits or more.
    let push = |half: u128, (code, len): (u64, u32)| half << (len & 63) | u128::from(code);
    // Both halves left-aligned in 128 bits (a half is 32 to 128 bits long).
    let first = (0..4).map(first).fold(0, push) << (128 - first_len);
    let second = push((0..4).map(second).fold(0, push), (tail.bits, tail.len)) << (128 - second_len);
    // The second half `first_len` bits down from the top of 192: its top word and the 128 below.
    let (top, below) = if first_len < 64 {
        ((second >> 64) as u64 >> first_len, second << (64 - first_len))
    } else {
        (0, second >> (first_len - 64))
    };
    let top = (first >> 64) as u64 | top;
    let below = (first << 64) | below;
    Ok([top, (below >> 64) as u64, below as u64])
}

/// The codes (bits, number of bits: 1 to 63) one after the other, `len` bits in all, left-aligned
/// in 192 bits: each code shifts those before it up, then the padding does.
#[cold]
fn shift_register(codes: &[(u64, u32)], len: u32) -> [u64; 3] {
    let (mut high, mut low) = (0u128, 0u64);
    let mut push = |code: u64, count: u32| {
        high = high << count | u128::from(low >> (64 - count));
        low = low << count | code;
    };
    for &(code, count) in codes {
        push(code, count);
    }
    // The zeros after, in two shifts of at most 63: 192 − `len` is 2 to 120.
    let padding = 192 - len;
    push(0, padding / 2);
    push(0, padding - padding / 2);
    [(high >> 64) as u64, high as u64, low]
}

/// The pieces of a real board as nibbles (see [`nibble_code`]) in four bit planes, the
/// colours swapped when the frame flips the board. The frame's other changes (ranks reversed,
/// files mirrored) are made file by file as the files are coded: only the files that changed
/// since the last board cost anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Planes([u64; 4]);

impl Planes {
    fn new(board: &Board, flipped: bool) -> Planes {
        let black = if flipped { board.white() } else { board.black() };
        Planes(nibbles::planes(|role| board.by_role(role), black))
    }

    fn of_view(pos: &impl PositionView, flipped: bool) -> Planes {
        let black = pos.by_color(if flipped { Color::White } else { Color::Black });
        Planes(nibbles::planes(|role| pos.by_role(role), black))
    }

    /// The code of real file `file` (bits, number of bits ≤ 48) in the normalised frame: its
    /// squares from rank 1 up, from rank 8 down when `flipped`. Four look-ups of two squares.
    fn file_code(&self, file: usize, flipped: bool) -> (u64, u32) {
        // The file's square of rank r as the low nibble of byte r (plane p on bit p), the
        // bytes reversed when flipped, then the nibbles packed: square i of the file in nibble i.
        let column = |plane: u64| plane >> file & 0x0101_0101_0101_0101;
        let [p0, p1, p2, p3] = self.0.map(column);
        let bytes = p0 | p1 << 1 | p2 << 2 | p3 << 3;
        let bytes = if flipped { bytes.swap_bytes() } else { bytes };
        let pairs = (bytes | bytes >> 4) & 0x00ff_00ff_00ff_00ff;
        let quads = (pairs | pairs >> 8) & 0x0000_ffff_0000_ffff;
        let nibbles = quads | quads >> 16;
        let (mut code, mut len) = (0u64, 0u32);
        for pair in 0..4 {
            let bits = u32::from(PAIR_CODES[(nibbles >> (8 * pair)) as usize & 0xff]);
            code = code << (bits >> 12) | u64::from(bits & 0xfff);
            len += bits >> 12;
        }
        (code, len)
    }

    /// The real files (bit f = file f) where two boards differ.
    fn changed_files(&self, other: &Planes) -> u32 {
        let mut diff = self.0.iter().zip(other.0).fold(0, |d, (a, b)| d | (a ^ b));
        // The ranks or-ed together: bit f of the low byte, whether file f differs.
        diff |= diff >> 32;
        diff |= diff >> 16;
        diff |= diff >> 8;
        diff as u32 & 0xff
    }
}

/// [`BoardCode::framed`] for the positions of games one after the other: a file's code is
/// looked up again only when the file differs from the last board coded with the same side to
/// move (the boards of one side's turns differ in a few files). Whether the files are mirrored
/// does not matter: codes are kept by real file.
#[derive(Debug, Clone, Default)]
pub struct BoardCoder {
    last: [Option<(Planes, FileCodes)>; 2],
}

/// The normalised code of each real file, a to h, as (bits, number of bits).
type FileCodes = [(u64, u32); 8];

impl BoardCoder {
    /// [`tailed_code`] of the board of `pos` in `frame`, from the file codes of the last board
    /// of the same side to move.
    pub fn tailed_code(&mut self, pos: &impl PositionView, frame: Frame, tail: Tail) -> Result<[u64; 3], usize> {
        let flipped = frame.flipped;
        let planes = Planes::of_view(pos, flipped);
        let files = match &mut self.last[usize::from(flipped)] {
            Some((last, files)) => {
                let mut changed = planes.changed_files(last);
                while changed != 0 {
                    let file = changed.trailing_zeros() as usize;
                    changed &= changed - 1;
                    files[file] = planes.file_code(file, flipped);
                }
                *last = planes;
                files
            }
            empty => &mut empty.insert((planes, std::array::from_fn(|file| planes.file_code(file, flipped)))).1,
        };
        join_tailed(files, frame.mirrored, tail)
    }
}

/// Appends the code of every square in [`SQUARE_ORDER`].
pub fn write_board(board: &Board, out: &mut BitWriter) {
    let code = BoardCode::new(board);
    let mut left = code.len;
    for &word in &code.words {
        for half in [(word >> 32) as u32, word as u32] {
            if left == 0 {
                return;
            }
            let count = left.min(32);
            out.push_bits(half >> (32 - count), count as u32);
            left -= count;
        }
    }
}

/// Reads 64 square codes; `None` when the bits run out first. Every bit string is a valid
/// code, so nothing else can fail here (whether the board is a legal position is for shakmaty).
pub fn read_board(bits: &mut BitReader<'_>) -> Option<Board> {
    let mut board = Board::empty();
    for sq in SQUARE_ORDER {
        if !bits.bit()? {
            continue;
        }
        let role = if bits.bit()? {
            Role::Pawn
        } else {
            match bits.bits(2)? {
                0b01 => Role::Knight,
                0b10 => Role::Bishop,
                0b11 => Role::Rook,
                _ => {
                    if bits.bit()? {
                        Role::Queen
                    } else {
                        Role::King
                    }
                }
            }
        };
        let color = if bits.bit()? { Color::Black } else { Color::White };
        board.set_piece_at(sq, Piece { color, role });
    }
    Some(board)
}

/// Bits packed most significant first, as both formats store them. Holds 512 bits, more than
/// a board (at most 64 × 6 = 384 bits) and any trailer need.
#[derive(Debug, Clone)]
pub struct BitWriter {
    /// Eight bytes more than 512 bits, so that a push can read and write a whole word.
    bytes: [u8; 72],
    len: usize,
}

impl Default for BitWriter {
    fn default() -> Self {
        BitWriter::new()
    }
}

impl BitWriter {
    /// An empty writer.
    pub fn new() -> BitWriter {
        BitWriter { bytes: [0; 72], len: 0 }
    }

    /// Number of bits written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// No bit written yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends one bit.
    pub fn push(&mut self, bit: bool) {
        self.push_bits(u32::from(bit), 1);
    }

    /// The low `count` (at most 32) bits of `value`, most significant first.
    pub fn push_bits(&mut self, value: u32, count: u32) {
        if count == 0 {
            return;
        }
        // At most 7 + 32 bits from the byte holding the next bit: one big-endian word.
        let (at, shift) = (self.len / 8, (self.len % 8) as u32);
        let word: &mut [u8; 8] = (&mut self.bytes[at..at + 8]).try_into().expect("eight bytes");
        let bits = (u64::from(value) & ((1 << count) - 1)) << (64 - shift - count);
        *word = (u64::from_be_bytes(*word) | bits).to_be_bytes();
        self.len += count as usize;
    }

    /// Zero bits until the length is `len` (nothing if it already is or is longer).
    pub fn pad_to(&mut self, len: usize) {
        self.len = self.len.max(len);
    }

    /// The written bits, the last byte zero-padded.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len.div_ceil(8)]
    }
}

/// Reads bits most significant first; `None` past the end.
#[derive(Debug, Clone)]
pub struct BitReader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> BitReader<'a> {
    /// A reader at the first bit of `bytes`.
    pub fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader { bytes, pos: 0 }
    }

    /// Number of bits read.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bits not read yet.
    pub fn remaining(&self) -> usize {
        self.bytes.len() * 8 - self.pos
    }

    /// The next bit; `None` past the end.
    pub fn bit(&mut self) -> Option<bool> {
        let byte = self.bytes.get(self.pos / 8)?;
        let bit = byte & (0x80 >> (self.pos % 8)) != 0;
        self.pos += 1;
        Some(bit)
    }

    /// `count` (at most 32) bits as a number, the first bit most significant.
    pub fn bits(&mut self, count: u32) -> Option<u32> {
        (0..count).try_fold(0u32, |acc, _| Some(acc << 1 | u32::from(self.bit()?)))
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::EnPassantMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    use super::*;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    /// The position after `moves` (SAN or UCI) from the start.
    fn after(moves: &str) -> Chess {
        crate::book::probe_position(None, Some(moves)).expect("legal moves")
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The Kvetka key (kvetka.md 4.2): board, 4-bit ep (file + 1), 4-bit castling, zero bits to 176.
    fn kvetka_key(pos: &Chess) -> String {
        crate::kvetka::key::encode(pos).unwrap().0.to_hex()
    }

    /// The CTG key (ctg.md 4.1): header byte, board, pad so that the trailer ends on a byte,
    /// 3-bit ep file, 4-bit castling.
    fn ctg_key(pos: &Chess) -> String {
        hex(crate::ctg::Key::encode(&Normalized::new(pos)).unwrap().as_bytes())
    }

    #[test]
    fn square_order_is_file_by_file() {
        assert_eq!(&SQUARE_ORDER[..3], &[Square::A1, Square::A2, Square::A3]);
        assert_eq!(SQUARE_ORDER[8], Square::B1);
        assert_eq!(SQUARE_ORDER[63], Square::H8);
    }

    #[test]
    fn ctg_key_vectors() {
        // ctg.md section 11.
        assert_eq!(ctg_key(&Chess::default()), "56b60f7960f3a60f58b078e0c1e1a60f5960f3b60f7f");
        assert_eq!(ctg_key(&after("e2e4")), "56b60f7960f3a60f58b078e0c721a60f5960f3b60f7f");
        assert_eq!(ctg_key(&after("d2d4 g8f6 c2c4")), "56b60f7960f3a63958b1c8e0c1e1a690f560f3b60f7f");
    }

    #[test]
    fn kvetka_key_vectors() {
        // kvetka.md section 14.1.
        assert_eq!(kvetka_key(&Chess::default()), "b60f7960f3a60f58b078e0c1e1a60f5960f3b60f70f0");
        assert_eq!(kvetka_key(&after("e2e4")), "b60f7960f3a60f58b078e0c721a60f5960f3b60f70f0");
        assert_eq!(kvetka_key(&after("e2e4 c7c5")), "b60f7960f3a63958b078e031e1a60f5960f3b60f70f0");
        assert_eq!(kvetka_key(&after("e2e4 d7d5 e4e5 f7f5")), "b60f7960f3a60f58b1c8e019e1a6395960f3b60f76f0");
        assert_eq!(
            kvetka_key(&position("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")),
            "b60f7960f3a60f58b1c8e019e1a6395960f3b60f70f0"
        );
        for fen in ["r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"] {
            assert_eq!(kvetka_key(&position(fen)), "b017000000800840002c05c3c0000000000000000000", "{fen}");
        }
        for fen in [
            "4k3/8/8/8/8/8/1P6/2K5 w - - 0 1",
            "3k4/8/8/8/8/8/6P1/5K2 w - - 0 1",
            "2k5/1p6/8/8/8/8/8/4K3 b - - 0 1",
            "5k2/6p1/8/8/8/8/8/3K4 b - - 0 1",
        ] {
            assert_eq!(kvetka_key(&position(fen)), "00000001080400180000000000000000000000000000", "{fen}");
        }
    }

    #[test]
    fn frames() {
        let norm = Normalized::new(&position("2k5/1p6/8/8/8/8/8/4K3 b - - 0 1"));
        assert_eq!(norm.frame, Frame { flipped: true, mirrored: true });
        assert_eq!(norm.frame.square(Square::B7), Square::G2);
        assert_eq!(norm.board.king_of(Color::White), Some(Square::F1));
        // Castling rights prevent the mirror even with the king on the queen side.
        let norm = Normalized::new(&position("4k3/8/8/8/8/8/8/R2K4 w - - 0 1"));
        assert!(norm.frame.mirrored);
        let norm = Normalized::new(&position("r3k3/8/8/8/8/8/8/3K4 b q - 0 1"));
        assert_eq!(norm.frame, Frame { flipped: true, mirrored: false });
        assert_eq!(norm.castling, CastlingBits::NONE.with(Color::White, CastlingSide::QueenSide));
    }

    #[test]
    fn real_setup_undoes_the_frame() {
        for fen in [
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1",
            "2k5/1p6/8/8/8/8/8/4K3 b - - 0 1",
            "4k3/8/8/2pP4/8/8/8/2K5 w - c6 0 1",
            "r3k3/8/8/8/8/8/8/3K4 b q - 0 1",
        ] {
            let pos = position(fen);
            let back = Normalized::new(&pos).real_position().unwrap();
            assert_eq!(Fen::from_position(&back, EnPassantMode::Legal).to_string(), fen);
        }
    }

    #[test]
    fn read_board_inverts_write_board() {
        for pos in [Chess::default(), after("e2e4 d7d5 e4e5 f7f5"), position("4k3/8/8/8/8/8/1P6/2K5 w - - 0 1")] {
            let mut bits = BitWriter::new();
            write_board(pos.board(), &mut bits);
            let mut reader = BitReader::new(bits.as_bytes());
            assert_eq!(read_board(&mut reader).as_ref(), Some(pos.board()));
            assert_eq!(reader.position(), bits.len());
        }
        assert_eq!(read_board(&mut BitReader::new(&[0xff; 8])), None);
    }

    /// The word-at-a-time writer against the code written one bit at a time, square by square,
    /// over the positions of random games (promotions included).
    #[test]
    fn write_board_equals_the_square_by_square_code() {
        for_each_random_position(7, 60, 200, |pos| {
            let mut fast = BitWriter::new();
            fast.push_bits(0b101, 3); // not byte-aligned, as after CTG's header byte
            write_board(pos.board(), &mut fast);
            let mut slow = BitWriter::new();
            for bit in [true, false, true] {
                slow.push(bit);
            }
            for sq in SQUARE_ORDER {
                let (bits, len) = square_code(pos.board().piece_at(sq));
                for i in (0..len).rev() {
                    slow.push(bits >> i & 1 == 1);
                }
            }
            assert_eq!((fast.len(), fast.as_bytes()), (slow.len(), slow.as_bytes()));
        });
    }

    /// Calls `check` with every position of `games` random games of at most `plies` plies.
    fn for_each_random_position(seed: u64, games: usize, plies: usize, mut check: impl FnMut(&Chess)) {
        let mut random = tabiya_testdata::Xorshift::new(seed);
        for _ in 0..games {
            let mut pos = Chess::default();
            for _ in 0..plies {
                check(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[random.below(moves.len())]);
            }
        }
    }

    /// Codes worked out file by file from the last board of the same side to move equal the
    /// codes of the boards on their own and the bits [`write_board`] writes, followed by a
    /// tail, over random games (captures, castling, promotions, mirrored frames).
    #[test]
    fn board_coder_equals_board_code() {
        let mut coder = BoardCoder::default();
        for_each_random_position(11, 40, 300, |pos| {
            let normalization = Normalization::new(pos);
            let frame = normalization.frame;
            let code = BoardCode::framed(pos.board(), frame);
            assert_eq!(code, BoardCode::new(&Normalized::new(pos).board));
            let tail = Tail { bits: 0x5a, len: 7, max_len: 176 };
            let tailed = coder.tailed_code(pos, frame, tail);
            assert_eq!(tailed, tailed_code(&Normalized::new(pos).board, Frame::default(), tail));
            assert_eq!(tailed, written_code(&Normalized::new(pos).board, tail));
        });
    }

    /// The bits [`write_board`] writes and the tail, left-aligned in 192 bits, or their number
    /// when over `tail.max_len`: what [`tailed_code`] must give.
    fn written_code(board: &Board, tail: Tail) -> Result<[u64; 3], usize> {
        let mut bits = BitWriter::new();
        write_board(board, &mut bits);
        bits.push_bits(tail.bits as u32, tail.len);
        if bits.len() > tail.max_len as usize {
            return Err(bits.len());
        }
        bits.pad_to(192);
        let words: Vec<u64> =
            bits.as_bytes().chunks_exact(8).map(|c| u64::from_be_bytes(c.try_into().unwrap())).collect();
        Ok(words.try_into().unwrap())
    }

    /// Boards whose files a–d or e–h take more than 128 bits (26 knights and 6 empty squares:
    /// 136), which [`join_tailed`] joins in its 192-bit shift register, and boards around them.
    #[test]
    fn crowded_halves() {
        let boards = [
            "NNNN4/NNNN4/NNNN4/NNNN4/NNNN4/NNNN4/NN6/8",
            "4nnnn/4nnnn/4nnnn/4nnnn/4nnnn/4nnnn/6nn/8",
            "NNNN4/NNNN4/NNNN4/NNNN4/NNNN4/NNNN4/N7/8",
            "QQQQ4/QQQQ4/QQQQ4/QQQQ4/QQQQ4/8/8/8",
            "8/8/8/8/8/8/8/8",
            "K7/8/8/8/8/8/8/7k",
        ];
        for fen in boards {
            let board: Board = fen.parse().unwrap();
            for max_len in [176, 190] {
                let tail = Tail { bits: 0x5a, len: 7, max_len };
                assert_eq!(tailed_code(&board, Frame::default(), tail), written_code(&board, tail), "{fen}");
            }
        }
    }

    /// The shapes behind kvetka.md 14.2 and ctg.md 4.3 / 11.
    #[test]
    fn move_shapes() {
        let piece = |role, ordinal, dx, dy| MoveShape::Piece { role, ordinal, dx, dy };
        let cases: &[(Chess, &str, MoveShape)] = &[
            (Chess::default(), "e2e4", piece(Role::Pawn, 5, 0, 2)),
            (Chess::default(), "d2d4", piece(Role::Pawn, 4, 0, 2)),
            (Chess::default(), "g1f3", piece(Role::Knight, 2, 7, 2)),
            (Chess::default(), "b1c3", piece(Role::Knight, 1, 1, 2)),
            (after("e2e4"), "c7c5", piece(Role::Pawn, 3, 0, 2)),
            (after("e2e4"), "e7e5", piece(Role::Pawn, 5, 0, 2)),
            (after("e2e4"), "g8f6", piece(Role::Knight, 2, 7, 2)),
            (after("e2e4"), "b8c6", piece(Role::Knight, 1, 1, 2)),
            (after("e2e4 d7d5 e4e5 f7f5"), "e5f6", piece(Role::Pawn, 5, 1, 1)),
            (position("4k3/8/8/8/8/8/1P6/2K5 w - - 0 1"), "b2b4", piece(Role::Pawn, 1, 0, 2)),
            (position("4k3/8/8/8/8/8/1P6/2K5 w - - 0 1"), "c1d2", piece(Role::King, 1, 7, 1)),
            (position("4k3/8/8/8/8/8/1P6/2K5 w - - 0 1"), "c1b1", piece(Role::King, 1, 1, 0)),
            (position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), "e1g1", MoveShape::Castle(CastlingSide::KingSide)),
            (position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"), "e8c8", MoveShape::Castle(CastlingSide::QueenSide)),
            (position("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1"), "b7b8q", piece(Role::Pawn, 1, 0, 1)),
        ];
        for (pos, uci, shape) in cases {
            let mv = uci.parse::<UciMove>().unwrap().to_move(pos).unwrap();
            let norm = Normalized::new(pos);
            assert_eq!(norm.shape_of(&mv), Some(*shape), "{uci}");
            assert_eq!(norm.real_move(pos, *shape), Some(mv), "{uci}");
        }
        let pos = position("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1");
        let knight = "b7b8n".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(Normalized::new(&pos).shape_of(&knight), None);
        // No third knight in the start position, and no legal move for the first rook.
        assert_eq!(Normalized::new(&Chess::default()).real_move(&Chess::default(), piece(Role::Knight, 3, 1, 2)), None);
        assert_eq!(Normalized::new(&Chess::default()).real_move(&Chess::default(), piece(Role::Rook, 1, 0, 1)), None);
    }
}
