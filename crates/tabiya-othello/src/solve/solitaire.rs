//! Solitaires: positions where the side to move has exactly one move that keeps its
//! perfect-play result (a win, or a draw when it cannot win), as the FFO's `.pzz` files hold
//! them. Finding them in real games, and checking a file of them.

use std::collections::HashSet;

use super::{Goal, Solver};
use crate::board::{Board, Color, Position, Square};
use crate::wthor::{Game, Replay, Solitaire, code_of_square};

/// The solution of a solitaire: its only saving move and the exact score after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UniqueMove {
    /// The only move that keeps the result.
    pub square: Square,
    /// Final disc difference for the side to move under perfect play.
    pub score: i32,
}

/// Solvers for the two questions a solitaire asks: who wins (cheap) and by how much.
pub struct SolitaireSolver {
    exact: Solver,
    outcome: Solver,
}

impl SolitaireSolver {
    /// A solver searching on `threads` threads.
    pub fn new(threads: usize) -> Result<SolitaireSolver, rayon::ThreadPoolBuildError> {
        Ok(SolitaireSolver {
            exact: Solver::new().table_bits(20).threads(threads)?,
            outcome: Solver::new().table_bits(20).goal(Goal::WinDrawLoss).threads(threads)?,
        })
    }

    /// The only move keeping a win or a draw, if `board` has exactly one; `None` when the
    /// side to move loses anyway, has to pass, or has two or more such moves.
    pub fn unique_move(&self, board: Board) -> Option<UniqueMove> {
        let outcome = self.outcome.solve(board).score;
        if outcome < 0 || board.moves() == 0 {
            return None;
        }
        let mut keeping = None;
        for square in Square::iter(board.moves()) {
            let child = board.play(square)?;
            if -self.outcome.solve(child).score == outcome {
                if keeping.is_some() {
                    return None;
                }
                keeping = Some(square);
            }
        }
        let square = keeping?;
        let score = -self.exact.solve(board.play(square)?).score;
        Some(UniqueMove { square, score })
    }
}

/// Every solitaire with `empties` empty squares in `games` (year, game): the position after
/// the first `60 − empties` stored moves, with the side that must move next to move; each
/// position once (its first game).
pub fn find_solitaires<'g>(
    solver: &SolitaireSolver,
    games: impl IntoIterator<Item = (u16, &'g Game)>,
    empties: u8,
) -> Vec<Solitaire> {
    let after = 60usize.saturating_sub(usize::from(empties));
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    for (year, game) in games {
        let Ok(replay) = Replay::run(&game.moves, after) else { continue };
        let Some(position) = replay.snapshot else { continue };
        if position.board.empties() != u32::from(empties) || !seen.insert(position) {
            continue;
        }
        let Some(unique) = solver.unique_move(position.board) else { continue };
        let mut solitaire = Solitaire {
            year,
            tournament: game.tournament,
            black: u32::from(game.black),
            white: u32::from(game.white),
            empties,
            side_to_move: if position.side == Color::Black { 1 } else { 2 },
            score: unique.score as i8,
            best_move: code_of_square(unique.square),
            real_score: game.real_score,
            played_move: game.moves.get(after).copied().unwrap_or(0),
            ..Solitaire::default()
        };
        solitaire.set_discs(position.black(), position.white());
        found.push(solitaire);
    }
    found
}

/// What is wrong with a stored solitaire, found by solving it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolitaireProblem {
    /// The side-to-move byte is neither 1 nor 2, or the position has no disc of either side.
    BadPosition(String),
    /// The empties byte disagrees with the position.
    Empties {
        /// The stored byte.
        stored: u8,
        /// The position's empty squares.
        actual: u32,
    },
    /// The position has more empty squares than a check solves (a damaged record: Cassio's
    /// solitaires have at most a few dozen).
    TooDeep(u32),
    /// The position has no unique saving move: it is no solitaire.
    NotUnique,
    /// The stored first move is not the unique one.
    Move {
        /// The stored move byte.
        stored: u8,
        /// The unique saving move.
        solution: Square,
    },
    /// The stored score is not the perfect-play score.
    Score {
        /// The stored score.
        stored: i8,
        /// The perfect-play score.
        solution: i32,
    },
}

impl SolitaireProblem {
    /// The stable diagnostic code: `wthor.solitaire_position`, `wthor.solitaire_empties`,
    /// `wthor.solitaire_too_deep`, `wthor.solitaire_not_unique`, `wthor.solitaire_move`,
    /// `wthor.solitaire_score`.
    pub fn code(&self) -> &'static str {
        match self {
            SolitaireProblem::BadPosition(_) => "wthor.solitaire_position",
            SolitaireProblem::Empties { .. } => "wthor.solitaire_empties",
            SolitaireProblem::TooDeep(_) => "wthor.solitaire_too_deep",
            SolitaireProblem::NotUnique => "wthor.solitaire_not_unique",
            SolitaireProblem::Move { .. } => "wthor.solitaire_move",
            SolitaireProblem::Score { .. } => "wthor.solitaire_score",
        }
    }
}

