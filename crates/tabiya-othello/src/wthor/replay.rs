//! Replaying stored moves: passes are not stored, so a move belongs to the side to move unless
//! that side has no legal move, in which case it belongs to the opponent.

use crate::board::{Color, Position, Position10, Square, flips};

use super::square::{BoardSize, square_of_code};

/// How a replayed game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// 60 moves: the board is full.
    FullBoard,
    /// Neither side can move before the board is full (wipe-out or blocked).
    Early,
    /// The moves stop while the game is not over: a truncated transcript.
    Truncated,
}

impl Ending {
    /// The ending of a game that is `over` or not after `moves` moves, on a board with
    /// `squares` empty squares at the start.
    fn of(over: bool, moves: usize, squares: usize) -> Ending {
        if !over {
            Ending::Truncated
        } else if moves == squares {
            Ending::FullBoard
        } else {
            Ending::Early
        }
    }
}

/// The stored moves cannot be replayed from the start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A byte that is no square (8×8 codes are 11–18, …, 81–88).
    #[error("move {index}: byte {byte} is not a square")]
    BadByte {
        /// 0-based number of the move.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// A square neither side may play.
    #[error("move {index}: {square} is not legal for {side:?} (nor for the opponent after a pass)")]
    Illegal {
        /// 0-based number of the move.
        index: usize,
        /// The square, `a1` … `h8` (`j10` on 10×10 boards).
        square: String,
        /// The side to move.
        side: Color,
    },
    /// A move after the game is over.
    #[error("move {index}: {square} comes after the end of the game")]
    AfterEnd {
        /// 0-based number of the move.
        index: usize,
        /// The square.
        square: String,
    },
}

impl ReplayError {
    /// The 0-based number of the move that cannot be replayed.
    pub fn index(&self) -> usize {
        match *self {
            ReplayError::BadByte { index, .. }
            | ReplayError::Illegal { index, .. }
            | ReplayError::AfterEnd { index, .. } => index,
        }
    }

    /// The stable diagnostic code: `wthor.bad_square`, `wthor.illegal_move`, `wthor.move_after_end`.
    pub fn code(&self) -> &'static str {
        match self {
            ReplayError::BadByte { .. } => "wthor.bad_square",
            ReplayError::Illegal { .. } => "wthor.illegal_move",
            ReplayError::AfterEnd { .. } => "wthor.move_after_end",
        }
    }
}

/// A replayed game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replay {
    /// The position after the last stored move, with the side that must move next (after a
    /// forced pass) to move.
    pub position: Position,
    /// Number of stored moves.
    pub moves: usize,
    /// Number of forced passes before stored moves.
    pub passes: u32,
    /// Bit `i` set when stored move `i` was played by White.
    pub white_moves: u64,
    /// The position after `snapshot_after` moves (side that must move to move), if reached.
    pub snapshot: Option<Position>,
}

impl Replay {
    /// Replays the move bytes up to the first 0; keeps the position after `snapshot_after`
    /// moves (e.g. `60 − P3` for the theoretical score, or `60 − N` for N empties).
    pub fn run(codes: &[u8], snapshot_after: usize) -> Result<Replay, ReplayError> {
        Replay::of_squares(
            codes
                .iter()
                .take_while(|&&b| b != 0)
                .enumerate()
                .map(|(index, &byte)| square_of_code(byte).ok_or(ReplayError::BadByte { index, byte })),
            snapshot_after,
        )
    }

