//! Othello in the explorer: a tree from `tabiya tree` probed on disk, or Wthor game files
//! turned into a tree when they are opened; and for the position on the board, the legal
//! moves and, once few enough squares are empty, every move's exact score from the solver.

use std::path::Path;
use std::sync::Mutex;

use serde::Serialize;
use tabiya_io::report::Probe;
use tabiya_othello::board::{Color, Position, Square};
use tabiya_othello::solve::Solver;
use tabiya_othello::tree::Tree;
use tabiya_othello::tree::build::{SOLVE_EMPTIES, TreeBuilder, TreeOptions};
use tabiya_othello::wthor::{self, GameFile};

use crate::sources::SourceError;

/// An Othello tree, and the file that holds it when it was built from Wthor games at opening
/// (removed with the source).
pub struct OthelloTree {
    tree: Tree,
    _built: Option<tempfile::NamedTempFile>,
    /// Games in the tree.
    pub games: usize,
}

impl OthelloTree {
    /// `path` as an Othello tree, or as a Wthor game file (`.wtb`, its name files beside it)
    /// turned into one; `None` when it is neither.
    pub fn open(path: &Path) -> Result<Option<OthelloTree>, SourceError> {
        if let Ok(tree) = Tree::open(path) {
            let games = tree.info().counts.get("games").and_then(|g| g.as_u64()).unwrap_or(0) as usize;
            return Ok(Some(OthelloTree { tree, _built: None, games }));
        }
        let head = tabiya_io::Head::read(path).map_err(|e| SourceError::Othello(format!("{}: {e}", path.display())))?;
        if tabiya_othello::Format::sniff(&head) != Some(tabiya_othello::Format::WthorGames) {
            return Ok(None);
        }
        let fail = |e: &dyn std::fmt::Display| SourceError::Othello(format!("{}: {e}", path.display()));
        let data = std::fs::read(path).map_err(|e| fail(&e))?;
        let file = GameFile::read(&data, &mut Vec::new()).map_err(|e| fail(&e))?;
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let names = wthor::load_name_files(dir).map_err(|e| fail(&e))?;
        // The explorer solves the board's position itself: the tree keeps no exact scores.
        let options = TreeOptions { solve_empties: 0, ..TreeOptions::default() };
        let mut builder = TreeBuilder::new(options).map_err(|e| fail(&e))?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        builder.add_file(&file, &name, names.as_ref().map(|(p, t)| (p, t))).map_err(|e| fail(&e))?;
        let built = tempfile::NamedTempFile::new().map_err(|e| fail(&e))?;
        let (_, _, summary) = builder.finish(std::io::BufWriter::new(built.as_file())).map_err(|e| fail(&e))?;
        let tree = Tree::open(built.path()).map_err(|e| fail(&e))?;
        Ok(Some(OthelloTree { tree, _built: Some(built), games: summary.games_added as usize }))
    }

    /// The tree's moves for `position`.
    pub fn probe(&self, position: &Position) -> Result<Probe, SourceError> {
        self.tree.probe(position).map_err(|e| SourceError::Othello(e.to_string()))
    }
}

/// The position of an Othello board in the explorer.
#[derive(Debug, Clone, Serialize)]
pub struct OthelloBoard {
    /// The 64 squares a1…h8 (`X` Black, `O` White, `-` empty) and the side to move, as OBF
    /// and `select --fen` write it.
    pub board: String,
    /// `black` or `white`: who moves (or would, once the game is over).
    pub turn: &'static str,
    /// The moves played from the start (`pass` for a pass).
    pub played: Vec<String>,
    /// The legal moves; empty when the side to move must pass or the game is over.
    pub legal: Vec<String>,
    /// True when the side to move has no move but the other has: `pass` is the only move.
    pub must_pass: bool,
    /// Neither side can move.
    pub over: bool,
    /// Black's and White's discs.
    pub discs: [u32; 2],
    /// Empty squares.
    pub empties: u32,
    /// Every legal move's exact score (the mover's final disc difference with best play), best
    /// first, when at most [`SOLVE_EMPTIES`] squares are empty; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<Vec<ExactScore>>,
}

/// A move and its exact score.
#[derive(Debug, Clone, Serialize)]
pub struct ExactScore {
    /// `c3`.
    #[serde(rename = "move")]
    pub square: String,
    /// The mover's final disc difference with best play after it.
    pub score: i32,
}

/// The position after `play` (squares and `pass`, comma-separated) from the start; `Err`
/// names the first move that cannot be played.
pub fn locate(play: Option<&str>) -> Result<(Position, Vec<String>), String> {
    let mut position = Position::start();
    let mut played = Vec::new();
    for token in play.unwrap_or("").split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let token = token.to_ascii_lowercase();
        position = if token == "pass" {
            if position.moves() != 0 || position.is_game_over() {
                return Err(format!(
                    "pass after {}: the side to move has a move, or the game is over",
                    played.join(",")
                ));
            }
            position.pass()
        } else {
            let square: Square = token.parse().map_err(|_| format!("{token}: not a square (a1…h8) or pass"))?;
            position.play(square).map_err(|_| format!("{token}: not a legal move after {}", played.join(",")))?
        };
        played.push(token);
    }
    Ok((position, played))
}

/// The board, its moves and the exact scores of the position after `play`.
pub fn board(play: Option<&str>, solver: &Mutex<Solver>) -> Result<(Position, OthelloBoard), String> {
    let (position, played) = locate(play)?;
    let legal: Vec<Square> = Square::iter(position.moves()).collect();
    let empties = position.board.empties();
    let exact = (empties <= SOLVE_EMPTIES && !legal.is_empty()).then(|| {
        // A solve that panicked leaves the table as good as empty: it is only a cache.
        let solver = solver.lock().unwrap_or_else(|e| e.into_inner());
        let mut scores: Vec<ExactScore> = legal
            .iter()
            .filter_map(|&s| position.play(s).ok().map(|child| (s, child)))
            .map(|(s, child)| ExactScore { square: s.to_string(), score: -solver.solve(child.board).score })
            .collect();
        scores.sort_by_key(|e| std::cmp::Reverse(e.score));
        scores
    });
    let board = OthelloBoard {
        board: position.to_string(),
        turn: if position.side == Color::Black { "black" } else { "white" },
        played,
        legal: legal.iter().map(Square::to_string).collect(),
        must_pass: legal.is_empty() && !position.is_game_over(),
        over: position.is_game_over(),
        discs: [position.black().count_ones(), position.white().count_ones()],
        empties,
        exact,
    };
    Ok((position, board))
}
