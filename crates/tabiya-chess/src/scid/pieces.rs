//! SCID's per-side piece lists: the move bytes name a piece by its slot in the list of the side
//! to move (spec section 5.4).

use shakmaty::{Chess, Color, Move, Position, Role, Square};

/// Up to 16 squares per colour; the king is always in slot 0.
#[derive(Debug, Clone, Copy)]
pub struct PieceLists {
    squares: [[u8; 16]; 2],
    len: [u8; 2],
    /// The slot of the piece on each square (stale for empty squares: [`PieceLists::slot_of`]
    /// checks it against `squares`), so that finding a piece's slot takes no search.
    slots: [u8; 64],
}

/// The fixed order of the standard start: K, Ra, Nb, Bc, Q, Bf, Ng, Rh, pawns a–h.
const STANDARD_WHITE: [u8; 16] = [4, 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The lists of the standard start, built at compile time.
const STANDARD: PieceLists = {
    let mut black = STANDARD_WHITE;
    let mut slot = 0;
    while slot < 16 {
        black[slot] ^= 56;
        slot += 1;
    }
    PieceLists::with_slots(PieceLists { squares: [STANDARD_WHITE, black], len: [16, 16], slots: [0; 64] })
};

/// A position with more than 16 pieces of one colour, which SCID cannot encode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyPieces(pub Color);

fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl PieceLists {
    /// The lists of a game without a FEN.
    pub fn standard() -> PieceLists {
        STANDARD
    }

    const fn with_slots(mut lists: PieceLists) -> PieceLists {
        let mut s = 0;
        while s < 2 {
            let mut slot = 0;
            while slot < lists.len[s] as usize {
                lists.slots[lists.squares[s][slot] as usize] = slot as u8;
                slot += 1;
            }
            s += 1;
        }
        lists
    }

    /// The lists of a game with a FEN: a scan from a8 to h1, each king moved to slot 0.
    pub fn from_position(pos: &Chess) -> Result<PieceLists, TooManyPieces> {
        let mut lists = PieceLists { squares: [[0; 16]; 2], len: [0, 0], slots: [0; 64] };
        let board = pos.board();
        for rank in (0..8u32).rev() {
            for file in 0..8u32 {
                let sq = Square::new(rank * 8 + file);
                let Some(piece) = board.piece_at(sq) else { continue };
                let s = side(piece.color);
                let n = usize::from(lists.len[s]);
                if n == 16 {
                    return Err(TooManyPieces(piece.color));
                }
                let list = &mut lists.squares[s];
                if piece.role == Role::King {
                    list[n] = list[0];
                    list[0] = sq as u8;
                } else {
                    list[n] = sq as u8;
                }
                lists.len[s] += 1;
            }
        }
        Ok(PieceLists::with_slots(lists))
    }

    /// The square of `slot` in `color`'s list.
    pub fn square(&self, color: Color, slot: usize) -> Option<Square> {
        let s = side(color);
        (slot < usize::from(self.len[s])).then(|| Square::new(u32::from(self.squares[s][slot])))
    }

    /// The slot of the piece on `sq`.
    pub fn slot_of(&self, color: Color, sq: Square) -> Option<usize> {
        let s = side(color);
        let slot = usize::from(self.slots[usize::from(sq)]);
        (slot < usize::from(self.len[s]) && self.squares[s][slot] == sq as u8).then_some(slot)
    }

    /// The slot of the piece on `sq`, which must hold one (the piece of a legal move): unlike
    /// [`PieceLists::slot_of`] nothing is checked, and an empty square gives some slot (no panic).
    #[inline]
    pub(crate) fn slot_at(&self, sq: Square) -> usize {
        usize::from(self.slots[usize::from(sq)] & 15)
    }

    /// Puts `color`'s piece of `slot` on `sq`.
    #[inline]
    pub(crate) fn put(&mut self, color: Color, slot: usize, sq: Square) {
        self.squares[side(color)][slot & 15] = sq as u8;
        self.slots[usize::from(sq)] = slot as u8;
    }

    /// Moves `color`'s piece on `from` to `to`, keeping its slot (also for a promotion).
    #[inline]
    fn move_piece(&mut self, color: Color, from: Square, to: Square) {
        if let Some(slot) = self.slot_of(color, from) {
            self.put(color, slot, to);
        }
    }

    /// A capture of `color`'s piece on `sq`: the last piece of the list takes its slot.
    #[inline]
    pub(crate) fn capture(&mut self, color: Color, sq: Square) {
        let s = side(color);
        if let Some(slot) = self.slot_of(color, sq) {
            let last = usize::from(self.len[s]) - 1;
            let moved = Square::new(u32::from(self.squares[s][last]));
            self.put(color, slot, moved);
            self.len[s] -= 1;
        }
    }

    /// `us` castles with the king on `king` and the rook on `rook`.
    pub(crate) fn castle(&mut self, us: Color, king: Square, rook: Square) {
        let side = if rook.file() < king.file() {
            shakmaty::CastlingSide::QueenSide
        } else {
            shakmaty::CastlingSide::KingSide
        };
        // The rook first: in Chess960 the king may land on the rook's square.
        let rook_slot = self.slot_of(us, rook);
        self.move_piece(us, king, side.king_to(us));
        if let Some(slot) = rook_slot {
            self.put(us, slot, side.rook_to(us));
        }
    }

    /// Updates the lists for `mv` played by `us`. Promotions keep the slot.
    #[inline]
    pub fn play(&mut self, us: Color, mv: Move) {
        match mv {
            Move::Normal { from, to, capture, .. } => {
                if capture.is_some() {
                    self.capture(!us, to);
                }
                self.move_piece(us, from, to);
            }
            Move::EnPassant { from, to } => {
                self.capture(!us, en_passant_victim(from, to));
                self.move_piece(us, from, to);
            }
            Move::Castle { king, rook } => self.castle(us, king, rook),
            Move::Put { .. } => {}
        }
    }
}

/// The square of the pawn an en passant capture from `from` to `to` takes.
pub(crate) fn en_passant_victim(from: Square, to: Square) -> Square {
    Square::from_coords(to.file(), from.rank())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_order_puts_e_pawn_in_slot_12() {
        let lists = PieceLists::standard();
        assert_eq!(lists.square(Color::White, 12), Some(Square::E2));
        assert_eq!(lists.square(Color::Black, 4), Some(Square::D8));
        assert_eq!(lists.square(Color::White, 0), Some(Square::E1));
    }

    #[test]
    fn fen_order_scans_from_a8_and_moves_the_king_to_slot_0() {
        let lists = PieceLists::from_position(&Chess::default()).unwrap();
        // White: a2…h2 first, then a1 rook; the king arrives at e1 and takes slot 0 from the a2 pawn.
        assert_eq!(lists.square(Color::White, 0), Some(Square::E1));
        assert_eq!(lists.square(Color::White, 4), Some(Square::E2));
        assert_eq!(lists.square(Color::White, 11), Some(Square::D1));
        assert_eq!(lists.square(Color::White, 12), Some(Square::A2));
    }
}
