//! Legality of a normal move without generating move lists.
//!
//! shakmaty decides legality by generating every legal move. Readers that meet one move at a
//! time (the SAN reader, the SCID decoder) need only ask whether the piece can go there on this
//! board and whether its own king is safe afterwards. Exact for `Move::Normal`; en passant and
//! castling are left to shakmaty.

use shakmaty::{Bitboard, Chess, Color, Position, Rank, Role, Square};

/// Whether the king of the side to move is safe after its `role` goes from `from` to `to` (a
/// piece captured on `to` no longer attacks): this decides pins and answers to check alike.
pub(crate) fn king_safe_after(pos: &Chess, role: Role, from: Square, to: Square) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    let king = if role == Role::King { Some(to) } else { board.king_of(turn) };
    king.is_some_and(|king| {
        board.attacks_to(king, !turn, board.occupied().without(from).with(to)).without(to).is_empty()
    })
}

/// The square a pawn of `turn` among `pawns` pushes from to reach the empty square `to`: one
/// step, or two from its starting rank over an empty square.
pub(crate) fn pawn_push_from(to: Square, turn: Color, pawns: Bitboard, occupied: Bitboard) -> Bitboard {
    let back = turn.fold_wb(-8, 8);
    let Some(one) = to.offset(back) else { return Bitboard::EMPTY };
    if pawns.contains(one) {
        return Bitboard::from_square(one);
    }
    match one.offset(back) {
        Some(two) if to.rank() == turn.fold_wb(Rank::Fourth, Rank::Fifth) && !occupied.contains(one) => {
            pawns & Bitboard::from_square(two)
        }
        _ => Bitboard::EMPTY,
    }
}