impl std::fmt::Display for SolitaireProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolitaireProblem::BadPosition(what) => write!(f, "position: {what}"),
            SolitaireProblem::Empties { stored, actual } => {
                write!(f, "{stored} empties stored but the position has {actual}")
            }
            SolitaireProblem::TooDeep(empties) => write!(
                f,
                "{empties} empties: deeper than a check solves ({SOLITAIRE_MAX_EMPTIES}); the record looks damaged"
            ),
            SolitaireProblem::NotUnique => {
                f.write_str("not a solitaire: the side to move loses, or has no or several saving moves")
            }
            SolitaireProblem::Move { stored, solution } => {
                write!(
                    f,
                    "first move {stored} stored but the only saving move is {solution} ({})",
                    code_of_square(*solution)
                )
            }
            SolitaireProblem::Score { stored, solution } => {
                write!(f, "score {stored:+} stored but perfect play gives {solution:+}")
            }
        }
    }
}

/// The most empty squares a stored solitaire may have to be solved by a check: the FFO's
/// deepest test position has 36, and a solve grows about threefold with each empty square.
pub const SOLITAIRE_MAX_EMPTIES: u32 = 36;

/// Solves a stored solitaire and lists where it disagrees; a record that is impossible (empties
/// that disagree with its board, or too many to solve) is reported without solving.
pub fn check_solitaire(solver: &SolitaireSolver, solitaire: &Solitaire) -> Vec<SolitaireProblem> {
    let (black, white) = solitaire.discs();
    let side = match solitaire.side_to_move {
        1 => Color::Black,
        2 => Color::White,
        other => return vec![SolitaireProblem::BadPosition(format!("side to move {other} (1 Black, 2 White)"))],
    };
    let Some(position) = Position::from_discs(black, white, side) else {
        return vec![SolitaireProblem::BadPosition("overlapping discs".into())];
    };
    // A record whose board disagrees with its own count of empties is damaged (a zeroed board
    // still labelled 14 empties has 60): solving it would answer nothing and could take hours.
    if position.board.empties() != u32::from(solitaire.empties) {
        return vec![SolitaireProblem::Empties { stored: solitaire.empties, actual: position.board.empties() }];
    }
    if position.board.empties() > SOLITAIRE_MAX_EMPTIES {
        return vec![SolitaireProblem::TooDeep(position.board.empties())];
    }
    let mut problems = Vec::new();
    match solver.unique_move(position.board) {
        None => problems.push(SolitaireProblem::NotUnique),
        Some(unique) => {
            if code_of_square(unique.square) != solitaire.best_move {
                problems.push(SolitaireProblem::Move { stored: solitaire.best_move, solution: unique.square });
            }
            if i32::from(solitaire.score) != unique.score {
                problems.push(SolitaireProblem::Score { stored: solitaire.score, solution: unique.score });
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::obf;

    fn board(line: &str) -> Board {
        obf::parse_line(line, 1).unwrap().position.board
    }

    #[test]
    fn ffo_positions_with_one_saving_move() {
        let solver = SolitaireSolver::new(1).unwrap();
        // FFO #1: g8 wins by 18, but h1, h7, a2 and a3 win too.
        assert_eq!(
            solver.unique_move(board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")),
            None
        );
        // FFO #3: d1 +2 is the only win (g3 draws; the rest lose).
        let unique = solver.unique_move(board("----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X"));
        assert_eq!(unique, Some(UniqueMove { square: "d1".parse().unwrap(), score: 2 }));
        // FFO #12: White loses by 8 at best: no solitaire.
        assert_eq!(
            solver.unique_move(board("--O--O--X-OOOOX-XXOOOXOOXXOXOXOOXXOXXOOOXXXXOOOO--OXXX---XXXXX-- O")),
            None
        );
    }

    #[test]
    fn checks_stored_solitaires() {
        let solver = SolitaireSolver::new(1).unwrap();
        let position =
            obf::parse_line("----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X", 1).unwrap().position;
        let mut solitaire = Solitaire { empties: 14, side_to_move: 1, score: 2, best_move: 14, ..Solitaire::default() };
        solitaire.set_discs(position.black(), position.white());
        assert_eq!(check_solitaire(&solver, &solitaire), []);
        let wrong = Solitaire { score: 4, best_move: 73, ..solitaire };
        let problems = check_solitaire(&solver, &wrong);
        assert_eq!(
            problems,
            [
                SolitaireProblem::Move { stored: 73, solution: "d1".parse().unwrap() },
                SolitaireProblem::Score { stored: 4, solution: 2 },
            ]
        );
        let codes: Vec<&str> = problems.iter().map(SolitaireProblem::code).collect();
        assert_eq!(codes, ["wthor.solitaire_move", "wthor.solitaire_score"]);
        // The record's own count disagrees with its board: damaged, and not solved.
        let miscounted = Solitaire { empties: 13, ..wrong };
        assert_eq!(check_solitaire(&solver, &miscounted), [SolitaireProblem::Empties { stored: 13, actual: 14 }]);
        // A zeroed board but four discs, labelled as such: refused, not solved for hours.
        let start = Position::from_discs(0x0000_0008_1000_0000, 0x0000_0010_0800_0000, Color::Black).unwrap();
        let mut zeroed = Solitaire { empties: 60, ..solitaire };
        zeroed.set_discs(start.black(), start.white());
        assert_eq!(check_solitaire(&solver, &zeroed), [SolitaireProblem::TooDeep(60)]);
    }
}
