//! The filters of `tabiya select`: tags (names, dates, ratings, results, ECO codes, any tag
//! by value or regular expression), plies, and an opening line by move order.
//!
//! Names match as pgn-extract's tag criteria do: the value given is a prefix of the tag's
//! (`Carlsen` matches `Carlsen, Magnus`), here with ASCII letters in any case. Ranges are
//! `LOW..HIGH` with both ends included, either end left open (`2500..`, `..1999`), or one
//! value.

use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use super::{GameFilter, TagView};
use crate::game::{Game, GameResult};
use crate::text::Text;

/// A range of values, both ends included, either open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range<T> {
    /// The lowest value in the range, if bounded below.
    pub low: Option<T>,
    /// The highest value in the range, if bounded above.
    pub high: Option<T>,
}

impl<T> Range<T> {
    /// Reads `LOW..HIGH`, `LOW..`, `..HIGH` or a single value, each end by `parse`.
    pub fn parse(text: &str, parse: impl Fn(&str) -> Result<T, String>) -> Result<Range<T>, String> {
        let end = |s: &str| if s.trim().is_empty() { Ok(None) } else { parse(s.trim()).map(Some) };
        match text.split_once("..") {
            Some((low, high)) => Ok(Range { low: end(low)?, high: end(high)? }),
            None => {
                let (low, high) = (parse(text.trim())?, parse(text.trim())?);
                Ok(Range { low: Some(low), high: Some(high) })
            }
        }
    }
}

impl<T: Ord> Range<T> {
    /// True when `value` lies in the range.
    pub fn contains(&self, value: &T) -> bool {
        self.low.as_ref().is_none_or(|low| value >= low) && self.high.as_ref().is_none_or(|high| value <= high)
    }
}

/// True when `prefix` starts `value`, ASCII letters in any case.
fn starts_with_ignoring_case(value: &str, prefix: &str) -> bool {
    bytes_start_ignoring_case(value.as_bytes(), prefix.as_bytes())
}

/// True when `prefix` starts `value`, ASCII letters in any case. Byte by byte, stopping at the
/// first that differs: most values looked at differ from the prefix at their first byte.
fn bytes_start_ignoring_case(value: &[u8], prefix: &[u8]) -> bool {
    value.len() >= prefix.len() && value.iter().zip(prefix).all(|(v, p)| v.eq_ignore_ascii_case(p))
}

/// Games where any of some tags starts with a value (ASCII letters in any case): `--player`,
/// `--white`, `--black`, `--event`, `--site`.
#[derive(Debug, Clone)]
pub struct TagPrefix {
    tags: &'static [&'static str],
    prefix: String,
    /// The prefix is ASCII: it is matched against the value's bytes, undecoded.
    ascii: bool,
}

impl TagPrefix {
    /// Any of `tags` starts with `prefix`.
    pub fn new(tags: &'static [&'static str], prefix: &str) -> TagPrefix {
        TagPrefix { tags, prefix: prefix.to_owned(), ascii: prefix.is_ascii() }
    }

    /// A player of either colour (`White` or `Black`).
    pub fn player(prefix: &str) -> TagPrefix {
        TagPrefix::new(&["White", "Black"], prefix)
    }
}

impl GameFilter for TagPrefix {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        // An ASCII prefix starts the decoded value exactly when it starts the value's bytes (no
        // byte of a UTF-8 sequence or of a Windows-1252 letter beyond ASCII is ASCII): the
        // bytes are matched without decoding them, the way nearly every name is looked for.
        let starts = |name: &&str| match self.ascii {
            true => tags.tag_bytes(name).is_some_and(|v| bytes_start_ignoring_case(&v, self.prefix.as_bytes())),
            false => tags.tag(name).is_some_and(|v| starts_with_ignoring_case(&v, &self.prefix)),
        };
        self.tags.iter().any(starts)
    }
}

/// Games whose tag has exactly a value (`--tag NAME=VALUE`, `--time-control`).
#[derive(Debug, Clone)]
pub struct TagEquals {
    name: String,
    value: String,
}

impl TagEquals {
    /// Tag `name` is `value`, byte for byte.
    pub fn new(name: &str, value: &str) -> TagEquals {
        TagEquals { name: name.to_owned(), value: value.to_owned() }
    }
}

impl GameFilter for TagEquals {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        tags.tag(&self.name).is_some_and(|v| v == self.value)
    }
}

/// Games whose tag matches a regular expression anywhere in its value (`--tag NAME~REGEX`;
/// anchor it with `^…$` to match the whole value).
#[derive(Debug, Clone)]
pub struct TagRegex {
    name: String,
    regex: regex::Regex,
}

impl TagRegex {
    /// Tag `name` matches `pattern` (Rust `regex` syntax).
    pub fn new(name: &str, pattern: &str) -> Result<TagRegex, String> {
        let regex = regex::Regex::new(pattern).map_err(|e| format!("{pattern}: {e}"))?;
        Ok(TagRegex { name: name.to_owned(), regex })
    }
}

