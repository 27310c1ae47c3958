//! Chess databases and opening books over shakmaty.
//!
//! [`game`] holds the vocabulary every game format reads into and writes from;
//! [`boardcode`] the position and move code that CTG and Kvetka books share.

pub mod boardcode;
pub mod book;
pub mod ctg;
mod format;
pub mod game;
pub mod games;
pub mod jsonl;
pub mod kvetka;
mod nibbles;
pub mod pgn;
pub mod polyglot;
mod rules;
pub mod scid;
pub mod view;

pub use format::Format;
