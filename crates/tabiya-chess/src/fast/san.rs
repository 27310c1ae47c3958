//! SAN to a legal move without move lists.
//!
//! shakmaty's `San::to_move` builds the list of legal candidate moves (a 256-entry array,
//! copied on return) for every move read. Here the candidate squares come from bitboards
//! (`crate::rules`), each tested for the safety of the king (which decides pins and answers
//! to check alike), on the reader's own position (`pgn::position`). The answer (move, illegal
//! or ambiguous) is shakmaty's in every case; a test compares the two on every spelling of
//! every move of random games.

use shakmaty::san::{San, SanError};
use shakmaty::{Bitboard, CastlingSide, File, Move, Rank, Role, Square, attacks};

use super::position::PlayPosition;
use super::rules::{pawn_push_from, slider_origins};

impl PlayPosition {
    /// The legal move `san` names here, as `San::to_move` finds it.
    #[inline(always)]
    pub(crate) fn san_to_move(&self, san: San) -> Result<Move, SanError> {
        match san {
            San::Normal { role, file, rank, capture, to, promotion } => {
                self.normal_move(Normal { role, file, rank, capture, to, promotion })
            }
            San::Castle(side) => self.castling(side).ok_or(SanError::IllegalSan),
            // Drops are Crazyhouse's; a null move is no move.
            San::Put { .. } | San::Null => Err(SanError::IllegalSan),
        }
    }

    /// Finds the legal move `san` names, as [`PlayPosition::san_to_move`] does, and plays it.
    /// One piece of code for the usual move: nothing is passed on or taken apart between
    /// finding and playing it.
    #[inline(always)]
    pub(crate) fn play_san(&mut self, san: San) -> Result<Move, SanError> {
        let mv = self.san_to_move(san)?;
        self.play(mv);
        Ok(mv)
    }

