//! Kvetka's one-byte move codes (spec 5): a [`MoveShape`] of [`crate::boardcode`] ↔ a byte.
//!
//! The table is regular: pawns `00`–`1F`, knights `20`–`2F`, bishops `30`–`4B`, rooks
//! `4C`–`67`, queens `68`–`BB`, king `BC`–`C3`, castling `C4`/`C5`. Codes `3A`, `48`, `80`,
//! `9C`, `B8` (the anti-diagonal (4,4), equal to (4,4) modulo 8) and `C6`–`FF` are unused.

use shakmaty::{CastlingSide, Chess, Move, Role};

use crate::boardcode::{MoveShape, Normalized};

const PAWN: u8 = 0x00;
const KNIGHT: u8 = 0x20;
const BISHOP: u8 = 0x30;
const ROOK: u8 = 0x4c;
const QUEEN: u8 = 0x68;
const KING: u8 = 0xbc;
const CASTLE_KING_SIDE: u8 = 0xc4;
const CASTLE_QUEEN_SIDE: u8 = 0xc5;

/// Knight displacements in code order.
const KNIGHT_STEPS: [(u8, u8); 8] = [(1, 2), (7, 2), (2, 1), (6, 1), (2, 7), (6, 7), (1, 6), (7, 6)];
/// King displacements in code order.
const KING_STEPS: [(u8, u8); 8] = [(0, 1), (1, 1), (7, 1), (1, 0), (7, 0), (0, 7), (1, 7), (7, 7)];
const PAWN_STEPS: [(u8, u8); 4] = [(0, 1), (0, 2), (1, 1), (7, 1)];

/// Offset of a diagonal step within a bishop group (and the queen's diagonal part):
/// (k,k) → k−1; the anti-diagonal (8−j, j) → 14 − dx, (4,4) being the diagonal's.
const fn diagonal(dx: u8, dy: u8) -> Option<u8> {
    match (dx, dy) {
        (1..=7, _) if dx == dy => Some(dx - 1),
        (1..=7, 1..=7) if dx + dy == 8 => Some(14 - dx),
        _ => None,
    }
}

/// Offset of a straight step within a rook group (and the queen's first part).
const fn straight(dx: u8, dy: u8) -> Option<u8> {
    match (dx, dy) {
        (0, 1..=7) => Some(dy - 1),
        (1..=7, 0) => Some(7 + dx - 1),
        _ => None,
    }
}

/// The position of (dx, dy) in `steps`.
const fn index(steps: &[(u8, u8)], dx: u8, dy: u8) -> Option<u8> {
    let mut i = 0;
    while i < steps.len() {
        if steps[i].0 == dx && steps[i].1 == dy {
            return Some(i as u8);
        }
        i += 1;
    }
    None
}

/// The byte of the `n`-th (from 0) white piece of `role` moving (dx, dy), or [`NO_CODE`].
const fn piece_code(role: Role, n: u8, dx: u8, dy: u8) -> u8 {
    let (base, offset) = match role {
        Role::Pawn if n < 8 => (PAWN + 4 * n, index(&PAWN_STEPS, dx, dy)),
        Role::Knight if n < 2 => (KNIGHT + 8 * n, index(&KNIGHT_STEPS, dx, dy)),
        Role::Bishop if n < 2 => (BISHOP + 14 * n, diagonal(dx, dy)),
        Role::Rook if n < 2 => (ROOK + 14 * n, straight(dx, dy)),
        Role::Queen if n < 3 => match (straight(dx, dy), diagonal(dx, dy)) {
            (Some(offset), _) => (QUEEN + 28 * n, Some(offset)),
            (None, Some(offset)) => (QUEEN + 28 * n, Some(14 + offset)),
            (None, None) => (0, None),
        },
        Role::King if n == 0 => (KING, index(&KING_STEPS, dx, dy)),
        _ => (0, None),
    };
    match offset {
        Some(offset) => base + offset,
        None => NO_CODE,
    }
}

/// A shape without a code in [`PIECE_CODES`] (the byte is unused).
const NO_CODE: u8 = 0xff;

/// [`piece_code`] of every role, `n` below 8 and step, at `[role − 1][n][dy][dx]`: built at
/// compile time, so that a builder naming every move of every game makes one look-up.
static PIECE_CODES: [[[[u8; 8]; 8]; 8]; 6] = {
    let mut codes = [[[[NO_CODE; 8]; 8]; 8]; 6];
    let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    let mut r = 0;
    while r < 6 {
        let mut n = 0;
        while n < 8 {
            let mut dy = 0;
            while dy < 8 {
                let mut dx = 0;
                while dx < 8 {
                    codes[r][n][dy][dx] = piece_code(roles[r], n as u8, dx as u8, dy as u8);
                    dx += 1;
                }
                dy += 1;
            }
            n += 1;
        }
        r += 1;
    }
    codes
};