impl GameFilter for TagRegex {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        tags.tag(&self.name).is_some_and(|v| self.regex.is_match(&v))
    }
}

/// Games of a variant (`--variant`): the `Variant` tag, any case; `standard` (or `chess`)
/// also takes the games without the tag.
#[derive(Debug, Clone)]
pub struct VariantIs(String);

impl VariantIs {
    /// Games of `variant`.
    pub fn new(variant: &str) -> VariantIs {
        VariantIs(variant.to_owned())
    }
}

impl GameFilter for VariantIs {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        let standard = |v: &str| v.eq_ignore_ascii_case("standard") || v.eq_ignore_ascii_case("chess");
        match tags.tag("Variant") {
            Some(v) => v.trim().eq_ignore_ascii_case(&self.0) || (standard(&self.0) && standard(v.trim())),
            None => standard(&self.0),
        }
    }
}

/// A PGN date, `YYYY.MM.DD`; an unknown month or day (`??`) is 0, before any known one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PgnDate {
    year: u16,
    month: u8,
    day: u8,
}

impl PgnDate {
    /// The date of a `Date` tag; `None` when its year is unknown.
    pub fn from_tag(value: &str) -> Option<PgnDate> {
        let mut parts = value.trim().split(['.', '-', '/']);
        let year = parts.next()?.parse().ok()?;
        let mut number = || parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
        Some(PgnDate { year, month: number(), day: number() })
    }

    /// The year.
    pub fn year(self) -> u16 {
        self.year
    }

    /// The month, 0 when unknown.
    pub fn month(self) -> u8 {
        self.month
    }
}

/// Games played in a range of dates (`--date 1990..1995.06`): a bound's missing month or day
/// takes in the whole year or month. Games whose year is unknown are left out.
#[derive(Debug, Clone)]
pub struct DateIn(Range<PgnDate>);

impl DateIn {
    /// Reads `--date`'s range: `YYYY[.MM[.DD]]` ends.
    pub fn parse(text: &str) -> Result<DateIn, String> {
        let bound = |s: &str| {
            let parts: Vec<&str> = s.split(['.', '-', '/']).collect();
            let numbers: Result<Vec<u16>, _> = parts.iter().map(|p| p.parse::<u16>()).collect();
            match numbers.as_deref() {
                Ok([year]) => Ok((*year, None, None)),
                Ok([year, month]) if (1..=12).contains(month) => Ok((*year, Some(*month as u8), None)),
                Ok([year, month, day]) if (1..=12).contains(month) && (1..=31).contains(day) => {
                    Ok((*year, Some(*month as u8), Some(*day as u8)))
                }
                _ => Err(format!("{s}: expected a date YYYY, YYYY.MM or YYYY.MM.DD")),
            }
        };
        let range = Range::parse(text, bound)?;
        let low =
            range.low.map(|(year, month, day)| PgnDate { year, month: month.unwrap_or(0), day: day.unwrap_or(0) });
        let high = range.high.map(|(year, month, day)| PgnDate {
            year,
            month: month.unwrap_or(u8::MAX),
            day: day.unwrap_or(u8::MAX),
        });
        Ok(DateIn(Range { low, high }))
    }
}

impl GameFilter for DateIn {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        tags.tag("Date").and_then(|v| PgnDate::from_tag(&v)).is_some_and(|date| self.0.contains(&date))
    }
}

/// A rating range over some tags, each of which must hold a rating in range (`--elo`: both
/// `WhiteElo` and `BlackElo`; `--white-elo`, `--black-elo`). A game without the rating is
/// left out.
#[derive(Debug, Clone)]
pub struct RatingIn {
    tags: &'static [&'static str],
    range: Range<u32>,
}

impl RatingIn {
    /// Every one of `tags` holds a rating in `range` (as `2500..`).
    pub fn parse(tags: &'static [&'static str], range: &str) -> Result<RatingIn, String> {
        let range = Range::parse(range, |s| s.parse().map_err(|_| format!("{s}: expected a rating")))?;
        Ok(RatingIn { tags, range })
    }
}

impl GameFilter for RatingIn {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        self.tags.iter().all(|name| {
            let elo = tags.tag_bytes(name).and_then(|v| Text::new(&v).rating());
            elo.is_some_and(|elo| self.range.contains(&elo))
        })
    }
}

/// Games with one of some results (`--result 1-0`, given again for more).
#[derive(Debug, Clone)]
pub struct ResultIs(pub Vec<GameResult>);

impl ResultIs {
    /// A result as `--result` takes it: `1-0`, `0-1`, `1/2-1/2` (or `1/2`, `draw`), `*`.
    pub fn parse_result(text: &str) -> Result<GameResult, String> {
        match text.trim() {
            "1/2" | "draw" | "½-½" => Ok(GameResult::Draw),
            other => GameResult::from_pgn(other).ok_or_else(|| format!("{other}: expected 1-0, 0-1, 1/2-1/2 or *")),
        }
    }
}

impl GameFilter for ResultIs {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        self.0.contains(&tags.result())
    }
}

