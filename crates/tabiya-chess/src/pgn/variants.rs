//! Games of chess variants tabiya does not play (crazyhouse, atomic, antichess, …): a file of
//! them is counted by variant and skipped with one warning, not one error per game.

use std::collections::BTreeMap;
use std::path::Path;

use tabiya_io::{Diagnostic, Location};

use super::{PgnError, codes};

/// The variant games met in one file, by the Variant tag as written.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SkippedVariants {
    games: BTreeMap<String, u64>,
}

impl SkippedVariants {
    /// Counts `error` if it is a game of a variant tabiya does not play, and gives back any
    /// other error.
    pub fn count(&mut self, error: PgnError) -> Option<PgnError> {
        match error {
            PgnError::UnsupportedVariant { variant, .. } => {
                *self.games.entry(variant).or_default() += 1;
                None
            }
            other => Some(other),
        }
    }

    /// Number of variant games counted.
    pub fn total(&self) -> u64 {
        self.games.values().sum()
    }

    /// The games counted by variant, as `info` shows them.
    pub fn by_variant(&self) -> serde_json::Value {
        self.games.iter().map(|(name, &n)| (name.clone(), serde_json::Value::from(n))).collect()
    }

    /// The one warning for the file at `path`, if it held variant games.
    pub fn diagnostic(&self, path: &Path) -> Option<Diagnostic> {
        if self.games.is_empty() {
            return None;
        }
        let list: Vec<String> = self.games.iter().map(|(name, n)| format!("{name} ({n})")).collect();
        let message = format!(
            "{} games skipped, of variants tabiya does not play (standard chess and Chess960 only): {}",
            self.total(),
            list.join(", ")
        );
        Some(Diagnostic::warning(codes::VARIANT_GAMES_SKIPPED, Location::file(path), message))
    }
}
