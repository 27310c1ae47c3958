//! Legality of a normal move without generating move lists.
//!
//! shakmaty decides legality by generating every legal move. Readers that meet one move at a
//! time (the SAN reader, the SCID decoder) need only ask whether the piece can go there on this
//! board and whether its own king is safe afterwards.
//!
//! Sliders are tested one by one against empty-board rays and the squares between, not with
//! magic lookups: the few pieces on a line with a square are found in 1 KiB of tables that stay
//! in the first-level cache, while the magic attack table (700 KB) misses it whenever PGN text
//! streams through.

use shakmaty::{Bitboard, Board, Chess, Color, Position, Rank, Role, Square, attacks};

/// The squares a rook (or a bishop) on each square reaches on an empty board: 512 bytes.
struct Rays([u64; 64]);

static STRAIGHT: Rays = Rays::of(Role::Rook);
static DIAGONAL: Rays = Rays::of(Role::Bishop);

impl Rays {
    const fn of(role: Role) -> Rays {
        let mut rays = [0; 64];
        let mut from: usize = 0;
        while from < 64 {
            let mut to: usize = 0;
            while to < 64 {
                let (files, ranks) = ((from % 8).abs_diff(to % 8), (from / 8).abs_diff(to / 8));
                let on_line = match role {
                    Role::Rook => (files == 0) != (ranks == 0),
                    _ => files == ranks && files != 0,
                };
                if on_line {
                    rays[from] |= 1 << to;
                }
                to += 1;
            }
            from += 1;
        }
        Rays(rays)
    }

    fn from(&self, sq: Square) -> Bitboard {
        Bitboard(self.0[usize::from(sq)])
    }

    /// The squares strictly between `a` and `b`, which must lie on one of these rays of each
    /// other: the two squares' rays cross only on their common line there (elsewhere they
    /// meet only outside the span between the two squares).
    fn between(&self, a: Square, b: Square) -> Bitboard {
        let span = (u64::MAX << u32::from(a)) ^ (u64::MAX << u32::from(b));
        self.from(a) & self.from(b) & Bitboard(span)
    }

    /// Which of `pieces` on these rays of `sq` reach it: none of `occupied` is between.
    fn reaching(&self, sq: Square, pieces: Bitboard, occupied: Bitboard) -> impl Iterator<Item = Square> {
        (self.from(sq) & pieces).into_iter().filter(move |&piece| (self.between(piece, sq) & occupied).is_empty())
    }

    /// Whether one of `pieces` reaches `sq` along these rays with `occupied` squares occupied.
    fn reached(&self, sq: Square, pieces: Bitboard, occupied: Bitboard) -> bool {
        self.reaching(sq, pieces, occupied).next().is_some()
    }
}

/// Where the pieces of each role stand: shakmaty's `Board`, or the position the PGN reader
/// plays on (`pgn::position`).
pub(crate) trait Pieces {
    fn by_role(&self, role: Role) -> Bitboard;
}

impl Pieces for Board {
    fn by_role(&self, role: Role) -> Bitboard {
        Board::by_role(self, role)
    }
}

/// The squares a rook on `sq` reaches on an empty board.
pub(crate) fn straight_rays(sq: Square) -> Bitboard {
    STRAIGHT.from(sq)
}

/// The squares a bishop on `sq` reaches on an empty board.
pub(crate) fn diagonal_rays(sq: Square) -> Bitboard {
    DIAGONAL.from(sq)
}

/// Whether one of `attackers` (all of `color`) attacks `sq` with `occupied` squares occupied.
pub(crate) fn attacked(
    pieces: &impl Pieces,
    sq: Square,
    color: Color,
    attackers: Bitboard,
    occupied: Bitboard,
) -> bool {
    let queens = pieces.by_role(Role::Queen);
    let leapers = attacks::knight_attacks(sq) & pieces.by_role(Role::Knight)
        | attacks::pawn_attacks(!color, sq) & pieces.by_role(Role::Pawn)
        | attacks::king_attacks(sq) & pieces.by_role(Role::King);
    (leapers & attackers).any()
        || STRAIGHT.reached(sq, (pieces.by_role(Role::Rook) | queens) & attackers, occupied)
        || DIAGONAL.reached(sq, (pieces.by_role(Role::Bishop) | queens) & attackers, occupied)
}

/// Whether the king of the side to move is safe after its `role` goes from `from` to `to` (a
/// piece captured on `to` no longer attacks): this decides pins and answers to check alike.
pub(crate) fn king_safe_after(pos: &Chess, role: Role, from: Square, to: Square) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    let king = if role == Role::King { Some(to) } else { board.king_of(turn) };
    king.is_some_and(|king| king_safe_on(board, king, !turn, pos.them(), board.occupied(), (from, to)))
}

/// Whether `king` (where the king stands after the move) is safe from `theirs`, the pieces of
/// `them`, once a piece goes `from` → `to` among `occupied` squares, a piece of theirs on `to`
/// taken: the full test behind every `king_safe_after`.
pub(crate) fn king_safe_on(
    pieces: &impl Pieces,
    king: Square,
    them: Color,
    theirs: Bitboard,
    occupied: Bitboard,
    (from, to): (Square, Square),
) -> bool {
    !attacked(pieces, king, them, theirs.without(to), occupied.without(from).with(to))
}

