//! Index files: the .si4/.si3 header and entries (big-endian) and the .si5 records
//! (little-endian, no header). One [`IndexEntry`] type serves all three versions.

use std::io::Read;

use tabiya_io::{ByteReader, DataError, Diagnostic, Location, until_nul};

use super::fields::{Date, MAX_RATING};
use super::{Version, codes};

/// The first bytes of a .si3/.si4 index.
pub const MAGIC: &[u8; 8] = b"Scid.si\0";
/// Size of the .si4 header.
pub const HEADER_SIZE_SI4: usize = 182;
/// Size of the .si3 header.
pub const HEADER_SIZE_SI3: usize = 128;
/// Size of a .si4 entry.
pub const ENTRY_SIZE_SI4: usize = 47;
/// Size of a .si3 entry.
pub const ENTRY_SIZE_SI3: usize = 46;
/// Size of a .si5 entry.
pub const ENTRY_SIZE_SI5: usize = 56;
/// SCID's limit on the number of games of a SCID 4 database.
pub const MAX_GAMES_SI4: usize = 16_777_214;

/// What the .si3/.si4 header holds; for SCID 5 the same values come from the .sn5 info records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Version number (300, 400).
    pub version: u16,
    /// Database category for SCID's GUI (Scid vs PC's bundled bases carry 16).
    pub base_type: u32,
    /// numGames as stored in the header.
    pub num_games: u32,
    /// Game to open on load, raw: SCID 5 reads 1 as the first game, Scid vs PC stores game + 1.
    pub auto_load: u32,
    /// The database's description (at most 107 bytes in .si4).
    pub description: Vec<u8>,
    /// Names of custom flags 1–6.
    pub flag_names: [Vec<u8>; 6],
}

impl Default for Header {
    fn default() -> Header {
        Header {
            version: 400,
            base_type: 0,
            num_games: 0,
            auto_load: 1,
            description: Vec::new(),
            flag_names: Default::default(),
        }
    }
}

/// One game's index entry, decoded from any of the three versions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IndexEntry {
    /// Record offset in the game file (low [`OFFSET_BITS`] bits: SCID 5 stores 47) and record
    /// length (high 17 bits, < 128 KiB); see [`IndexEntry::offset`] and [`IndexEntry::length`].
    place: u64,
    /// 22 flag bits (S X Y D W B M E N P T K Q ! ? U, custom 1–6), and [`FLAG_CHESS960`] (SCID 5's
    /// Chess960 bit).
    pub flags: u32,
    /// White's player name ID.
    pub white: u32,
    /// Black's player name ID.
    pub black: u32,
    /// Event name ID.
    pub event: u32,
    /// Site name ID.
    pub site: u32,
    /// Round name ID.
    pub round: u32,
    /// Variation, comment and NAG count codes and the result code, 4 bits each (SCID 4's layout).
    codes: u16,
    /// ECO code as SCID packs it (0: none).
    pub eco: u16,
    /// Game date.
    pub date: Date,
    /// Full event date. In .si4 only event years within ±3 of the game year are stored.
    pub event_date: Date,
    /// Elo (12 bits) | rating type << 12 (4 bits), White then Black.
    ratings: [u16; 2],
    /// SCID's stored-line (opening dictionary) code.
    pub stored_line: u8,
    /// Final material signature (24 bits).
    pub material: u32,
    /// Main-line plies (10 bits).
    pub plies: u16,
    /// Number of home-pawn moves recorded.
    pub home_pawn_count: u8,
    /// The home-pawn moves, packed.
    pub home_pawns: [u8; 8],
}

// 255,920 entries of a large database must take no more memory than SCID's own.
const _: () = assert!(size_of::<IndexEntry>() <= 64);

/// Bit of [`IndexEntry::flags`] that marks a Chess960 game (SCID 5 only); never written as a flag.
pub const FLAG_CHESS960: u32 = 1 << 31;
/// Bit of [`IndexEntry::flags`] that marks a game deleted (kept until the database is compacted).
pub const FLAG_DELETED: u32 = 1 << 3;
/// Width of a record offset (.si5 stores 47 bits, .si4 32).
const OFFSET_BITS: u32 = 47;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;

impl IndexEntry {
    /// A Chess960 game (SCID 5 only).
    pub fn chess960(&self) -> bool {
        self.flags & FLAG_CHESS960 != 0
    }

