//! The glue over `shogi_core` (types) and `shogi_legality_lite` (rules): legal moves with the
//! two-pawn rule, pawn-drop mate and pieces with no further move, check, mate, and the piece
//! accounting of tsume problems (the defender holds every piece nobody else has).
//!
//! In a tsume problem the attacker (攻方) is sente (`Color::Black`) and moves first; the
//! defender (玉方) is gote (`Color::White`).

pub use shogi_core::{Color, Hand, IllegalMoveKind, Move, PartialPosition, Piece, PieceKind, Square};

/// The attacker (攻方) of a tsume problem.
pub const ATTACKER: Color = Color::Black;
/// The defender (玉方) of a tsume problem.
pub const DEFENDER: Color = Color::White;

/// The piece kinds that can be held in hand, in the order of T-BASE and KIF: 飛 角 金 銀 桂 香 歩.
pub const HAND_KINDS: [PieceKind; 7] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Pawn,
];

/// How many of each [`HAND_KINDS`] a standard set has (飛2 角2 金4 銀4 桂4 香4 歩18).
pub const FULL_SET: [u8; 7] = [2, 2, 4, 4, 4, 4, 18];

/// The kind a piece counts as in hands and piece totals: 龍 → 飛, と → 歩, …
pub fn base_kind(kind: PieceKind) -> PieceKind {
    kind.unpromote().unwrap_or(kind)
}

/// Counts per kind: 玉 first, then [`HAND_KINDS`] — the 9-digit layout of T-BASE's 置駒種類 and
/// 使用駒種類 (歩 being the 2-digit count).
pub type KindCounts = [u8; 8];

/// Pieces on the board by base kind, both colours: 玉 then 飛 角 金 銀 桂 香 歩.
pub fn board_counts(position: &PartialPosition) -> KindCounts {
    let mut counts = [0u8; 8];
    for square in Square::all() {
        if let Some(piece) = position.piece_at(square) {
            let kind = base_kind(piece.piece_kind());
            let slot = if kind == PieceKind::King { Some(0) } else { hand_slot(kind).map(|i| i + 1) };
            if let Some(slot) = slot {
                counts[slot] = counts[slot].saturating_add(1);
            }
        }
    }
    counts
}

/// The index of a hand kind in [`HAND_KINDS`].
pub fn hand_slot(kind: PieceKind) -> Option<usize> {
    HAND_KINDS.iter().position(|&k| k == kind)
}

/// The counts of a hand in [`HAND_KINDS`] order.
pub fn hand_counts(hand: Hand) -> [u8; 7] {
    HAND_KINDS.map(|k| hand.count(k).unwrap_or(0))
}

/// A hand holding the given counts ([`HAND_KINDS`] order).
pub fn hand_from_counts(counts: [u8; 7]) -> Hand {
    let mut hand = Hand::new();
    for (kind, count) in HAND_KINDS.into_iter().zip(counts) {
        for _ in 0..count {
            // `added` only fails for kings, which HAND_KINDS does not hold.
            hand = hand.added(kind).unwrap_or(hand);
        }
    }
    hand
}

/// The defender's hand of a tsume problem: every piece of the standard set that is neither on
/// the board (counted by base kind) nor in the attacker's hand. `Err(kind)` names a kind of which
/// the board and the attacker's hand already hold more than the set has.
pub fn remaining_pieces(position: &PartialPosition, attacker_hand: Hand) -> Result<Hand, PieceKind> {
    let on_board = board_counts(position);
    let mut rest = [0u8; 7];
    for (i, kind) in HAND_KINDS.into_iter().enumerate() {
        let used = u16::from(on_board[i + 1]) + u16::from(attacker_hand.count(kind).unwrap_or(0));
        rest[i] = u8::try_from(u16::from(FULL_SET[i]).checked_sub(used).ok_or(kind)?).map_err(|_| kind)?;
    }
    Ok(hand_from_counts(rest))
}

/// A tsume position: the board, the attacker's hand as given, the defender holding the rest,
/// the attacker to move.
pub fn tsume_position(mut board: PartialPosition, attacker_hand: Hand) -> Result<PartialPosition, PieceKind> {
    let defender = remaining_pieces(&board, attacker_hand)?;
    *board.hand_of_a_player_mut(ATTACKER) = attacker_hand;
    *board.hand_of_a_player_mut(DEFENDER) = defender;
    board.side_to_move_set(ATTACKER);
    Ok(board)
}

