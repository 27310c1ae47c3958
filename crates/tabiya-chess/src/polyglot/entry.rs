//! One book entry and the 16-bit move coding.

use shakmaty::{Chess, Move, Position, Role, Square};

/// One 16-byte book entry, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The position's Polyglot key.
    pub key: u64,
    /// to-file bits 0–2, to-rank 3–5, from-file 6–8, from-rank 9–11, promotion 12–14
    /// (1 knight … 4 queen); castling is stored as the king taking its own rook.
    pub raw_move: u16,
    /// How often an engine should play the move, relative to the others.
    pub weight: u16,
    /// Engine learning data: kept as read, 0 in new books.
    pub learn: u32,
}

impl Entry {
    /// The entry as one JSON Lines object (`tabiya convert book.bin -o book.jsonl`): the key
    /// and the move field in hexadecimal, the move field as UCI text as stored (castling as
    /// `e1h1`: without the position, the key cannot be decoded), the weight and the learn field.
    pub fn to_json(self) -> serde_json::Value {
        serde_json::json!({
            "key": format!("{:016x}", self.key),
            "raw_move": format!("{:04x}", self.raw_move),
            "move": super::probe::raw_uci(self),
            "weight": self.weight,
            "learn": self.learn,
        })
    }

    /// The 16 bytes as stored (big-endian).
    pub fn to_bytes(self) -> [u8; 16] {
        let mut bytes = [0; 16];
        bytes[..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes[12..].copy_from_slice(&self.learn.to_be_bytes());
        bytes
    }

    /// An entry from its 16 stored bytes.
    pub fn from_bytes(bytes: [u8; 16]) -> Entry {
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, l0, l1, l2, l3] = bytes;
        Entry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            raw_move: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    /// The from-square of the move field.
    pub fn from_square(self) -> Square {
        Square::new(u32::from((self.raw_move >> 6) & 0o77))
    }

    /// The to-square of the move field.
    pub fn to_square(self) -> Square {
        Square::new(u32::from(self.raw_move & 0o77))
    }

    /// The promotion piece, `Err` with the field's value when it is not 0–4.
    pub fn promotion(self) -> Result<Option<Role>, u16> {
        match (self.raw_move >> 12) & 7 {
            0 => Ok(None),
            1 => Ok(Some(Role::Knight)),
            2 => Ok(Some(Role::Bishop)),
            3 => Ok(Some(Role::Rook)),
            4 => Ok(Some(Role::Queen)),
            other => Err(other),
        }
    }

    /// The move field is well-formed: distinct squares, a known promotion piece, bit 15 clear.
    pub fn move_is_well_formed(self) -> bool {
        self.raw_move & 0x8000 == 0 && self.promotion().is_ok() && self.from_square() != self.to_square()
    }
}

/// Encodes a standard-chess move; castling becomes king-takes-rook.
pub fn encode_move(mv: Move) -> u16 {
    let (from, to, promotion) = match mv {
        Move::Normal { from, to, promotion, .. } => (from, to, promotion),
        Move::EnPassant { from, to } => (from, to, None),
        Move::Castle { king, rook } => (king, rook, None),
        // Drops do not exist in standard chess.
        Move::Put { to, .. } => (to, to, None),
    };
    let promotion = match promotion {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    (promotion << 12) | ((from as u16) << 6) | to as u16
}

/// The legal move of `pos` that `raw_move` stands for, or `None` when there is none (a hash
/// collision or a corrupt entry). King-takes-own-rook is castling only when the from-square
/// holds the side to move's king and the to-square its own rook. A king's two-square move
/// (`e1g1`, `e1c1`, `e8g8`, `e8c8`: how python-chess writes castling) is castling too when the
/// position allows it (see [`is_king_move_castling`]).
pub fn decode_move(raw_move: u16, pos: &Chess) -> Option<Move> {
    let probe = Entry { key: 0, raw_move, weight: 0, learn: 0 };
    let (from, to) = (probe.from_square(), probe.to_square());
    let promotion = probe.promotion().ok()?;
    let us = pos.turn();
    let board = pos.board();
    let king = board.piece_at(from).is_some_and(|p| p.color == us && p.role == Role::King);
    let castle = king && board.piece_at(to).is_some_and(|p| p.color == us && p.role == Role::Rook);
    // The king's two-square move: towards the rook on that side.
    let two_squares = king && is_king_move_castling(raw_move);
    let legal = pos.legal_moves();
    legal.into_iter().find(|m| match *m {
        Move::Castle { king, rook } => {
            king == from
                && ((castle && rook == to) || (two_squares && (rook.file() > king.file()) == (to.file() > king.file())))
        }
        Move::Normal { from: f, to: t, promotion: p, .. } => !castle && f == from && t == to && p == promotion,
        Move::EnPassant { from: f, to: t } => f == from && t == to && promotion.is_none(),
        Move::Put { .. } => false,
    })
}

/// Whether a move field is `e1g1`, `e1c1`, `e8g8` or `e8c8`: castling as the king's two-square
/// move, which python-chess writes where Polyglot writes the king taking its rook (`e1h1`), or
/// else a rook or queen move between those squares.
pub fn is_king_move_castling(raw_move: u16) -> bool {
    has_shape(
        raw_move,
        &[(Square::E1, Square::G1), (Square::E1, Square::C1), (Square::E8, Square::G8), (Square::E8, Square::C8)],
    )
}

/// Whether a move field is `e1h1`, `e1a1`, `e8h8` or `e8a8`: Polyglot's castling (or a rook
/// or queen move between those squares).
pub(super) fn is_king_takes_rook_castling(raw_move: u16) -> bool {
    has_shape(
        raw_move,
        &[(Square::E1, Square::H1), (Square::E1, Square::A1), (Square::E8, Square::H8), (Square::E8, Square::A8)],
    )
}

/// Whether a move field goes between one of these pairs of squares, without promotion.
fn has_shape(raw_move: u16, shapes: &[(Square, Square)]) -> bool {
    let probe = Entry { key: 0, raw_move, weight: 0, learn: 0 };
    shapes.contains(&(probe.from_square(), probe.to_square())) && raw_move >> 12 == 0
}
