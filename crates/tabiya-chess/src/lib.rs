#![warn(missing_docs)]

//! Chess databases and opening books over shakmaty.
//!
//! # Two models, many formats
//!
//! **Games.** Every games format reads into and writes from one model, [`game::Game`]: every
//! tag in order, the start position, the moves with their NAGs, comments and variations, the
//! result. The formats are [`pgn`], [`scid`] (SCID 3, 4 and 5 databases) and [`jsonl`] (JSON
//! Lines, one game a line). They know nothing of each other; [`games`] is the layer above them:
//! [`games::open`] and [`games::Source`] read any of them, [`games::Sink`] writes any of them
//! (SCID 3 is read-only), and [`games::info`] / [`games::verify`] describe and check any of them
//! in the shapes of [`tabiya_io::report`]. What reading finds is a [`tabiya_io::Diagnostic`] with
//! a stable code (`pgn.illegal_move`, `scid.name_id`, …): repairs are warnings, losses errors.
//!
//! **Books.** Opening books map positions to moves with weights and statistics: [`polyglot`],
//! [`ctg`] and [`kvetka`], read and written through the [`book`] model; [`boardcode`] is the
//! position and move code CTG and Kvetka share. Books are built from any games source.
//!
//! [`Format`] names every format, tells a file's format from its head, and finds multi-file
//! formats by their stem.
//!
//! # Example
//!
//! Write a SCID 4 database from the sample PGN, then read it back, game by game:
//!
//! ```
//! use tabiya_chess::games::{self, Sink, Source};
//! use tabiya_chess::scid::{DatabaseWriter, Version};
//!
//! let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/famous-games.pgn");
//! let dir = tempfile::tempdir()?;
//! let si4 = dir.path().join("famous.si4");
//!
//! let mut sink = Sink::<std::io::Sink>::scid(DatabaseWriter::create(&si4, Version::Scid4)?);
//! let mut found = Vec::new(); // what reading and writing found: nothing here
//! sink.add_source(&Source::open(pgn.as_ref())?, &mut found, |_| {})?;
//! let written = sink.finish(&mut found)?.written;
//! assert!(found.is_empty());
//!
//! let mut games_read = 0;
//! for game in games::open(&si4)? {
//!     let game = game?;
//!     assert!(game.tag("White").is_some());
//!     games_read += 1;
//! }
//! assert_eq!(games_read, written);
//! assert!(games::verify(&si4, &mut |_, _| {}).ok);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod boardcode;
pub mod book;
pub mod ctg;
mod fast;
mod format;
pub mod game;
pub mod games;
pub mod jsonl;
pub mod kvetka;
mod nibbles;
pub mod openings;
pub mod pgn;
pub mod polyglot;
pub mod scid;
pub mod text;
pub mod tree;
pub mod view;

pub use format::Format;