    #[inline(always)]
    fn normal_move(&self, san: Normal) -> Result<Move, SanError> {
        let Normal { role, file, rank, capture, to, promotion } = san;
        let turn = self.turn();
        let occupied = self.occupied();
        if self.by_color(turn).contains(to) {
            return Err(SanError::IllegalSan);
        }
        let named = file.map_or(Bitboard::FULL, Bitboard::from_file) & rank.map_or(Bitboard::FULL, Bitboard::from_rank);
        if capture != occupied.contains(to) {
            if role == Role::Pawn && capture && promotion.is_none() && self.ep_square() == Some(to) {
                return self.en_passant(to, named);
            }
            return Err(SanError::IllegalSan);
        }
        let promotes = role == Role::Pawn && to.rank() == self.last_rank();
        match promotion {
            None if !promotes => {}
            Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen) if promotes => {}
            _ => return Err(SanError::IllegalSan),
        }
        let ours = self.our(role);
        let from = match role {
            Role::Pawn if capture => attacks::pawn_attacks(!turn, to) & ours,
            Role::Pawn => pawn_push_from(to, turn, ours, occupied),
            Role::Knight => attacks::knight_attacks(to) & ours,
            Role::King => attacks::king_attacks(to) & ours,
            _ => slider_origins(role, to, ours & named, occupied),
        };
        // Mostly one piece can go there; more are sorted out aside.
        let from = match (from & named).single_square() {
            Some(from) if self.king_safe_after(role, from, to) => from,
            Some(_) => return Err(SanError::IllegalSan),
            None => self.only_safe(from & named, |from| self.king_safe_after(role, from, to))?,
        };
        // The captured role is looked up once, for the move found.
        Ok(Move::Normal { role, from, capture: self.role_at(to), to, promotion })
    }

    /// A pawn of `named` takes en passant on `to`, the square skipped by the last move.
    #[cold]
    fn en_passant(&self, to: Square, named: Bitboard) -> Result<Move, SanError> {
        let pawns = attacks::pawn_attacks(!self.turn(), to) & self.our(Role::Pawn) & named;
        let from = self.only_safe(pawns, |from| self.king_safe_after_en_passant(from, to))?;
        Ok(Move::EnPassant { from, to })
    }

    /// The one square of `from` that `safe` accepts: illegal if none is, ambiguous if more are.
    #[cold]
    fn only_safe(&self, from: Bitboard, safe: impl Fn(Square) -> bool) -> Result<Square, SanError> {
        let mut found = None;
        for from in from.into_iter().filter(|&from| safe(from)) {
            if found.is_some() {
                return Err(SanError::AmbiguousSan);
            }
            found = Some(from);
        }
        found.ok_or(SanError::IllegalSan)
    }

    /// The legal move long algebraic notation (`g1f3`, `e7e8q`, `e1g1`) names here, as
    /// shakmaty's `UciMove::to_move` finds it: the piece standing on `from` goes to `to`; a
    /// king onto its own castling rook, or two files from e1/e8 along its back rank, castles;
    /// a pawn going sideways onto an empty square takes en passant (whatever promotion is
    /// written).
    pub(crate) fn uci_to_move(&self, from: Square, to: Square, promotion: Option<Role>) -> Option<Move> {
        let role = self.role_at(from)?;
        if promotion.is_some() && role != Role::Pawn {
            return None;
        }
        let turn = self.turn();
        let back_rank = turn.fold_wb(Rank::First, Rank::Eighth);
        let onto_castling_rook = (self.castles().castling_rights() & self.by_color(turn)).contains(to);
        let two_files_from_e =
            from == turn.fold_wb(Square::E1, Square::E8) && to.rank() == back_rank && from.distance(to) == 2;
        if role == Role::King && (onto_castling_rook || two_files_from_e) {
            let side = CastlingSide::from_king_side(from.file() < to.file());
            let corner = if side == CastlingSide::KingSide { File::H } else { File::A };
            let rook = if onto_castling_rook { to } else { Square::from_coords(corner, back_rank) };
            let castle = Move::Castle { king: from, rook };
            return (self.castling(side) == Some(castle)).then_some(castle);
        }
        let occupied = self.occupied().contains(to);
        if role == Role::Pawn && from.file() != to.file() && !occupied {
            return (self.ep_square() == Some(to)).then(|| self.en_passant(to, Bitboard::from_square(from)).ok())?;
        }
        // Written out in full, SAN names exactly this move when it is legal.
        let (file, rank) = (Some(from.file()), Some(from.rank()));
        self.normal_move(Normal { role, file, rank, capture: occupied, to, promotion }).ok()
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

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::san::SanPlus;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
    use tabiya_testdata::Xorshift;

    use super::*;
    use crate::fast::rules::tests::{STARTS, position};

    /// Every way of writing a move this resolver handles: as SAN writes it, with no, file,
    /// rank and full disambiguation, with the capture mark flipped and with each promotion.
    fn spellings(pos: &Chess, m: Move) -> Vec<San> {
        let mut out = vec![San::from_move(pos, m)];
        let (role, from, capture, to) = match m {
            Move::Normal { role, from, capture, to, .. } => (role, from, capture.is_some(), to),
            Move::EnPassant { from, to } => (Role::Pawn, from, true, to),
            _ => return out,
        };
        for (file, rank) in
            [(None, None), (Some(from.file()), None), (None, Some(from.rank())), (Some(from.file()), Some(from.rank()))]
        {
            for capture in [capture, !capture] {
                for promotion in [None, Some(Role::Queen), Some(Role::Knight), Some(Role::King)] {
                    out.push(San::Normal { role, file, rank, capture, to, promotion });
                }
            }
        }
        out
    }

    #[test]
    fn resolves_as_shakmaty_does_on_random_games() {
        let mut rng = Xorshift::new(0x5a17);
        let (mut checked, mut ambiguous, mut en_passant, mut uci) = (0, 0, 0, 0);
        for game in 0..150 {
            let (fen, mode) = STARTS[game % STARTS.len()];
            let mut pos = position(fen, mode);
            let mut play = PlayPosition::new(&pos);
            for _ in 0..120 {
                let at = || Fen::from_position(&pos, EnPassantMode::Legal).to_string();
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    for san in spellings(&pos, m) {
                        let expected = san.to_move(&pos);
                        assert_eq!(play.san_to_move(san), expected, "{san} in {}", at());
                        checked += 1;
                        ambiguous += usize::from(expected == Err(SanError::AmbiguousSan));
                        en_passant += usize::from(matches!(expected, Ok(Move::EnPassant { .. })));
                    }
                }
                for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                    assert_eq!(play.san_to_move(San::Castle(side)), San::Castle(side).to_move(&pos));
                }
                // Moves to every square by every role, legal or not.
                for to in Square::ALL.into_iter().step_by(7) {
                    for role in Role::ALL {
                        let capture = pos.board().occupied().contains(to);
                        let san = San::Normal { role, file: None, rank: None, capture, to, promotion: None };
                        assert_eq!(play.san_to_move(san), san.to_move(&pos), "{san} in {}", at());
                    }
                }
                // Long algebraic: every legal move (castling both ways of writing it), and
                // moves from the pieces' squares to random squares.
                let mut tries: Vec<(Square, Square, Option<Role>)> = moves
                    .iter()
                    .flat_map(|&m| [m.to_uci(CastlingMode::Standard), m.to_uci(CastlingMode::Chess960)])
                    .filter_map(|u| match u {
                        UciMove::Normal { from, to, promotion } => Some((from, to, promotion)),
                        _ => None,
                    })
                    .collect();
                let promoted: Vec<_> = tries.iter().map(|&(from, to, _)| (from, to, Some(Role::Queen))).collect();
                tries.extend(promoted);
                let pieces: Vec<Square> = pos.board().occupied().into_iter().collect();
                for _ in 0..8 {
                    let from = pieces[rng.below(pieces.len())];
                    let promotion = [None, Some(Role::Queen), Some(Role::King)][rng.below(3)];
                    tries.push((from, Square::new(rng.below(64) as u32), promotion));
                }
                for (from, to, promotion) in tries {
                    let expected = UciMove::Normal { from, to, promotion }.to_move(&pos).ok();
                    assert_eq!(play.uci_to_move(from, to, promotion), expected, "{from}{to} {promotion:?} in {}", at());
                    uci += usize::from(expected.is_some());
                }
                let mv = moves[rng.below(moves.len())];
                pos.play_unchecked(mv);
                play.play(mv);
            }
        }
        // This seed's counts, rounded down: 12,912,314 spellings resolved, 16,492 of them
        // ambiguous, 187 en passant; 792,605 long-algebraic moves legal.
        assert!(
            checked > 12_900_000 && ambiguous > 16_000 && en_passant > 180 && uci > 790_000,
            "{checked} {ambiguous} {en_passant} {uci}"
        );
    }

    /// What the resolver special-cases, spelled out where random games rarely go: a pinned
    /// piece (which also settles a SAN that would otherwise be ambiguous), en passant that
    /// uncovers a check along the rank or the diagonal of the pawn taken, castling out of,
    /// through and into attack, promotions, and two queens reaching one square. Each answer is
    /// written down (the move in long algebraic, illegal or ambiguous, by the rules of chess)
    /// and must also be shakmaty's.
    #[test]
    fn resolves_the_special_cases_as_the_rules_and_shakmaty_do() {
        const ILLEGAL: Result<&str, SanError> = Err(SanError::IllegalSan);
        const AMBIGUOUS: Result<&str, SanError> = Err(SanError::AmbiguousSan);
        type Cases<'a> = &'a [(&'a str, Result<&'a str, SanError>)];
        let cases: [(&str, Cases); 10] = [
            // The knight on e2 is pinned to its king by the rook on e7.
            ("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", &[("Nc3", ILLEGAL), ("Nd4", ILLEGAL), ("Kd2", Ok("e1d2"))]),
            // Two knights reach d5, the one on e3 pinned: `Nd5` names the other, not both.
            (
                "k3r3/8/8/8/8/2N1N3/8/4K3 w - - 0 1",
                &[("Nd5", Ok("c3d5")), ("Ncd5", Ok("c3d5")), ("Ned5", ILLEGAL), ("Nxe4", ILLEGAL)],
            ),
            // Taking en passant removes the pawn beside the king from the rank of the rook.
            ("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", &[("bxc6", ILLEGAL), ("b6", Ok("b5b6"))]),
            // Taking en passant removes the pawn on d4 from the bishop's diagonal to the king.
            ("8/8/1k6/8/3Pp3/8/8/6BK b - d3 0 1", &[("exd3", ILLEGAL), ("e3", Ok("e4e3"))]),
            // An ordinary en passant capture, and one written without its capture mark.
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", &[("exd6", Ok("e5d6")), ("ed6", ILLEGAL), ("e6", Ok("e5e6"))]),
            // The bishop on a6 guards f1, which the king crosses going short; b1, which only
            // the rook crosses going long, is attacked by the rook on b8 and does not matter.
            ("1r2k3/8/b7/8/8/8/8/R3K2R w KQ - 0 1", &[("O-O", ILLEGAL), ("O-O-O", Ok("e1c1"))]),
            // The king would land on g1, which the knight on h3 guards.
            ("4k3/8/8/8/8/7n/8/R3K2R w KQ - 0 1", &[("O-O", ILLEGAL), ("O-O-O", Ok("e1c1"))]),
            // No castling out of check.
            ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", &[("O-O", ILLEGAL), ("O-O-O", ILLEGAL), ("Kxe2", Ok("e1e2"))]),
            // Promotions: pushes and captures onto the last rank need a piece, and not a king.
            (
                "3r4/2P1P3/8/8/8/8/8/k3K3 w - - 0 1",
                &[
                    ("c8=Q", Ok("c7c8q")),
                    ("c8", ILLEGAL),
                    ("c8=K", ILLEGAL),
                    ("cxd8=N", Ok("c7d8n")),
                    ("exd8=R+", Ok("e7d8r")),
                    ("e8=B", Ok("e7e8b")),
                ],
            ),
            // Two queens on one diagonal reach d4 from either side.
            (
                "7Q/8/2k5/8/8/8/8/Q3K3 w - - 0 1",
                &[("Qd4", AMBIGUOUS), ("Qad4", Ok("a1d4")), ("Q1d4", Ok("a1d4")), ("Qhd4", Ok("h8d4"))],
            ),
        ];
        for (fen, moves) in cases {
            let pos = position(fen, CastlingMode::Standard);
            let play = PlayPosition::new(&pos);
            for (text, answer) in moves {
                let san: SanPlus = text.parse().unwrap();
                let found = play.san_to_move(san.san);
                assert_eq!(found, san.san.to_move(&pos), "{text} in {fen}");
                let found = found.map(|m| m.to_uci(CastlingMode::Standard).to_string());
                assert_eq!(found.as_deref(), answer.as_ref().map(|uci| *uci), "{text} in {fen}");
            }
        }
    }
}
