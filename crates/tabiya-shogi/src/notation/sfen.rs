//! SFEN positions (`<board> <b|w> <hand> <ply>`, optionally after `sfen `).

use shogi_core::{Color, PartialPosition, Piece, PieceKind, Square};

use crate::board;

/// Parses a SFEN position; the error says what was expected where.
pub fn parse(text: &str) -> Result<PartialPosition, String> {
    let text = text.trim();
    let text = text.strip_prefix("sfen ").unwrap_or(text);
    let mut parts = text.split_ascii_whitespace();
    let board_part = parts.next().ok_or("expected a SFEN board")?;
    let mut position = PartialPosition::empty();
    let ranks: Vec<&str> = board_part.split('/').collect();
    if ranks.len() != 9 {
        return Err(format!("expected 9 ranks separated by '/', found {}", ranks.len()));
    }
    for (rank_index, rank_text) in ranks.iter().enumerate() {
        let rank = rank_index as u8 + 1;
        let mut file = 9u8;
        let mut promoted = false;
        for c in rank_text.chars() {
            if let Some(run) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                if promoted {
                    return Err(format!("rank {rank}: '+' before a digit"));
                }
                file = file
                    .checked_sub(run as u8)
                    .filter(|_| run as u8 <= file)
                    .ok_or(format!("rank {rank}: more than 9 squares"))?;
                continue;
            }
            if c == '+' {
                promoted = true;
                continue;
            }
            let (kind, color) = piece_letter(c).ok_or(format!("rank {rank}: unknown piece letter '{c}'"))?;
            let kind =
                if promoted { kind.promote().ok_or(format!("rank {rank}: '+{c}' cannot promote"))? } else { kind };
            promoted = false;
            let square = Square::new(file, rank).ok_or(format!("rank {rank}: more than 9 squares"))?;
            position.piece_set(square, Some(Piece::new(kind, color)));
            file -= 1;
        }
        if file != 0 || promoted {
            return Err(format!("rank {rank}: expected 9 squares"));
        }
    }
    match parts.next() {
        Some("b") | None => position.side_to_move_set(Color::Black),
        Some("w") => position.side_to_move_set(Color::White),
        Some(other) => return Err(format!("expected side 'b' or 'w', found '{other}'")),
    }
    if let Some(hand) = parts.next().filter(|h| *h != "-") {
        let mut count: u32 = 0;
        for c in hand.chars() {
            if let Some(d) = c.to_digit(10) {
                count = count * 10 + d;
                if count > 18 {
                    return Err(format!("hand: count {count} exceeds the set"));
                }
                continue;
            }
            let (kind, color) = piece_letter(c)
                .filter(|(k, _)| board::hand_slot(*k).is_some())
                .ok_or(format!("hand: unknown piece letter '{c}'"))?;
            let side = position.hand_of_a_player_mut(color);
            for _ in 0..count.max(1) {
                *side = side.added(kind).ok_or(format!("hand: '{c}'"))?;
            }
            count = 0;
        }
    }
    if let Some(ply) = parts.next() {
        let ply: u16 = ply.parse().map_err(|_| format!("expected a move number, found '{ply}'"))?;
        if !position.ply_set(ply) {
            return Err(format!("expected a move number from 1, found {ply}"));
        }
    }
    Ok(position)
}

/// The SFEN of a position (`9/1kg6/… b G2SNrg2s3n4l16p 1`).
pub fn write(position: &PartialPosition) -> String {
    position.to_sfen_owned()
}

fn piece_letter(c: char) -> Option<(PieceKind, Color)> {
    let kind = match c.to_ascii_uppercase() {
        'K' => PieceKind::King,
        'R' => PieceKind::Rook,
        'B' => PieceKind::Bishop,
        'G' => PieceKind::Gold,
        'S' => PieceKind::Silver,
        'N' => PieceKind::Knight,
        'L' => PieceKind::Lance,
        'P' => PieceKind::Pawn,
        _ => return None,
    };
    Some((kind, if c.is_ascii_uppercase() { Color::Black } else { Color::White }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for text in [
            "9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "2S6/1+R7/kp7/bg7/3g5/9/9/9/9 w rb2g3s4n4l16p 17",
        ] {
            assert_eq!(write(&parse(text).unwrap()), text);
        }
    }

    #[test]
    fn rejects() {
        assert!(parse("9/9/9 b - 1").is_err());
        assert!(parse("10/9/9/9/9/9/9/9/9 b - 1").is_err());
        assert!(parse("9/9/9/9/9/9/9/9/8x b - 1").is_err());
        assert!(parse("9/9/9/9/9/9/9/9/9 b 99P 1").is_err());
        assert!(parse("+k8/9/9/9/9/9/9/9/9 b - 1").is_err());
    }
}
