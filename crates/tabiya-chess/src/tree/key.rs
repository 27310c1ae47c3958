//! The tree's position key: the position itself, normalised and packed in 26 bytes, so that two
//! positions share a key exactly when they have the same pieces, side to move, castling rights
//! and en-passant file as Polyglot's key counts it (a pawn of the side to move beside the pawn
//! that just moved, even when the capture is not legal: so the books a tree makes equal
//! `polyglot make-book`'s). No hash: a Zobrist key (Polyglot's 64 bits) has collisions in large collections, and a 128-bit hash
//! could not give the position back for a FEN, a book or the explorer.

use shakmaty::{Bitboard, Board, Castles, CastlingMode, CastlingSide, Chess, Color, FromSetup, Move, Piece};
use shakmaty::{Role, Setup, Square};

use crate::nibbles::{self, SPREAD};
use crate::view::PositionView;

/// Bytes of a key on disk.
pub const KEY_BYTES: usize = 26;

/// A normalised standard-chess position: the occupied squares (8 bytes, big-endian), a nibble
/// per occupied square in ascending square order (16 bytes: at most 32 pieces), then a byte of
/// side to move (bit 0, Black) and castling rights (bits 1–4: White king side, White queen
/// side, Black king side, Black queen side) and a byte of the en-passant file + 1 (0: none)
/// when a pawn of the side to move stands beside the pawn that just moved (Polyglot's rule,
/// whether or not the capture is legal). Keys sort as their bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PositionKey(pub [u8; KEY_BYTES]);

/// Why a position has no key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyError {
    /// More than 32 pieces (possible from a FEN only).
    TooManyPieces,
}

const CASTLING: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
];

/// `COMPRESS[on][x]`: the bits of `x` on the set bits of `on`, packed from bit 0 in their order
/// (a byte's parallel bit extract).
static COMPRESS: [[u8; 256]; 256] = {
    let mut table = [[0; 256]; 256];
    let mut on = 0;
    while on < 256 {
        let mut x = 0;
        while x < 256 {
            let (mut packed, mut to, mut from) = (0u8, 0, 0);
            while from < 8 {
                if on >> from & 1 == 1 {
                    packed |= ((x >> from & 1) as u8) << to;
                    to += 1;
                }
                from += 1;
            }
            table[on][x] = packed;
            x += 1;
        }
        on += 1;
    }
    table
};

/// Bits 1–4 of a key's state byte: the castling rights of [`CASTLING`], in its order.
fn castling_bits(castles: &Castles) -> u8 {
    if castles.mode() == CastlingMode::Standard {
        // Standard chess's rights are rooks in the corners, a1, h1, a8 and h8: bits 0, 7, 56
        // and 63 of the rights' squares, read off at once rather than asked for one by one.
        let rights = castles.castling_rights().0;
        let (white, black) = (rights as u8, (rights >> 56) as u8);
        (white >> 7) << 1 | (white & 1) << 2 | (black >> 7) << 3 | (black & 1) << 4
    } else {
        // A Chess960 position's rooks may stand anywhere on the back rank.
        let mut bits = 0;
        for (bit, (color, side)) in CASTLING.into_iter().enumerate() {
            bits |= u8::from(castles.has(color, side)) << (bit + 1);
        }
        bits
    }
}

/// The 32 nibbles of `x` in the opposite order.
fn reverse_nibbles(x: u128) -> u128 {
    let bytes = x.swap_bytes();
    let low = 0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0fu128;
    (bytes & low) << 4 | (bytes >> 4) & low
}

/// The piece of a nibble: its role (1–6), plus 8 for Black.
fn code_piece(code: u8) -> Option<Piece> {
    let role = Role::try_from(code & 7).ok()?;
    Some(Piece { role, color: if code & 8 == 0 { Color::White } else { Color::Black } })
}

/// The pieces part of a key (the occupied squares and a nibble per piece in square order, the
/// first in the highest nibble), kept up to date move by move as a game is replayed: a move
/// takes out and puts in a few nibbles, where [`PositionKey::new`] packs every square again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PackedPieces {
    occupied: u64,
    pieces: u128,
}

