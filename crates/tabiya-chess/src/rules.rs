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

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Move, attacks};
    use tabiya_io::corpus::Xorshift;

    use super::*;

    fn position(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    /// Every normal move a piece of the side to move could make ignoring its king, with
    /// whether shakmaty's legal move generation has it.
    fn pseudo_legal(pos: &Chess) -> Vec<(Role, Square, Square, bool)> {
        let legal = pos.legal_moves();
        let board = pos.board();
        let turn = pos.turn();
        let mut out = Vec::new();
        for from in pos.us() {
            let role = board.role_at(from).unwrap();
            let targets = match role {
                Role::Pawn => {
                    let pushes = (!board.occupied())
                        .into_iter()
                        .filter(|&to| pawn_push_from(to, turn, Bitboard::from_square(from), board.occupied()).any());
                    attacks::pawn_attacks(turn, from) & pos.them() | pushes.collect::<Bitboard>()
                }
                _ => attacks::attacks(from, role.of(turn), board.occupied()) & !pos.us(),
            };
            for to in targets {
                let last = to.rank() == turn.fold_wb(Rank::Eighth, Rank::First);
                let promotion = (role == Role::Pawn && last).then_some(Role::Queen);
                let mv = Move::Normal { role, from, capture: board.role_at(to), to, promotion };
                out.push((role, from, to, legal.contains(&mv)));
            }
        }
        out
    }

    #[test]
    fn king_safety_agrees_with_legal_move_generation() {
        // Pins, checks and double checks, captures of the checker, kings stepping along a
        // slider's line (the x-ray through the king's own square), promotions.
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3pPk/8/4P3/8 b - g3 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
            "4k3/8/8/8/1b6/8/3q4/R2NK3 w - - 0 1",
            "3rk3/8/8/8/8/8/3P4/3K3q w - - 0 1",
        ];
        let mut rng = Xorshift::new(0x4b1);
        let (mut checked, mut unsafe_moves, mut in_check) = (0, 0, 0);
        for game in 0..400 {
            let mut pos = position(fens[game % fens.len()]);
            for _ in 0..60 {
                in_check += usize::from(pos.is_check());
                for (role, from, to, legal) in pseudo_legal(&pos) {
                    assert_eq!(
                        king_safe_after(&pos, role, from, to),
                        legal,
                        "{role:?} {from}{to} in {}",
                        Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                    );
                    checked += 1;
                    unsafe_moves += usize::from(!legal);
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 300_000 && unsafe_moves > 10_000 && in_check > 1_000, "{checked} {unsafe_moves} {in_check}");
    }
}