/// The byte of a shape; `None` for what the table cannot express (a third knight, bishop or
/// rook, a fourth queen, a ninth pawn, an impossible step).
pub fn code(shape: MoveShape) -> Option<u8> {
    match shape {
        MoveShape::Castle(CastlingSide::KingSide) => Some(CASTLE_KING_SIDE),
        MoveShape::Castle(CastlingSide::QueenSide) => Some(CASTLE_QUEEN_SIDE),
        MoveShape::Piece { role, ordinal, dx, dy } => {
            let n = usize::from(ordinal.checked_sub(1)?);
            let by_role = &PIECE_CODES[role as usize - 1];
            let code = *by_role.get(n)?.get(usize::from(dy))?.get(usize::from(dx))?;
            (code != NO_CODE).then_some(code)
        }
    }
}

/// The shape of a byte; `None` for unused codes.
pub fn shape(code: u8) -> Option<MoveShape> {
    let piece = |role, n: u8, (dx, dy): (u8, u8)| Some(MoveShape::Piece { role, ordinal: n + 1, dx, dy });
    let straight_step = |k: u8| if k < 7 { (0, k + 1) } else { (k - 6, 0) };
    let diagonal_step = |k: u8| match k {
        0..=6 => Some((k + 1, k + 1)),
        10 => None,
        _ => Some((14 - k, k - 6)),
    };
    match code {
        PAWN..KNIGHT => piece(Role::Pawn, code / 4, PAWN_STEPS[usize::from(code % 4)]),
        KNIGHT..BISHOP => piece(Role::Knight, (code - KNIGHT) / 8, KNIGHT_STEPS[usize::from((code - KNIGHT) % 8)]),
        BISHOP..ROOK => piece(Role::Bishop, (code - BISHOP) / 14, diagonal_step((code - BISHOP) % 14)?),
        ROOK..QUEEN => piece(Role::Rook, (code - ROOK) / 14, straight_step((code - ROOK) % 14)),
        QUEEN..KING => {
            let k = (code - QUEEN) % 28;
            let step = if k < 14 { straight_step(k) } else { diagonal_step(k - 14)? };
            piece(Role::Queen, (code - QUEEN) / 28, step)
        }
        KING..CASTLE_KING_SIDE => piece(Role::King, 0, KING_STEPS[usize::from(code - KING)]),
        CASTLE_KING_SIDE => Some(MoveShape::Castle(CastlingSide::KingSide)),
        CASTLE_QUEEN_SIDE => Some(MoveShape::Castle(CastlingSide::QueenSide)),
        _ => None,
    }
}

/// The code of a legal move of `real` (normalised as `norm`); `None` when the table cannot
/// express it (under-promotion, a third knight, …).
pub fn encode_move(norm: &Normalized, mv: &Move) -> Option<u8> {
    code(norm.shape_of(mv)?)
}

