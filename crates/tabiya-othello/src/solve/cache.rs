//! Solving many game positions: a cache of exact scores keyed by position up to symmetry, so
//! that a position reached again (in another game, or mirrored) is solved once. This is the
//! solver Wthor's theoretical scores plug into.

use std::collections::HashMap;

use super::Solver;
use crate::board::{Board, Position, Symmetry};
use crate::wthor::EndgameSolver;

/// A [`Solver`] with a cache of exact scores.
pub struct CachedSolver {
    solver: Solver,
    scores: HashMap<(u64, u64), i8>,
    /// Positions answered from the cache.
    pub hits: u64,
    /// Positions solved.
    pub solved: u64,
    /// Nodes searched in all solves.
    pub nodes: u64,
    /// Called after each position asked for (solved or from the cache), for a progress bar.
    tick: Option<Box<dyn Fn() + Send + Sync>>,
}

/// The same key for a position and its 7 symmetric images: the smallest image.
fn canonical(board: Board) -> (u64, u64) {
    Symmetry::ALL.iter().map(|s| (s.apply(board.player), s.apply(board.opponent))).min().unwrap_or_default()
}

impl CachedSolver {
    /// A cache in front of `solver`.
    pub fn new(solver: Solver) -> CachedSolver {
        CachedSolver { solver, scores: HashMap::new(), hits: 0, solved: 0, nodes: 0, tick: None }
    }

    /// Calls `tick` after each position asked for (solved or answered from the cache): one a
    /// game when Wthor theoretical scores are checked, for a progress bar.
    pub fn with_tick(mut self, tick: impl Fn() + Send + Sync + 'static) -> CachedSolver {
        self.tick = Some(Box::new(tick));
        self
    }

    /// The exact final disc difference for the side to move.
    pub fn score(&mut self, board: Board) -> i32 {
        let key = canonical(board);
        if let Some(&score) = self.scores.get(&key) {
            self.hits += 1;
            return i32::from(score);
        }
        let solution = self.solver.solve(board);
        self.solved += 1;
        self.nodes += solution.nodes;
        self.scores.insert(key, solution.score as i8);
        solution.score
    }
}

impl EndgameSolver for CachedSolver {
    fn black_score(&mut self, position: &Position) -> u8 {
        let score = self.score(position.board);
        if let Some(tick) = &self.tick {
            tick();
        }
        let black = match position.side {
            crate::board::Color::Black => score,
            crate::board::Color::White => -score,
        };
        ((black + 64) / 2) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::obf;

    #[test]
    fn solves_a_position_and_its_mirror_image_once() {
        // FFO #1: Black to move wins by 18, i.e. 41 discs with the empties.
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        let position = obf::parse_line(line, 1).unwrap().position;
        let mut cached = CachedSolver::new(Solver::new().table_bits(16));
        assert_eq!(cached.black_score(&position), 41);
        let s = Symmetry::ROTATE_180;
        let rotated =
            Position::from_discs(s.apply(position.black()), s.apply(position.white()), position.side).unwrap();
        assert_eq!(cached.black_score(&rotated), 41);
        assert_eq!((cached.solved, cached.hits), (1, 1));
        // White to move in the same discs is another position.
        assert_ne!(canonical(position.board), canonical(position.pass().board));
    }
}