/// `FROM_NIBBLE[i]`: the bits of a nibble sequence from nibble `i` (up to 32) on, the first `i`
/// cleared. Read from a table: a shift of a `u128` by a variable amount takes several
/// instructions, and a move makes a few.
static FROM_NIBBLE: [u128; 33] = {
    let mut table = [0; 33];
    let mut index = 0;
    while index < 32 {
        table[index] = u128::MAX >> (4 * index);
        index += 1;
    }
    table
};

/// The bits of nibble `index` (below 32).
fn nibble_bits(index: usize) -> u128 {
    FROM_NIBBLE[index] ^ FROM_NIBBLE[index + 1]
}

/// The nibble of `piece` (its role, 1–6, plus 8 for Black) in every place: masked with
/// [`nibble_bits`], in one.
fn piece_code(piece: Piece) -> u128 {
    let code = piece.role as u8 | if piece.color == Color::Black { 8 } else { 0 };
    u128::from(code) * (u128::MAX / 0xf)
}

impl PackedPieces {
    /// The pieces of `pos`.
    pub(crate) fn new(pos: &impl PositionView) -> Result<PackedPieces, KeyError> {
        let occupied = pos.by_color(Color::White) | pos.by_color(Color::Black);
        if occupied.count() > 32 {
            return Err(KeyError::TooManyPieces);
        }
        // Rank by rank, each bit plane's bits on the occupied squares packed (a byte's bit
        // extract), then spread to nibbles: the pieces in square order, the first in the lowest
        // nibble; reversed to put it in the highest. No square is visited alone.
        let planes = nibbles::planes(|role| pos.by_role(role), pos.by_color(Color::Black));
        let (mut first_low, mut shift) = (0u128, 0);
        for rank in 0..8 {
            let on = (occupied.0 >> (8 * rank)) as u8;
            if on == 0 {
                continue;
            }
            let mut packed = 0u32;
            for (bit, plane) in planes.iter().enumerate() {
                let bits = COMPRESS[usize::from(on)][usize::from((plane >> (8 * rank)) as u8)];
                packed |= SPREAD[usize::from(bits)] << bit;
            }
            first_low |= u128::from(packed) << shift;
            shift += 4 * on.count_ones();
        }
        Ok(PackedPieces { occupied: occupied.0, pieces: reverse_nibbles(first_low) })
    }

    /// The nibble's place of `square`: the pieces on the squares below it.
    fn index(&self, square: Square) -> usize {
        (self.occupied & ((1u64 << square as u32) - 1)).count_ones() as usize
    }

    /// Takes the piece off `square` (occupied): the nibbles after it move up one.
    fn remove(&mut self, square: Square) {
        let from = FROM_NIBBLE[self.index(square)];
        self.pieces = (self.pieces & !from) | (self.pieces << 4 & from);
        self.occupied &= !(1u64 << square as u32);
    }

    /// Puts `piece` on `square` (empty, with at most 31 pieces on the board): the nibbles after
    /// it move down one.
    fn put(&mut self, square: Square, piece: Piece) {
        let index = self.index(square);
        let from = FROM_NIBBLE[index];
        self.pieces = (self.pieces & !from) | (self.pieces & from) >> 4 | piece_code(piece) & nibble_bits(index);
        self.occupied |= 1u64 << square as u32;
    }

    /// Puts `piece` on `square` in place of the piece there: no other nibble moves.
    fn replace(&mut self, square: Square, piece: Piece) {
        let at = nibble_bits(self.index(square));
        self.pieces = (self.pieces & !at) | piece_code(piece) & at;
    }

    /// Plays `mv` (legal, by `turn`).
    pub(crate) fn play(&mut self, mv: Move, turn: Color) {
        match mv {
            Move::Normal { role, from, capture, to, promotion } => {
                let placed = Piece { role: promotion.unwrap_or(role), color: turn };
                // A capture changes the taken piece's nibble in place; a move that takes nothing
                // leaves its square first, so that 32 pieces never are 33 (a nibble too many).
                if capture.is_some() {
                    self.replace(to, placed);
                    self.remove(from);
                } else {
                    self.remove(from);
                    self.put(to, placed);
                }
            }
            Move::EnPassant { from, to } => {
                self.remove(from);
                self.remove(Square::from_coords(to.file(), from.rank()));
                self.put(to, Piece { role: Role::Pawn, color: turn });
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                self.remove(king);
                self.remove(rook);
                self.put(side.king_to(turn), Piece { role: Role::King, color: turn });
                self.put(side.rook_to(turn), Piece { role: Role::Rook, color: turn });
            }
            // No drops in standard chess.
            Move::Put { .. } => {}
        }
    }

