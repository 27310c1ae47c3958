//! Chess databases and opening books over shakmaty.
//!
//! [`game`] holds the vocabulary every game format reads into and writes from.

pub mod game;
pub mod kvetka;