/// Every legal move of the side to move (two pawns, pawn-drop mate, dead pieces and king safety
/// included), in shogi_legality_lite's order: the board moves, then the drops by hand kind and
/// square. The crate finds the board moves (on the position with the mover's hand emptied, which
/// changes no board move); the drops go through [`is_legal`] for its pawn-drop rules.
pub fn legal_moves(position: &PartialPosition) -> Vec<Move> {
    let side = position.side_to_move();
    let mut board_only = position.clone();
    let hand = std::mem::take(board_only.hand_of_a_player_mut(side));
    let mut moves = shogi_legality_lite::all_legal_moves_partial(&board_only);
    for kind in Hand::all_hand_pieces().filter(|&kind| hand.count(kind).unwrap_or(0) > 0) {
        let piece = Piece::new(kind, side);
        let drops = position.vacant_bitboard().into_iter().map(|to| Move::Drop { piece, to });
        moves.extend(drops.filter(|&mv| is_legal(position, mv)));
    }
    moves
}

/// Whether `mv` is legal in `position`.
pub fn is_legal(position: &PartialPosition, mv: Move) -> bool {
    match mv {
        Move::Drop { piece, to } if piece.piece_kind() == PieceKind::Pawn => pawn_drop(position, piece, to).is_ok(),
        _ => shogi_legality_lite::is_legal_partial_lite(position, mv),
    }
}

/// Why `mv` is not legal in `position`, if it is not.
pub fn illegality(position: &PartialPosition, mv: Move) -> Option<IllegalMoveKind> {
    match mv {
        Move::Drop { piece, to } if piece.piece_kind() == PieceKind::Pawn => pawn_drop(position, piece, to).err(),
        _ => shogi_legality_lite::is_legal_partial(position, mv).err(),
    }
}

/// The rules of a pawn drop, written here rather than left to shogi_legality_lite: its test of
/// 打ち歩詰め asks whether the opponent has any move at all, its own pawn drops included, each of
/// which asks the same question back: on a position with pawns in hand on both sides that
/// recursion is exponential (a random position held a test for minutes). A dropped pawn checks
/// from the square in front of the king, so no drop can answer it: the mate is decided by the
/// opponent's board moves alone, and the test never recurses.
fn pawn_drop(position: &PartialPosition, pawn: Piece, to: Square) -> Result<(), IllegalMoveKind> {
    let side = position.side_to_move();
    if pawn.color() != side || position.hand(pawn).unwrap_or(0) == 0 || position.piece_at(to).is_some() {
        return Err(IllegalMoveKind::IncorrectMove);
    }
    if to.relative_rank(side) == 1 {
        return Err(IllegalMoveKind::DropStuck);
    }
    if (1..=9).filter_map(|rank| Square::new(to.file(), rank)).any(|square| position.piece_at(square) == Some(pawn)) {
        return Err(IllegalMoveKind::TwoPawns);
    }
    let mut next = position.clone();
    next.make_move(Move::Drop { piece: pawn, to }).ok_or(IllegalMoveKind::IncorrectMove)?;
    if shogi_legality_lite::prelegality::will_king_be_captured(&next) == Some(true) {
        return Err(IllegalMoveKind::IgnoredCheck);
    }
    let forward = if side == Color::Black { -1 } else { 1 };
    let checks = to.shift(0, forward).is_some_and(|square| next.king_position(side.flip()) == Some(square));
    let escapes = || {
        next.player_bitboard(side.flip())
            .into_iter()
            .any(|from| !shogi_legality_lite::normal_from_candidates(&next, from).is_empty())
    };
    if checks && !escapes() {
        return Err(IllegalMoveKind::DropPawnMate);
    }
    Ok(())
}

/// Whether the side to move is in check.
pub fn in_check(position: &PartialPosition) -> bool {
    shogi_legality_lite::is_in_check_partial_lite(position)
}

/// Whether the side to move is checkmated: in check with no legal move.
///
/// Written here because shogi_legality_lite proves mate by trying every move, every drop of every
/// piece in hand on every empty square included: with the defender's hand of a tsume problem
/// (≈ 25 pieces) that is hundreds of drops per position. A drop can only answer a check by
/// interposing on a line to the king, so only the empty squares on the eight lines from the king
/// are tried (each drop still checked in full by `is_legal`: 二歩, dead pieces, king safety).
pub fn is_mate(position: &PartialPosition) -> bool {
    if !in_check(position) {
        return false;
    }
    let side = position.side_to_move();
    if position
        .player_bitboard(side)
        .into_iter()
        .any(|from| !shogi_legality_lite::normal_from_candidates(position, from).is_empty())
    {
        return false;
    }
    let Some(king) = position.king_position(side) else { return true };
    let hand = position.hand_of_a_player(side);
    let kinds: Vec<PieceKind> = HAND_KINDS.into_iter().filter(|&k| hand.count(k).unwrap_or(0) > 0).collect();
    for (file_step, rank_step) in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let mut square = king;
        while let Some(next) = square.shift(file_step, rank_step).filter(|&s| position.piece_at(s).is_none()) {
            if kinds.iter().any(|&kind| is_legal(position, Move::Drop { piece: Piece::new(kind, side), to: next })) {
                return false;
            }
            square = next;
        }
    }
    true
}

