//! The position the PGN reader plays each line on: what resolving SAN and playing a move need
//! of shakmaty's `Chess`, and nothing else.
//!
//! Reading a game only ever asks a position which legal move a SAN names, and plays it. `Chess`
//! plays a move by clearing both squares in each of its bitboards, keeps the move clocks and
//! branches on what kind of move it is. This keeps the pieces (a bitboard per role and per
//! color), the side to move, the castling rights (shakmaty's own `Castles`) and the en passant
//! square as `Chess` keeps them (set after every double step), plus the role on each square
//! for the piece a move takes. It plays a normal move without a branch on what it takes: a move
//! that takes nothing toggles a spare bitboard.
//!
//! The moves it finds are the same `Move` values shakmaty finds, and playing them leaves the
//! same board, rights and en passant square: tests compare the two square by square on random
//! games, Chess960 included (and `fast::san`'s tests compare the moves).

use std::hint::select_unpredictable;

use shakmaty::{
    Bitboard, Castles, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Rank, Role, Square, attacks,
};

use super::rules::{self, Pieces};

/// A position kept for playing games fast: bitboards by role and colour plus a role per square,
/// castling rights and the en-passant square, without the checks `Chess::play` makes.
#[derive(Debug, Clone)]
pub struct PlayPosition {
    /// The pieces by `Role as usize` (pawn 1 … king 6). Slot 0 is spare: a move that captures
    /// nothing toggles its destination there.
    by_role: [Bitboard; 7],
    /// By `Color as usize` (black 0, white 1).
    by_color: [Bitboard; 2],
    /// The role on each square, for the piece a move takes.
    roles: [Option<Role>; 64],
    turn: Color,
    castles: Castles,
    /// The square a pawn skipped with a double step on the last move, as `Chess` keeps it
    /// (whether or not a pawn can take there).
    ep_square: Option<Square>,
    /// The squares the last move left and reached, or every square when it is not known
    /// that the side to move was safe before it (the start, a castling, an en passant
    /// capture, a null move): only a piece there can newly attack the king
    /// (`king_safe_after`).
    last_move: Bitboard,
}

impl Pieces for PlayPosition {
    fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }
}

impl PlayPosition {
    pub(crate) fn new(pos: &Chess) -> PlayPosition {
        let board = pos.board();
        let mut by_role = [Bitboard::EMPTY; 7];
        let mut roles = [None; 64];
        for role in Role::ALL {
            by_role[role as usize] = board.by_role(role);
            for sq in board.by_role(role) {
                roles[usize::from(sq)] = Some(role);
            }
        }
        PlayPosition {
            by_role,
            by_color: [board.black(), board.white()],
            roles,
            turn: pos.turn(),
            castles: pos.castles().clone(),
            ep_square: pos.ep_square(EnPassantMode::Always),
            last_move: Bitboard::FULL,
        }
    }

    pub(crate) fn turn(&self) -> Color {
        self.turn
    }

    pub(crate) fn castles(&self) -> &Castles {
        &self.castles
    }

    pub(crate) fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    pub(crate) fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    pub(crate) fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The side to move's pieces of `role`.
    pub(crate) fn our(&self, role: Role) -> Bitboard {
        self.by_role(role) & self.by_color(self.turn)
    }

    pub(crate) fn role_at(&self, sq: Square) -> Option<Role> {
        self.roles[usize::from(sq)]
    }

    fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role(Role::King) & self.by_color(color)).first()
    }

    /// The king of the side to move is attacked.
    pub(crate) fn is_check(&self) -> bool {
        let turn = self.turn;
        let attacked = |king| rules::attacked(self, king, !turn, self.by_color(!turn), self.occupied());
        self.king_of(turn).is_some_and(attacked)
    }

    /// Plays a legal move (as found by this position's resolver).
    #[inline(always)]
    pub(crate) fn play(&mut self, mv: Move) {
        match mv {
            Move::Normal { role, from, capture, to, promotion } => {
                let (us, them) = (self.turn as usize, !self.turn as usize);
                let (from_bb, to_bb) = (Bitboard::from_square(from), Bitboard::from_square(to));
                let placed = promotion.unwrap_or(role);
                self.roles[usize::from(from)] = None;
                self.roles[usize::from(to)] = Some(placed);
                self.by_role[role as usize] ^= from_bb;
                self.by_role[placed as usize] ^= to_bb;
                self.by_role[capture.map_or(0, |captured| captured as usize)] ^= to_bb;
                self.by_color[us] ^= from_bb | to_bb;
                self.by_color[them] &= !to_bb;
                self.last_move = from_bb | to_bb;
                // Tests joined with `&`, not `&&`, and the square chosen rather than made in a
                // branch: whether a pawn moved is as good as random to the branch predictor,
                // which mispredicted it on a third of the moves.
                let double_step = (role == Role::Pawn) & (u32::from(from).abs_diff(u32::from(to)) == 16);
                let skipped = Square::new((u32::from(from) + u32::from(to)) / 2);
                self.ep_square = select_unpredictable(double_step, Some(skipped), None);
                // A right goes with its rook's square (the rook moves or is taken there, by any
                // piece, the king too) and with the king; the squares of the rights left always
                // hold their rooks.
                if role == Role::King {
                    self.castles.discard_color(self.turn);
                }
                if (self.castles.castling_rights() & (from_bb | to_bb)).any() {
                    self.castles.discard_rook(from);
                    self.castles.discard_rook(to);
                }
            }
            _ => self.play_special(mv),
        }
        self.turn = !self.turn;
    }

    /// Castling and en passant, which `play` leaves out of its way (rare).
    #[cold]
    fn play_special(&mut self, mv: Move) {
        let (us, them) = (self.turn as usize, !self.turn as usize);
        self.ep_square = None;
        self.last_move = Bitboard::FULL;
        match mv {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                let rook_to = Square::from_coords(side.rook_to_file(), rook.rank());
                let king_to = Square::from_coords(side.king_to_file(), king.rank());
                // In Chess960 a piece can land where it or the other stood: cleared, then set.
                self.roles[usize::from(king)] = None;
                self.roles[usize::from(rook)] = None;
                self.roles[usize::from(king_to)] = Some(Role::King);
                self.roles[usize::from(rook_to)] = Some(Role::Rook);
                let rooks = &mut self.by_role[Role::Rook as usize];
                *rooks = rooks.without(rook).with(rook_to);
                let kings = &mut self.by_role[Role::King as usize];
                *kings = kings.without(king).with(king_to);
                self.by_color[us] = self.by_color[us].without(king).without(rook).with(king_to).with(rook_to);
                self.castles.discard_color(self.turn);
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.roles[usize::from(from)] = None;
                self.roles[usize::from(captured)] = None;
                self.roles[usize::from(to)] = Some(Role::Pawn);
                self.by_role[Role::Pawn as usize] ^= Bitboard::from_square(from) | to | captured;
                self.by_color[them] ^= Bitboard::from_square(captured);
                self.by_color[us] ^= Bitboard::from_square(from) | to;
            }
            // Normal moves are played by `play`; drops belong to Crazyhouse, and the resolver
            // never finds one.
            Move::Normal { .. } | Move::Put { .. } => {}
        }
    }

    /// Passes the move to the other side (`--`), as `Chess::swap_turn` does; that never fails
    /// here, as the side to move is not in check when it passes (`read::resolve_san`).
    pub(crate) fn play_null(&mut self) {
        self.turn = !self.turn;
        self.ep_square = None;
        self.last_move = Bitboard::FULL;
    }

    /// Whether the king of the side to move is safe after its `role` goes from `from` to `to`
    /// (a piece captured on `to` no longer attacks): this decides pins and answers to check
    /// alike.
    ///
    /// Most moves are decided without the full attack test. The king was safe before the
    /// opponent's last move (`last_move` is every square when that is not known), so it can
    /// be in check now only from the piece that moved, or from a slider the move uncovered on
    /// a line through the square it left. A piece other than the king can expose its king only
    /// by leaving a line from the king on which an enemy slider of that line's kind stands.
    #[inline(always)]
    pub(crate) fn king_safe_after(&self, role: Role, from: Square, to: Square) -> bool {
        let turn = self.turn;
        let Some(king) = self.king_of(turn) else { return false };
        if role != Role::King {
            let theirs = self.by_color(!turn);
            let queens = self.by_role(Role::Queen);
            let (straight, diagonal) = (rules::straight_rays(king), rules::diagonal_rays(king));
            let straight_sliders = straight & theirs & (self.by_role(Role::Rook) | queens);
            let diagonal_sliders = diagonal & theirs & (self.by_role(Role::Bishop) | queens);
            // The lines from the king an enemy slider stands on (all of its lines of that kind).
            let lines = if straight_sliders.any() { straight } else { Bitboard::EMPTY }
                | if diagonal_sliders.any() { diagonal } else { Bitboard::EMPTY };
            // A knight or a pawn checks from a knight's or a king's step away.
            let near = attacks::knight_attacks(king) | attacks::king_attacks(king);
            let checked = (self.last_move & (lines | near)).any();
            if !checked && !lines.contains(from) {
                return true;
            }
        }
        self.king_safe_after_full(role, from, to, king)
    }

    /// [`PlayPosition::king_safe_after`] by the full attack test on the king's square.
    #[inline(never)]
    fn king_safe_after_full(&self, role: Role, from: Square, to: Square, king: Square) -> bool {
        let king = if role == Role::King { to } else { king };
        rules::king_safe_on(self, king, !self.turn, self.by_color(!self.turn), self.occupied(), (from, to))
    }

    /// Whether the side to move's king is safe after its pawn on `from` takes en passant on
    /// `to`, the pawn beside it leaving the board too.
    pub(crate) fn king_safe_after_en_passant(&self, from: Square, to: Square) -> bool {
        let captured = Square::from_coords(to.file(), from.rank());
        let occupied = (self.occupied() ^ from ^ captured).with(to);
        let theirs = self.by_color(!self.turn).without(captured);
        self.king_of(self.turn).is_some_and(|king| !rules::attacked(self, king, !self.turn, theirs, occupied))
    }

    /// Castling on `side` if it is legal, as shakmaty's `castling_moves` decides it: the right
    /// is kept, the squares between king and rook and their destinations are empty, and the
    /// king is attacked neither where it stands, nor on its way, nor where it lands.
    #[cold]
    pub(crate) fn castling(&self, side: CastlingSide) -> Option<Move> {
        let turn = self.turn;
        let rook = self.castles.rook(turn, side)?;
        let king = self.king_of(turn)?;
        let occupied = self.occupied();
        if (self.castles.path(turn, side) & occupied).any() {
            return None;
        }
        let them = self.by_color(!turn);
        let king_to = side.king_to(turn);
        let after = occupied ^ king ^ rook ^ side.rook_to(turn);
        if rules::attacked(self, king_to, !turn, them, after) {
            return None;
        }
        let on_the_way = shakmaty::attacks::between(king, king_to).with(king);
        if on_the_way.into_iter().any(|sq| rules::attacked(self, sq, !turn, them, occupied ^ king)) {
            return None;
        }
        Some(Move::Castle { king, rook })
    }

    /// The rank a pawn of the side to move promotes on.
    pub(crate) fn last_rank(&self) -> Rank {
        self.turn.fold_wb(Rank::Eighth, Rank::First)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::san::{San, SanError};
    use shakmaty::{CastlingMode, attacks};
    use tabiya_testdata::Xorshift;

    use super::*;
    use crate::fast::rules::tests::{STARTS, position, pseudo_legal};

    /// The two positions hold the same pieces, side to move, castling rights, en passant
    /// square and check.
    fn assert_same(play: &PlayPosition, pos: &Chess) {
        let at = || Fen::from_position(pos, EnPassantMode::Always).to_string();
        for role in Role::ALL {
            assert_eq!(play.by_role(role), pos.board().by_role(role), "{role:?} in {}", at());
        }
        for color in Color::ALL {
            assert_eq!(play.by_color(color), pos.board().by_color(color), "{color:?} in {}", at());
        }
        assert_eq!(play.occupied(), pos.board().occupied());
        assert_eq!(play.turn(), pos.turn(), "{}", at());
        assert_eq!(play.castles().castling_rights(), pos.castles().castling_rights(), "{}", at());
        for color in Color::ALL {
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                assert_eq!(play.castles().rook(color, side), pos.castles().rook(color, side), "{}", at());
                // A path left behind by a right given up is never read (a null move, which
                // `Chess` plays by setting the position up again, clears it).
                if play.castles().has(color, side) {
                    assert_eq!(play.castles().path(color, side), pos.castles().path(color, side), "{}", at());
                }
            }
        }
        assert_eq!(play.ep_square(), pos.ep_square(EnPassantMode::Always), "{}", at());
        assert_eq!(play.is_check(), pos.is_check(), "{}", at());
        for sq in Square::ALL {
            assert_eq!(play.role_at(sq), pos.board().role_at(sq));
        }
    }

    /// A king that takes an unmoved rook takes its right with it: random games almost never
    /// play this, so it is spelled out (the castle after it is illegal).
    #[test]
    fn a_king_taking_a_rook_takes_its_castling_right() {
        for (fen, moves) in [
            ("4k2r/p5K1/8/8/8/8/8/8 w k - 0 1", ["Kxh8", "a6", "Kh7", "a5", "Kh6"]),
            ("8/8/8/8/8/8/1k5P/R3K3 b Q - 0 1", ["Kxa1", "h3", "Kb2", "h4", "Kc3"]),
        ] {
            let mut pos = position(fen, CastlingMode::Standard);
            let mut play = PlayPosition::new(&pos);
            for san in moves {
                let mv = play.play_san(san.parse().unwrap()).unwrap();
                pos.play_unchecked(mv);
                assert_same(&play, &pos);
            }
            assert!(play.castles().castling_rights().is_empty());
            let castle = "O-O".parse::<San>().unwrap();
            assert_eq!(play.play_san(castle), Err(SanError::IllegalSan), "{fen}");
            assert_eq!(castle.to_move(&pos), Err(SanError::IllegalSan));
        }
    }

    #[test]
    fn plays_and_decides_legality_as_shakmaty_does() {
        let mut rng = Xorshift::new(0x4b1);
        let (mut checked, mut unsafe_moves, mut in_check, mut played) = (0, 0, 0, 0);
        let (mut castles, mut refused, mut en_passant, mut nulls) = (0, 0, 0, 0);
        let mut kinds = [0; 4];
        for game in 0..1_000 {
            let (fen, mode) = STARTS[game % STARTS.len()];
            let mut pos = position(fen, mode);
            let mut play = PlayPosition::new(&pos);
            for _ in 0..80 {
                assert_same(&play, &pos);
                let at = || Fen::from_position(&pos, EnPassantMode::Legal).to_string();
                in_check += usize::from(pos.is_check());
                for (role, from, to, legal) in pseudo_legal(&pos) {
                    assert_eq!(play.king_safe_after(role, from, to), legal, "{role:?} {from}{to} in {}", at());
                    checked += 1;
                    unsafe_moves += usize::from(!legal);
                }
                for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                    let expected = pos.castling_moves(side).first().copied();
                    assert_eq!(play.castling(side), expected, "{side:?} in {}", at());
                    castles += usize::from(expected.is_some());
                    refused += usize::from(expected.is_none() && pos.castles().has(pos.turn(), side));
                }
                if let Some(ep) = pos.ep_square(EnPassantMode::Always) {
                    for from in attacks::pawn_attacks(!pos.turn(), ep) & pos.our(Role::Pawn) {
                        let legal = pos.is_legal(Move::EnPassant { from, to: ep });
                        assert_eq!(play.king_safe_after_en_passant(from, ep), legal, "{from}{ep} in {}", at());
                        en_passant += 1;
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Now and then a null move, where the side to move is not in check.
                if !pos.is_check() && rng.below(40) == 0 {
                    pos = pos.swap_turn().expect("a side not in check can pass");
                    play.play_null();
                    nulls += 1;
                    continue;
                }
                // Promotions, castlings and en passant captures, rare in random play, are
                // taken every other time they are there.
                let special: Vec<Move> =
                    moves.iter().copied().filter(|m| !matches!(m, Move::Normal { promotion: None, .. })).collect();
                let mv = match rng.below(2) {
                    0 if !special.is_empty() => special[rng.below(special.len())],
                    _ => moves[rng.below(moves.len())],
                };
                kinds[match mv {
                    Move::Normal { promotion: Some(_), .. } => 1,
                    Move::Castle { .. } => 2,
                    Move::EnPassant { .. } => 3,
                    _ => 0,
                }] += 1;
                pos.play_unchecked(mv);
                play.play(mv);
                played += 1;
            }
        }
        // Counts of this seed's games, rounded down: 2,049,697 candidate moves of which 195,927
        // unsafe, 4,995 positions in check, 75,133 moves played.
        assert!(
            checked > 2_000_000 && unsafe_moves > 190_000 && in_check > 4_900 && played > 75_000,
            "{checked} {unsafe_moves} {in_check} {played}"
        );
        // Castling allowed (1,716), and refused with the right kept (7,739: path occupied or
        // attacked).
        assert!(castles > 1_700 && refused > 7_700, "{castles} {refused}");
        // Played: 935 promotions, 597 castlings, 79 en passant captures; 256 en passant
        // captures tested, 1,764 null moves.
        assert!(kinds[1] > 900 && kinds[2] > 590 && kinds[3] > 75, "{kinds:?}");
        assert!(en_passant > 250 && nulls > 1_700, "{en_passant} {nulls}");
    }
}