    /// A game marked deleted.
    pub fn deleted(&self) -> bool {
        self.flags & FLAG_DELETED != 0
    }

    /// Offset of the game record in the game file.
    pub fn offset(&self) -> u64 {
        self.place & OFFSET_MASK
    }

    /// Record length in bytes (< 128 KiB).
    pub fn length(&self) -> u32 {
        (self.place >> OFFSET_BITS) as u32
    }

    /// Sets the offset (kept to 47 bits, what SCID 5 stores).
    pub fn set_offset(&mut self, offset: u64) {
        self.place = self.place & !OFFSET_MASK | offset & OFFSET_MASK;
    }

    /// Sets the length (kept to 17 bits, what SCID 4 and 5 store).
    pub fn set_length(&mut self, length: u32) {
        self.place = self.place & OFFSET_MASK | u64::from(length) << OFFSET_BITS;
    }

    fn code(&self, shift: u32) -> u8 {
        (self.codes >> shift & 15) as u8
    }

    fn set_code(&mut self, shift: u32, code: u8) {
        self.codes = self.codes & !(15 << shift) | u16::from(code & 15) << shift;
    }

    /// 4-bit count codes (see [`super::fields::decode_count`]).
    pub fn variation_code(&self) -> u8 {
        self.code(0)
    }

    /// 4-bit comment count code.
    pub fn comment_code(&self) -> u8 {
        self.code(4)
    }

    /// 4-bit NAG count code.
    pub fn nag_code(&self) -> u8 {
        self.code(8)
    }

    /// Result code 0–3 (`*`, 1-0, 0-1, ½-½); .si4 has 4 bits, values above 3 are kept raw.
    pub fn result(&self) -> u8 {
        self.code(12)
    }

    /// Sets the variation count code.
    pub fn set_variation_code(&mut self, code: u8) {
        self.set_code(0, code);
    }

    /// Sets the comment count code.
    pub fn set_comment_code(&mut self, code: u8) {
        self.set_code(4, code);
    }

    /// Sets the NAG count code.
    pub fn set_nag_code(&mut self, code: u8) {
        self.set_code(8, code);
    }

    /// Sets the result code (0–3).
    pub fn set_result(&mut self, code: u8) {
        self.set_code(12, code);
    }

    /// Elo (12 bits, raw) of White (`side` 0) or Black (`side` 1).
    fn elo(&self, side: usize) -> u16 {
        self.ratings[side] & 0xFFF
    }

    /// White's Elo (12 bits, raw).
    pub fn white_elo(&self) -> u16 {
        self.elo(0)
    }

    /// Black's Elo (12 bits, raw).
    pub fn black_elo(&self) -> u16 {
        self.elo(1)
    }

    /// Rating type (index into SCID's rating type names; 4 bits in .si4, 3 in .si5).
    pub fn white_rating_type(&self) -> u8 {
        (self.ratings[0] >> 12) as u8
    }

    /// Black's rating type.
    pub fn black_rating_type(&self) -> u8 {
        (self.ratings[1] >> 12) as u8
    }

    /// Sets White's (`black` false) or Black's rating: Elo kept to 12 bits, type to 4.
    pub fn set_rating(&mut self, black: bool, elo: u16, rating_type: u8) {
        self.ratings[usize::from(black)] = elo & 0xFFF | u16::from(rating_type & 15) << 12;
    }

    /// Bytes of an entry in `version`'s index.
    pub fn entry_size(version: Version) -> usize {
        match version {
            Version::Scid3 => ENTRY_SIZE_SI3,
            Version::Scid4 => ENTRY_SIZE_SI4,
            Version::Scid5 => ENTRY_SIZE_SI5,
        }
    }

    /// Decodes a .si3 or .si4 entry (big-endian).
    pub fn read_si4(r: &mut ByteReader, version: Version) -> Result<IndexEntry, DataError> {
        let raw = r.bytes(IndexEntry::entry_size(version), "index entry")?;
        Ok(IndexEntry::from_si4_bytes(raw, version))
    }

