//! SAN to a legal move, the common cases without move lists.
//!
//! shakmaty's `San::to_move` builds the list of legal candidate moves (a 256-entry array,
//! copied on return) for every move read. Piece and pawn moves and castling are resolved here
//! from bitboards instead (`crate::rules`): the candidate squares, each tested for the safety
//! of the king (which decides pins and answers to check alike). En passant goes to shakmaty.
//! The answer (move, illegal or ambiguous) is shakmaty's in every case; a test compares the
//! two on every spelling of every move of random games.

use shakmaty::san::{San, SanError};
use shakmaty::{Bitboard, Chess, File, Move, Position, Rank, Role, Square, attacks};

use crate::rules::{castling, king_safe_after, pawn_push_from, slider_origins};

/// The legal move `san` names in `pos`, as `San::to_move` finds it.
pub(crate) fn san_to_move(san: San, pos: &Chess) -> Result<Move, SanError> {
    match san {
        San::Normal { role, file, rank, capture, to, promotion } => {
            normal_move(pos, Normal { role, file, rank, capture, to, promotion }).unwrap_or_else(|| san.to_move(pos))
        }
        San::Castle(side) => castling(pos, side).ok_or(SanError::IllegalSan),
        _ => san.to_move(pos),
    }
}

/// The parts of a `San::Normal`.
struct Normal {
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    capture: bool,
    to: Square,
    promotion: Option<Role>,
}

/// `None` when shakmaty has to decide: a pawn captures on an empty square (en passant).
fn normal_move(pos: &Chess, san: Normal) -> Option<Result<Move, SanError>> {
    let Normal { role, file, rank, capture, to, promotion } = san;
    let board = pos.board();
    let turn = pos.turn();
    if pos.us().contains(to) {
        return Some(Err(SanError::IllegalSan));
    }
    if capture != board.occupied().contains(to) {
        if role == Role::Pawn && capture {
            return None;
        }
        return Some(Err(SanError::IllegalSan));
    }
    let promotes = role == Role::Pawn && to.rank() == turn.fold_wb(Rank::Eighth, Rank::First);
    match promotion {
        None if !promotes => {}
        Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen) if promotes => {}
        _ => return Some(Err(SanError::IllegalSan)),
    }
    let occupied = board.occupied();
    let ours = pos.our(role);
    let named = file.map_or(Bitboard::FULL, Bitboard::from_file) & rank.map_or(Bitboard::FULL, Bitboard::from_rank);
    let from = match role {
        Role::Pawn if capture => attacks::pawn_attacks(!turn, to) & ours,
        Role::Pawn => pawn_push_from(to, turn, ours, occupied),
        Role::Knight => attacks::knight_attacks(to) & ours,
        Role::King => attacks::king_attacks(to) & ours,
        _ => slider_origins(role, to, ours & named, occupied),
    };
    let mut found = None;
    for from in from & named {
        if !king_safe_after(pos, role, from, to) {
            continue;
        }
        if found.is_some() {
            return Some(Err(SanError::AmbiguousSan));
        }
        found = Some(from);
    }
    // The captured role is looked up once, for the move found.
    let mv = found.map(|from| Move::Normal { role, from, capture: board.role_at(to), to, promotion });
    Some(mv.ok_or(SanError::IllegalSan))
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, CastlingSide, EnPassantMode};
    use tabiya_io::corpus::Xorshift;

    use super::*;

    /// Every way of writing a move this resolver handles: as SAN writes it, with no, file,
    /// rank and full disambiguation, with the capture mark flipped and with each promotion.
    fn spellings(pos: &Chess, m: Move) -> Vec<San> {
        let mut out = vec![San::from_move(pos, m)];
        if let Move::Normal { role, from, capture, to, .. } = m {
            for (file, rank) in [
                (None, None),
                (Some(from.file()), None),
                (None, Some(from.rank())),
                (Some(from.file()), Some(from.rank())),
            ] {
                for capture in [capture.is_some(), capture.is_none()] {
                    for promotion in [None, Some(Role::Queen), Some(Role::Knight), Some(Role::King)] {
                        out.push(San::Normal { role, file, rank, capture, to, promotion });
                    }
                }
            }
        }
        out
    }

    #[test]
    fn resolves_as_shakmaty_does_on_random_games() {
        let mut rng = Xorshift::new(0x5a17);
        // The start, and the perft positions with pins, en passant and promotions close by.
        // Chess960 positions for castling with the king or rook elsewhere.
        let fens = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
            ("8/2p5/3p4/KP5r/1R3pPk/8/4P3/8 b - g3 0 1", CastlingMode::Standard),
            ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", CastlingMode::Standard),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard),
            ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
        ];
        let starts: Vec<Chess> = fens
            .iter()
            .map(|(fen, mode)| Fen::from_ascii(fen.as_bytes()).unwrap().into_position(*mode).unwrap())
            .collect();
        let (mut checked, mut ambiguous) = (0, 0);
        for game in 0..150 {
            let mut pos = starts[game % starts.len()].clone();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    for san in spellings(&pos, m) {
                        assert_eq!(
                            san_to_move(san, &pos),
                            san.to_move(&pos),
                            "{san} in {}",
                            Fen::from_position(&pos, EnPassantMode::Legal)
                        );
                        checked += 1;
                        ambiguous += usize::from(san.to_move(&pos) == Err(SanError::AmbiguousSan));
                    }
                }
                for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                    assert_eq!(san_to_move(San::Castle(side), &pos), San::Castle(side).to_move(&pos));
                }
                // Moves to every square by every role, legal or not.
                for to in Square::ALL.into_iter().step_by(7) {
                    for role in Role::ALL {
                        let san = San::Normal {
                            role,
                            file: None,
                            rank: None,
                            capture: pos.board().occupied().contains(to),
                            to,
                            promotion: None,
                        };
                        assert_eq!(san_to_move(san, &pos), san.to_move(&pos));
                    }
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 500_000 && ambiguous > 1_000, "{checked} {ambiguous}");
    }
}
