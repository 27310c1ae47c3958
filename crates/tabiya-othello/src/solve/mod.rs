//! Exact Othello endgame solving: the final disc difference under perfect play and the moves
//! that reach it.
//!
//! ```
//! use tabiya_othello::board::Position;
//! use tabiya_othello::solve::Solver;
//! use tabiya_othello::text::obf;
//!
//! // FFO endgame #1: Black to move wins by 18 with g8.
//! let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;";
//! let position: Position = obf::parse_line(line, 1)?.position;
//! let solution = Solver::new().solve(position.board);
//! assert_eq!(solution.score, 18);
//! assert_eq!(solution.best_moves.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["g8"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod cache;
mod last_flip;
mod moves;
mod search;
mod solitaire;
mod solved;
mod stability;
mod table;

use std::time::{Duration, Instant};

use crate::board::{Board, Square};
pub use cache::CachedSolver;
use moves::MoveList;
use search::{Search, Stop};
pub use solitaire::{SolitaireProblem, SolitaireSolver, UniqueMove, check_solitaire, find_solitaires};
pub use solved::Solved;
use table::Table;

/// What to find out about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// The exact final disc difference.
    Exact,
    /// Only whether the side to move wins, draws or loses (score -1, 0 or +1): faster.
    WinDrawLoss,
}

/// The answer for one position, from the point of view of the side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The final disc difference under perfect play (empties to the winner), or with
    /// [`Goal::WinDrawLoss`] its sign.
    pub score: i32,
    /// The moves that reach `score`; every one of them with [`Solver::all_best_moves`],
    /// otherwise the first found. Empty when the side to move must pass or the game is over.
    pub best_moves: Vec<Square>,
    /// The side to move has no legal move and the score is the opponent's position's, negated.
    pub passes: bool,
    /// Positions visited.
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
}

/// An endgame solver with its transposition table and thread pool; reuse it for many
/// positions (the table keeps what it learnt unless [`Solver::clear`] is called).
pub struct Solver {
    table: Table,
    pool: Option<rayon::ThreadPool>,
    goal: Goal,
    all_best_moves: bool,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// Exact scores, one thread, a table of 2^22 slots (96 MiB).
    pub fn new() -> Solver {
        Solver { table: Table::new(22), pool: None, goal: Goal::Exact, all_best_moves: false }
    }

    /// Searches with `threads` threads (1 = no thread pool). Fails only when the operating
    /// system refuses to start threads.
    pub fn threads(mut self, threads: usize) -> Result<Solver, rayon::ThreadPoolBuildError> {
        self.pool = match threads {
            0 | 1 => None,
            n => Some(rayon::ThreadPoolBuilder::new().num_threads(n).build()?),
        };
        Ok(self)
    }

    /// A table of `2^bits` slots of 24 bytes.
    pub fn table_bits(mut self, bits: u32) -> Solver {
        self.table = Table::new(bits.clamp(10, 32));
        self
    }

    /// Sets what to find: the exact score, or only win, draw or loss.
    pub fn goal(mut self, goal: Goal) -> Solver {
        self.goal = goal;
        self
    }

    /// Find every move that reaches the best score, not just one (costs a little more search).
    pub fn all_best_moves(mut self, all: bool) -> Solver {
        self.all_best_moves = all;
        self
    }

    /// Forgets every position searched so far (for timings that start from scratch).
    pub fn clear(&self) {
        self.table.clear();
    }

    /// Solves `board` for the side to move.
    pub fn solve(&self, board: Board) -> Solution {
        let started = Instant::now();
        let mut solution = match &self.pool {
            Some(pool) => pool.install(|| self.solve_root(board, true)),
            None => self.solve_root(board, false),
        };
        solution.elapsed = started.elapsed();
        solution
    }

