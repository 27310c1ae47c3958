//! What book builders read of a position: the pieces, the side to move, the castling rights
//! and the en passant square. Both shakmaty's `Chess` and the position the PGN walk plays on
//! ([`PlayPosition`](crate::pgn::PlayPosition)) give it, so that a builder keys positions and
//! names moves the same way whether the games come from a PGN walk or from a `Game`, without
//! playing each move on a second position.

use shakmaty::{Bitboard, Castles, Chess, Color, EnPassantMode, Piece, Position, Role, Square, attacks};

pub trait PositionView {
    fn by_role(&self, role: Role) -> Bitboard;

    fn by_color(&self, color: Color) -> Bitboard;

    fn turn(&self) -> Color;

    fn castles(&self) -> &Castles;

    /// The square a pawn skipped with a double step on the last move, whether or not a pawn
    /// can take there (`EnPassantMode::Always`).
    fn maybe_ep_square(&self) -> Option<Square>;

    fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

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
