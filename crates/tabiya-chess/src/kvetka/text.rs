//! Kvetka's two string kinds (spec 2.3): "Unicode" = u32 count of UTF-16 code units + the
//! units; "ANSI" = u32 byte count + Windows-1251 bytes. Lengths are big-endian.

use tabiya_io::{ByteReader, Codepage, DataError};

use super::conventions::StringEndian;

/// Code-unit order actually used for a string that was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decoded {
    Big,
    Little,
}

/// Reads a Unicode string. With [`StringEndian::Auto`] the little-endian reading is taken
/// only when it scores clearly better than the big-endian one.
pub(crate) fn read_unicode(
    r: &mut ByteReader<'_>,
    what: &str,
    endian: StringEndian,
) -> Result<(String, Decoded), DataError> {
    let units = r.u32_be(what)? as usize;
    let bytes = r.bytes(units.saturating_mul(2), what)?;
    let be: Vec<u16> = bytes.chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
    let le = || bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect::<Vec<u16>>();
    let order = match endian {
        StringEndian::Big => Decoded::Big,
        StringEndian::Little => Decoded::Little,
        StringEndian::Auto => {
            let (score_be, score_le) = (plausibility(&be), plausibility(&le()));
            if score_le > score_be + (units as i64 / 4).max(1) { Decoded::Little } else { Decoded::Big }
        }
    };
    let units = if order == Decoded::Big { be } else { le() };
    Ok((String::from_utf16_lossy(&units), order))
}

/// How much a sequence of code units looks like text: letters (Cyrillic included), digits,
/// punctuation, spaces and the `|` of ECO comments score; controls and lone surrogates cost.
fn plausibility(units: &[u16]) -> i64 {
    char::decode_utf16(units.iter().copied())
        .map(|c| match c {
            Err(_) => -4,
            Ok(c) if c.is_control() => -4,
            Ok(c) if c.is_ascii() || ('\u{400}'..='\u{4ff}').contains(&c) => 1,
            Ok(c) if c.is_alphanumeric() && (c as u32) < 0x2000 => 1,
            Ok(_) => 0,
        })
        .sum()
}

/// Number of UTF-16 code units of `text`: what the length field counts.
pub(crate) fn unicode_units(text: &str) -> usize {
    text.encode_utf16().count()
}

/// Size in bytes of `text` written as a Unicode string.
pub(crate) fn unicode_size(text: &str) -> usize {
    4 + 2 * unicode_units(text)
}

/// Appends `text` as a Unicode string (UTF-16BE, no byte-order mark).
pub(crate) fn write_unicode(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(&(unicode_units(text) as u32).to_be_bytes());
    for unit in text.encode_utf16() {
        out.extend_from_slice(&unit.to_be_bytes());
    }
}

/// Reads an ANSI string's raw bytes; every byte is accepted (decode with [`decode_ansi`]).
pub(crate) fn read_ansi<'a>(r: &mut ByteReader<'a>, what: &str) -> Result<&'a [u8], DataError> {
    r.len_prefixed_u32_be(what)
}

pub(crate) fn decode_ansi(raw: &[u8]) -> String {
    Codepage::Windows1251.decode(raw).into_owned()
}

/// Windows-1251 bytes of `text`, and whether they say exactly `text`. Windows-1251 holds
/// Cyrillic and ASCII but few accented Latin letters: a character it lacks is written as its
/// Latin letter without the accent (`ü` → `u`, `ß` → `ss`, `Ł` → `L`), or as `?` when it has
/// none; the caller warns about every name that is not exact.
pub(crate) fn encode_ansi(text: &str) -> (Vec<u8>, bool) {
    if let Ok(bytes) = Codepage::Windows1251.encode(text) {
        return (bytes.into_owned(), true);
    }
    let mut out = Vec::with_capacity(text.len());
    let mut buffer = [0; 4];
    for c in text.chars() {
        match Codepage::Windows1251.encode(c.encode_utf8(&mut buffer)) {
            Ok(bytes) => out.extend_from_slice(&bytes),
            Err(_) => out.extend_from_slice(latin_base(c).as_bytes()),
        }
    }
    (out, false)
}

/// The letters of U+00C0–U+017F without their accents, one per character (`?` where a
/// character needs two letters or is no letter; those are in [`latin_base`]).
const LATIN_BASES: &[u8; 192] = b"AAAAAA?CEEEEIIIIDNOOOOO?OUUUUY??aaaaaa?ceeeeiiiidnooooo?ouuuuy?y\
AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIi??JjKkkLlLlLlL\
lLlNnNnNnnNnOoOoOo??RrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";

/// A Latin letter's unaccented spelling in ASCII (`?` for anything else).
fn latin_base(c: char) -> &'static str {
    match c {
        'Æ' => "AE",
        'æ' => "ae",
        'Þ' => "Th",
        'þ' => "th",
        'ß' => "ss",
        'Ĳ' => "IJ",
        'ĳ' => "ij",
        'Œ' => "OE",
        'œ' => "oe",
        '\u{c0}'..='\u{17f}' => {
            let i = c as usize - 0xc0;
            std::str::from_utf8(&LATIN_BASES[i..=i]).unwrap_or("?")
        }
        _ => "?",
    }
}

pub(crate) fn write_ansi(out: &mut Vec<u8>, raw: &[u8]) {
    out.extend_from_slice(&(raw.len() as u32).to_be_bytes());
    out.extend_from_slice(raw);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_string_is_utf16be_with_unit_count() {
        let mut out = Vec::new();
        write_unicode(&mut out, "Test");
        assert_eq!(out, [0, 0, 0, 4, 0, 0x54, 0, 0x65, 0, 0x73, 0, 0x74]);
        let (text, order) = read_unicode(&mut ByteReader::new(&out), "caption", StringEndian::Auto).unwrap();
        assert_eq!((text.as_str(), order), ("Test", Decoded::Big));
    }

    #[test]
    fn little_endian_strings_are_detected() {
        let mut out = vec![0, 0, 0, 6];
        for unit in "Иванов".encode_utf16() {
            out.extend_from_slice(&unit.to_le_bytes());
        }
        let (text, order) = read_unicode(&mut ByteReader::new(&out), "comment", StringEndian::Auto).unwrap();
        assert_eq!((text.as_str(), order), ("Иванов", Decoded::Little));
        let mut be = Vec::new();
        write_unicode(&mut be, "B20|Sicilian Defence");
        let (text, order) = read_unicode(&mut ByteReader::new(&be), "comment", StringEndian::Auto).unwrap();
        assert_eq!((text.as_str(), order), ("B20|Sicilian Defence", Decoded::Big));
    }

    #[test]
    fn ansi_is_windows_1251_with_accents_taken_off_what_it_cannot_hold() {
        assert_eq!(encode_ansi("Иванов"), (vec![0xc8, 0xe2, 0xe0, 0xed, 0xee, 0xe2], true));
        // The letters as Python's unicodedata.normalize("NFD", c)[0] gives them (Ł, ß, Æ, ø
        // have no decomposition: by hand); Ё and ж are Windows-1251's 0xA8 and 0xE6.
        let (bytes, exact) = encode_ansi("Müller Łukasz Pérez Straße Ærø Ёж 中");
        assert!(!exact);
        let expected = [&b"Muller Lukasz Perez Strasse AEro "[..], &[0xa8, 0xe6], b" ?"].concat();
        assert_eq!(bytes, expected);
        assert_eq!(decode_ansi(&[0xc8, 0x98]), "И\u{98}");
    }
}
