//! The explorer's position tree: every position of every game, each with the moves played from
//! it and, per move, the games, wins/draws/losses from the mover's view, the mover's and the
//! opponent's ratings (sum and count: average, performance), the first and last year, and the
//! best-rated games, which refer to a table of the games (players, ratings, result, date,
//! event, site, source file and number).
//!
//! * **Key**: the position itself, normalised and packed ([`PositionKey`], 26 bytes): exact,
//!   so no two positions share counts (Polyglot's 64-bit Zobrist keys collide in large
//!   collections), and a key gives its position back (FEN, books, the explorer's board).
//! * **Mergeable**: counts add up in any grouping, game numbers follow the input order, ties
//!   among the best-rated games go to the lower number: [`merge_trees`] of the trees of A and
//!   B is byte for byte the tree of A then B.
//! * **Bounded memory**: [`TreeBuilder`] spills sorted runs to unnamed temporary files past
//!   [`TreeOptions::memory`] and merges them; [`Tree`] answers from a memory map through a
//!   sparse index, never reading the file whole. The file layout, the counting and the runs
//!   are the game-agnostic [`tabiya_io::tree`]; this module makes the keys, the game records and
//!   the chess answers.
//!
//! ```
//! use tabiya_chess::tree::{self, Tree, TreeOptions};
//!
//! let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/famous-games.pgn");
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("famous.tree");
//! let file = std::fs::File::create(&path)?;
//! let (_, footer, summary) = tree::build(&[pgn.as_ref()], TreeOptions::default(), file)?;
//! assert_eq!((summary.games_added, footer.games), (12, 12));
//!
//! let tree = Tree::open(&path)?;
//! let probe = tree.probe(&tabiya_chess::book::probe_position(None, Some("e4 e5"))?)?;
//! let moves: Vec<(&str, Option<u64>)> = probe.moves.iter().map(|m| (m.san.as_str(), m.wins)).collect();
//! assert_eq!(moves, [("Nf3", Some(3)), ("f4", Some(1))]);
//! assert!(tree.verify().ok);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod key;
mod report;
mod table;

pub use build::{TreeBuilder, TreeOptions, TreeSummary, build, code_move, move_code};
pub use key::{KEY_BYTES, KeyError, PositionKey};
pub use report::{FORMAT, Tree, codes, merge_trees};
pub use tabiya_io::tree::{Footer, MAGIC, TOP_GAMES, TopGame, TreeError, TreeMove, TreeSource};
pub use table::GameRef;

/// The number that marks a tree's keys as chess positions ([`tabiya_io::tree::TreeFile::open`]).
pub const GAME: u8 = 1;