/// The legal move of `real` a code stands for, or `None` when there is none.
pub fn decode_move(norm: &Normalized, real: &Chess, code: u8) -> Option<Move> {
    norm.real_move(real, shape(code)?)
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::san::San;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Position};

    use super::*;

    /// Every line of the seed's table, e.g. `0x29: 2-й конь, x+7, y+2` (tests/data copy of the
    /// list in seed 000_4eddb30f5ce68e62.txt).
    fn seed_table() -> Vec<(u8, MoveShape)> {
        let text = include_str!("../../tests/data/kvetka/move_codes_seed.txt");
        text.lines()
            .map(|line| {
                let (code, rest) = line.split_once(": ").unwrap();
                let code = u8::from_str_radix(code.trim_start_matches("0x"), 16).unwrap();
                let mut fields = rest.split(", ");
                let piece = fields.next().unwrap();
                let shape = if rest.ends_with("O-O-O") {
                    MoveShape::Castle(CastlingSide::QueenSide)
                } else if rest.ends_with("O-O") {
                    MoveShape::Castle(CastlingSide::KingSide)
                } else {
                    let ordinal = piece.chars().next().and_then(|c| c.to_digit(10)).unwrap_or(1) as u8;
                    let role = [
                        ("пешка", Role::Pawn),
                        ("конь", Role::Knight),
                        ("слон", Role::Bishop),
                        ("ладья", Role::Rook),
                        ("ферзь", Role::Queen),
                        ("король", Role::King),
                    ]
                    .into_iter()
                    .find(|(word, _)| piece.ends_with(word))
                    .unwrap()
                    .1;
                    let (mut dx, mut dy) = (0, 0);
                    for f in fields {
                        let value = f[2..].parse::<u8>().unwrap();
                        if f.starts_with('x') { dx = value } else { dy = value }
                    }
                    MoveShape::Piece { role, ordinal, dx, dy }
                };
                (code, shape)
            })
            .collect()
    }

    /// The codes of no other shape (any role, ordinal up to 10, step up to 9) than the table's.
    #[test]
    fn no_shape_off_the_table_has_a_code() {
        let mut coded = 0;
        for role in Role::ALL {
            for ordinal in 0..=10 {
                for dx in 0..10 {
                    for dy in 0..10 {
                        let piece = MoveShape::Piece { role, ordinal, dx, dy };
                        if let Some(byte) = code(piece) {
                            assert_eq!(shape(byte), Some(piece), "{piece:?}");
                            coded += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(coded, 193 - 2);
    }

    #[test]
    fn the_formula_is_the_seed_table() {
        let table = seed_table();
        assert_eq!(table.len(), 193);
        for &(byte, shape_) in &table {
            assert_eq!(shape(byte), Some(shape_), "{byte:#04x}");
            assert_eq!(code(shape_), Some(byte), "{shape_:?}");
        }
        let unused: Vec<u8> = (0..=255u8).filter(|&b| shape(b).is_none()).collect();
        let listed: Vec<u8> = table.iter().map(|&(b, _)| b).collect();
        assert!(unused.iter().all(|b| !listed.contains(b)));
        assert_eq!(&unused[..5], &[0x3a, 0x48, 0x80, 0x9c, 0xb8]);
        assert_eq!(unused.len(), 256 - 193);
    }

    fn code_after(fen: &str, moves: &str, mv: &str) -> Option<u8> {
        let mut pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        for san in moves.split_whitespace() {
            let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
        let m = mv.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let norm = Normalized::new(&pos);
        let byte = encode_move(&norm, &m);
        if let Some(b) = byte {
            assert_eq!(decode_move(&norm, &pos, b), Some(m), "{mv}");
        }
        byte
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// kvetka.md 14.2, hand-checked from the document.
    #[test]
    fn codes_of_the_spec() {
        let cases: &[(&str, &str, &str, Option<u8>)] = &[
            (START, "", "e2e4", Some(0x11)),
            (START, "", "d2d4", Some(0x0d)),
            (START, "", "g1f3", Some(0x29)),
            (START, "", "b1c3", Some(0x20)),
            (START, "e4", "c7c5", Some(0x09)),
            (START, "e4", "e7e5", Some(0x11)),
            (START, "e4", "g8f6", Some(0x29)),
            (START, "e4", "b8c6", Some(0x20)),
            (START, "e4 d5 e5 f5", "e5f6", Some(0x12)),
            ("4k3/8/8/8/8/8/1P6/2K5 w - - 0 1", "", "b2b4", Some(0x01)),
            ("4k3/8/8/8/8/8/1P6/2K5 w - - 0 1", "", "c1d2", Some(0xbe)),
            ("4k3/8/8/8/8/8/1P6/2K5 w - - 0 1", "", "c1b1", Some(0xbf)),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "", "e1g1", Some(0xc4)),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "", "e1c1", Some(0xc5)),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "", "e8g8", Some(0xc4)),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "", "e8c8", Some(0xc5)),
            ("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "", "b7b8q", Some(0x00)),
            ("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "", "b7b8n", None),
            // A third knight has no code.
            ("4k3/8/8/8/8/8/8/NN2K1N1 w - - 0 1", "", "g1f3", None),
        ];
        for &(fen, moves, mv, expected) in cases {
            assert_eq!(code_after(fen, moves, mv), expected, "{fen} {moves} {mv}");
        }
    }

    #[test]
    fn every_legal_move_of_a_few_positions_round_trips() {
        for fen in [
            START,
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/8/3k4/8/3Q4/8/8/2K5 b - - 0 1",
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let norm = Normalized::new(&pos);
            for m in pos.legal_moves() {
                let byte = encode_move(&norm, &m).unwrap();
                assert_eq!(decode_move(&norm, &pos, byte), Some(m));
            }
        }
    }
}
