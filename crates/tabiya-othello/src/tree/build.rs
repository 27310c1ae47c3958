//! Building an Othello tree from Wthor game files: each game replayed with its forced passes,
//! each move counted for the position it was played from; the exact scores are solved as the
//! tree is written, once per (position, move).

use std::io::{self, Write};
use std::path::PathBuf;

use tabiya_io::tree::{Footer, Outcome, Played, RunBuilder, TreeMove, write_varint};

use super::GAME;
use crate::board::{Color, Position, Square};
use crate::solve::Solver;
use crate::wthor::{Game, GameFile, NameFile, square_of_code};

/// Bytes of a key: Black's discs, White's discs, the side to move.
pub const KEY_BYTES: usize = 17;

/// The key of a position.
pub fn key_of(position: &Position) -> [u8; KEY_BYTES] {
    let mut key = [0; KEY_BYTES];
    key[..8].copy_from_slice(&position.black().to_be_bytes());
    key[8..16].copy_from_slice(&position.white().to_be_bytes());
    key[16] = u8::from(position.side == Color::White);
    key
}

/// The position of a key, when the bytes are one.
pub fn position_of(key: &[u8; KEY_BYTES]) -> Option<Position> {
    let black = u64::from_be_bytes(key[..8].try_into().ok()?);
    let white = u64::from_be_bytes(key[8..16].try_into().ok()?);
    let side = match key[16] {
        0 => Color::Black,
        1 => Color::White,
        _ => return None,
    };
    Position::from_discs(black, white, side)
}

/// What goes into the tree and how much memory and solving building it may take.
#[derive(Debug, Clone)]
pub struct TreeOptions {
    /// Moves at plies `0..max_ply` of each game are counted; `None`: every move.
    pub max_ply: Option<u32>,
    /// Bytes of occurrences held before a run is spilled to disk.
    pub memory: u64,
    /// Where spilled runs and the game table wait (unnamed files).
    pub temp_dir: PathBuf,
    /// Each move of a position with at most this many empty squares gets its exact score.
    pub solve_empties: u32,
}

/// The default of [`TreeOptions::solve_empties`], from the figures of the example
/// `tree_solve_times` (BENCHMARKS.md, "Othello: the tree's exact scores"): on 40 real positions
/// each, every legal move of a position at 14 empties was solved in at most 132 ms of wall time
/// (release build, a machine loaded 13–14 on 2 cores), at 16 in up to 0.83 s and at 18 in up to
/// 3.6 s; the move played alone at 16 took up to 135 ms, at 18 up to 1.1 s. 14 answers well under
/// a second per position with every move solved, which is what the explorer asks.
pub const SOLVE_EMPTIES: u32 = 14;

impl Default for TreeOptions {
    fn default() -> TreeOptions {
        TreeOptions { max_ply: None, memory: 1 << 30, temp_dir: std::env::temp_dir(), solve_empties: SOLVE_EMPTIES }
    }
}

/// What the builder did with the games it was given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TreeSummary {
    /// Games counted into the tree.
    pub games_added: u64,
    /// Games whose moves do not replay (left out).
    pub games_unreadable: u64,
    /// Moves counted.
    pub moves_added: u64,
    /// Runs spilled to disk.
    pub runs: u64,
    /// (position, move) pairs solved.
    pub solved: u64,
    /// What went wrong with the games left out: the first errors met, with where.
    pub problems: Vec<String>,
}

/// Accumulates Wthor games into a tree file.
pub struct TreeBuilder {
    options: TreeOptions,
    runs: RunBuilder<KEY_BYTES>,
    summary: TreeSummary,
}

fn text(out: &mut Vec<u8>, text: &str) {
    let _ = write_varint(out, text.len() as u64);
    out.extend_from_slice(text.as_bytes());
}

/// A name from a name file, `#index` when it cannot be resolved.
fn name_in(names: Option<&NameFile>, index: u16) -> String {
    names.and_then(|n| n.name(usize::from(index))).map_or_else(|| format!("#{index}"), |n| n.into_owned())
}

impl TreeBuilder {
    /// A builder with nothing in it.
    pub fn new(options: TreeOptions) -> io::Result<TreeBuilder> {
        let runs = RunBuilder::new(options.memory, &options.temp_dir)?;
        Ok(TreeBuilder { options, runs, summary: TreeSummary::default() })
    }

