//! The small coded values of a SCID index entry: dates, ECO codes, count codes, results,
//! rating types and flags (spec sections 3.1–3.5).

use crate::game::GameResult;

/// SCID's 20-bit date: `year << 9 | month << 5 | day`, 0 for unknown parts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(pub u32);

impl Date {
    /// Unknown (`????.??.??`).
    pub const UNKNOWN: Date = Date(0);

    /// The date `year.month.day` (0 for an unknown part).
    pub fn new(year: u32, month: u32, day: u32) -> Date {
        Date((year & 0x7FF) << 9 | (month & 0xF) << 5 | (day & 0x1F))
    }

    /// The year (0: unknown).
    pub fn year(self) -> u32 {
        (self.0 >> 9) & 0x7FF
    }

    /// The month (0: unknown).
    pub fn month(self) -> u32 {
        (self.0 >> 5) & 0xF
    }

    /// The day (0: unknown).
    pub fn day(self) -> u32 {
        self.0 & 0x1F
    }

    /// PGN form, `????.??.??` for unknown parts (SCID's `date_DecodeToString`).
    pub fn to_pgn(self) -> String {
        self.pgn_bytes().iter().map(|&b| char::from(b)).collect()
    }

    /// [`Date::to_pgn`] as ASCII bytes, without allocating: `yyyy.mm.dd` (the year has 11 bits).
    pub fn pgn_bytes(self) -> [u8; 10] {
        let mut out = *b"????.??.??";
        for (v, digits) in [(self.year(), 0..4), (self.month(), 5..7), (self.day(), 8..10)] {
            if v != 0 {
                let mut v = v;
                for d in out[digits].iter_mut().rev() {
                    *d = b'0' + (v % 10) as u8;
                    v /= 10;
                }
            }
        }
        out
    }

    /// Parses a PGN date as SCID's `date_EncodeFromString` does: year, then optional month and
    /// day separated by any non-digit; `?` parts are unknown; a year above 2047 or a month above
    /// 12 or a day above 31 makes the whole date unknown.
    pub fn from_pgn(text: &str) -> Date {
        let bytes = text.as_bytes();
        let mut pos = 0;
        let mut parts = [0u32; 3];
        for (i, part) in parts.iter_mut().enumerate() {
            if i > 0 {
                // Skip one separator.
                if pos >= bytes.len() {
                    break;
                }
                pos += 1;
            }
            let mut value = 0u32;
            while let Some(&b) = bytes.get(pos) {
                if !b.is_ascii_digit() {
                    break;
                }
                value = value.saturating_mul(10).saturating_add(u32::from(b - b'0'));
                pos += 1;
            }
            while let Some(&b'?') = bytes.get(pos) {
                pos += 1;
            }
            *part = value;
        }
        let [year, month, day] = parts;
        if year > 2047 || month > 12 || day > 31 {
            return Date::UNKNOWN;
        }
        Date::new(year, month, day)
    }
}

/// ECO code as SCID stores it: 0 = none, else `letter·13100 + number·131 + extension + 1`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Eco(pub u16);

impl Eco {
    /// Parses `A00` … `E99z4`; partial codes are completed as SCID does (`C1` → C10, `C` → C00).
    /// Returns `None` when the text is not an ECO code.
    pub fn parse(text: &str) -> Option<Eco> {
        let b = text.as_bytes();
        let letter = match b.first()? {
            c @ b'A'..=b'E' => u32::from(c - b'A'),
            _ => return None,
        };
        let digit = |i: usize| match b.get(i) {
            Some(c @ b'0'..=b'9') => Some(u32::from(c - b'0')),
            _ => None,
        };
        let tens = digit(1).unwrap_or(0);
        let units = if digit(1).is_some() { digit(2).unwrap_or(0) } else { 0 };
        let mut value = letter * 13100 + tens * 1310 + units * 131 + 1;
        if digit(1).is_some()
            && digit(2).is_some()
            && let Some(x @ b'a'..=b'z') = b.get(3)
        {
            value += 1 + 5 * u32::from(x - b'a');
            if let Some(d @ b'1'..=b'4') = b.get(4) {
                value += u32::from(d - b'0');
            }
        }
        Some(Eco(value as u16))
    }

    /// `B36f`, or `None` for 0.
    pub fn to_text(self) -> Option<String> {
        if self.0 == 0 {
            return None;
        }
        let v = u32::from(self.0) - 1;
        let basic = v / 131;
        let ext = v % 131;
        let letter = char::from(b'A' + (basic / 100).min(25) as u8);
        let mut s = format!("{letter}{:02}", basic % 100);
        if ext > 0 {
            s.push(char::from(b'a' + ((ext - 1) / 5) as u8));
            let d = (ext - 1) % 5;
            if d > 0 {
                s.push(char::from(b'0' + d as u8));
            }
        }
        Some(s)
    }
}