    /// Replays squares (e.g. from a transcript) the same way.
    pub fn of_squares(
        squares: impl IntoIterator<Item = Result<Square, ReplayError>>,
        snapshot_after: usize,
    ) -> Result<Replay, ReplayError> {
        let mut replay = Replay { position: Position::start(), moves: 0, passes: 0, white_moves: 0, snapshot: None };
        for (index, square) in squares.into_iter().enumerate() {
            if index == snapshot_after {
                replay.snapshot = Some(replay.position);
            }
            let square = square?;
            let mut position = replay.position;
            // Trying the move first spares the move generation on every ply: a move that
            // flips something on an empty square is legal; otherwise the side to move must
            // have no move at all, and the move is the opponent's.
            let empty = position.board.empty() & square.bit() != 0;
            let mut flipped = if empty {
                flips(position.board.player, position.board.opponent, usize::from(square.index()))
            } else {
                0
            };
            if flipped == 0 {
                if position.moves() != 0 {
                    return Err(ReplayError::Illegal { index, square: square.to_string(), side: position.side });
                }
                if position.pass().moves() == 0 {
                    return Err(ReplayError::AfterEnd { index, square: square.to_string() });
                }
                position = position.pass();
                replay.passes += 1;
                flipped = if empty {
                    flips(position.board.player, position.board.opponent, usize::from(square.index()))
                } else {
                    0
                };
                if flipped == 0 {
                    return Err(ReplayError::Illegal { index, square: square.to_string(), side: position.side });
                }
            }
            if position.side == Color::White && index < 64 {
                replay.white_moves |= 1 << index;
            }
            replay.position =
                Position { board: position.board.play_flips(square.bit(), flipped), side: position.side.opposite() };
            replay.moves = index + 1;
        }
        // The side to move at the end is the one that must play (unless the game is over).
        if replay.position.moves() == 0 && !replay.position.is_game_over() {
            replay.position = replay.position.pass();
        }
        if replay.moves == snapshot_after {
            replay.snapshot = Some(replay.position);
        }
        if let Some(p) = replay.snapshot.as_mut().filter(|p| p.moves() == 0 && !p.is_game_over()) {
            *p = p.pass();
        }
        Ok(replay)
    }

    /// How the game ends: the board full, early, or not at all (truncated).
    pub fn ending(&self) -> Ending {
        Ending::of(self.position.is_game_over(), self.moves, 60)
    }

    /// Black's score as Wthor stores it (empties to the winner, 32 on a draw), when the game
    /// is over.
    pub fn real_score(&self) -> Option<u8> {
        self.position.is_game_over().then(|| self.position.black_score())
    }
}

/// A replayed 10×10 game (`.wtd`), with the same forced-pass rule as [`Replay`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replay10 {
    /// The position after the last stored move, with the side that must move next to move.
    pub position: Position10,
    /// Number of stored moves.
    pub moves: usize,
    /// Number of forced passes before stored moves.
    pub passes: u32,
}

impl Replay10 {
    /// Replays the move bytes (`column + 12 · row`) up to the first 0.
    pub fn run(codes: &[u8]) -> Result<Replay10, ReplayError> {
        let ten = BoardSize::Ten;
        let mut replay = Replay10 { position: Position10::start(), moves: 0, passes: 0 };
        for (index, &byte) in codes.iter().take_while(|&&b| b != 0).enumerate() {
            let (column, row) = ten.decode(byte).ok_or(ReplayError::BadByte { index, byte })?;
            let square = || ten.name(column, row);
            if !replay.position.play(column, row) {
                if replay.position.has_move() {
                    return Err(ReplayError::Illegal { index, square: square(), side: replay.position.side });
                }
                let passed = replay.position.pass();
                if !passed.has_move() {
                    return Err(ReplayError::AfterEnd { index, square: square() });
                }
                replay.position = passed;
                replay.passes += 1;
                if !replay.position.play(column, row) {
                    return Err(ReplayError::Illegal { index, square: square(), side: replay.position.side });
                }
            }
            replay.moves = index + 1;
        }
        if !replay.position.has_move() && !replay.position.is_game_over() {
            replay.position = replay.position.pass();
        }
        Ok(replay)
    }

    /// How the game ends: the board full (96 moves), early, or not at all (truncated).
    pub fn ending(&self) -> Ending {
        Ending::of(self.position.is_game_over(), self.moves, 96)
    }

    /// Black's score as Wthor stores it (empties to the winner, 50 on a draw), when the game
    /// is over.
    pub fn real_score(&self) -> Option<u8> {
        self.position.is_game_over().then(|| self.position.black_score())
    }
}
