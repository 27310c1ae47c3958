//! The position a request names, lichess's way: a start `fen` (the initial position when
//! absent) and the UCI moves `play`ed from it, comma-separated; and what the page needs to draw
//! it and let a player move (the legal moves in UCI and SAN), so that the page itself knows no
//! chess rules.

use serde::Serialize;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};
use tabiya_chess::book::{fen_of, probe_position};

/// A move in both notations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamedMove {
    /// UCI, castling as the king's two-square move (`e1g1`).
    pub uci: String,
    /// SAN with check marks (`Nf3+`).
    pub san: String,
}

impl NamedMove {
    /// `mv`, played from `pos`, in both notations.
    pub fn new(pos: &Chess, mv: Move) -> NamedMove {
        NamedMove {
            uci: UciMove::from_move(mv, CastlingMode::Standard).to_string(),
            san: SanPlus::from_move(pos.clone(), mv).to_string(),
        }
    }
}

/// A position reached from a start position by moves, as the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Located {
    /// The start position's FEN.
    pub start: String,
    /// The moves played from it.
    pub played: Vec<NamedMove>,
    /// The position's FEN.
    pub fen: String,
    /// `white` or `black`.
    pub turn: &'static str,
    /// Every legal move.
    pub legal: Vec<NamedMove>,
    /// The position itself.
    #[serde(skip)]
    pub position: Chess,
}

/// The position of `fen` (the initial position when `None`) after the UCI moves of `play`
/// (comma- or space-separated), or why there is none.
pub fn locate(fen: Option<&str>, play: Option<&str>) -> Result<Located, String> {
    let fen = fen.map(str::trim).filter(|f| !f.is_empty());
    let start = match fen {
        Some(_) => probe_position(fen, None)?,
        None => Chess::default(),
    };
    let mut position = start.clone();
    let mut played = Vec::new();
    for text in play.unwrap_or_default().split([',', ' ']).filter(|t| !t.is_empty()) {
        let mv = text
            .parse::<UciMove>()
            .ok()
            .and_then(|uci| uci.to_move(&position).ok())
            .ok_or_else(|| format!("{text:?} is not a legal move (UCI) after {}", fen_of(&position)))?;
        played.push(NamedMove::new(&position, mv));
        position.play_unchecked(mv);
    }
    let legal = position.legal_moves().into_iter().map(|mv| NamedMove::new(&position, mv)).collect();
    Ok(Located {
        start: fen_of(&start),
        played,
        fen: fen_of(&position),
        turn: if position.turn().is_white() { "white" } else { "black" },
        legal,
        position,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_uci_moves_from_the_start() {
        let located = locate(None, Some("e2e4,c7c5")).unwrap();
        // python-chess: chess.Board() after e4 c5 (en passant square only when legal).
        assert_eq!(located.fen, "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        let sans: Vec<&str> = located.played.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "c5"]);
        assert_eq!(located.legal.len(), 30);
        assert_eq!(located.turn, "white");
    }

    #[test]
    fn refuses_illegal_moves_and_bad_fens() {
        assert!(locate(None, Some("e2e5")).unwrap_err().contains("\"e2e5\""));
        assert!(locate(Some("not a fen"), None).is_err());
    }
}
