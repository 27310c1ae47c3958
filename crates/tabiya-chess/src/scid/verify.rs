//! Integrity checks.
