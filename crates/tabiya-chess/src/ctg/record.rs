//! Position records inside data pages (ctg.md 3, 4): key, move block, 33 bytes of statistics.

use crate::book::Outcome;
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// Rated games of one side: how many, and the sum of the ratings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RatingBlock {
    /// Rated games.
    pub count: u32,
    /// Sum of the ratings.
    pub sum: u32,
}

impl RatingBlock {
    /// The rounded average rating, `None` without rated games.
    pub fn average(self) -> Option<u32> {
        (self.count > 0).then(|| ((u64::from(self.sum) + u64::from(self.count) / 2) / u64::from(self.count)) as u32)
    }
}

impl Serialize for RatingBlock {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("RatingBlock", 3)?;
        st.serialize_field("count", &self.count)?;
        st.serialize_field("sum", &self.sum)?;
        st.serialize_field("average", &self.average())?;
        st.end()
    }
}

/// The 33 bytes after the move block. Results count for the side to move of the position
/// (which is the real side to move: normalising swaps the colours, not the roles).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Games of the position.
    pub games: u32,
    /// Wins of the side to move.
    pub wins: u32,
    /// Losses of the side to move.
    pub losses: u32,
    /// Draws.
    pub draws: u32,
    /// Offset 12, meaning unknown (often 10·W + 5·D + 5·unfinished); kept raw.
    pub unknown_12: u32,
    /// Ratings of the side to move's players.
    pub own_ratings: RatingBlock,
    /// Ratings of their opponents.
    pub opponent_ratings: RatingBlock,
    /// 0x80 green (main move), 0x40 red (do not play); other bits unknown.
    pub recommendation: u8,
    /// Offset 31, meaning unknown; kept raw.
    pub unknown_31: u8,
    /// Position evaluation symbol (see [`evaluation_symbol`]).
    pub evaluation: u8,
}

/// Length of the statistics block.
pub const STATS_LEN: usize = 33;

impl Stats {
    /// Reads the 33 bytes of a statistics block.
    pub fn parse(b: &[u8; STATS_LEN]) -> Stats {
        let u24 = |i: usize| u32::from_be_bytes([0, b[i], b[i + 1], b[i + 2]]);
        let u32 = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        Stats {
            games: u24(0),
            wins: u24(3),
            losses: u24(6),
            draws: u24(9),
            unknown_12: u32(12),
            own_ratings: RatingBlock { count: u24(16), sum: u32(19) },
            opponent_ratings: RatingBlock { count: u24(23), sum: u32(26) },
            recommendation: b[30],
            unknown_31: b[31],
            evaluation: b[32],
        }
    }

    /// The bytes of the block; `parse` of them gives `self` back. Counts above 2^24 − 1 are
    /// cut to 24 bits, as the format holds no more.
    pub fn to_bytes(&self) -> [u8; STATS_LEN] {
        let mut b = [0u8; STATS_LEN];
        let mut put24 = |i: usize, v: u32| b[i..i + 3].copy_from_slice(&v.to_be_bytes()[1..]);
        put24(0, self.games);
        put24(3, self.wins);
        put24(6, self.losses);
        put24(9, self.draws);
        put24(16, self.own_ratings.count);
        put24(23, self.opponent_ratings.count);
        b[12..16].copy_from_slice(&self.unknown_12.to_be_bytes());
        b[19..23].copy_from_slice(&self.own_ratings.sum.to_be_bytes());
        b[26..30].copy_from_slice(&self.opponent_ratings.sum.to_be_bytes());
        b[30] = self.recommendation;
        b[31] = self.unknown_31;
        b[32] = self.evaluation;
        b
    }

    /// Green: the book's main move into this position.
    pub fn is_green(&self) -> bool {
        self.recommendation & 0x80 != 0
    }

    /// Red: a move into this position should not be played.
    pub fn is_red(&self) -> bool {
        self.recommendation & 0xc0 == 0x40
    }

    /// The games and W/D/L, as the book model counts them.
    pub fn outcome(&self) -> Outcome {
        Outcome { games: self.games, wins: self.wins, draws: self.draws, losses: self.losses }
    }

    /// The same games seen from the other side: wins and losses and the rating blocks swap.
    pub fn from_opponent(&self) -> Stats {
        Stats {
            wins: self.losses,
            losses: self.wins,
            own_ratings: self.opponent_ratings,
            opponent_ratings: self.own_ratings,
            ..*self
        }
    }
}

/// One stored move: its code and its annotation byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StoredMove {
    /// The move code (ctg.md 10).
    pub code: u8,
    /// The annotation byte (`!`, `?`, …, see [`annotation_symbol`]).
    pub annotation: u8,
}

/// A record as it lies in its page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record<'a> {
    /// Data page number (as the .cto counts: page p lies at file offset (p + 1) × 4096).
    pub page: u32,
    /// File offset of the record's first byte.
    pub offset: u64,
    /// Key bytes, header byte included.
    pub key: &'a [u8],
    /// (code, annotation) pairs, without the length byte.
    pub move_bytes: &'a [u8],
    /// The position's statistics, for its side to move.
    pub stats: Stats,
}

impl Record<'_> {
    /// The stored moves, in the record's order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = StoredMove> + '_ {
        self.move_bytes.chunks_exact(2).map(|p| StoredMove { code: p[0], annotation: p[1] })
    }

    /// Length of the record in bytes.
    pub fn byte_len(&self) -> usize {
        self.key.len() + 1 + self.move_bytes.len() + STATS_LEN
    }
}

/// The move annotation a byte stands for, as PGN-style text (`None` for 0 and unknown bytes).
pub fn annotation_symbol(byte: u8) -> Option<&'static str> {
    Some(match byte {
        0x01 => "!",
        0x02 => "?",
        0x03 => "!!",
        0x04 => "??",
        0x05 => "!?",
        0x06 => "?!",
        0x08 => "□",
        0x16 => "⨀",
        _ => return None,
    })
}

/// The position evaluation a byte stands for, in the notes' words (`None` for 0 and unknown bytes).
pub fn evaluation_symbol(byte: u8) -> Option<&'static str> {
    Some(match byte {
        0x0b => "=",
        0x0d => "unclear",
        0x0e => "=+",
        0x0f => "+=",
        0x10 => "-/+",
        0x11 => "+/-",
        0x13 => "+-",
        0x20 => "development advantage",
        0x24 => "initiative",
        0x28 => "attack",
        0x2c => "compensation",
        0x84 => "counterplay",
        0x8a => "time trouble",
        0x92 => "novelty",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_record_statistics_of_powerplay17() {
        // ctg.md section 11: the 33 bytes of the start-position record.
        let hex = "0001f30000b00000c900007400000942000187000d6400000184000d849d14fd00";
        let bytes: Vec<u8> =
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        let block: [u8; STATS_LEN] = bytes.try_into().unwrap();
        let stats = Stats::parse(&block);
        assert_eq!((stats.games, stats.wins, stats.losses, stats.draws), (499, 176, 201, 116));
        assert_eq!(stats.unknown_12, 2370);
        assert_eq!(stats.own_ratings, RatingBlock { count: 391, sum: 877_568 });
        assert_eq!(stats.own_ratings.average(), Some(2244));
        assert_eq!(stats.opponent_ratings.average(), Some(2283));
        assert_eq!((stats.recommendation, stats.unknown_31, stats.evaluation), (0x14, 0xfd, 0));
        assert_eq!(stats.to_bytes(), block);
        assert!(!stats.is_green() && !stats.is_red());
    }
}
