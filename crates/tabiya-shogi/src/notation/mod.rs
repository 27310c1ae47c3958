//! Shogi notations: SFEN positions, the Japanese move notation (T-BASE, KI2, KIF moves), and the
//! KIF, KI2 and CSA game records.

pub mod japanese;
pub mod sfen;
