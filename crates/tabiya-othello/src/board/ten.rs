//! The 10×10 board (Grand Othello) of Wthor's `.wtd` files: a plain array, as no solver
//! searches it and a replay needs only legal moves, flips, forced passes and the score.

use super::position::Color;

/// Squares per side.
pub const SIDE: u8 = 10;

/// The eight directions a move flips along, as (column, row) steps.
const DIRECTIONS: [(i8, i8); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// A 10×10 position: the discs by square (`10 · row + column`, 0-based) and the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position10 {
    squares: [Option<Color>; 100],
    /// The side to move.
    pub side: Color,
}

impl Position10 {
    /// The start: White on e5 and f6, Black on f5 and e6 (the 8×8 start moved to the centre),
    /// Black to move.
    pub fn start() -> Position10 {
        let mut squares = [None; 100];
        for (column, row, color) in
            [(4, 4, Color::White), (5, 5, Color::White), (5, 4, Color::Black), (4, 5, Color::Black)]
        {
            squares[index(column, row)] = Some(color);
        }
        Position10 { squares, side: Color::Black }
    }

    /// The disc on a 0-based (column, row), if any.
    pub fn at(&self, column: u8, row: u8) -> Option<Color> {
        (column < SIDE && row < SIDE).then(|| self.squares[index(column, row)]).flatten()
    }

    /// How many discs each side has: (Black, White).
    pub fn discs(&self) -> (u32, u32) {
        let count = |c| self.squares.iter().filter(|&&s| s == Some(c)).count() as u32;
        (count(Color::Black), count(Color::White))
    }

    /// The squares the side to move flips by playing on (column, row); empty when the move is
    /// not legal.
    pub fn flips(&self, column: u8, row: u8) -> Vec<usize> {
        let mut flipped = Vec::new();
        if self.at(column, row).is_some() || column >= SIDE || row >= SIDE {
            return flipped;
        }
        for (dc, dr) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut c, mut r) = (i16::from(column) + i16::from(dc), i16::from(row) + i16::from(dr));
            while let Some(square) = on_board(c, r) {
                match self.squares[square] {
                    Some(color) if color == self.side.opposite() => run.push(square),
                    Some(_) => {
                        flipped.append(&mut run);
                        break;
                    }
                    None => break,
                }
                c += i16::from(dc);
                r += i16::from(dr);
            }
        }
        flipped
    }

    /// Whether the side to move has a legal move.
    pub fn has_move(&self) -> bool {
        (0..SIDE).any(|row| (0..SIDE).any(|column| !self.flips(column, row).is_empty()))
    }

    /// Plays a legal move of the side to move and gives the turn to the opponent; `false`
    /// (and nothing changed) when the move is not legal.
    pub fn play(&mut self, column: u8, row: u8) -> bool {
        let flipped = self.flips(column, row);
        if flipped.is_empty() {
            return false;
        }
        for square in flipped {
            self.squares[square] = Some(self.side);
        }
        self.squares[index(column, row)] = Some(self.side);
        self.side = self.side.opposite();
        true
    }

    /// The same discs with the other side to move.
    pub fn pass(&self) -> Position10 {
        Position10 { side: self.side.opposite(), ..*self }
    }

    /// Neither side can move.
    pub fn is_game_over(&self) -> bool {
        !self.has_move() && !self.pass().has_move()
    }

    /// Black's discs with the empty squares given to the winner and split on a draw (50): the
    /// score Wthor stores.
    pub fn black_score(&self) -> u8 {
        let (black, white) = self.discs();
        let empties = 100 - black - white;
        let score = match black.cmp(&white) {
            std::cmp::Ordering::Greater => black + empties,
            std::cmp::Ordering::Less => black,
            std::cmp::Ordering::Equal => black + empties / 2,
        };
        score as u8
    }
}

fn index(column: u8, row: u8) -> usize {
    usize::from(row) * usize::from(SIDE) + usize::from(column)
}

fn on_board(column: i16, row: i16) -> Option<usize> {
    let side = i16::from(SIDE);
    ((0..side).contains(&column) && (0..side).contains(&row)).then(|| (row * side + column) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_moves() {
        let start = Position10::start();
        // Black's four first moves are the 8×8 ones (d3 c4 f5 e6) moved by one square.
        let legal: Vec<(u8, u8)> = (0..SIDE)
            .flat_map(|r| (0..SIDE).map(move |c| (c, r)))
            .filter(|&(c, r)| !start.flips(c, r).is_empty())
            .collect();
        assert_eq!(legal, [(4, 3), (3, 4), (6, 5), (5, 6)], "e4 d5 g6 f7");
        let mut p = start;
        assert!(p.play(6, 5));
        assert_eq!(p.discs(), (4, 1));
        assert_eq!(p.side, Color::White);
        assert!(!p.play(6, 5), "occupied");
    }
}
