//! What book builders read of a position: the pieces, the side to move, the castling rights
//! and the en passant square. Both shakmaty's `Chess` and the position the PGN walk plays on
//! ([`PlayPosition`](crate::pgn::PlayPosition)) give it, so that a builder keys positions and
//! names moves the same way whether the games come from a PGN walk or from a `Game`, without
//! playing each move on a second position.

use shakmaty::{Bitboard, Castles, Chess, Color, EnPassantMode, Piece, Position, Role, Square, attacks};

/// What book builders read of a position.
pub trait PositionView {
    /// The squares of pieces of `role`, both colors.
    fn by_role(&self, role: Role) -> Bitboard;

    /// The squares of `color`'s pieces.
    fn by_color(&self, color: Color) -> Bitboard;

    /// The side to move.
    fn turn(&self) -> Color;

    /// The castling rights.
    fn castles(&self) -> &Castles;

    /// The square a pawn skipped with a double step on the last move, whether or not a pawn
    /// can take there (`EnPassantMode::Always`).
    fn maybe_ep_square(&self) -> Option<Square>;

    /// The squares of `piece`.
    fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// The king of `color`, if it has one.
    fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(color.king()).first()
    }

    /// The en passant square when a pawn of the side to move stands beside the pawn that
    /// skipped it, whether or not taking is legal (`EnPassantMode::PseudoLegal`).
    fn pseudo_legal_ep_square(&self) -> Option<Square> {
        let turn = self.turn();
        self.maybe_ep_square().filter(|&ep| (attacks::pawn_attacks(!turn, ep) & self.by_piece(turn.pawn())).any())
    }
}

impl PositionView for Chess {
    fn by_role(&self, role: Role) -> Bitboard {
        self.board().by_role(role)
    }

    fn by_color(&self, color: Color) -> Bitboard {
        self.board().by_color(color)
    }

    fn turn(&self) -> Color {
        Position::turn(self)
    }

    fn castles(&self) -> &Castles {
        Position::castles(self)
    }

    fn maybe_ep_square(&self) -> Option<Square> {
        self.ep_square(EnPassantMode::Always)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Move;
    use shakmaty::fen::Fen;
    use tabiya_testdata::Xorshift;

    use super::*;
    use crate::fast::rules::tests::{STARTS, position};
    use crate::pgn::PlayPosition;

    /// The walk's position shows builders what `Chess` shows them, en passant squares above
    /// all (the Kvetka and Polyglot keys hold the pseudo-legal one).
    #[test]
    fn the_walks_position_shows_what_chess_shows() {
        let mut rng = Xorshift::new(0x5e1);
        let (mut positions, mut ep_always, mut ep_pseudo_legal) = (0, 0, 0);
        for game in 0..400 {
            let (fen, mode) = STARTS[game % STARTS.len()];
            let mut pos = position(fen, mode);
            let mut play = PlayPosition::new(&pos);
            for _ in 0..100 {
                let at = || Fen::from_position(&pos, EnPassantMode::Always).to_string();
                for role in Role::ALL {
                    assert_eq!(PositionView::by_role(&play, role), PositionView::by_role(&pos, role), "{}", at());
                }
                for color in Color::ALL {
                    assert_eq!(PositionView::by_color(&play, color), PositionView::by_color(&pos, color));
                    assert_eq!(PositionView::king_of(&play, color), pos.board().king_of(color));
                }
                assert_eq!(PositionView::turn(&play), Position::turn(&pos));
                assert_eq!(PositionView::castles(&play).castling_rights(), Position::castles(&pos).castling_rights());
                assert_eq!(PositionView::maybe_ep_square(&play), pos.ep_square(EnPassantMode::Always), "{}", at());
                let pseudo_legal = pos.ep_square(EnPassantMode::PseudoLegal);
                assert_eq!(play.pseudo_legal_ep_square(), pseudo_legal, "{}", at());
                assert_eq!(PositionView::pseudo_legal_ep_square(&pos), pseudo_legal, "{}", at());
                positions += 1;
                ep_always += usize::from(pos.ep_square(EnPassantMode::Always).is_some());
                ep_pseudo_legal += usize::from(pseudo_legal.is_some());
                let moves = pos.legal_moves();
                // Double steps, rare in random play, are taken every other time they are there.
                let doubles: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.role() == Role::Pawn && m.from().is_some_and(|f| f.distance(m.to()) == 2))
                    .collect();
                let mv = match rng.below(2) {
                    0 if !doubles.is_empty() => doubles[rng.below(doubles.len())],
                    _ if moves.is_empty() => break,
                    _ => moves[rng.below(moves.len())],
                };
                pos.play_unchecked(mv);
                play.play(mv);
            }
        }
        // This seed's games: 39,155 positions, 1,664 with an en passant square, 303 of them
        // pseudo-legal.
        assert!(
            positions > 39_000 && ep_always > 1_600 && ep_pseudo_legal > 300,
            "{positions} {ep_always} {ep_pseudo_legal}"
        );
    }
}