    /// Counts the games of a Wthor file, named `name` in the tree, with the players and
    /// tournaments of `names` (WTHOR.JOU, WTHOR.TRN) when known.
    pub fn add_file(&mut self, file: &GameFile, name: &str, names: Option<(&NameFile, &NameFile)>) -> io::Result<()> {
        self.runs.start_source(name);
        let year = file.header.game_year;
        for (i, game) in file.games.iter().enumerate() {
            let number = i as u64 + 1;
            let Some(moves) = self.replay(game) else {
                self.summary.games_unreadable += 1;
                if self.summary.problems.len() < 20 {
                    self.summary.problems.push(format!("{name}: game {number}: a move does not replay"));
                }
                continue;
            };
            let mut record = Vec::with_capacity(64);
            write_varint(&mut record, number)?;
            text(&mut record, &name_in(names.map(|n| n.0), game.black));
            text(&mut record, &name_in(names.map(|n| n.0), game.white));
            text(&mut record, &name_in(names.map(|n| n.1), game.tournament));
            record.extend_from_slice(&[game.real_score, game.theoretical_score]);
            write_varint(&mut record, u64::from(year))?;
            let id = self.runs.add_game(&record)?;
            self.summary.games_added += 1;
            self.summary.moves_added += moves.len() as u64;
            for (position, square) in moves {
                // Wthor's score is Black's discs at the end, empties to the winner: 32 is a draw.
                let black = game.real_score.cmp(&32);
                let mover = if position.side == Color::Black { black } else { black.reverse() };
                let outcome = match mover {
                    std::cmp::Ordering::Greater => Outcome::Won,
                    std::cmp::Ordering::Equal => Outcome::Drawn,
                    std::cmp::Ordering::Less => Outcome::Lost,
                };
                let played = Played {
                    code: u16::from(square.index()),
                    outcome,
                    mover_rating: 0,
                    opponent_rating: 0,
                    year,
                    game: id,
                };
                self.runs.push(key_of(&position), played)?;
            }
        }
        Ok(())
    }

    /// The positions and moves of a game's main line (forced passes put in), up to the ply
    /// limit; `None` when a move does not replay.
    fn replay(&self, game: &Game) -> Option<Vec<(Position, Square)>> {
        let limit = self.options.max_ply.map_or(usize::MAX, |m| m as usize);
        let mut position = Position::start();
        let mut moves = Vec::with_capacity(60);
        for &code in game.stored_moves().iter().take(limit) {
            let square = square_of_code(code)?;
            if position.moves() == 0 {
                position = position.pass();
            }
            let next = position.play(square).ok()?;
            moves.push((position, square));
            position = next;
        }
        Some(moves)
    }

    /// What it did so far.
    pub fn summary(&self) -> &TreeSummary {
        &self.summary
    }

    /// Writes the tree to `out`, solving the moves of every position with at most
    /// `solve_empties` empty squares, and gives `out` back with the footer and what was done.
    pub fn finish<W: Write>(self, out: W) -> io::Result<(W, Footer, TreeSummary)> {
        let mut summary = self.summary;
        summary.runs = self.runs.runs();
        let solver = Solver::new().table_bits(20);
        let empties = self.options.solve_empties;
        let mut solved = 0;
        let (out, footer) = self.runs.finish_with(out, GAME, |key, moves| {
            solved += solve_moves(&solver, key, moves, empties);
        })?;
        summary.solved = solved;
        Ok((out, footer, summary))
    }
}

/// Sets the exact score of each move of the position `key` (from the mover's view) when it has
/// at most `empties` empty squares; how many were solved.
fn solve_moves(solver: &Solver, key: &[u8; KEY_BYTES], moves: &mut [TreeMove], empties: u32) -> u64 {
    let Some(position) = position_of(key).filter(|p| p.board.empties() <= empties) else { return 0 };
    let mut solved = 0;
    for m in moves {
        let square = Square::from_index(m.code as u8);
        if let Some(child) = square.and_then(|s| position.play(s).ok()) {
            let score = solver.solve(child.board).score;
            m.exact = i8::try_from(-score).ok();
            solved += 1;
        }
    }
    solved
}