    /// The key of `pos`, whose pieces these are.
    pub(crate) fn key(&self, pos: &impl PositionView) -> PositionKey {
        debug_assert_eq!(PackedPieces::new(pos), Ok(*self), "the pieces follow the position");
        let state = u8::from(pos.turn() == Color::Black) | castling_bits(pos.castles());
        let ep = pos.pseudo_legal_ep_square().map_or(0, |sq| sq.file() as u8 + 1);
        let mut key = [0; KEY_BYTES];
        key[..8].copy_from_slice(&self.occupied.to_be_bytes());
        key[8..24].copy_from_slice(&self.pieces.to_be_bytes());
        key[24] = state;
        key[25] = ep;
        PositionKey(key)
    }
}

impl PositionKey {
    /// The key of `pos`.
    pub fn new(pos: &Chess) -> Result<PositionKey, KeyError> {
        Ok(PackedPieces::new(pos)?.key(pos))
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        if self.0[24] & 1 == 0 { Color::White } else { Color::Black }
    }

    /// The position back (halfmove clock 0, move number 1), or `None` when the bytes are no
    /// legal position (a damaged file).
    pub fn position(&self) -> Option<Chess> {
        let occupied = Bitboard(u64::from_be_bytes(self.0[..8].try_into().ok()?));
        let pieces = u128::from_be_bytes(self.0[8..24].try_into().ok()?);
        // Nibbles beyond the pieces must be zero.
        if occupied.count() > 32 || pieces.checked_shl(4 * occupied.count() as u32).unwrap_or(0) != 0 {
            return None;
        }
        let mut board = Board::empty();
        for (i, square) in occupied.into_iter().enumerate() {
            board.set_piece_at(square, code_piece((pieces >> (124 - 4 * i)) as u8 & 0xf)?);
        }
        let turn = self.turn();
        let mut rooks = Bitboard::EMPTY;
        for (bit, (color, side)) in CASTLING.into_iter().enumerate() {
            if self.0[24] & (2 << bit) != 0 {
                let file = if side == CastlingSide::KingSide { shakmaty::File::H } else { shakmaty::File::A };
                rooks.add(Square::from_coords(file, color.backrank()));
            }
        }
        if self.0[24] >> 5 != 0 || self.0[25] > 8 {
            return None;
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = turn;
        setup.castling_rights = rooks;
        setup.ep_square = self.0[25].checked_sub(1).map(|file| {
            let rank = if turn == Color::White { shakmaty::Rank::Sixth } else { shakmaty::Rank::Third };
            Square::from_coords(shakmaty::File::new(u32::from(file)), rank)
        });
        let pos = Chess::from_setup(setup, CastlingMode::Standard).ok()?;
        // Only a key made by `new` is well formed: anything else (an en-passant file with no
        // pawn beside) is damage.
        (PositionKey::new(&pos).ok()? == *self).then_some(pos)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{EnPassantMode, Position};

    use super::*;
    use crate::fast::position::PlayPosition;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn keys_give_their_positions_back() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/8/8/8/8/8/8/4K2R b Kq - 0 1",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
        ] {
            let p = pos(fen);
            let key = PositionKey::new(&p).unwrap();
            let back = key.position().unwrap();
            assert_eq!(PositionKey::new(&back).unwrap(), key, "{fen}");
            assert_eq!(back.board(), p.board());
            assert_eq!(key.turn(), Position::turn(&p));
        }
    }

