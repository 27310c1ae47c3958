//! Name files: the front-coded, sorted .sn4/.sn3 and the append-only .sn5 (spec sections 4
//! and 8). Names are kept as raw bytes; [`NameBase::text`] shows them.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use tabiya_io::{ByteReader, DataError, Diagnostic, Location};

use super::codes;
use super::index::Header;

/// The first bytes of a .sn4 name file.
pub const MAGIC: &[u8; 8] = b"Scid.sn\0";

/// The four kinds of names, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameType {
    /// Player names.
    Player = 0,
    /// Event names.
    Event = 1,
    /// Site names.
    Site = 2,
    /// Round names.
    Round = 3,
}

impl NameType {
    /// The four kinds, in file order.
    pub const ALL: [NameType; 4] = [NameType::Player, NameType::Event, NameType::Site, NameType::Round];

    /// The kind's name, plural, as `info` counts it (`players`).
    pub fn label(self) -> &'static str {
        ["players", "events", "sites", "rounds"][self as usize]
    }

    /// The largest ID SCID 4 can store for this type, plus one.
    pub fn limit_si4(self) -> usize {
        [1 << 20, 1 << 19, 1 << 19, 1 << 18][self as usize]
    }

    /// The largest ID SCID 5 can store for this type, plus one.
    pub fn limit_si5(self) -> u64 {
        [1 << 28, 1 << 28, 1 << 32, 1 << 31][self as usize]
    }
}

/// Names of one database, indexed by type and ID.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameBase {
    names: [Vec<Vec<u8>>; 4],
    /// The obsolete per-name game counts of a .sn4/.sn3 file, by type and ID (empty for .sn5).
    stored_frequency: [Vec<u32>; 4],
}

impl NameBase {
    /// Number of names of `kind`.
    pub fn len(&self, kind: NameType) -> usize {
        self.names[kind as usize].len()
    }

    /// No names at all.
    pub fn is_empty(&self) -> bool {
        self.names.iter().all(Vec::is_empty)
    }

    /// The raw bytes of a name, `None` for an ID out of range.
    pub fn get(&self, kind: NameType, id: u32) -> Option<&[u8]> {
        self.names[kind as usize].get(id as usize).map(Vec::as_slice)
    }

    /// A name for display (bytes that are not UTF-8 shown as U+FFFD; [`NameBase::get`] has
    /// the bytes). An ID out of range reads as `?`, as in SCID.
    pub fn text(&self, kind: NameType, id: u32) -> String {
        self.get(kind, id).map_or_else(|| "?".to_owned(), |name| String::from_utf8_lossy(name).into_owned())
    }

    /// The game count stored for each name in a .sn4/.sn3 file (by ID), empty for .sn5.
    pub fn stored_frequency(&self, kind: NameType) -> &[u32] {
        &self.stored_frequency[kind as usize]
    }

    /// The names of `kind`, by ID.
    pub fn names(&self, kind: NameType) -> &[Vec<u8>] {
        &self.names[kind as usize]
    }

    /// Appends a name and returns its ID (no deduplication: see [`NameTable`]).
    pub fn push(&mut self, kind: NameType, name: Vec<u8>) -> u32 {
        let list = &mut self.names[kind as usize];
        list.push(name);
        (list.len() - 1) as u32
    }

