//! One position of a book: the element of spec 3.3, its parsing and its bytes.

use tabiya_io::varint::write_compact_int;
use tabiya_io::{ByteReader, DataError, Diagnostic, DiagnosticSink, Location};

use super::conventions::{MAX_ELEMENT_SIZE, ReadOptions};
use super::text::{Decoded, read_unicode, unicode_size, write_unicode};
use super::{Key, SourceRef};

/// flags bit 0: a comment follows.
pub const FLAG_COMMENT: u8 = 0x01;
/// flags bit 1: links to the games whose last stored position this is.
pub const FLAG_GAME_LINKS: u8 = 0x02;
/// flags bit 2: one link to a game containing the position.
pub const FLAG_SOME_SOURCE: u8 = 0x04;
/// flags bits 3–7: unknown future data at the end of the element.
pub const FLAGS_FUTURE: u8 = 0xf8;

/// element_type bit 0: elements carry game references.
pub const ELEMENT_TYPE_REFERENCES: u8 = 0x01;

/// The game links of an element: parsed, or the raw bytes when they are not a CompactInt
/// count followed by exactly that many 6-byte references (kept and written back).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameLinks {
    /// References read.
    Parsed(Vec<SourceRef>),
    /// Bytes kept as read (strict reading did not decode them).
    Raw(Vec<u8>),
}

impl Default for GameLinks {
    fn default() -> GameLinks {
        GameLinks::Parsed(Vec::new())
    }
}

/// One position: key, W/D/L of the player to move, move codes and what the flags announce.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Element {
    /// The position.
    pub key: Key,
    /// Wins of the side to move.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses of the side to move.
    pub losses: u32,
    /// Move codes (section 5), in the book's order.
    pub moves: Vec<u8>,
    /// The flags byte as stored; the optional fields below are present exactly when it says so
    /// (and, for references, when the header's element_type bit 0 is set).
    pub flags: u8,
    /// A game that reached the position.
    pub some_source: Option<SourceRef>,
    /// A comment (the opening name, for example).
    pub comment: Option<String>,
    /// Games that ended in the position.
    pub game_links: GameLinks,
    /// Bytes after the known fields: future data (flags bits 3–7) or leftovers, kept raw.
    pub extra: Vec<u8>,
}

/// What reading an element noticed besides errors.
#[derive(Debug, Default)]
pub(crate) struct ElementNotes {
    pub little_endian_comment: bool,
}

impl Element {
    /// An element with statistics and moves only.
    pub fn new(key: Key) -> Element {
        Element { key, ..Element::default() }
    }

    /// Sets or clears the comment and its flag.
    pub fn set_comment(&mut self, comment: Option<String>) {
        self.flags = (self.flags & !FLAG_COMMENT) | if comment.is_some() { FLAG_COMMENT } else { 0 };
        self.comment = comment;
    }

    /// Sets or clears the source reference and its flag.
    pub fn set_some_source(&mut self, source: Option<SourceRef>) {
        self.flags = (self.flags & !FLAG_SOME_SOURCE) | if source.is_some() { FLAG_SOME_SOURCE } else { 0 };
        self.some_source = source;
    }

    /// Sets the game links; an empty list clears flags bit 1.
    pub fn set_game_links(&mut self, links: Vec<SourceRef>) {
        self.flags = (self.flags & !FLAG_GAME_LINKS) | if links.is_empty() { 0 } else { FLAG_GAME_LINKS };
        self.game_links = GameLinks::Parsed(links);
    }

    /// The parsed game links (empty when absent or kept raw).
    pub fn links(&self) -> &[SourceRef] {
        match &self.game_links {
            GameLinks::Parsed(links) => links,
            GameLinks::Raw(_) => &[],
        }
    }