/// The pieces among `pieces` (all `role`: bishops, rooks or queens) that reach `to` with
/// `occupied` squares occupied.
///
/// Mostly one piece of the role stands on a line with `to`: it is tested here, inlined, by
/// the squares between the two on the one line they share; two or more are sorted out by
/// [`slider_origins_among`].
#[inline(always)]
pub(crate) fn slider_origins(role: Role, to: Square, pieces: Bitboard, occupied: Bitboard) -> Bitboard {
    let lines = match role {
        Role::Bishop => DIAGONAL.from(to),
        Role::Rook => STRAIGHT.from(to),
        _ => STRAIGHT.from(to) | DIAGONAL.from(to),
    };
    let on_lines = lines & pieces;
    match on_lines.single_square() {
        Some(from) => {
            let rays = if STRAIGHT.from(to).contains(from) { &STRAIGHT } else { &DIAGONAL };
            if (rays.between(from, to) & occupied).is_empty() { on_lines } else { Bitboard::EMPTY }
        }
        None if on_lines.is_empty() => Bitboard::EMPTY,
        None => slider_origins_among(role, to, pieces, occupied),
    }
}

/// [`slider_origins`] when more than one piece stands on a line with `to`: each line's
/// pieces tested one by one.
#[inline(never)]
fn slider_origins_among(role: Role, to: Square, pieces: Bitboard, occupied: Bitboard) -> Bitboard {
    let mut origins = Bitboard::EMPTY;
    if role != Role::Bishop {
        origins.extend(STRAIGHT.reaching(to, pieces, occupied));
    }
    if role != Role::Rook {
        origins.extend(DIAGONAL.reaching(to, pieces, occupied));
    }
    origins
}

/// The square a pawn of `turn` among `pawns` pushes from to reach the empty square `to`: one
/// step, or two from its starting rank over an empty square.
///
/// Shifts instead of branches, and inlined: a third of the moves of a game are pawn pushes, and
/// the call with its branches cost more than the answer.
#[inline(always)]
pub(crate) fn pawn_push_from(to: Square, turn: Color, pawns: Bitboard, occupied: Bitboard) -> Bitboard {
    let to_bb = u64::from(Bitboard::from_square(to));
    // Shifted off the board at the edges, so a square with no square behind it gives none.
    let (one, two) = match turn {
        Color::White => (to_bb >> 8, to_bb >> 16),
        Color::Black => (to_bb << 8, to_bb << 16),
    };
    let double_step = to.rank() == turn.fold_wb(Rank::Fourth, Rank::Fifth) && (occupied.0 & one) == 0;
    pawns & Bitboard(one | if double_step { two } else { 0 })
}

#[cfg(test)]
pub(crate) mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode, Move};
    use tabiya_testdata::Xorshift;

    use super::*;

    /// Pins, checks and double checks, captures of the checker, kings stepping along a
    /// slider's line (the x-ray through the king's own square), promotions, en passant (a pawn
    /// pinned along the rank), discovered checks; Chess960 castling.
    pub(crate) const STARTS: [(&str, CastlingMode); 12] = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
        ("8/2p5/3p4/KP5r/1R3pPk/8/4P3/8 b - g3 0 1", CastlingMode::Standard),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", CastlingMode::Standard),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", CastlingMode::Standard),
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", CastlingMode::Standard),
        ("4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1", CastlingMode::Standard),
        ("4k3/8/8/8/1b6/8/3q4/R2NK3 w - - 0 1", CastlingMode::Standard),
        ("3rk3/8/8/8/8/8/3P4/3K3q w - - 0 1", CastlingMode::Standard),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
        ("2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", CastlingMode::Chess960),
    ];

    pub(crate) fn position(fen: &str, mode: CastlingMode) -> Chess {
        Fen::from_ascii(fen.as_bytes()).unwrap().into_position(mode).unwrap()
    }

    /// Every normal move a piece of the side to move could make ignoring its king, with
    /// whether shakmaty's legal move generation has it.
    pub(crate) fn pseudo_legal(pos: &Chess) -> Vec<(Role, Square, Square, bool)> {
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
    fn lines_are_shakmatys() {
        let mut pairs = 0;
        for (rays, role) in [(&STRAIGHT, Role::Rook), (&DIAGONAL, Role::Bishop)] {
            for a in Square::ALL {
                assert_eq!(rays.from(a), attacks::attacks(a, role.of(Color::White), Bitboard::EMPTY));
                for b in rays.from(a) {
                    assert_eq!(rays.between(a, b), attacks::between(a, b), "{a} {b}");
                    pairs += 1;
                }
            }
        }
        // 64 squares × 14 for rooks, 560 ordered pairs on diagonals.
        assert_eq!(pairs, 64 * 14 + 560);
    }

    #[test]
    fn king_safety_agrees_with_legal_move_generation() {
        let mut rng = Xorshift::new(0x4b1);
        let (mut checked, mut unsafe_moves, mut in_check, mut reached) = (0, 0, 0, 0);
        for game in 0..400 {
            let (fen, mode) = STARTS[game % STARTS.len()];
            let mut pos = position(fen, mode);
            for _ in 0..60 {
                let at = || Fen::from_position(&pos, EnPassantMode::Legal).to_string();
                in_check += usize::from(pos.is_check());
                for (role, from, to, legal) in pseudo_legal(&pos) {
                    assert_eq!(king_safe_after(&pos, role, from, to), legal, "{role:?} {from}{to} in {}", at());
                    checked += 1;
                    unsafe_moves += usize::from(!legal);
                }
                let occupied = pos.board().occupied();
                for role in [Role::Bishop, Role::Rook, Role::Queen] {
                    for to in Square::ALL {
                        let expected = attacks::attacks(to, role.of(pos.turn()), occupied) & pos.our(role);
                        assert_eq!(slider_origins(role, to, pos.our(role), occupied), expected, "{to} in {}", at());
                        reached += expected.count();
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(
            checked > 300_000 && unsafe_moves > 10_000 && in_check > 1_000 && reached > 100_000,
            "{checked} {unsafe_moves} {in_check} {reached}"
        );
    }
}
