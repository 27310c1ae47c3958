//! Move generation on bitboards: the legal moves of a side and the discs a move flips.

/// Every square except columns a and h: discs that a horizontal or diagonal run may cross
/// without wrapping around the board's edge.
const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The squares where `player` may play against `opponent`: empty squares from which a run of
/// opponent discs, in any of the 8 directions, ends on a player disc.
#[inline]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    let inner = opponent & INNER_COLUMNS;
    let moves = runs_end(player, inner, 1)
        | runs_end(player, opponent, 8)
        | runs_end(player, inner, 7)
        | runs_end(player, inner, 9);
    moves & !(player | opponent)
}

/// The squares just beyond a run of `run` discs that starts next to a `player` disc, along
/// one line (`shift` 1, 7, 8, 9) in both senses. Two single steps cover runs of 1–2 discs,
/// then two double steps (through pairs of run squares) runs of up to 6, the longest possible.
#[inline(always)]
fn runs_end(player: u64, run: u64, shift: u32) -> u64 {
    let mut up = run & (player << shift);
    let mut down = run & (player >> shift);
    up |= run & (up << shift);
    down |= run & (down >> shift);
    let pairs_up = run & (run << shift);
    let pairs_down = pairs_up >> shift;
    up |= pairs_up & (up << (2 * shift));
    down |= pairs_down & (down >> (2 * shift));
    up |= pairs_up & (up << (2 * shift));
    down |= pairs_down & (down >> (2 * shift));
    (up << shift) | (down >> shift)
}

/// For each square and direction, the squares beyond it in that direction up to the edge.
/// Directions 0..4 go towards higher indices (+1, +7, +8, +9), 4..8 towards lower ones.
/// Indexed by square first, so that one call reads one 64-byte line.
static RAYS: [[u64; 8]; 64] = rays();

const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (-1, 1), (0, 1), (1, 1), (-1, 0), (1, -1), (0, -1), (-1, -1)];

const fn rays() -> [[u64; 8]; 64] {
    let mut rays = [[0; 8]; 64];
    let mut d = 0;
    while d < 8 {
        let (dc, dr) = DIRECTIONS[d];
        let mut square = 0;
        while square < 64 {
            let (mut c, mut r) = ((square % 8) as i8 + dc, (square / 8) as i8 + dr);
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                rays[square][d] |= 1 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            square += 1;
        }
        d += 1;
    }
    rays
}

/// The opponent discs that `player` flips by playing on the empty square `square` (0..63);
/// 0 when the move is illegal. Branch-free: whether a direction flips is as good as random,
/// so a mispredicted branch per direction would cost more than the masks.
#[inline]
pub fn flips(player: u64, opponent: u64, square: usize) -> u64 {
    let mut flipped = 0;
    let (up, down) = RAYS[square].split_at(4);
    for &ray in up {
        // Towards higher indices the first square that is not an opponent disc is the lowest set bit.
        let stop = ray & !opponent;
        let first = stop & stop.wrapping_neg() & player;
        // The run before it; nothing when no player disc ends the run (`first` is 0).
        flipped |= ray & first.saturating_sub(1);
    }
    for &ray in down {
        // Towards lower indices it is the highest set bit. With no such square `stop | 1`
        // picks square 0, which then is either off the ray or an opponent disc: no flip.
        let stop = ray & !opponent;
        let first = ((1u64 << 63) >> (stop | 1).leading_zeros()) & player & ray;
        // The run after it; `first` 0 wraps to all ones, and the complement to nothing.
        flipped |= ray & !(first | first.wrapping_sub(1));
    }
    flipped
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Direct transcription of the rule, square by square, as the reference.
    fn flips_by_walking(player: u64, opponent: u64, square: usize) -> u64 {
        if (player | opponent) & (1 << square) != 0 {
            return 0;
        }
        let mut flipped = 0;
        for (dc, dr) in DIRECTIONS {
            let (mut c, mut r) = ((square % 8) as i8 + dc, (square / 8) as i8 + dr);
            let mut run = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + c);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        flipped |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        flipped
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_walking_the_lines(a: u64, b: u64) {
            let (player, opponent) = (a & !b, b & !a);
            let mut moves = 0;
            for square in 0..64 {
                let expected = flips_by_walking(player, opponent, square);
                if (player | opponent) & (1 << square) == 0 {
                    proptest::prop_assert_eq!(flips(player, opponent, square), expected);
                }
                if expected != 0 {
                    moves |= 1 << square;
                }
            }
            proptest::prop_assert_eq!(legal_moves(player, opponent), moves);
        }
    }
}
