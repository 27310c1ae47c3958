//! A solved OBF line as `tabiya solve` prints it: the solution, and whether it agrees with the
//! scores the line lists (FFO test files list the best score and moves).

use serde::Serialize;

use super::{Goal, Solution};
use crate::board::Square;
use crate::text::obf::ObfLine;

/// One solved position, with its JSON (one object a line) and its text line.
#[derive(Debug, Clone, Serialize)]
pub struct Solved {
    /// The line's number in its file; 0 for a position given alone.
    pub line: u64,
    /// The position in OBF (`board side`).
    pub position: String,
    /// Its empty squares.
    pub empties: u32,
    /// `exact` or `wld`.
    pub goal: &'static str,
    /// The score for the side to move (−1, 0, +1 with `wld`).
    pub score: i32,
    /// The best moves found.
    pub best_moves: Vec<String>,
    /// The side to move must pass.
    pub passes: bool,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time.
    pub seconds: f64,
    /// Search speed.
    pub nodes_per_second: f64,
    /// The best score the OBF line lists, when it lists any.
    pub listed_score: Option<i32>,
    /// Whether the solution agrees with the listed best score and moves.
    pub agrees: Option<bool>,
}

impl Solved {
    /// The record of `solution` for OBF line `number`, checked against the line's list: the
    /// same best score (its sign with [`Goal::WinDrawLoss`]) and, for exact scores, best moves
    /// among the listed best.
    pub fn new(number: u64, line: &ObfLine, solution: &Solution, goal: Goal) -> Solved {
        let seconds = solution.elapsed.as_secs_f64();
        let listed = line.best_listed();
        let agrees = listed.as_ref().map(|(score, moves)| {
            let same_score = match goal {
                Goal::Exact => solution.score == *score,
                Goal::WinDrawLoss => solution.score == score.signum(),
            };
            same_score && (goal == Goal::WinDrawLoss || solution.best_moves.iter().all(|m| moves.contains(m)))
        });
        Solved {
            line: number,
            position: line.position.to_string(),
            empties: line.position.board.empties(),
            goal: match goal {
                Goal::Exact => "exact",
                Goal::WinDrawLoss => "wld",
            },
            score: solution.score,
            best_moves: solution.best_moves.iter().map(Square::to_string).collect(),
            passes: solution.passes,
            nodes: solution.nodes,
            seconds,
            nodes_per_second: solution.nodes as f64 / seconds.max(1e-9),
            listed_score: listed.map(|(score, _)| score),
            agrees,
        }
    }

    /// The text line: `line N: POSITION empties E score S best MOVES nodes … (agrees …)`.
    pub fn text(&self) -> String {
        let moves = if self.passes {
            "pass".to_owned()
        } else if self.best_moves.is_empty() {
            "game over".to_owned()
        } else {
            self.best_moves.join(",")
        };
        let score = match (self.goal, self.score) {
            ("wld", 1) => "win".to_owned(),
            ("wld", 0) => "draw".to_owned(),
            ("wld", _) => "loss".to_owned(),
            (_, score) => format!("{score:+}"),
        };
        let check = match self.agrees {
            Some(true) => "  (agrees with the listed score)".to_owned(),
            Some(false) => format!("  DISAGREES with the listed best score {:+}", self.listed_score.unwrap_or(0)),
            None => String::new(),
        };
        let label = if self.line == 0 { String::new() } else { format!("line {}: ", self.line) };
        format!(
            "{label}{} empties {} score {score} best {moves} nodes {} time {:.3} s {:.1} M nodes/s{check}",
            self.position,
            self.empties,
            self.nodes,
            self.seconds,
            self.nodes_per_second / 1e6
        )
    }
}
