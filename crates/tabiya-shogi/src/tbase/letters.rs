//! The board letters of `.dia` records. They are not SFEN letters (S = 角, G = 桂, B = 杏,
//! N = と): uppercase is the defender (玉方), lowercase the attacker (攻方), space an empty square.

use shogi_core::{Piece, PieceKind};

use crate::board::{ATTACKER, DEFENDER};

/// The T-BASE letter of each piece kind, as the seed's table gives it.
const LETTERS: [(u8, PieceKind); 14] = [
    (b'Q', PieceKind::King),
    (b'A', PieceKind::Rook),
    (b'S', PieceKind::Bishop),
    (b'D', PieceKind::Gold),
    (b'F', PieceKind::Silver),
    (b'G', PieceKind::Knight),
    (b'H', PieceKind::Lance),
    (b'J', PieceKind::Pawn),
    (b'Z', PieceKind::ProRook),
    (b'X', PieceKind::ProBishop),
    (b'C', PieceKind::ProSilver),
    (b'V', PieceKind::ProKnight),
    (b'B', PieceKind::ProLance),
    (b'N', PieceKind::ProPawn),
];

/// What a cell letter stands for: `Some(None)` for an empty square (space), `None` for a byte
/// that is not a T-BASE letter.
pub fn piece(letter: u8) -> Option<Option<Piece>> {
    if letter == b' ' {
        return Some(None);
    }
    let upper = letter.to_ascii_uppercase();
    let (_, kind) = LETTERS.iter().find(|(l, _)| *l == upper)?;
    let color = if letter.is_ascii_uppercase() { DEFENDER } else { ATTACKER };
    Some(Some(Piece::new(*kind, color)))
}

/// The cell letter of a piece (a space for an empty square).
pub fn letter(piece: Option<Piece>) -> u8 {
    let Some(piece) = piece else { return b' ' };
    let upper = LETTERS.iter().find(|(_, k)| *k == piece.piece_kind()).map_or(b'?', |(l, _)| *l);
    if piece.color() == DEFENDER { upper } else { upper.to_ascii_lowercase() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        assert_eq!(piece(b'Q'), Some(Some(Piece::new(PieceKind::King, DEFENDER))));
        assert_eq!(piece(b'q'), Some(Some(Piece::new(PieceKind::King, ATTACKER))));
        assert_eq!(piece(b'S'), Some(Some(Piece::new(PieceKind::Bishop, DEFENDER))));
        assert_eq!(piece(b'g'), Some(Some(Piece::new(PieceKind::Knight, ATTACKER))));
        assert_eq!(piece(b'B'), Some(Some(Piece::new(PieceKind::ProLance, DEFENDER))));
        assert_eq!(piece(b'n'), Some(Some(Piece::new(PieceKind::ProPawn, ATTACKER))));
        assert_eq!(piece(b' '), Some(None));
        assert_eq!(piece(b'K'), None);
        assert_eq!(piece(b'/'), None);
        for p in Piece::all() {
            assert_eq!(piece(letter(Some(p))), Some(Some(p)));
        }
    }
}
