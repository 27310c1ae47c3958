//! Othello: the board (8×8 on bitboards, 10×10 for Wthor's `.wtd`), the FFO's Wthor database
//! and the text formats games travel in, and an exact endgame solver.
//!
//! # The model
//!
//! A game is its moves from the standard start, passes implied (a move belongs to the side to
//! move unless that side has no legal move), plus what the file knows of it: players,
//! tournament, year, the real score (Black's discs, empties to the winner) and the
//! theoretical score (perfect play from the position at P3 empties). Every format is an
//! adapter onto that model:
//!
//! * [`wthor`]: `.wtb` (8×8) and `.wtd` (10×10) game records, `.pzz` solitaires, and the name
//!   files `WTHOR.JOU`/`WTHOR.TRN` the records index into. Readers keep every byte, so a file
//!   read and written back is the same file; [`wthor::GameFilter`] selects games by year, name
//!   and program, for an export or for a smaller Wthor file.
//! * [`text`]: transcripts (`f5d6c3…`), GGF games with their tags, OBF positions; their games
//!   read into [`game::Game`], which writes every text format.
//! * [`report`]: `info` and `verify` for every format, as [`tabiya_io::report`] answers; what
//!   readers and checks find is a [`tabiya_io::Diagnostic`] with a stable code
//!   (`wthor.header_count`, `wthor.illegal_move`, `obf.syntax`, …), located by record (Wthor),
//!   line (transcripts, OBF) or game (GGF).
//! * [`solve`]: the exact endgame solver behind theoretical scores, solitaires and `tabiya solve`.
//!
//! # Reading Wthor games
//!
//! ```
//! use tabiya_io::Diagnostic;
//! use tabiya_othello::wthor::{GameFile, Replay};
//!
//! // A header (created 2026-02-16, one game, year 2026, P1 8, P3 24) and one record: indices
//! // 0, scores 0, moves f5 d6 c3 coded 10 · row + column.
//! let mut bytes = vec![20, 26, 2, 16, 1, 0, 0, 0, 0, 0, 0xea, 0x07, 8, 0, 24, 0];
//! bytes.extend_from_slice(&[0; 8]);
//! let mut moves = [0u8; 60];
//! moves[..3].copy_from_slice(&[56, 64, 33]);
//! bytes.extend_from_slice(&moves);
//!
//! let mut found: Vec<Diagnostic> = Vec::new();
//! let file = GameFile::read(&bytes, &mut found)?;
//! assert!(found.is_empty(), "a clean file: {found:?}");
//! assert_eq!((file.header.game_year, file.games.len()), (2026, 1));
//! let replay = Replay::run(&file.games[0].moves, 0).expect("legal moves");
//! let position = replay.position;
//! assert_eq!((position.black().count_ones(), position.white().count_ones()), (5, 2));
//! assert_eq!(file.to_bytes(), bytes, "written back byte for byte");
//! # Ok::<(), tabiya_io::DataError>(())
//! ```
//!
//! # Solving a position
//!
//! ```
//! use tabiya_othello::solve::Solver;
//! use tabiya_othello::text::obf;
//!
//! // Row 1 is `- - O X X X X X`, every other square Black's. Black's only move is b1 (a1
//! // touches no white disc); it takes c1, White has no disc left, and the empty a1 goes to
//! // the winner: 64 to 0.
//! let line = format!("--OXXXXX{} X", "X".repeat(56));
//! let position = obf::parse_line(&line, 1)?.position;
//! let solution = Solver::new().solve(position.board);
//! assert_eq!(solution.score, 64);
//! assert_eq!(solution.best_moves, ["b1".parse()?]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod board;
pub mod eval;
mod format;
pub mod game;
pub mod report;
pub mod solve;
pub mod text;
pub mod tree;
pub mod wthor;

pub use format::Format;