    /// Decodes the bytes of one .si3/.si4 entry; `raw` holds exactly one entry of `version`.
    fn from_si4_bytes(raw: &[u8], version: Version) -> IndexEntry {
        // A .si3 entry is a .si4 entry without the length/custom-flags byte at offset 6.
        let mut b = [0u8; ENTRY_SIZE_SI4];
        match version {
            Version::Scid3 => {
                b[..6].copy_from_slice(&raw[..6]);
                b[7..].copy_from_slice(&raw[6..ENTRY_SIZE_SI3]);
            }
            _ => b.copy_from_slice(&raw[..ENTRY_SIZE_SI4]),
        }
        let u16_at = |i: usize| u16::from_be_bytes([b[i], b[i + 1]]);
        let u32_at = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let (len_flags, wb, esr) = (u32::from(b[6]), u32::from(b[9]), u32::from(b[14]));
        let counts = u16_at(21);
        let dates = u32_at(25);
        let date = Date(dates & 0xFFFFF);
        let mat = u32_at(33);
        IndexEntry {
            place: u64::from(u32_at(0)) | u64::from((len_flags & 0x80) << 9 | u32::from(u16_at(4))) << OFFSET_BITS,
            flags: (len_flags & 0x3F) << 16 | u32::from(u16_at(7)),
            white: (wb & 0xF0) << 12 | u32::from(u16_at(10)),
            black: (wb & 0x0F) << 16 | u32::from(u16_at(12)),
            event: (esr & 0xE0) << 11 | u32::from(u16_at(15)),
            site: (esr & 0x1C) << 14 | u32::from(u16_at(17)),
            round: (esr & 0x03) << 16 | u32::from(u16_at(19)),
            codes: counts,
            eco: u16_at(23),
            date,
            event_date: expand_event_date(dates >> 20, date),
            ratings: [u16_at(29), u16_at(31)],
            stored_line: (mat >> 24) as u8,
            material: mat & 0xFF_FFFF,
            plies: u16::from(b[38] & 0xC0) << 2 | u16::from(b[37]),
            home_pawn_count: b[38] & 0x3F,
            home_pawns: [b[39], b[40], b[41], b[42], b[43], b[44], b[45], b[46]],
        }
    }

    /// Encodes a .si4 entry as SCID does (the event date is dropped when it does not fit).
    pub fn write_si4(&self, out: &mut Vec<u8>) {
        // Assembled on the stack and appended at once: one capacity check per entry.
        let mut entry = [0u8; ENTRY_SIZE_SI4];
        let mut at = 0;
        let mut put = |bytes: &[u8]| {
            entry[at..at + bytes.len()].copy_from_slice(bytes);
            at += bytes.len();
        };
        let length = self.length();
        put(&(self.offset() as u32).to_be_bytes());
        put(&(length as u16).to_be_bytes());
        put(&[(length >> 9) as u8 & 0x80 | (self.flags >> 16) as u8 & 0x3F]);
        put(&(self.flags as u16).to_be_bytes());
        put(&[((self.white & 0xF_0000) >> 12 | (self.black & 0xF_0000) >> 16) as u8]);
        put(&(self.white as u16).to_be_bytes());
        put(&(self.black as u16).to_be_bytes());
        put(&[((self.event & 0x7_0000) >> 11 | (self.site & 0x7_0000) >> 14 | (self.round & 0x3_0000) >> 16) as u8]);
        put(&(self.event as u16).to_be_bytes());
        put(&(self.site as u16).to_be_bytes());
        put(&(self.round as u16).to_be_bytes());
        put(&self.codes.to_be_bytes());
        put(&self.eco.to_be_bytes());
        let dates = compact_event_date(self.event_date, self.date) << 20 | (self.date.0 & 0xFFFFF);
        put(&dates.to_be_bytes());
        for rating in self.ratings {
            put(&(rating & 0xF000 | (rating & 0xFFF).min(MAX_RATING)).to_be_bytes());
        }
        put(&(u32::from(self.stored_line) << 24 | self.material & 0xFF_FFFF).to_be_bytes());
        put(&[self.plies as u8, ((self.plies >> 2) & 0xC0) as u8 | self.home_pawn_count & 0x3F]);
        put(&self.home_pawns);
        out.extend_from_slice(&entry);
    }

    /// Decodes a .si5 record (twelve little-endian words and 8 bytes of home-pawn data).
    pub fn read_si5(r: &mut ByteReader) -> Result<IndexEntry, DataError> {
        let raw = r.bytes(ENTRY_SIZE_SI5, "index entry")?;
        Ok(IndexEntry::from_si5_bytes(raw))
    }

