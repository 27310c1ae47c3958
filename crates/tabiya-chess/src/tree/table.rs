//! The chess tree's game records: each game counted, once, as the top-games lists refer to it
//! (players, ratings, result, date, event, site, its number in its source). A record holds
//! nothing that depends on the games before it, so the tables of two trees join by copying.

use std::borrow::Cow;
use std::io::{self, Read, Write};

use crate::game::GameResult;
use crate::text::Text;
use tabiya_io::tree::{Decoder, write_varint};

/// A game of the table as a probe shows it; texts are the bytes the source gave, decoded for
/// display (`String::from_utf8_lossy`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GameRef {
    /// The game's number in the tree's table, from 0.
    pub id: u64,
    /// The file it was read from, as it was named.
    pub source: String,
    /// Its number in that file, from 1 (every game read counts, also those left out).
    pub number: u64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's rating (0: unknown).
    pub white_elo: u16,
    /// Black's rating (0: unknown).
    pub black_elo: u16,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// The Date tag.
    pub date: String,
    /// The Event tag.
    pub event: String,
    /// The Site tag.
    pub site: String,
}

/// The year of a Date tag (`1998.??.??`): 0 when unknown.
pub fn year(date: Option<&[u8]>) -> u16 {
    let digits = date.and_then(|d| d.get(..4)).filter(|d| d.iter().all(u8::is_ascii_digit));
    digits.map_or(0, |d| d.iter().fold(0, |y, &b| y * 10 + u16::from(b - b'0')))
}

fn result_byte(result: GameResult) -> u8 {
    match result {
        GameResult::WhiteWins => 1,
        GameResult::BlackWins => 2,
        GameResult::Draw => 3,
        GameResult::Unknown => 0,
    }
}

fn result_text(byte: u8) -> &'static str {
    match byte {
        1 => "1-0",
        2 => "0-1",
        3 => "1/2-1/2",
        _ => "*",
    }
}

const TEXT_TAGS: [&str; 5] = ["White", "Black", "Date", "Event", "Site"];

/// Writes one game's record but for its number in its source, which goes before it (a varint):
/// the tags of [`TEXT_TAGS`] as bytes (`tag` gives a tag's value by name: a [`Game`](crate::game::Game)'s, or a
/// walked game's read in place), both `ratings` (White's, Black's: [`rating_16`](crate::text::rating_16) of their tags), the
/// result. Made on a reading thread, before the number is known.
pub fn write_game_details<'t>(
    out: &mut impl Write,
    tag: impl Fn(&str) -> Option<Cow<'t, Text>>,
    ratings: (u16, u16),
    result: GameResult,
) -> io::Result<()> {
    for name in TEXT_TAGS {
        let value = tag(name);
        let value = value.as_deref().map(Text::as_bytes).unwrap_or_default();
        write_varint(out, value.len() as u64)?;
        out.write_all(value)?;
    }
    for rating in [ratings.0, ratings.1] {
        write_varint(out, u64::from(rating))?;
    }
    out.write_all(&[result_byte(result)])
}

/// Reads the game record at the decoder's place.
pub fn read_game(decoder: &mut Decoder<impl Read>, id: u64, source: String) -> io::Result<GameRef> {
    let number = decoder.varint()?;
    let mut texts = Vec::with_capacity(TEXT_TAGS.len());
    for _ in TEXT_TAGS {
        texts.push(String::from_utf8_lossy(&decoder.text()?).into_owned());
    }
    let elo = |d: &mut Decoder<_>| d.varint().map(|e| u16::try_from(e).unwrap_or(0));
    let (white_elo, black_elo) = (elo(decoder)?, elo(decoder)?);
    let result = result_text(decoder.bytes(1)?[0]);
    let [white, black, date, event, site] = <[String; 5]>::try_from(texts).expect("five texts");
    Ok(GameRef { id, source, number, white, black, white_elo, black_elo, result, date, event, site })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(year(Some(b"1998.??.??")), 1998);
        assert_eq!(year(Some(b"????.??.??")), 0);
        assert_eq!(year(Some(b"98")), 0);
    }
}