/// The piece a move moves (before any promotion), or `None` if `from` is empty.
pub fn moving_piece(position: &PartialPosition, mv: Move) -> Option<Piece> {
    match mv {
        Move::Normal { from, .. } => position.piece_at(from),
        Move::Drop { piece, .. } => Some(piece),
    }
}

/// The USI text of a move (`7g7f`, `S*7c`, `5e2b+`).
pub fn usi(mv: Move) -> String {
    use shogi_core::ToUsi;
    mv.to_usi_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen;

    fn count(sfen_text: &str) -> usize {
        legal_moves(&sfen::parse(sfen_text).unwrap()).len()
    }

    /// Oracle counts of tbase.md §14.6, on which shogi_legality_lite, shunsai, nozaq's shogi,
    /// rsshogi and cshogi agree.
    #[test]
    fn legal_move_counts() {
        assert_eq!(count("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"), 30);
        assert_eq!(count("9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1"), 220);
        let position = sfen::parse("8k/6S2/7G1/9/9/9/9/9/9 b P2r2b3g3s4n4l17p 1").unwrap();
        assert_eq!(legal_moves(&position).len(), 82);
        let pawn_drop_mate = Move::Drop { piece: Piece::new(PieceKind::Pawn, Color::Black), to: Square::SQ_1B };
        assert!(!is_legal(&position, pawn_drop_mate), "打ち歩詰め");
        assert_eq!(illegality(&position, pawn_drop_mate), Some(IllegalMoveKind::DropPawnMate));
    }

    /// Both kings in check by a protected 龍, three pawns in each hand: shogi_legality_lite's
    /// 打ち歩詰め test recurses through every pawn drop of both sides here (two pawns each took
    /// it over a minute). Black has no legal move: its king cannot step out of the 龍's reach,
    /// and no drop answers a contact check.
    #[test]
    fn pawn_drops_in_both_hands_are_decided_at_once() {
        let position = sfen::parse("8k/7+R1/6G2/9/9/9/2g6/1+r7/K8 b 3P3p 1").unwrap();
        assert_eq!(legal_moves(&position), Vec::new());
        assert!(is_mate(&position));
        let pawn = Move::Drop { piece: Piece::new(PieceKind::Pawn, Color::Black), to: Square::SQ_5E };
        assert_eq!(illegality(&position, pawn), Some(IllegalMoveKind::IgnoredCheck));
    }

    /// The shortcut agrees with trying every legal move, on positions around the fixtures' mates.
    #[test]
    fn mate_test_agrees_with_the_full_move_list() {
        let line = "S*7c 7b7c N*9d 8e9d S*7a 8b9b G*8b 9b9c 9e9d 7f9d B*8d 7c8d 8b9b 9c9b 6d6b 9b9c 6b8b";
        let mut position = sfen::parse("9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1").unwrap();
        let mut mates = 0;
        for mv in line.split(' ') {
            let mv = legal_moves(&position).into_iter().find(|&m| usi(m) == mv).unwrap();
            position.make_move(mv).unwrap();
            let full = in_check(&position) && legal_moves(&position).is_empty();
            assert_eq!(is_mate(&position), full, "{}", sfen::write(&position));
            // Every reply of the side to move, too: checks that interpositions can answer.
            for reply in legal_moves(&position) {
                let mut next = position.clone();
                next.make_move(reply).unwrap();
                let full = in_check(&next) && legal_moves(&next).is_empty();
                assert_eq!(is_mate(&next), full, "{}", sfen::write(&next));
                mates += usize::from(full);
            }
        }
        assert!(is_mate(&position));
        assert!(mates > 0);
    }

    #[test]
    fn defender_holds_the_rest() {
        let board = sfen::parse("9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b - 1").unwrap();
        let attacker = hand_from_counts([0, 0, 1, 2, 1, 0, 0]);
        assert_eq!(hand_counts(remaining_pieces(&board, attacker).unwrap()), [1, 0, 1, 2, 3, 4, 16]);
        assert_eq!(board_counts(&board), [1, 1, 2, 2, 0, 0, 0, 2]);
        let too_many = hand_from_counts([2, 0, 0, 0, 0, 0, 0]);
        assert_eq!(remaining_pieces(&board, too_many), Err(PieceKind::Rook));
    }
}
