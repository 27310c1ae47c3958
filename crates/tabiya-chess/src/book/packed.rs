//! A standard-chess position in 42 bytes, for books holding millions of them.

use shakmaty::{Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup, Square};

use crate::nibbles;

/// Pieces as 4-bit codes (0 empty, 1–6 white pawn…king, 9–14 black), castling rights as the
/// rooks' squares, side to move and en-passant square. Halfmove clock and move number are
/// not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedPosition {
    squares: [u8; 32],
    /// The rooks' squares as a little-endian bitboard (byte arrays keep the struct 42 bytes).
    castling_rights: [u8; 8],
    /// Bit 7: Black to move; bits 0–6: en-passant square + 1, or 0.
    turn_and_ep: u8,
}

fn code_piece(code: u8) -> Option<Piece> {
    let role = match code & 7 {
        1 => Role::Pawn,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::Rook,
        5 => Role::Queen,
        6 => Role::King,
        _ => return None,
    };
    let color = if code & 8 == 0 { Color::White } else { Color::Black };
    Some(Piece { color, role })
}

impl PackedPosition {
    /// Packs `pos`.
    pub fn new(pos: &Chess) -> PackedPosition {
        // The four bits of every square's code as four bitboards ("planes"), spread into
        // nibbles eight squares at a time: no square-by-square lookup of pieces.
        let board = pos.board();
        let planes = nibbles::planes(|role| board.by_role(role), board.black());
        let mut squares = [0u8; 32];
        for (rank, chunk) in squares.chunks_exact_mut(4).enumerate() {
            chunk.copy_from_slice(&nibbles::interleave(&planes, rank).to_le_bytes());
        }
        let ep = pos.maybe_ep_square().map_or(0, |sq| sq as u8 + 1);
        let turn = if pos.turn() == Color::Black { 0x80 } else { 0 };
        PackedPosition {
            squares,
            castling_rights: pos.castles().castling_rights().0.to_le_bytes(),
            turn_and_ep: turn | ep,
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        if self.turn_and_ep & 0x80 == 0 { Color::White } else { Color::Black }
    }

    /// The position back. Packed positions come from legal positions, so this cannot fail
    /// for them; a position shakmaty would reject is returned without its castling rights and
    /// en-passant square, or as the start position if even that is rejected.
    pub fn to_position(&self) -> Chess {
        let mut board = Board::empty();
        for (i, byte) in self.squares.iter().enumerate() {
            for half in 0..2 {
                if let Some(piece) = code_piece(byte >> (4 * half)) {
                    board.set_piece_at(Square::new((2 * i + half) as u32), piece);
                }
            }
        }
        let ep = self.turn_and_ep & 0x7f;
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = self.turn();
        setup.castling_rights = Bitboard(u64::from_le_bytes(self.castling_rights));
        setup.ep_square = ep.checked_sub(1).map(|sq| Square::new(u32::from(sq)));
        match Chess::from_setup(setup, CastlingMode::Standard) {
            Ok(pos) => pos,
            Err(e) => match e.ignore_invalid_castling_rights() {
                Ok(pos) => pos,
                Err(e) => e.ignore_invalid_ep_square().unwrap_or_default(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::EnPassantMode;
    use shakmaty::fen::Fen;

    use super::*;

    #[test]
    fn positions_survive_packing() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/8/8/8/8/8/8/4K2R b Kq - 0 1",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let back = PackedPosition::new(&pos).to_position();
            assert_eq!(
                Fen::from_position(&back, EnPassantMode::Always).to_string(),
                fen.replace(" 0 3", " 0 1").replace(" 0 2", " 0 1")
            );
        }
    }
}