    /// Reads a .sn4/.sn3 file.
    pub fn read_sn4(data: &[u8], diagnostics: &mut Vec<Diagnostic>) -> Result<NameBase, DataError> {
        let mut r = ByteReader::new(data);
        let magic = r.array::<8>("name-file magic \"Scid.sn\\0\"")?;
        if &magic != MAGIC {
            return Err(
                DataError::new(Location::at(0), "name-file magic \"Scid.sn\\0\"").found(format!("{magic:02x?}"))
            );
        }
        r.skip(4, "time stamp")?;
        let mut counts = [0usize; 4];
        for c in &mut counts {
            *c = r.u24_be("name count")? as usize;
        }
        let mut max_freq = [0u32; 4];
        for m in &mut max_freq {
            *m = r.u24_be("maximum frequency")?;
        }
        let mut base = NameBase::default();
        for kind in NameType::ALL {
            let count = counts[kind as usize];
            // Each record takes at least 4 bytes: refuse counts the file cannot hold before allocating.
            if count > r.remaining() / 3 + 1 {
                return Err(r.error(format!("{count} {} names", kind.label())).found("end of file"));
            }
            let mut slots: Vec<Option<Vec<u8>>> = vec![None; count];
            let mut frequency = vec![0u32; count];
            let mut prev: Vec<u8> = Vec::new();
            let mut max_seen = 0u32;
            for i in 0..count {
                let at = r.offset();
                let id = if count >= 65536 { r.u24_be("name ID")? } else { u32::from(r.u16_be("name ID")?) };
                let freq = match max_freq[kind as usize] {
                    0..=255 => u32::from(r.u8("frequency")?),
                    256..=65535 => u32::from(r.u16_be("frequency")?),
                    _ => r.u24_be("frequency")?,
                };
                max_seen = max_seen.max(freq);
                let length = usize::from(r.u8("name length")?);
                let prefix = if i > 0 { usize::from(r.u8("shared-prefix length")?) } else { 0 };
                if prefix > length || prefix > prev.len() {
                    return Err(DataError::new(Location::at(at), "shared prefix ≤ name length and previous name")
                        .found(format!("prefix {prefix}, length {length}")));
                }
                prev.truncate(prefix);
                prev.extend_from_slice(r.bytes(length - prefix, "name bytes")?);
                let slot = slots.get_mut(id as usize).ok_or_else(|| {
                    DataError::new(Location::at(at), format!("{} name ID < {count}", kind.label()))
                        .found(id.to_string())
                })?;
                if slot.is_some() {
                    return Err(DataError::new(Location::at(at), format!("unique {} name ID", kind.label()))
                        .found(format!("{id} twice")));
                }
                *slot = Some(prev.clone());
                frequency[id as usize] = freq;
            }
            if max_seen < max_freq[kind as usize] {
                diagnostics.push(Diagnostic::warning(
                    codes::NAME_FREQUENCY,
                    Location::at(24 + 3 * kind as u64),
                    format!(
                        "header maximum frequency of {} is {} but no name is used more than {max_seen} times",
                        kind.label(),
                        max_freq[kind as usize]
                    ),
                ));
            }
            // Every slot is filled: count records with unique IDs < count.
            base.names[kind as usize] = slots.into_iter().map(Option::unwrap_or_default).collect();
            base.stored_frequency[kind as usize] = frequency;
        }
        if !r.is_empty() {
            let message = format!("{} bytes after the last name", r.remaining());
            diagnostics.push(Diagnostic::warning(codes::NAME_TRAILING_BYTES, Location::at(r.offset()), message));
        }
        Ok(base)
    }

    /// Writes a .sn4 file as SCID does: names sorted with SCID's comparator, frequencies from
    /// `freq` (per type, by ID), widths from the largest frequency.
    pub fn write_sn4(&self, freq: &[Vec<u32>; 4], out: &mut Vec<u8>) {
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[0; 4]);
        for list in &self.names {
            out.extend_from_slice(&(list.len() as u32).to_be_bytes()[1..]);
        }
        let max_freq: Vec<u32> = freq.iter().map(|f| f.iter().copied().max().unwrap_or(0)).collect();
        for m in &max_freq {
            out.extend_from_slice(&m.to_be_bytes()[1..]);
        }
        for kind in NameType::ALL {
            let list = &self.names[kind as usize];
            let mut order: Vec<u32> = (0..list.len() as u32).collect();
            order.sort_by(|&a, &b| scid_name_order(&list[a as usize], &list[b as usize]));
            let mut prev: &[u8] = &[];
            for (i, &id) in order.iter().enumerate() {
                let name = &list[id as usize][..list[id as usize].len().min(255)];
                if list.len() >= 65536 {
                    out.extend_from_slice(&id.to_be_bytes()[1..]);
                } else {
                    out.extend_from_slice(&(id as u16).to_be_bytes());
                }
                let f = freq[kind as usize].get(id as usize).copied().unwrap_or(0);
                match max_freq[kind as usize] {
                    0..=255 => out.push(f as u8),
                    256..=65535 => out.extend_from_slice(&(f as u16).to_be_bytes()),
                    _ => out.extend_from_slice(&f.to_be_bytes()[1..]),
                }
                out.push(name.len() as u8);
                let mut prefix = 0;
                if i > 0 {
                    prefix = name.iter().zip(prev).take_while(|(a, b)| a == b).count();
                    out.push(prefix as u8);
                }
                out.extend_from_slice(&name[prefix..]);
                prev = name;
            }
        }
    }

    /// Reads a .sn5 file: LEB128 `length·8 + type` then the bytes; type 4 = database info.
    pub fn read_sn5(
        data: &[u8],
        header: &mut Header,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<NameBase, DataError> {
        let mut r = ByteReader::new(data);
        let mut base = NameBase::default();
        while !r.is_empty() {
            let at = r.offset();
            let key = r.leb128("name record header")?;
            let len = usize::try_from(key >> 3).unwrap_or(usize::MAX);
            let bytes = r.bytes(len, "name bytes")?;
            match key & 7 {
                kind @ 0..=3 => base.names[kind as usize].push(bytes.to_vec()),
                4 => {
                    if !apply_info_record(bytes, header) {
                        let key = String::from_utf8_lossy(&bytes[..bytes.len().min(16)]).into_owned();
                        let message = format!("unknown database-info record {key:?} ignored");
                        diagnostics.push(Diagnostic::warning(codes::NAME_INFO_RECORD, Location::at(at), message));
                    }
                }
                other => {
                    return Err(DataError::new(Location::at(at), "name type 0–4").found(other.to_string()));
                }
            }
        }
        Ok(base)
    }

    /// Appends one .sn5 name record.
    pub fn sn5_record(kind: NameType, name: &[u8], out: &mut Vec<u8>) {
        tabiya_io::varint::write_leb128(out, (name.len() as u64) << 3 | kind as u64);
        out.extend_from_slice(name);
    }
}

