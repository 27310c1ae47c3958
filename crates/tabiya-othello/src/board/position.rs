//! Positions: the discs of the side to move and of its opponent, and whose turn it is.

use std::fmt;

use super::bitboard::{flips, legal_moves};
use super::square::Square;

/// A side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// The other side.
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// The discs from the point of view of the side to move: `player` moves next, `opponent`
/// after. This is what the solver searches; [`Position`] adds which colour `player` is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Board {
    /// Discs of the side to move (bit `8 · row + column`, a1 = bit 0).
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
}

impl Board {
    /// `None` when the two sides share a square.
    pub fn new(player: u64, opponent: u64) -> Option<Board> {
        (player & opponent == 0).then_some(Board { player, opponent })
    }

    /// The squares where the side to move may play.
    #[inline]
    pub fn moves(&self) -> u64 {
        legal_moves(self.player, self.opponent)
    }

    /// The empty squares.
    #[inline]
    pub fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// How many squares are empty.
    #[inline]
    pub fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// The board after the side to move plays `square`, seen from the new side to move;
    /// `None` if the move is illegal.
    #[inline]
    pub fn play(&self, square: Square) -> Option<Board> {
        let flipped = flips(self.player, self.opponent, square.index() as usize);
        (flipped != 0 && self.empty() & square.bit() != 0).then(|| self.play_flips(square.bit(), flipped))
    }

    /// The board after placing `bit` and flipping `flipped` (both already known to be legal).
    #[inline]
    pub fn play_flips(&self, bit: u64, flipped: u64) -> Board {
        Board { player: self.opponent ^ flipped, opponent: self.player ^ flipped ^ bit }
    }

    /// The same discs with the other side to move.
    #[inline]
    pub fn pass(&self) -> Board {
        Board { player: self.opponent, opponent: self.player }
    }

