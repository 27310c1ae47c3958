//! SAN tokens to [`SanPlus`]: the grammar of shakmaty's `SanPlus::from_ascii_prefix`, read
//! with byte arithmetic. shakmaty's parser showed as 9 % of a PGN import (profile, BENCHMARKS.md);
//! a test holds this one to shakmaty's answers on every spelling of random legal moves and on
//! random byte strings.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, File, Rank, Role, Square};

fn file(byte: u8) -> Option<File> {
    File::ALL.get(usize::from(byte.wrapping_sub(b'a'))).copied()
}

fn rank(byte: u8) -> Option<Rank> {
    Rank::ALL.get(usize::from(byte.wrapping_sub(b'1'))).copied()
}

#[inline]
fn square(bytes: &[u8], at: usize) -> Option<Square> {
    Some(Square::from_coords(file(*bytes.get(at)?)?, rank(*bytes.get(at + 1)?)?))
}

/// A move in SAN with its check or mate mark at the start of `ascii`, and the bytes it takes.
/// Like shakmaty, every byte that can go on with a move is taken without backtracking:
/// `Nf3=X` is no move, not `Nf3`.
#[inline(always)]
pub(crate) fn parse_prefix(ascii: &[u8]) -> Option<(SanPlus, usize)> {
    match plain_prefix(ascii) {
        Some((plain, len)) => Some(with_suffix(ascii, plain.san(), len)),
        None => parse_unusual(ascii),
    }
}

/// A move at the start of `ascii` that [`plain_prefix`] does not read, as [`parse_prefix`]
/// reads it.
pub(crate) fn parse_unusual(ascii: &[u8]) -> Option<(SanPlus, usize)> {
    let (san, len) = parse_san(ascii)?;
    Some(with_suffix(ascii, san, len))
}

/// `san`, `len` bytes of `ascii`, with the check or mate mark after it.
#[inline(always)]
fn with_suffix(ascii: &[u8], san: San, len: usize) -> (SanPlus, usize) {
    let suffix = suffix(ascii.get(len).copied());
    (SanPlus { san, suffix }, len + usize::from(suffix.is_some()))
}

/// A move without rank disambiguation or promotion, in its parts: what
/// [`Movetext::plain_san`](super::scan::Movetext::plain_san) takes.
#[derive(Clone, Copy)]
pub(crate) struct PlainSan {
    pub role: Role,
    pub file: Option<File>,
    pub capture: bool,
    pub to: Square,
}

impl PlainSan {
    fn san(self) -> San {
        let PlainSan { role, file, capture, to } = self;
        San::Normal { role, file, rank: None, capture, to, promotion: None }
    }
}

/// The usual move at the start of `ascii`, without its check or mate mark, and the bytes it
/// takes, when it is one of the shapes most moves take; `None` for any other (which
/// [`parse_unusual`] reads). Handed on in its parts, never packed into a `SanPlus` and taken
/// apart again.
#[inline(always)]
pub(crate) fn plain_prefix(ascii: &[u8]) -> Option<(PlainSan, usize)> {
    match *ascii {
        // Most moves are a pawn push (`e4`) or a piece move without capture or
        // disambiguation (`Nf3`): taken whole when no byte that could go on with them follows.
        [f, r, next, ..]
            if let (Some(f), Some(r)) = (file(f), rank(r))
                && !continues_square(next) =>
        {
            Some((PlainSan { role: Role::Pawn, file: None, capture: false, to: Square::from_coords(f, r) }, 2))
        }
        [p, f, r, next, ..]
            if let (Some(p), Some(f), Some(r)) = (piece(p), file(f), rank(r))
                && !continues_square(next) =>
        {
            Some((PlainSan { role: p, file: None, capture: false, to: Square::from_coords(f, r) }, 3))
        }
        // Captures without disambiguation (`exd5`, `Nxe4`), a quarter of all moves: taken
        // whole unless a promotion follows.
        [first, b'x', f, r, next, ..]
            if let (Some(f), Some(r)) = (file(f), rank(r))
                && next != b'='
                && let Some((role, from_file)) = capturer(first) =>
        {
            Some((PlainSan { role, file: from_file, capture: true, to: Square::from_coords(f, r) }, 4))
        }
        _ => None,
    }
}

/// Whether `byte` after a square goes on with the move: a capture mark, a target square's
/// file or a promotion.
fn continues_square(byte: u8) -> bool {
    byte == b'x' || byte == b'=' || file(byte).is_some()
}

/// The piece a SAN letter names (a table: a match here compiled to a jump table that
/// mispredicted on most moves).
fn piece(byte: u8) -> Option<Role> {
    static PIECES: [Option<Role>; 256] = {
        let mut table = [None; 256];
        table[b'N' as usize] = Some(Role::Knight);
        table[b'B' as usize] = Some(Role::Bishop);
        table[b'R' as usize] = Some(Role::Rook);
        table[b'Q' as usize] = Some(Role::Queen);
        table[b'K' as usize] = Some(Role::King);
        table
    };
    PIECES[usize::from(byte)]
}

/// What captures in `exd5` or `Nxe4`: a pawn from its file, or a piece.
fn capturer(first: u8) -> Option<(Role, Option<File>)> {
    match (piece(first), file(first)) {
        (Some(role), _) => Some((role, None)),
        (None, Some(file)) => Some((Role::Pawn, Some(file))),
        (None, None) => None,
    }
}