/// Encodes a count into SCID's 4-bit code (0–10 exact, then 15, 20, 30, 40, 50 buckets).
pub fn encode_count(n: usize) -> u8 {
    match n {
        0..=10 => n as u8,
        11..=12 => 10,
        13..=17 => 11,
        18..=24 => 12,
        25..=34 => 13,
        35..=44 => 14,
        _ => 15,
    }
}

/// The count a 4-bit code stands for.
pub fn decode_count(code: u8) -> u32 {
    const TABLE: [u32; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 30, 40, 50];
    TABLE[usize::from(code & 15)]
}

/// SCID's 2-bit result code.
pub fn result_code(result: GameResult) -> u8 {
    match result {
        GameResult::Unknown => 0,
        GameResult::WhiteWins => 1,
        GameResult::BlackWins => 2,
        GameResult::Draw => 3,
    }
}

/// The result an index result code (0–3) names.
pub fn result_from_code(code: u8) -> GameResult {
    match code & 3 {
        1 => GameResult::WhiteWins,
        2 => GameResult::BlackWins,
        3 => GameResult::Draw,
        _ => GameResult::Unknown,
    }
}

/// Rating types in index order: the PGN tag is `White<name>` / `Black<name>`.
pub const RATING_TYPES: [&str; 7] = ["Elo", "Rating", "Rapid", "ICCF", "USCF", "DWZ", "ECF"];

/// The highest rating SCID stores.
pub const MAX_RATING: u16 = 4000;

/// Flag letters for bits 0–15, then the custom flags 1–6 (bits 16–21).
pub const FLAG_LETTERS: &[u8; 22] = b"SXYDWBMENPTKQ!?U123456";

/// Index flag S: the game starts from a position of its own.
pub const FLAG_START: u32 = 1;
/// Index flag X: a pawn promotes.
pub const FLAG_PROMOTION: u32 = 1 << 1;
/// Index flag Y: a pawn under-promotes.
pub const FLAG_UNDERPROMOTION: u32 = 1 << 2;

/// Flags S, X and Y (also the start-board byte of a game record).
pub fn start_flags(custom_start: bool, promotion: bool, underpromotion: bool) -> u32 {
    [(custom_start, FLAG_START), (promotion, FLAG_PROMOTION), (underpromotion, FLAG_UNDERPROMOTION)]
        .iter()
        .filter(|(set, _)| *set)
        .fold(0, |acc, (_, flag)| acc | flag)
}

/// The letters of the set flags, in bit order (`ScidFlags` tag value).
pub fn flags_to_letters(flags: u32) -> String {
    FLAG_LETTERS.iter().enumerate().filter(|(i, _)| flags & (1 << i) != 0).map(|(_, &c)| char::from(c)).collect()
}

/// Flag bits from `ScidFlags` letters (unknown letters are ignored, as SCID does).
pub fn flags_from_letters(text: &str) -> u32 {
    text.bytes().filter_map(|c| FLAG_LETTERS.iter().position(|&l| l == c)).fold(0, |acc, i| acc | 1 << i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eco_arithmetic_matches_the_spec() {
        assert_eq!(Eco::parse("B36f"), Some(Eco(17843)));
        assert_eq!(Eco::parse("A00"), Some(Eco(1)));
        assert_eq!(Eco::parse("E99z4"), Some(Eco(65500)));
        assert_eq!(Eco::parse("C1"), Eco::parse("C10"));
        assert_eq!(Eco::parse("C"), Eco::parse("C00"));
        assert_eq!(Eco(17843).to_text().as_deref(), Some("B36f"));
        assert_eq!(Eco(65500).to_text().as_deref(), Some("E99z4"));
        assert_eq!(Eco(0).to_text(), None);
        assert_eq!(Eco::parse("X12"), None);
    }

    #[test]
    fn count_codes() {
        assert_eq!(encode_count(12), 10);
        assert_eq!(encode_count(13), 11);
        assert_eq!(decode_count(11), 15);
        assert_eq!(encode_count(45), 15);
        assert_eq!(decode_count(15), 50);
    }

    #[test]
    fn dates() {
        assert_eq!(Date(0xFCD93).to_pgn(), "2022.12.19");
        assert_eq!(Date::from_pgn("2022.12.19"), Date(0xFCD93));
        assert_eq!(Date::from_pgn("1972.??.??").to_pgn(), "1972.??.??");
        assert_eq!(Date::from_pgn("????.??.??"), Date(0));
        assert_eq!(Date::from_pgn("2048.01.01"), Date(0));
        assert_eq!(Date::from_pgn("1999.1.2").to_pgn(), "1999.01.02");
    }

    #[test]
    fn flag_letters_round_trip() {
        assert_eq!(flags_to_letters(0b1001), "SD");
        assert_eq!(flags_from_letters("SD"), 0b1001);
        assert_eq!(flags_from_letters("U6"), 1 << 15 | 1 << 21);
    }
}
