//! Which games go into a book by their players' ratings: one rule for every book format.

use crate::text::Text;
use std::borrow::Cow;

/// Minimum ratings a game's players must have (WhiteElo/BlackElo tags; a missing or
/// unreadable rating counts as 0). A threshold of 0 filters nothing, so the default lets
/// every game in. `weak` is `polyglot make-book`'s `-min-elo` (both players at least);
/// Kvetka's header stores all four.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EloFilter {
    /// White's rating.
    pub white: u32,
    /// Black's rating.
    pub black: u32,
    /// The stronger player's rating.
    pub strong: u32,
    /// The weaker player's rating (both players').
    pub weak: u32,
}

impl EloFilter {
    /// Whether players rated `white` and `black` pass.
    pub fn admits(&self, white: u32, black: u32) -> bool {
        white >= self.white && black >= self.black && white.max(black) >= self.strong && white.min(black) >= self.weak
    }

    /// Whether a game with these tags passes.
    pub fn admits_tags<'t>(&self, tag: impl Fn(&str) -> Option<Cow<'t, Text>>) -> bool {
        *self == EloFilter::default() || self.admits(rating(tag("WhiteElo")), rating(tag("BlackElo")))
    }
}

/// A rating tag's value; 0 when missing or not a rating ([`Text::rating`]).
fn rating(value: Option<Cow<'_, Text>>) -> u32 {
    value.and_then(|v| v.rating()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds() {
        let weak = EloFilter { weak: 2500, ..EloFilter::default() };
        assert!(weak.admits(2500, 2600) && !weak.admits(2600, 2499));
        let strong = EloFilter { strong: 2500, ..EloFilter::default() };
        assert!(strong.admits(2600, 0) && !strong.admits(2400, 2499));
        let white = EloFilter { white: 2500, ..EloFilter::default() };
        assert!(white.admits(2500, 0) && !white.admits(0, 2500));
        let tags = |name: &str| (name == "WhiteElo").then_some(Cow::Borrowed(Text::new(" 2550 ")));
        assert!(white.admits_tags(tags) && !weak.admits_tags(tags));
        assert!(EloFilter::default().admits_tags(|_| None));
    }
}