    /// Games counted in the statistics.
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }

    #[inline(always)]
    fn body_size(&self, element_type: u8) -> usize {
        let refs = element_type & ELEMENT_TYPE_REFERENCES != 0;
        let mut size = 22 + compact_size(self.wins) + compact_size(self.draws) + compact_size(self.losses);
        size += 1 + self.moves.len() + 1;
        if refs && self.flags & FLAG_SOME_SOURCE != 0 {
            size += 6;
        }
        if self.flags & FLAG_COMMENT != 0 {
            size += unicode_size(self.comment.as_deref().unwrap_or(""));
        }
        if refs && self.flags & FLAG_GAME_LINKS != 0 {
            size += match &self.game_links {
                GameLinks::Parsed(links) => compact_size(links.len() as u32) + 6 * links.len(),
                GameLinks::Raw(raw) => raw.len(),
            };
        }
        size + self.extra.len()
    }

    /// Bytes of the whole element, length prefix included (what the 682-byte limit counts).
    pub fn encoded_size(&self, element_type: u8) -> usize {
        let body = self.body_size(element_type);
        compact_size(body as u32) + body
    }

    /// Appends the element, length prefix first.
    // Inlined into the writers' loops (a book build calls it once per position).
    #[inline(always)]
    pub fn encode(&self, element_type: u8, out: &mut Vec<u8>) {
        let refs = element_type & ELEMENT_TYPE_REFERENCES != 0;
        let body = self.body_size(element_type);
        out.reserve(compact_size(body as u32) + body);
        write_compact_int(out, body as u32);
        out.extend_from_slice(&self.key.0);
        for value in [self.wins, self.draws, self.losses] {
            write_compact_int(out, value);
        }
        out.push(self.moves.len() as u8);
        // Byte by byte: a position has a few moves, fewer than a call to copy them costs.
        out.extend(self.moves.iter().copied());
        out.push(self.flags);
        if refs && self.flags & FLAG_SOME_SOURCE != 0 {
            self.some_source.unwrap_or_default().encode(out);
        }
        if self.flags & FLAG_COMMENT != 0 {
            write_unicode(out, self.comment.as_deref().unwrap_or(""));
        }
        if refs && self.flags & FLAG_GAME_LINKS != 0 {
            match &self.game_links {
                GameLinks::Parsed(links) => {
                    write_compact_int(out, links.len() as u32);
                    links.iter().for_each(|l| l.encode(out));
                }
                GameLinks::Raw(raw) => out.extend_from_slice(raw),
            }
        }
        if !self.extra.is_empty() {
            out.extend_from_slice(&self.extra);
        }
    }

    /// Parses one element at the reader's position. Warnings carry offsets in the file.
    pub(crate) fn parse(
        r: &mut ByteReader<'_>,
        element_type: u8,
        options: &ReadOptions,
        warnings: &mut Vec<Diagnostic>,
        notes: &mut ElementNotes,
    ) -> Result<Element, DataError> {
        let start = r.offset();
        let length = compact_int(r, "element length", options, warnings)? as usize;
        if length > r.remaining() {
            return Err(r
                .error(format!("an element of {length} bytes within the block"))
                .found(format!("{} bytes left before the block's end n", r.remaining())));
        }
        let total = (r.offset() - start) as usize + length;
        if total > MAX_ELEMENT_SIZE {
            warnings.warning(
                "kvetka.element_size",
                Location::at(start),
                format!("element of {total} bytes exceeds the {MAX_ELEMENT_SIZE}-byte limit"),
            );
        }
        let mut body = r.sub(length, "element")?;
        let key = Key(body.array("element key")?);
        let wins = compact_int(&mut body, "wins", options, warnings)?;
        let draws = compact_int(&mut body, "draws", options, warnings)?;
        let losses = compact_int(&mut body, "loses", options, warnings)?;
        let move_count = body.u8("move_number")? as usize;
        let moves = body.bytes(move_count, "move codes")?.to_vec();
        let flags = body.u8("flags")?;
        let mut element = Element { key, wins, draws, losses, moves, flags, ..Element::default() };
        let refs = element_type & ELEMENT_TYPE_REFERENCES != 0;
        if refs && flags & FLAG_SOME_SOURCE != 0 {
            element.some_source = Some(SourceRef::parse(&mut body, "some_source")?);
        }
        if flags & FLAG_COMMENT != 0 {
            let (comment, order) = read_unicode(&mut body, "comment", options.string_endian)?;
            notes.little_endian_comment |= order == Decoded::Little;
            element.comment = Some(comment);
        }
        if refs && flags & FLAG_GAME_LINKS != 0 {
            let at = body.offset();
            match parse_links(body.rest(), flags & FLAGS_FUTURE != 0) {
                Some((links, used)) => {
                    if options.strict {
                        compact_int(&mut body.clone(), "game link count", options, warnings)?;
                    }
                    element.game_links = GameLinks::Parsed(links);
                    body.skip(used, "game links")?;
                }
                None => {
                    warnings.warning(
                        "kvetka.game_links",
                        Location::at(at),
                        "game links are not a CompactInt count and 6-byte references; kept raw",
                    );
                    element.game_links = GameLinks::Raw(body.rest().to_vec());
                    body.skip(body.remaining(), "game links")?;
                }
            }
        }
        if !body.is_empty() {
            if flags & FLAGS_FUTURE == 0 {
                warnings.warning(
                    "kvetka.element_tail",
                    Location::at(body.offset()),
                    format!("{} bytes after the element's fields; kept raw", body.remaining()),
                );
            }
            element.extra = body.rest().to_vec();
        }
        Ok(element)
    }
}