    /// Neither side can move: the game is over (full board or both sides blocked).
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.pass().moves() == 0
    }

    /// The final disc difference for the side to move, empty squares going to the winner.
    #[inline]
    pub fn final_score(&self) -> i32 {
        let player = self.player.count_ones() as i32;
        let opponent = self.opponent.count_ones() as i32;
        let empties = 64 - player - opponent;
        match player.cmp(&opponent) {
            std::cmp::Ordering::Greater => player - opponent + empties,
            std::cmp::Ordering::Less => player - opponent - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

/// A move that the rules do not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{square} is not a legal move for {side:?}")]
pub struct IllegalMove {
    /// The square tried.
    pub square: Square,
    /// The side that tried it.
    pub side: Color,
}

/// A position: the discs and the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The discs, from the point of view of `side`.
    pub board: Board,
    /// The side to move.
    pub side: Color,
}

impl Position {
    /// The standard start: white on d4 and e5, black on d5 and e4, Black to move.
    pub fn start() -> Position {
        let black = Square::from_coords(3, 4).map_or(0, Square::bit) | Square::from_coords(4, 3).map_or(0, Square::bit);
        let white = Square::from_coords(3, 3).map_or(0, Square::bit) | Square::from_coords(4, 4).map_or(0, Square::bit);
        Position { board: Board { player: black, opponent: white }, side: Color::Black }
    }

    /// The position with these discs and `side` to move; `None` when the colours overlap.
    pub fn from_discs(black: u64, white: u64, side: Color) -> Option<Position> {
        let board = match side {
            Color::Black => Board::new(black, white)?,
            Color::White => Board::new(white, black)?,
        };
        Some(Position { board, side })
    }

    /// Black's discs.
    pub fn black(&self) -> u64 {
        match self.side {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        }
    }

    /// White's discs.
    pub fn white(&self) -> u64 {
        match self.side {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        }
    }

    /// The disc (if any) on a square.
    pub fn at(&self, square: Square) -> Option<Color> {
        if self.black() & square.bit() != 0 {
            Some(Color::Black)
        } else if self.white() & square.bit() != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The legal moves of the side to move, one bit per square.
    pub fn moves(&self) -> u64 {
        self.board.moves()
    }

    /// The position after the side to move plays `square`.
    pub fn play(&self, square: Square) -> Result<Position, IllegalMove> {
        let board = self.board.play(square).ok_or(IllegalMove { square, side: self.side })?;
        Ok(Position { board, side: self.side.opposite() })
    }

    /// The same discs with the other side to move.
    pub fn pass(&self) -> Position {
        Position { board: self.board.pass(), side: self.side.opposite() }
    }

    /// The position after the side that must play next plays `square`: the side to move, or
    /// its opponent when the side to move has no legal move (the forced pass that game records
    /// such as Wthor's do not store).
    pub fn play_after_forced_pass(&self, square: Square) -> Result<Position, IllegalMove> {
        if self.board.moves() == 0 { self.pass().play(square) } else { self.play(square) }
    }

    /// Neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.board.is_game_over()
    }

    /// The final disc difference for Black, empty squares going to the winner.
    pub fn black_disc_difference(&self) -> i32 {
        match self.side {
            Color::Black => self.board.final_score(),
            Color::White => -self.board.final_score(),
        }
    }

    /// Black's discs with the empty squares given to the winner and split on a draw (32):
    /// the score that Wthor stores.
    pub fn black_score(&self) -> u8 {
        ((self.black_disc_difference() + 64) / 2) as u8
    }
}

impl fmt::Display for Position {
    /// 64 characters a1..h8 (`X` black, `O` white, `-` empty), a space, the side (`X`/`O`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for square in Square::all() {
            let c = match self.at(square) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '-',
            };
            write!(f, "{c}")?;
        }
        write!(f, " {}", if self.side == Color::Black { 'X' } else { 'O' })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// Leaf count with a pass counting as a move and a finished game as a leaf, the
    /// convention of the published Othello perft table (aartbik.blogspot.com, 2009-02).
    fn perft(board: Board, depth: u32) -> u64 {
        let moves = board.moves();
        if depth == 1 {
            return u64::from(moves.count_ones().max(1));
        }
        if moves == 0 {
            let passed = board.pass();
            return if passed.moves() == 0 { 1 } else { perft(passed, depth - 1) };
        }
        Square::iter(moves).map(|s| perft(board.play(s).unwrap(), depth - 1)).sum()
    }

    #[test]
    fn perft_from_the_start() {
        // Passes first occur at depth 9.
        let expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284];
        for (depth, count) in (1..).zip(expected) {
            assert_eq!(perft(Position::start().board, depth), count, "depth {depth}");
        }
    }

    #[test]
    fn the_start_position() {
        let start = Position::start();
        assert_eq!(start.to_string(), "---------------------------OX------XO--------------------------- X");
        let names: Vec<String> = Square::iter(start.moves()).map(|s| s.to_string()).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        let after = start.play(sq("f5")).unwrap();
        assert_eq!(after.side, Color::White);
        assert_eq!(after.black().count_ones(), 4);
        assert_eq!(after.white().count_ones(), 1);
        assert_eq!(start.play(sq("a1")), Err(IllegalMove { square: sq("a1"), side: Color::Black }));
        assert_eq!(start.play(sq("d4")), Err(IllegalMove { square: sq("d4"), side: Color::Black }));
    }

    #[test]
    fn forced_pass_and_game_end() {
        // Black a1 b1, White c1, White to move: White has no move, Black's d1 is played after the pass.
        let p = Position::from_discs(sq("a1").bit() | sq("b1").bit(), sq("c1").bit(), Color::White).unwrap();
        assert_eq!(p.moves(), 0);
        assert!(!p.is_game_over());
        let after = p.play_after_forced_pass(sq("d1")).unwrap();
        assert_eq!((after.side, after.black().count_ones(), after.white()), (Color::White, 4, 0));
        assert!(after.is_game_over());
        assert_eq!((after.black_disc_difference(), after.black_score()), (64, 64));
        // Neither side can move with one disc each far apart: a 1-1 draw, stored as 32.
        let blocked = Position::from_discs(sq("a1").bit(), sq("h8").bit(), Color::Black).unwrap();
        assert!(blocked.is_game_over());
        assert_eq!((blocked.black_disc_difference(), blocked.black_score()), (0, 32));
    }

    #[test]
    fn scores_give_empties_to_the_winner() {
        // 40 black, 20 white, 4 empty, White to move.
        let black = (1u64 << 40) - 1;
        let white = ((1u64 << 20) - 1) << 40;
        let p = Position::from_discs(black, white, Color::White).unwrap();
        assert_eq!(p.black_disc_difference(), 24);
        assert_eq!(p.black_score(), 44);
        // 31-31 with 2 empty: a draw, stored as 32.
        let black = (1u64 << 31) - 1;
        let white = ((1u64 << 31) - 1) << 31;
        let p = Position::from_discs(black, white, Color::Black).unwrap();
        assert_eq!((p.black_disc_difference(), p.black_score()), (0, 32));
        // 20 black, 40 white, 4 empty: White wins 44-20.
        let black = (1u64 << 20) - 1;
        let white = ((1u64 << 40) - 1) << 20;
        let p = Position::from_discs(black, white, Color::Black).unwrap();
        assert_eq!((p.black_disc_difference(), p.black_score()), (-24, 20));
        assert_eq!(Position::from_discs(1, 1, Color::Black), None);
    }
}