/// A .sn5 database-info record: key immediately followed by the value; matched by prefix.
/// Returns whether the key is known.
fn apply_info_record(bytes: &[u8], header: &mut Header) -> bool {
    let number = |v: &[u8]| std::str::from_utf8(v).ok().and_then(|s| s.trim().parse::<u32>().ok());
    if let Some(v) = bytes.strip_prefix(b"type") {
        header.base_type = number(v).unwrap_or(0);
    } else if let Some(v) = bytes.strip_prefix(b"description") {
        header.description = v.to_vec();
    } else if let Some(v) = bytes.strip_prefix(b"autoload") {
        header.auto_load = number(v).unwrap_or(0);
    } else if let Some(v) = bytes.strip_prefix(b"flag")
        && let (Some(&d @ b'1'..=b'6'), Some(rest)) = (v.first(), v.get(1..))
    {
        header.flag_names[usize::from(d - b'1')] = rest.to_vec();
    } else {
        return false;
    }
    true
}

/// SCID's name order: the first byte compares unsigned, every later byte as a signed `char`,
/// and the end of a name as 0.
pub fn scid_name_order(a: &[u8], b: &[u8]) -> Ordering {
    match (a.first(), b.first()) {
        (None, None) => return Ordering::Equal,
        (None, Some(_)) => return Ordering::Less,
        (Some(_), None) => return Ordering::Greater,
        (Some(x), Some(y)) if x != y => return x.cmp(y),
        _ => {}
    }
    let n = a.len().max(b.len());
    for i in 1..=n {
        let x = a.get(i).map_or(0, |&c| c as i8);
        let y = b.get(i).map_or(0, |&c| c as i8);
        if x != y || x == 0 {
            return x.cmp(&y);
        }
    }
    Ordering::Equal
}

/// Text as SCID's PGN import stores it (`pgn::normalize` of SCID 5.0.2's PGN lexer, applied to
/// every tag value, name and comment): a byte 0xC0–0xFF that does not start a UTF-8 sequence
/// (no byte 0x80–0xBF follows it) is taken for Latin-1 and stored as that character in UTF-8;
/// every other byte, 0x80–0xBF included, stays as it is. Text already stored by SCID comes back
/// unchanged (the rule makes no lone byte 0xC0–0xFF). Borrowed when nothing changes.
pub fn scid_text(bytes: &[u8]) -> Cow<'_, [u8]> {
    let lone_lead = |i: usize| bytes[i] >= 0xC0 && !matches!(bytes.get(i + 1), Some(0x80..=0xBF));
    if !(0..bytes.len()).any(lone_lead) {
        return Cow::Borrowed(bytes);
    }
    let mut stored = Vec::with_capacity(bytes.len() + 8);
    for (i, &b) in bytes.iter().enumerate() {
        if lone_lead(i) {
            stored.extend_from_slice(&[0xC3, b & 0xBF]);
        } else {
            stored.push(b);
        }
    }
    Cow::Owned(stored)
}

/// Name → ID lookup while writing; IDs are assigned in order of first use.
#[derive(Debug, Default)]
pub struct NameTable {
    /// The names by ID.
    pub base: NameBase,
    ids: [HashMap<Vec<u8>, u32, NameHashKey>; 4],
    /// Games using each name, by type and ID.
    pub frequency: [Vec<u32>; 4],
}

impl NameTable {
    /// A table over existing names (an append), use counts zero.
    pub fn from_base(base: NameBase) -> NameTable {
        let mut table = NameTable { base: NameBase::default(), ..NameTable::default() };
        for kind in NameType::ALL {
            for name in base.names(kind) {
                let id = table.base.push(kind, name.clone());
                table.ids[kind as usize].entry(name.clone()).or_insert(id);
                table.frequency[kind as usize].push(0);
            }
        }
        table
    }

    /// The ID of a name already in the table.
    pub fn get(&self, kind: NameType, name: &[u8]) -> Option<u32> {
        self.ids[kind as usize].get(name).copied()
    }