/// A CompactInt; in strict mode a form longer than the minimal one (leading `0x80` bytes,
/// which the document allows and tabiya never writes) is reported.
fn compact_int(
    r: &mut ByteReader<'_>,
    what: &str,
    options: &ReadOptions,
    warnings: &mut Vec<Diagnostic>,
) -> Result<u32, DataError> {
    let at = r.offset();
    let value = r.compact_int(what)?;
    let len = (r.offset() - at) as usize;
    if options.strict && len > compact_size(value) {
        warnings.warning(
            "kvetka.compact_int",
            Location::at(at),
            format!("{what} {value} written in {len} bytes, {} would do (a rewrite uses those)", compact_size(value)),
        );
    }
    Ok(value)
}

/// Game links at the start of `bytes`: a count and that many references. Without future data
/// they must use every byte.
fn parse_links(bytes: &[u8], future_data: bool) -> Option<(Vec<SourceRef>, usize)> {
    let (count, used) = tabiya_io::varint::decode_compact_int(bytes).ok()?;
    let end = used.checked_add((count as usize).checked_mul(6)?)?;
    if end > bytes.len() || (!future_data && end != bytes.len()) {
        return None;
    }
    let mut r = ByteReader::new(&bytes[used..end]);
    let links = (0..count).map(|_| SourceRef::parse(&mut r, "game link")).collect::<Result<_, _>>().ok()?;
    Some((links, end))
}

/// Bytes of `value` as a minimal CompactInt.
pub(crate) fn compact_size(value: u32) -> usize {
    match value {
        0..0x80 => 1,
        0x80..0x4000 => 2,
        0x4000..0x20_0000 => 3,
        0x20_0000..0x1000_0000 => 4,
        _ => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(element: &Element, element_type: u8) -> Element {
        let mut bytes = Vec::new();
        element.encode(element_type, &mut bytes);
        assert_eq!(bytes.len(), element.encoded_size(element_type));
        let mut r = ByteReader::new(&bytes);
        let parsed = Element::parse(
            &mut r,
            element_type,
            &ReadOptions::default(),
            &mut Vec::new(),
            &mut ElementNotes::default(),
        )
        .unwrap();
        assert!(r.is_empty());
        let mut again = Vec::new();
        parsed.encode(element_type, &mut again);
        assert_eq!(again, bytes);
        parsed
    }

    #[test]
    fn compact_sizes_match_the_writer() {
        for v in [0, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456, u32::MAX] {
            let mut out = Vec::new();
            write_compact_int(&mut out, v);
            assert_eq!(out.len(), compact_size(v), "{v}");
        }
    }

    #[test]
    fn future_data_and_raw_links_survive() {
        let mut e = Element::new(Key([7; 22]));
        e.wins = 300;
        e.moves = vec![0x11, 0x29];
        e.set_game_links(vec![SourceRef { source: 1, game: 2 }]);
        e.flags |= 0x08;
        e.extra = vec![1, 2, 3, 4, 5];
        let parsed = roundtrip(&e, 1);
        assert_eq!(parsed.extra, [1, 2, 3, 4, 5]);
        assert_eq!(parsed.links(), [SourceRef { source: 1, game: 2 }]);

        let mut raw = Element::new(Key([9; 22]));
        raw.flags = FLAG_GAME_LINKS;
        raw.game_links = GameLinks::Raw(vec![0x03, 0, 0, 0]);
        assert_eq!(roundtrip(&raw, 1).game_links, GameLinks::Raw(vec![0x03, 0, 0, 0]));
    }

    #[test]
    fn reference_flags_without_element_type_leave_fields_out() {
        let mut e = Element::new(Key([1; 22]));
        e.set_some_source(Some(SourceRef { source: 0, game: 5 }));
        let mut bytes = Vec::new();
        e.encode(0, &mut bytes);
        assert_eq!(bytes.len(), 1 + 22 + 3 + 1 + 1);
        let parsed = roundtrip(&e, 0);
        assert_eq!((parsed.flags, parsed.some_source), (FLAG_SOME_SOURCE, None));
    }

    #[test]
    fn an_element_longer_than_its_block_is_an_error_with_offset() {
        let bytes = [0x7f, 0, 0];
        let mut r = ByteReader::with_base(&bytes, 0x81e);
        let err = Element::parse(&mut r, 1, &ReadOptions::default(), &mut Vec::new(), &mut ElementNotes::default())
            .unwrap_err();
        assert_eq!(err.location.offset, Some(0x81f));
        assert!(err.expected.contains("127 bytes"), "{err}");
    }
}
