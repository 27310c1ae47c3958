//! tabiya's local web explorer (`tabiya serve`): a page with a board, and beside it one table
//! per opened source — Polyglot, CTG and Kvetka books probed on disk through
//! [`tabiya_chess::book::BookFile`], games files (PGN, SCID 3/4/5, JSON Lines) counted in memory
//! with their best-rated games, each of which opens in a game viewer — over a JSON API under
//! `/api/` shaped like lichess's opening explorer. Othello trees and Wthor game files get an
//! Othello board (`/othello`, `/api/othello`) with the tree's moves and the solver's exact
//! scores. Everything the page needs is embedded: it works offline.
//!
//! ```no_run
//! use tabiya_explorer::{Explorer, Server};
//!
//! let mut explorer = Explorer::new();
//! explorer.open("book.bin".as_ref())?;
//! let answer = explorer.explore(None, Some("e2e4,c7c5"))?;
//! println!("{} moves in the book", answer.sources[0].moves.len());
//! let server = Server::bind(("127.0.0.1", 0), explorer)?;
//! println!("http://{}/", server.address()?);
//! server.run(4)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod api;
mod assets;
mod explorer;
mod game_view;
mod games_tree;
pub mod http;
mod othello;
mod position;
mod server;
mod sources;

pub use explorer::{Exploration, Explorer, MoveAnswer, Opening, OthelloAnswer, OthelloExploration, SourceAnswer};
pub use game_view::{GameView, LineView, NodeView};
pub use games_tree::{GameCard, Player, TOP_GAMES, TOP_GAMES_PLIES};
pub use othello::{ExactScore, OthelloBoard, OthelloTree};
pub use position::{Located, NamedMove};
pub use server::Server;
pub use sources::{SourceError, SourceSummary};
