//! Where the theoretical score of a game comes from: the hook an exact endgame solver plugs into.

use crate::board::Position;

use super::replay::Replay;

/// An exact endgame solver, as Wthor's theoretical score needs it.
pub trait EndgameSolver {
    /// Black's disc count under perfect play from `position`, empty squares given to the
    /// winner and split on a draw (the score Wthor stores).
    fn black_score(&mut self, position: &Position) -> u8;
}

/// How a writer fills the theoretical score of a new game. Games that end before reaching the
/// depth get the real score in every mode: that is their perfect-play score.
pub enum TheoreticalPolicy<'a> {
    /// Solve the position at the file's depth (P3 empties).
    Solve(&'a mut dyn EndgameSolver),
    /// Copy the real score (what Edax's writer does; wrong for 88 % of real games), chosen
    /// explicitly by the user.
    CopyReal,
    /// Store 0: "not computed". 0 is also a real score (White wipes Black out), so readers of
    /// such a file must be told; the CLI says so.
    Unknown,
}

impl TheoreticalPolicy<'_> {
    /// The theoretical score of a replayed game whose real score is `real`, at `depth` empties.
    /// `replay` must have been run with `snapshot_after = 60 − depth`.
    pub fn score(&mut self, replay: &Replay, real: u8, depth: u8) -> u8 {
        let reaches_depth = replay.moves > 60 - usize::from(depth);
        if !reaches_depth {
            return real;
        }
        match (self, replay.snapshot) {
            (TheoreticalPolicy::Solve(solver), Some(position)) => solver.black_score(&position),
            (TheoreticalPolicy::CopyReal, _) => real,
            _ => 0,
        }
    }
}