    #[test]
    fn en_passant_counts_as_polyglot_counts_it() {
        use crate::book::position_key;
        // After 1. e4 no black pawn stands beside: the same key as without the square.
        let with = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        let without = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(PositionKey::new(&with), PositionKey::new(&without));
        let legal = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        assert_eq!(PositionKey::new(&legal).unwrap().0[25], 6);
        // bxc6 would leave the king to the rook: Polyglot keeps the square all the same (its
        // key differs from the position without it), and so does the tree.
        let pinned = pos("8/8/8/KPp4r/8/8/8/7k w - c6 0 2");
        let unpinned = pos("8/8/8/KPp4r/8/8/8/7k w - - 0 2");
        assert_ne!(position_key(&pinned), position_key(&unpinned));
        assert_eq!(PositionKey::new(&pinned).unwrap().0[25], 3);
        assert_ne!(PositionKey::new(&pinned), PositionKey::new(&unpinned));
        assert_eq!(position_key(&PositionKey::new(&pinned).unwrap().position().unwrap()), position_key(&pinned));
    }

    #[test]
    fn pieces_follow_the_moves_played() {
        // Random legal games (captures, castling, en passant, promotions, underpromotions):
        // the pieces kept move by move equal the pieces packed afresh at every ply, and the
        // key read off the readers' position (as the build reads it) is the key of shakmaty's,
        // its en-passant file shakmaty's pseudo-legal square.
        let mut rng = tabiya_testdata::Xorshift::new(19);
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2P1k3/8/8/8/8/3p1K2/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        let (mut castles, mut en_passant, mut promotions) = (0, 0, 0);
        for game in 0..800 {
            let mut p = pos(starts[game % starts.len()]);
            let mut pieces = PackedPieces::new(&p).unwrap();
            let mut play = PlayPosition::new(&p);
            for _ in 0..250 {
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.below(legal.len())];
                castles += usize::from(mv.is_castle());
                en_passant += usize::from(mv.is_en_passant());
                promotions += usize::from(mv.is_promotion());
                // The move's code is shakmaty's UCI of it (castling the king's two-square step).
                let shakmaty::uci::UciMove::Normal { from, to, promotion } = mv.to_uci(CastlingMode::Standard) else {
                    unreachable!("a move of standard chess")
                };
                let uci = from as u16 | (to as u16) << 6 | promotion.map_or(0, |r| r as u16) << 12;
                assert_eq!(crate::tree::move_code(mv), uci, "game {game}: {mv:?}");
                pieces.play(mv, Position::turn(&p));
                p.play_unchecked(mv);
                play.play(mv);
                assert_eq!(pieces, PackedPieces::new(&p).unwrap(), "game {game}: after {mv:?}");
                let key = pieces.key(&play);
                assert_eq!(key, PositionKey::new(&p).unwrap(), "game {game}: after {mv:?}");
                let ep = p.ep_square(EnPassantMode::PseudoLegal).map_or(0, |sq| sq.file() as u8 + 1);
                assert_eq!(key.0[25], ep, "game {game}: after {mv:?}");
                assert_eq!(key.0[24], state_of(&p), "game {game}: after {mv:?}");
            }
        }
        assert!(castles > 10 && en_passant > 10 && promotions > 10, "{castles} {en_passant} {promotions}");
    }

    /// The state byte as the key's documentation has it, from shakmaty's own answers.
    fn state_of(p: &Chess) -> u8 {
        let rights = [
            (Color::White, CastlingSide::KingSide),
            (Color::White, CastlingSide::QueenSide),
            (Color::Black, CastlingSide::KingSide),
            (Color::Black, CastlingSide::QueenSide),
        ];
        let castling = rights
            .iter()
            .enumerate()
            .map(|(bit, &(color, side))| u8::from(Position::castles(p).has(color, side)) << (bit + 1));
        castling.fold(u8::from(Position::turn(p) == Color::Black), |state, right| state | right)
    }

    #[test]
    fn castling_rights_in_chess960_positions() {
        // Rooks off the corners: each right found where it is.
        for fen in ["1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 b Bg - 0 1"]
        {
            let p = fen.parse::<Fen>().unwrap().into_position::<Chess>(CastlingMode::Chess960).unwrap();
            assert_eq!(PositionKey::new(&p).unwrap().0[24], state_of(&p), "{fen}");
        }
    }

    #[test]
    fn damaged_keys_are_refused() {
        let mut key = PositionKey::new(&Chess::default()).unwrap();
        key.0[25] = 3;
        assert_eq!(key.position(), None);
        assert_eq!(PositionKey([0xff; KEY_BYTES]).position(), None);
    }
}