#[inline]
fn parse_san(b: &[u8]) -> Option<(San, usize)> {
    let first = *b.first()?;
    let (role, mut at) = if let Some(role) = piece(first) {
        (role, 1)
    } else if first == b'O' {
        if b.get(1..3) != Some(b"-O") {
            return None;
        }
        if b.get(3) != Some(&b'-') {
            return Some((San::Castle(CastlingSide::KingSide), 3));
        }
        return (b.get(4) == Some(&b'O')).then_some((San::Castle(CastlingSide::QueenSide), 5));
    } else if first == b'-' {
        return (b.get(1) == Some(&b'-')).then_some((San::Null, 2));
    } else if first == b'Z' {
        return (b.get(1) == Some(&b'0')).then_some((San::Null, 2));
    } else {
        (Role::Pawn, usize::from(first == b'P'))
    };
    if b.get(at) == Some(&b'@') {
        return Some((San::Put { role, to: square(b, at + 1)? }, at + 3));
    }
    let from_file = file(*b.get(at)?);
    at += usize::from(from_file.is_some());
    let from_rank = rank(*b.get(at)?);
    at += usize::from(from_rank.is_some());
    let (file, rank, capture, to) = match b.get(at) {
        Some(b'x') => {
            let to = square(b, at + 1)?;
            at += 3;
            (from_file, from_rank, true, to)
        }
        Some(&to_file) if file(to_file).is_some() => {
            let to = square(b, at)?;
            at += 2;
            (from_file, from_rank, false, to)
        }
        _ => (None, None, false, Square::from_coords(from_file?, from_rank?)),
    };
    let promotion = if b.get(at) == Some(&b'=') {
        let role = Role::from_char(char::from(*b.get(at + 1)?))?;
        at += 2;
        Some(role)
    } else {
        None
    };
    Some((San::Normal { role, file, rank, capture, to, promotion }, at))
}

/// The check or mate mark a move may end with, from the byte after it.
pub(crate) fn suffix(next: Option<u8>) -> Option<Suffix> {
    match next {
        Some(b'+') => Some(Suffix::Check),
        Some(b'#') => Some(Suffix::Checkmate),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Move, Position};
    use tabiya_testdata::Xorshift;

    use super::*;

    fn same_as_shakmaty(bytes: &[u8]) {
        let ours = parse_prefix(bytes);
        let theirs = SanPlus::from_ascii_prefix(bytes).ok();
        assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(bytes));
        // Whole tokens, as `SanPlus::from_ascii` reads them.
        let whole = ours.filter(|&(_, len)| len == bytes.len()).map(|(san, _)| san);
        assert_eq!(whole, SanPlus::from_ascii(bytes).ok(), "{:?}", String::from_utf8_lossy(bytes));
    }

    /// Every way of writing a move: as SAN and long algebraic write it (with suffixes, trailing
    /// bytes and cut short), and with each disambiguation, capture mark and promotion letter.
    fn spellings(pos: &Chess, m: Move) -> Vec<String> {
        let mut all = Vec::new();
        for spelling in [San::from_move(pos, m).to_string(), m.to_uci(pos.castles().mode()).to_string()] {
            for tail in ["", "+", "#", "!", "++", "+#", " 1-0", "x", "@", "=Q+"] {
                all.push(format!("{spelling}{tail}"));
            }
            all.extend((0..spelling.len()).map(|cut| spelling[..cut].to_owned()));
        }
        if let Move::Normal { role, from, to, .. } = m {
            let piece = if role == Role::Pawn { String::new() } else { role.upper_char().to_string() };
            let (file, rank) = (from.file().char().to_string(), from.rank().char().to_string());
            for (file, rank) in [("", ""), (file.as_str(), ""), ("", rank.as_str()), (file.as_str(), rank.as_str())] {
                for capture in ["", "x"] {
                    for promotion in ["", "=Q", "=n", "=K", "=p", "=", "=X", "Q"] {
                        all.push(format!("{piece}{file}{rank}{capture}{to}{promotion}"));
                        all.push(format!("P{file}{rank}{capture}{to}{promotion}#"));
                    }
                }
            }
        }
        all
    }

    #[test]
    fn reads_as_shakmaty_does() {
        let mut rng = Xorshift::new(0x5a4);
        let mut checked = 0;
        for _ in 0..12 {
            let mut pos = Chess::default();
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    for spelling in spellings(&pos, m) {
                        same_as_shakmaty(spelling.as_bytes());
                        checked += 1;
                    }
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        for special in [
            "O-O", "O-O-O", "O-O+", "O-O-O#", "O-", "O-O-", "O-O-X", "--", "-", "Z0", "Z", "N@f3", "@e4", "P@a9", "Q@",
            "0-0",
        ] {
            same_as_shakmaty(special.as_bytes());
        }
        // Random bytes, mostly from the SAN alphabet.
        let alphabet = b"NBRQKPOZ-0@abcdefghx12345678=+#qnrbkpXyz9 .";
        for _ in 0..200_000 {
            let len = rng.below(9);
            let bytes: Vec<u8> = (0..len)
                .map(|_| if rng.below(10) == 0 { rng.below(256) as u8 } else { alphabet[rng.below(alphabet.len())] })
                .collect();
            same_as_shakmaty(&bytes);
            checked += 1;
        }
        assert!(checked > 2_000_000, "{checked}");
    }
}
