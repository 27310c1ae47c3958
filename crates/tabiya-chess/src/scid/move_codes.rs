//! The low nibble of SCID's move byte (spec section 5.4) for every role, from square and to
//! square, in one table built at compile time: the encoder looks a move's code up instead of
//! branching on the moving piece's role (a branch that the next move's role keeps mispredicting).

use shakmaty::{Role, Square};

/// Marks a diagonal queen move: its first byte holds the from file, and a second byte follows.
pub const DIAGONAL_QUEEN: u8 = 0x10;

/// The code of a normal move of a `role` (a pawn's without its promotion) from `from` to `to`.
#[inline]
pub fn move_code(role: Role, from: Square, to: Square) -> u8 {
    MOVE_CODES[role as usize - 1][usize::from(from)][usize::from(to)]
}

/// What a promotion adds to a pawn move's code: 3, 6, 9 or 12 for a queen, rook, bishop or
/// knight.
#[inline]
pub fn promotion_code(promotion: Option<Role>) -> u8 {
    match promotion {
        Some(Role::Queen) => 3,
        Some(Role::Rook) => 6,
        Some(Role::Bishop) => 9,
        Some(Role::Knight) => 12,
        _ => 0,
    }
}

/// By role − 1 (pawn … king), from square and to square.
static MOVE_CODES: [[[u8; 64]; 64]; 6] = move_codes();

/// King and knight codes are 1 + the index of the step (to − from) in SCID's lists.
pub(super) const KING_STEPS: [i32; 8] = [-9, -8, -7, -1, 1, 7, 8, 9];
pub(super) const KNIGHT_STEPS: [i32; 8] = [-17, -15, -10, -6, 6, 10, 15, 17];

const fn step_code(steps: &[i32; 8], step: i32) -> u8 {
    let mut i = 0;
    while i < 8 {
        if steps[i] == step {
            return i as u8 + 1;
        }
        i += 1;
    }
    0
}

const fn move_codes() -> [[[u8; 64]; 64]; 6] {
    let mut codes = [[[0u8; 64]; 64]; 6];
    let mut from = 0;
    while from < 64 {
        let mut to = 0;
        while to < 64 {
            let (f, t) = (from as i32, to as i32);
            let (ff, fr, tf, tr) = (f & 7, f >> 3, t & 7, t >> 3);
            // Pawns: 15 for a double step, else capture left, push, capture right.
            codes[0][from][to] = match (t - f).abs() {
                16 => 15,
                7 => 0,
                8 => 1,
                _ => 2,
            };
            codes[1][from][to] = step_code(&KNIGHT_STEPS, t - f);
            // Bishops: the to file, + 8 on the anti-diagonal.
            codes[2][from][to] = if (tr - fr) * (tf - ff) < 0 { tf as u8 + 8 } else { tf as u8 };
            // Rooks and queens: the to file along a rank, 8 + the to rank along a file.
            codes[3][from][to] = if fr == tr { tf as u8 } else { 8 + tr as u8 };
            codes[4][from][to] = if fr == tr {
                tf as u8
            } else if ff == tf {
                8 + tr as u8
            } else {
                DIAGONAL_QUEEN
            };
            codes[5][from][to] = step_code(&KING_STEPS, t - f);
            to += 1;
        }
        from += 1;
    }
    codes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_scids_move_byte_rules() {
        // The spec's examples: e2e4 is a pawn double step, Ng1f3 knight step +15 (index 6),
        // Ke1f1 king step +1 (index 4), Ra1a8 along a file (8 + rank 7), Qd1h5 diagonal.
        assert_eq!(move_code(Role::Pawn, Square::E2, Square::E4), 15);
        assert_eq!(move_code(Role::Pawn, Square::E4, Square::D5), 0);
        assert_eq!(move_code(Role::Pawn, Square::E4, Square::E5), 1);
        assert_eq!(move_code(Role::Pawn, Square::E4, Square::F5), 2);
        assert_eq!(move_code(Role::Knight, Square::G1, Square::F3), 7);
        assert_eq!(move_code(Role::King, Square::E1, Square::F1), 5);
        assert_eq!(move_code(Role::Rook, Square::A1, Square::A8), 15);
        assert_eq!(move_code(Role::Rook, Square::A1, Square::H1), 7);
        assert_eq!(move_code(Role::Bishop, Square::C1, Square::H6), 7);
        assert_eq!(move_code(Role::Bishop, Square::F1, Square::A6), 8);
        assert_eq!(move_code(Role::Queen, Square::D1, Square::H5), DIAGONAL_QUEEN);
        assert_eq!(move_code(Role::Queen, Square::D1, Square::D8), 15);
        assert_eq!(promotion_code(Some(Role::Knight)), 12);
    }
}