    /// The ID of `name`, and whether it is new.
    pub fn id(&mut self, kind: NameType, name: &[u8]) -> (u32, bool) {
        if let Some(&id) = self.ids[kind as usize].get(name) {
            return (id, false);
        }
        let id = self.base.push(kind, name.to_vec());
        self.ids[kind as usize].insert(name.to_vec(), id);
        self.frequency[kind as usize].push(0);
        (id, true)
    }

    /// Counts one more use of name `id`.
    pub fn count_use(&mut self, kind: NameType, id: u32) {
        if let Some(f) = self.frequency[kind as usize].get_mut(id as usize) {
            *f += 1;
        }
    }
}

/// The hash of the writer's name lookups: a folded multiply per 8 bytes, from a key drawn at
/// random per table. SipHash, the default, costs several times more on keys as short as names;
/// the random key still keeps a crafted set of names from colliding on purpose.
#[derive(Debug, Clone)]
struct NameHashKey(u64);

impl Default for NameHashKey {
    fn default() -> NameHashKey {
        NameHashKey(RandomState::new().hash_one(0x5c1du64))
    }
}

impl BuildHasher for NameHashKey {
    type Hasher = NameHasher;

    fn build_hasher(&self) -> NameHasher {
        NameHasher(self.0)
    }
}

struct NameHasher(u64);

impl NameHasher {
    /// An odd constant with well-spread bits (2^64 / φ).
    const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

    fn mix(&mut self, word: u64) {
        let product = u128::from(self.0 ^ word) * u128::from(NameHasher::MULTIPLIER);
        self.0 = product as u64 ^ (product >> 64) as u64;
    }
}

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        let (words, rest) = bytes.as_chunks::<8>();
        for word in words {
            self.mix(u64::from_le_bytes(*word));
        }
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(last));
        }
    }

    /// The length that `[u8]`'s `Hash` writes first: names that differ only by trailing zero
    /// bytes hash apart.
    fn write_usize(&mut self, n: usize) {
        self.mix(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_hash_is_keyed_and_covers_every_byte() {
        let key = NameHashKey::default();
        let names: [&[u8]; 6] = [b"", b"\0", b"Carlsen, M", b"Carlsen, M.", b"Carlsen, Magnus", b"Carlsen, Magnus\0"];
        let hashes: Vec<u64> = names.iter().map(|n| key.hash_one(n)).collect();
        for (i, a) in hashes.iter().enumerate() {
            assert_eq!(hashes.iter().filter(|b| *b == a).count(), 1, "{:?}", names[i]);
        }
        assert_eq!(key.hash_one(b"Carlsen, M"), key.clone().hash_one(b"Carlsen, M"));
        assert_ne!(NameHashKey(1).hash_one(b"Carlsen, M"), NameHashKey(2).hash_one(b"Carlsen, M"));
    }

    #[test]
    fn scid_order_sorts_high_bytes_before_ascii_after_the_first_byte() {
        assert_eq!(scid_name_order(b"ab", b"ac"), Ordering::Less);
        assert_eq!(scid_name_order(b"a\xc3\xa9", b"ab"), Ordering::Less);
        assert_eq!(scid_name_order(b"\xc3a", b"za"), Ordering::Greater);
        assert_eq!(scid_name_order(b"ab", b"ab\xc3"), Ordering::Greater);
        assert_eq!(scid_name_order(b"ab", b"abc"), Ordering::Less);
        assert_eq!(scid_name_order(b"", b"a"), Ordering::Less);
        assert_eq!(scid_name_order(b"ab", b"ab"), Ordering::Equal);
    }
}

#[cfg(test)]
mod sn5_tests {
    use super::*;

    #[test]
    fn sn5_names_and_info_records() {
        let mut data = Vec::new();
        apply_record(&mut data, 4, b"descriptionMy games");
        NameBase::sn5_record(NameType::Player, b"Carlsen, M", &mut data);
        NameBase::sn5_record(NameType::Event, b"", &mut data);
        apply_record(&mut data, 4, b"flag3Sharp");
        apply_record(&mut data, 4, b"colour blue");
        let mut header = Header::default();
        let mut warnings = Vec::new();
        let names = NameBase::read_sn5(&data, &mut header, &mut warnings).unwrap();
        assert_eq!(names.get(NameType::Player, 0), Some(&b"Carlsen, M"[..]));
        assert_eq!(names.get(NameType::Event, 0), Some(&b""[..]));
        assert_eq!(header.description, b"My games");
        assert_eq!(header.flag_names[2], b"Sharp");
        assert_eq!(warnings.len(), 1);
        // Types 5–7 are corrupt.
        assert!(NameBase::read_sn5(&[0x05], &mut header, &mut warnings).is_err());
    }

    fn apply_record(out: &mut Vec<u8>, kind: u64, bytes: &[u8]) {
        tabiya_io::varint::write_leb128(out, (bytes.len() as u64) << 3 | kind);
        out.extend_from_slice(bytes);
    }
}
