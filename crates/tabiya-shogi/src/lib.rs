//! Tsume shogi: positions over shogi_core, the T-BASE database, notations and solution checks.