    /// Decodes the bytes of one .si5 record; `raw` holds exactly one record.
    fn from_si5_bytes(raw: &[u8]) -> IndexEntry {
        let mut b = [0u8; ENTRY_SIZE_SI5];
        b.copy_from_slice(&raw[..ENTRY_SIZE_SI5]);
        let w: [u32; 12] =
            std::array::from_fn(|i| u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]));
        let hp = w[11] >> 16;
        let mut e = IndexEntry {
            white: w[0] & 0x0FFF_FFFF,
            black: w[1] & 0x0FFF_FFFF,
            event: w[2] & 0x0FFF_FFFF,
            site: w[3],
            round: w[4] & 0x7FFF_FFFF,
            date: Date(w[5] & 0xFFFFF),
            event_date: Date(w[6] & 0xFFFFF),
            plies: (w[7] >> 22) as u16,
            flags: w[7] & 0x3F_FFFF | w[4] & FLAG_CHESS960,
            place: u64::from(w[8] & 0x7FFF) << 32 | u64::from(w[9]) | u64::from(w[8] >> 15) << OFFSET_BITS,
            stored_line: (w[10] >> 24) as u8,
            material: w[10] & 0xFF_FFFF,
            home_pawn_count: (hp >> 8) as u8,
            eco: w[11] as u16,
            home_pawns: [b[48], b[49], b[50], b[51], b[52], b[53], b[54], b[55]],
            ..IndexEntry::default()
        };
        e.set_comment_code((w[0] >> 28) as u8);
        e.set_variation_code((w[1] >> 28) as u8);
        e.set_nag_code((w[2] >> 28) as u8);
        e.set_result((hp & 3) as u8);
        e.set_rating(false, (w[5] >> 20) as u16, (hp >> 5 & 7) as u8);
        e.set_rating(true, (w[6] >> 20) as u16, (hp >> 2 & 7) as u8);
        e
    }

    /// Encodes a .si5 record as current SCID does (Black rating type shifted by 2).
    pub fn write_si5(&self, out: &mut Vec<u8>) {
        let hp = u32::from(self.home_pawn_count) << 8
            | u32::from(self.white_rating_type() & 7) << 5
            | u32::from(self.black_rating_type() & 7) << 2
            | u32::from(self.result() & 3);
        let words = [
            u32::from(self.comment_code()) << 28 | self.white & 0x0FFF_FFFF,
            u32::from(self.variation_code()) << 28 | self.black & 0x0FFF_FFFF,
            u32::from(self.nag_code()) << 28 | self.event & 0x0FFF_FFFF,
            self.site,
            self.flags & FLAG_CHESS960 | self.round & 0x7FFF_FFFF,
            u32::from(self.white_elo().min(MAX_RATING)) << 20 | self.date.0 & 0xFFFFF,
            u32::from(self.black_elo().min(MAX_RATING)) << 20 | self.event_date.0 & 0xFFFFF,
            u32::from(self.plies & 0x3FF) << 22 | self.flags & 0x3F_FFFF,
            self.length() << 15 | (self.offset() >> 32) as u32 & 0x7FFF,
            self.offset() as u32,
            u32::from(self.stored_line) << 24 | self.material & 0xFF_FFFF,
            hp << 16 | u32::from(self.eco),
        ];
        for w in words {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.home_pawns);
    }
}

/// SCID 4's 12-bit event date → full date (year code 0 = none; year = code + game year − 4).
fn expand_event_date(compact: u32, date: Date) -> Date {
    let code = (compact >> 9) & 7;
    if code == 0 {
        return Date::UNKNOWN;
    }
    let year = (code + date.year()).saturating_sub(4);
    Date::new(year, (compact >> 5) & 15, compact & 31)
}

/// Full event date → SCID 4's 12-bit form; 0 when the year is not within ±3 of the game's.
pub fn compact_event_date(event: Date, date: Date) -> u32 {
    let (eyear, dyear) = (event.year(), date.year());
    if eyear + 3 < dyear || eyear > dyear + 3 {
        return 0;
    }
    ((eyear + 4 - dyear) & 7) << 9 | event.month() << 5 | event.day()
}

/// Whether SCID 4 can store this event date with this game date.
pub fn event_date_fits_si4(event: Date, date: Date) -> bool {
    event == Date::UNKNOWN || expand_event_date(compact_event_date(event, date), date) == event
}