/// Games whose `ECO` tag lies in a range of codes (`--eco B20..B99`, `--eco C42`); games
/// without the tag are left out.
#[derive(Debug, Clone)]
pub struct EcoIn(Range<String>);

impl EcoIn {
    /// Reads `--eco`'s range of codes (`A00` to `E99`).
    pub fn parse(text: &str) -> Result<EcoIn, String> {
        Range::parse(text, |s| EcoIn::code(s).ok_or_else(|| format!("{s}: expected an ECO code (A00 to E99)")))
            .map(EcoIn)
    }

    /// The three characters of an ECO code, upper case.
    fn code(text: &str) -> Option<String> {
        let code = text.trim().get(..3)?.to_ascii_uppercase();
        let bytes = code.as_bytes();
        if bytes.len() != 3 {
            return None;
        }
        ((b'A'..=b'E').contains(&bytes[0]) && bytes[1].is_ascii_digit() && bytes[2].is_ascii_digit()).then_some(code)
    }
}

impl GameFilter for EcoIn {
    fn by_tags(&self, tags: &dyn TagView) -> bool {
        tags.tag("ECO").and_then(|v| EcoIn::code(&v)).is_some_and(|code| self.0.contains(&code))
    }
}

/// Games whose main line has a number of plies in a range (`--plies 40..`).
#[derive(Debug, Clone)]
pub struct PliesIn(Range<u32>);

impl PliesIn {
    /// Reads `--plies`'s range.
    pub fn parse(text: &str) -> Result<PliesIn, String> {
        Range::parse(text, |s| s.parse().map_err(|_| format!("{s}: expected a number of plies"))).map(PliesIn)
    }
}

impl GameFilter for PliesIn {
    fn needs_game(&self) -> bool {
        true
    }

    fn by_game(&self, game: &Game) -> bool {
        self.0.contains(&u32::try_from(game.ply_count()).unwrap_or(u32::MAX))
    }
}

/// Games whose main line starts with an opening line, in that move order (`--moves "e4 c5
/// Nf3"`), from the standard start position.
#[derive(Debug, Clone)]
pub struct StartsWith(Vec<Move>);

impl StartsWith {
    /// Reads the line: SAN moves from the start position (move numbers allowed).
    pub fn parse(text: &str) -> Result<StartsWith, String> {
        let mut position = Chess::default();
        let mut moves = Vec::new();
        for token in text.split_whitespace() {
            let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if token.is_empty() {
                continue;
            }
            let san: San = token.parse().map_err(|_| format!("{token}: not a move in SAN"))?;
            let mv = san.to_move(&position).map_err(|_| format!("{token}: not a legal move after {}", moves.len()))?;
            position.play_unchecked(mv);
            moves.push(mv);
        }
        if moves.is_empty() {
            return Err(format!("{text:?}: expected moves, as \"e4 c5 Nf3\""));
        }
        Ok(StartsWith(moves))
    }
}

impl GameFilter for StartsWith {
    fn needs_game(&self) -> bool {
        true
    }

    fn by_game(&self, game: &Game) -> bool {
        game.start.is_none()
            && game.moves.nodes.len() >= self.0.len()
            && game.moves.nodes.iter().zip(&self.0).all(|(node, mv)| node.mv.as_ref() == Some(mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let r = Range::parse("2500..", |s| s.parse::<u32>().map_err(|e| e.to_string())).unwrap();
        assert!(r.contains(&2500) && r.contains(&2900) && !r.contains(&2499));
        let r = Range::parse("..1999", |s| s.parse::<u32>().map_err(|e| e.to_string())).unwrap();
        assert!(r.contains(&0) && r.contains(&1999) && !r.contains(&2000));
        let r = Range::parse("7", |s| s.parse::<u32>().map_err(|e| e.to_string())).unwrap();
        assert!(r.contains(&7) && !r.contains(&8));
        assert!(Range::parse("x..", |s| s.parse::<u32>().map_err(|e| e.to_string())).is_err());
    }

    #[test]
    fn dates_take_in_whole_years_and_months() {
        let d = DateIn::parse("1990..1995.06").unwrap();
        let at = |s: &str| d.0.contains(&PgnDate::from_tag(s).unwrap());
        assert!(at("1990.01.01") && at("1990.??.??") && at("1995.06.30") && at("1995.06.??"));
        assert!(!at("1989.12.31") && !at("1995.07.01"));
        assert!(PgnDate::from_tag("????.??.??").is_none());
        assert!(DateIn::parse("1990.13").is_err());
    }

    #[test]
    fn eco_codes() {
        let e = EcoIn::parse("b20..B99").unwrap();
        assert!(e.0.contains(&"B33".to_owned()) && !e.0.contains(&"C00".to_owned()));
        assert!(EcoIn::parse("Z00").is_err() && EcoIn::parse("B2").is_err());
    }

    #[test]
    fn opening_lines() {
        assert_eq!(StartsWith::parse("1. e4 c5 2. Nf3").unwrap().0.len(), 3);
        assert!(StartsWith::parse("e4 e4").is_err());
    }
}