    fn solve_root(&self, board: Board, parallel: bool) -> Solution {
        let (low, high) = match self.goal {
            Goal::Exact => (-64, 64),
            Goal::WinDrawLoss => (-1, 1),
        };
        let outcome = |score: i32| score.clamp(low, high);
        let mut search = Search::new(&self.table, parallel);
        let stop = Stop::root();
        let moves = board.moves();
        if moves == 0 {
            let passed = board.pass();
            let score =
                if passed.moves() == 0 { board.final_score() } else { -search.search(passed, -high, -low, &stop) };
            let passes = passed.moves() != 0;
            return Solution {
                score: outcome(score),
                best_moves: vec![],
                passes,
                nodes: search.nodes + 1,
                elapsed: Duration::ZERO,
            };
        }
        // The searches below assume a child with an empty square left: a move that fills the
        // board is scored here (one empty at the root; the search itself never meets a full board).
        let mut search_child = |child: Board, alpha: i32, beta: i32| {
            if child.empty() == 0 { child.final_score() } else { search.search(child, alpha, beta, &stop) }
        };
        let first = self.table.probe(board).and_then(|e| e.best_move);
        let mut list = MoveList::new(board, moves, first);
        let mut best = -65;
        let mut best_moves = Vec::new();
        for i in 0..list.len() {
            let m = list.select(i);
            let square = Square::from_index(m.square).unwrap_or(Square::A1);
            if i == 0 {
                best = outcome(-search_child(m.child, -high, -low));
                best_moves.push(square);
                continue;
            }
            // Null window just below the best to find equal moves too, or just above it to
            // find only better ones.
            let bar = if self.all_best_moves { best - 1 } else { best };
            if bar >= high {
                break;
            }
            let probe = -search_child(m.child, -bar - 1, -bar);
            if probe <= bar {
                continue;
            }
            let score = if best < high { outcome(-search_child(m.child, -high, -best)) } else { best };
            if score > best {
                best = score;
                best_moves.clear();
            }
            best_moves.push(square);
        }
        if self.goal == Goal::Exact {
            self.table.store(board, board.empties(), best, best, best_moves.last().map(|s| s.index()));
        }
        Solution { score: best, best_moves, passes: false, nodes: search.nodes + 1, elapsed: Duration::ZERO }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Position};
    use crate::text::obf;

    fn solve(solver: &Solver, line: &str) -> (i32, Vec<String>) {
        let solution = solver.solve(obf::parse_line(line, 1).unwrap().position.board);
        let mut moves: Vec<String> = solution.best_moves.iter().map(Square::to_string).collect();
        moves.sort();
        (solution.score, moves)
    }

    /// One empty square: the move fills the board (the search below the root never sees a full
    /// board). Row 1 `- O X X X X X X`, Black elsewhere: a1 takes b1, 64 to 0.
    #[test]
    fn one_empty_square() {
        let line = format!("-OXXXXXX{} X", "X".repeat(56));
        assert_eq!(solve(&Solver::new(), &line), (64, vec!["a1".to_owned()]));
    }

    // FFO #1 (+18 g8; h1, h7, a2, a3 also win), #4 (0: a5 and h8 draw, nothing wins), #9 (-8).
    const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    const FFO_4: &str = "-XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X";
    const FFO_9: &str = "--XOXX--O-OOXXXX-OOOXXXX-XOXXXOXXXOXOOOXOXXOXOXX--OXOO----OOOO-- O";

    #[test]
    fn win_draw_loss_gives_the_sign_and_the_moves_that_keep_it() {
        let solver = Solver::new().table_bits(16).goal(Goal::WinDrawLoss).all_best_moves(true);
        assert_eq!(solve(&solver, FFO_1), (1, vec!["a2".into(), "a3".into(), "g8".into(), "h1".into(), "h7".into()]));
        assert_eq!(solve(&solver, FFO_4), (0, vec!["a5".into(), "h8".into()]));
        assert_eq!(solve(&solver, FFO_9).0, -1);
    }

    #[test]
    fn exact_scores_with_one_or_every_best_move() {
        let one = Solver::new().table_bits(16);
        let (score, moves) = solve(&one, FFO_4);
        assert_eq!(score, 0);
        assert!(moves == ["a5"] || moves == ["h8"], "{moves:?}");
        let every = Solver::new().table_bits(16).all_best_moves(true).threads(2).unwrap();
        assert_eq!(solve(&every, FFO_4), (0, vec!["a5".into(), "h8".into()]));
        assert_eq!(solve(&every, FFO_9), (-8, vec!["a4".into(), "g7".into()]));
    }

    #[test]
    fn forced_pass_and_finished_games() {
        let square = |name: &str| name.parse::<Square>().unwrap().bit();
        // White to move cannot: after the pass Black's d1 takes every disc.
        let passing = Position::from_discs(square("a1") | square("b1"), square("c1"), Color::White).unwrap();
        let solution = Solver::new().table_bits(12).solve(passing.board);
        assert_eq!((solution.score, solution.passes, solution.best_moves.len()), (-64, true, 0));
        // Neither side can move: the final score, empties to the winner (2 discs to 1 + 61 empties).
        let over = Position::from_discs(square("a1") | square("h1"), square("h8"), Color::Black).unwrap();
        let solution = Solver::new().table_bits(12).solve(over.board);
        assert_eq!((solution.score, solution.passes), (64 - 2, false));
    }
}
