//! Opening names by position: the CC0 lichess-org/chess-openings table (3,807 lines, ECO codes
//! A00–E99), shipped in the crate as `openings.tsv` (made by `scripts/openings-data.py` from
//! the table's TSVs: `eco`, `name`, the moves in SAN).
//!
//! The table's own rule classifies a game: play its moves and keep the **last** position the
//! table names, whatever the move order that reached it. Positions are the same when the pieces,
//! the side to move, the castling rights and the en passant square (only where a capture is
//! legal) agree: shakmaty's Zobrist hash with [`EnPassantMode::Legal`] is that identity.
//!
//! ```
//! use shakmaty::{Chess, Position, san::San};
//!
//! let mut pos = Chess::default();
//! for san in ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"] {
//!     let m = san.parse::<San>()?.to_move(&pos)?;
//!     pos.play_unchecked(m);
//! }
//! let opening = tabiya_chess::openings::lookup(&pos).unwrap();
//! assert_eq!((opening.eco, opening.name), ("B90", "Sicilian Defense: Najdorf Variation"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use shakmaty::san::San;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Position};

use crate::game::Game;

/// The table: `eco<TAB>name<TAB>moves` a line, in the order of the source files.
const TABLE: &str = include_str!("openings.tsv");

/// A named opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The ECO code (`B90`).
    pub eco: &'static str,
    /// The name (`Sicilian Defense: Najdorf Variation`).
    pub name: &'static str,
}

/// The named positions, by Zobrist hash, with what bounds a game's search for them.
struct Openings {
    by_position: HashMap<u64, Opening>,
    /// The fewest pieces on any named position's board: a game with fewer can reach none.
    fewest_pieces: u32,
    /// The fewest pawns on their home squares in any named position (pawns never go back).
    fewest_home_pawns: u32,
}

fn openings() -> &'static Openings {
    static OPENINGS: OnceLock<Openings> = OnceLock::new();
    OPENINGS.get_or_init(|| {
        let mut table =
            Openings { by_position: HashMap::with_capacity(4096), fewest_pieces: 32, fewest_home_pawns: 16 };
        for (number, line) in TABLE.lines().enumerate() {
            let mut fields = line.splitn(3, '\t');
            let (Some(eco), Some(name), Some(moves)) = (fields.next(), fields.next(), fields.next()) else {
                panic!("openings.tsv line {}: three fields expected", number + 1)
            };
            let mut pos = Chess::default();
            for san in moves.split(' ') {
                let m = san.parse::<San>().ok().and_then(|san| san.to_move(&pos).ok());
                let m = m.unwrap_or_else(|| panic!("openings.tsv line {}: {san} is not legal", number + 1));
                pos.play_unchecked(m);
            }
            table.fewest_pieces = table.fewest_pieces.min(pos.board().occupied().count() as u32);
            table.fewest_home_pawns = table.fewest_home_pawns.min(home_pawns(&pos));
            // The first line that names a position names it (the table names each position once).
            table.by_position.entry(key(&pos)).or_insert(Opening { eco, name });
        }
        table
    })
}

/// The identity of a position by the table's rule (64-bit Zobrist hash).
pub(crate) fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Pawns of either side still on their starting squares.
fn home_pawns(pos: &Chess) -> u32 {
    let board = pos.board();
    let white = board.pawns() & board.by_color(Color::White) & shakmaty::Bitboard::from_rank(shakmaty::Rank::Second);
    let black = board.pawns() & board.by_color(Color::Black) & shakmaty::Bitboard::from_rank(shakmaty::Rank::Seventh);
    (white.count() + black.count()) as u32
}

/// The opening the table names for this very position, if any.
pub fn lookup(pos: &Chess) -> Option<Opening> {
    openings().by_position.get(&key(pos)).copied()
}

/// The opening of a game: the last position of its main line that the table names. A game from
/// a set-up position is classified too (its positions are looked up the same way). Stops as
/// soon as the game has fewer pieces, or fewer pawns at home, than every named position.
pub fn classify(game: &Game) -> Option<Opening> {
    let table = openings();
    let mut pos = game.start_position().ok()?;
    let mut found = table.by_position.get(&key(&pos)).copied();
    for node in &game.moves.nodes {
        pos = match node.mv {
            Some(m) => match pos.play(m) {
                Ok(next) => next,
                Err(_) => return found,
            },
            None => match crate::game::pass(&pos) {
                Some(next) => next,
                None => return found,
            },
        };
        if pos.board().occupied().count() < table.fewest_pieces as usize || home_pawns(&pos) < table.fewest_home_pawns {
            break;
        }
        if let Some(opening) = table.by_position.get(&key(&pos)) {
            found = Some(*opening);
        }
    }
    found
}

/// Sets the game's `ECO` and `Opening` tags from [`classify`] (replacing what they held); a
/// game the table does not name keeps its tags. Returns the opening set. This is the
/// `--add-eco` of `convert` and `select`.
pub fn add_eco(game: &mut Game) -> Option<Opening> {
    let opening = classify(game)?;
    game.set_tag("ECO", opening.eco);
    game.set_tag("Opening", opening.name);
    Some(opening)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::PgnReader;

    fn game(pgn: &str) -> Game {
        PgnReader::new(pgn.as_bytes()).next().unwrap().unwrap().game
    }

    #[test]
    fn every_line_of_the_table_names_its_own_position() {
        let table = openings();
        // Positions are named once: as many positions as lines.
        assert_eq!(table.by_position.len(), TABLE.lines().count());
        assert_eq!(table.by_position.len(), 3807);
    }

    #[test]
    fn the_last_named_position_wins_and_transpositions_count() {
        // The Najdorf reached by the Open Sicilian, then a move the table does not name.
        let najdorf = game("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. h3 *");
        assert_eq!(classify(&najdorf).map(|o| o.eco), Some("B90"));
        // Queen's Gambit Declined by way of 1.c4: the table's line starts 1.d4.
        let qgd = game("1. c4 e6 2. Nc3 d5 3. d4 *");
        let by_d4 = game("1. d4 d5 2. c4 e6 3. Nc3 *");
        assert_eq!(classify(&qgd), classify(&by_d4));
        assert!(classify(&qgd).unwrap().name.starts_with("Queen's Gambit Declined"));
        // Nothing named: no tags added.
        let mut start = game("*");
        assert_eq!(add_eco(&mut start), None);
        assert_eq!(start.tag("ECO"), None);
        let mut g = game("[ECO \"A00\"]\n\n1. e4 e5 *");
        add_eco(&mut g);
        assert_eq!(g.tag("ECO").map(|t| t.as_bytes()), Some(&b"C20"[..]));
        assert_eq!(g.tag("Opening").map(|t| t.as_bytes()), Some(&b"King's Pawn Game"[..]));
    }
}