impl Header {
    /// Reads a .si3/.si4 header.
    pub fn read(r: &mut ByteReader) -> Result<Header, DataError> {
        let magic = r.array::<8>("index magic \"Scid.si\\0\"")?;
        if &magic != MAGIC {
            return Err(DataError::new(Location::at(0), "index magic \"Scid.si\\0\"").found(format!("{magic:02x?}")));
        }
        let version = r.u16_be("version")?;
        if !(300..=400).contains(&version) {
            return Err(DataError::new(Location::at(8), "version 300…400").found(version.to_string()));
        }
        let base_type = r.u32_be("base type")?;
        let num_games = r.u24_be("game count")?;
        let auto_load = r.u24_be("auto-load game")?;
        let description = until_nul(&r.bytes(108, "description")?[..107]).to_vec();
        let mut flag_names: [Vec<u8>; 6] = Default::default();
        if version >= 400 {
            for name in &mut flag_names {
                *name = until_nul(&r.bytes(9, "custom flag name")?[..8]).to_vec();
            }
        }
        Ok(Header { version, base_type, num_games, auto_load, description, flag_names })
    }

    /// The 182-byte .si4 header, zero-filled.
    pub fn write_si4(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&400u16.to_be_bytes());
        out.extend_from_slice(&self.base_type.to_be_bytes());
        out.extend_from_slice(&self.num_games.to_be_bytes()[1..]);
        out.extend_from_slice(&self.auto_load.to_be_bytes()[1..]);
        let mut field = |text: &[u8], size: usize| {
            let n = text.len().min(size - 1);
            out.extend_from_slice(&text[..n]);
            out.resize(out.len() + size - n, 0);
        };
        field(&self.description, 108);
        for name in &self.flag_names {
            field(name, 9);
        }
    }
}

/// A parsed index file.
#[derive(Debug, Clone)]
pub struct Index {
    /// The header (SCID 5: defaults, filled from the name file).
    pub header: Header,
    /// The entries in game order.
    pub entries: Vec<IndexEntry>,
}

impl Index {
    /// Parses a whole index file of `version`; deviations go to `warnings`.
    pub fn read(data: &[u8], version: Version, diagnostics: &mut Vec<Diagnostic>) -> Result<Index, DataError> {
        Index::read_from(&mut &data[..], data.len() as u64, version, diagnostics)
    }

