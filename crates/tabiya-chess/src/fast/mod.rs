//! The fast chess internals the readers play on, kept private: the position the PGN reader
//! plays each line on ([`position`]), SAN parsing ([`san_text`]) and resolving ([`san`]),
//! legality and king safety without move lists ([`rules`], shared with the SCID decoder), and
//! the PGN tokenizer ([`scan`]). Each is held by differential tests beside it to shakmaty (or
//! to pgn-reader's tokens): the same moves, boards and rights, faster.

pub(crate) mod position;
pub(crate) mod rules;
pub(crate) mod san;
pub(crate) mod san_text;
pub(crate) mod scan;