    /// Parses an index of `size` bytes from a stream, a few thousand entries at a time, so that
    /// opening a large database holds only the decoded entries in memory.
    pub fn read_from(
        input: &mut impl Read,
        size: u64,
        version: Version,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<Index, DataError> {
        let read_error = |offset: u64, e: std::io::Error| {
            DataError::new(Location::at(offset), "readable bytes").found(e.to_string())
        };
        let (header, header_size) = match version {
            Version::Scid5 => (Header::default(), 0),
            _ => {
                let size_wanted = if version == Version::Scid3 { HEADER_SIZE_SI3 } else { HEADER_SIZE_SI4 };
                let mut bytes = vec![0; size_wanted.min(size as usize)];
                input.read_exact(&mut bytes).map_err(|e| read_error(0, e))?;
                let h = Header::read(&mut ByteReader::new(&bytes))?;
                let expected = if version == Version::Scid3 { 300 } else { 400 };
                if h.version != expected {
                    return Err(
                        DataError::new(Location::at(8), format!("version {expected}")).found(h.version.to_string())
                    );
                }
                (h, size_wanted as u64)
            }
        };
        let entry_size = IndexEntry::entry_size(version) as u64;
        let body = size - header_size.min(size);
        let present = body / entry_size;
        if !body.is_multiple_of(entry_size) {
            let what = format!("a whole number of {entry_size}-byte entries");
            if version == Version::Scid5 {
                return Err(DataError::new(Location::at(0), what).found(format!("{size} bytes")));
            }
            diagnostics.push(Diagnostic::warning(
                codes::INDEX_TRAILING_BYTES,
                Location::at(header_size + present * entry_size),
                format!("{} trailing bytes after the last entry", body % entry_size),
            ));
        }
        let count = match version {
            Version::Scid5 => present,
            _ => {
                let declared = u64::from(header.num_games);
                if present > declared {
                    return Err(DataError::new(
                        Location::at(14),
                        format!("game count ≥ {present} entries in the file"),
                    )
                    .found(declared.to_string()));
                }
                // A file cut short (or a header claiming games never written): games lost.
                if present < declared {
                    diagnostics.push(Diagnostic::error(
                        codes::INDEX_GAME_COUNT,
                        Location::at(14),
                        format!("header counts {declared} games but the file holds {present} entries"),
                    ));
                }
                present
            }
        } as usize;
        const CHUNK: usize = 4096;
        let entry_size = entry_size as usize;
        let mut entries = Vec::with_capacity(count);
        let mut chunk = vec![0; CHUNK * entry_size];
        for first in (0..count).step_by(CHUNK) {
            let n = CHUNK.min(count - first);
            let base = header_size + (first * entry_size) as u64;
            let bytes = &mut chunk[..n * entry_size];
            input.read_exact(bytes).map_err(|e| read_error(base, e))?;
            entries.extend(bytes.chunks_exact(entry_size).map(|raw| match version {
                Version::Scid5 => IndexEntry::from_si5_bytes(raw),
                _ => IndexEntry::from_si4_bytes(raw, version),
            }));
        }
        let mut header = header;
        if version == Version::Scid5 {
            header.version = 500;
            header.num_games = count as u32;
        }
        Ok(Index { header, entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_game_1_entry_decodes_as_the_spec_says() {
        let bytes: Vec<u8> = [
            "00000000",
            "00a8",
            "00",
            "0000",
            "00",
            "0000",
            "0001",
            "00",
            "0000",
            "0000",
            "0000",
            "3000",
            "45b3",
            "98ffcd93",
            "0944",
            "0973",
            "9c297287",
            "25",
            "09",
            "b5c1d4ae70000000",
        ]
        .concat()
        .as_bytes()
        .chunks(2)
        .map(|h| u8::from_str_radix(std::str::from_utf8(h).unwrap(), 16).unwrap())
        .collect();
        let e = IndexEntry::read_si4(&mut ByteReader::new(&bytes), Version::Scid4).unwrap();
        assert_eq!((e.offset(), e.length(), e.white, e.black), (0, 168, 0, 1));
        assert_eq!((e.result(), e.eco), (3, 17843));
        assert_eq!(e.date.to_pgn(), "2022.12.19");
        assert_eq!(e.event_date.to_pgn(), "2022.12.15");
        assert_eq!((e.white_elo(), e.black_elo()), (2372, 2419));
        assert_eq!((e.stored_line, e.material, e.plies, e.home_pawn_count), (156, 0x297287, 37, 9));
        let mut out = Vec::new();
        e.write_si4(&mut out);
        assert_eq!(out, bytes);
    }

    #[test]
    fn packed_fields_keep_every_stored_bit() {
        // .si5: 47-bit offset, 17-bit length, 3-bit rating types, 2-bit result.
        let mut e = IndexEntry::default();
        e.set_offset((1 << 47) - 1);
        e.set_length((1 << 17) - 1);
        e.set_rating(false, 4000, 7);
        e.set_rating(true, 1, 5);
        e.set_result(3);
        e.set_variation_code(15);
        e.set_nag_code(9);
        let mut si5 = Vec::new();
        e.write_si5(&mut si5);
        assert_eq!(IndexEntry::from_si5_bytes(&si5), e);
        // .si4: raw 12-bit Elo and 4-bit rating types and result are kept as read.
        let mut si4 = vec![0; ENTRY_SIZE_SI4];
        si4[6] = 0x80;
        si4[25] = 0x80;
        si4[21..23].copy_from_slice(&[0xF1, 0x23]);
        si4[29..33].copy_from_slice(&[0xF0, 0x05, 0xAF, 0xA0]);
        let e = IndexEntry::from_si4_bytes(&si4, Version::Scid4);
        assert_eq!(
            (e.length(), e.result(), e.nag_code(), e.comment_code(), e.variation_code()),
            (1 << 16, 15, 1, 2, 3)
        );
        assert_eq!((e.white_rating_type(), e.white_elo(), e.black_rating_type(), e.black_elo()), (15, 5, 10, 4000));
        let mut out = Vec::new();
        e.write_si4(&mut out);
        assert_eq!(out, si4);
    }

    #[test]
    fn event_date_outside_three_years_is_dropped() {
        let date = Date::new(2022, 1, 1);
        assert_eq!(compact_event_date(Date::new(2026, 1, 1), date), 0);
        assert!(!event_date_fits_si4(Date::new(2026, 1, 1), date));
        assert!(event_date_fits_si4(Date::new(2025, 1, 1), date));
    }
}
