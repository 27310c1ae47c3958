//! The name files: WTHOR.JOU (players, 20-byte records) and WTHOR.TRN (tournaments, 26 bytes).

use std::borrow::Cow;

use tabiya_io::{Codepage, Location, until_nul};

use super::WthorError;
use super::header::Header;

/// Which name file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// WTHOR.JOU.
    Players,
    /// WTHOR.TRN.
    Tournaments,
}

impl NameKind {
    /// Record size in bytes: the longest name is one byte shorter (the NUL).
    pub fn record_len(self) -> usize {
        match self {
            NameKind::Players => 20,
            NameKind::Tournaments => 26,
        }
    }

    /// The usual file name.
    pub fn file_name(self) -> &'static str {
        match self {
            NameKind::Players => "WTHOR.JOU",
            NameKind::Tournaments => "WTHOR.TRN",
        }
    }
}

/// A name file. Records are kept raw (NUL-terminated, zero-padded Windows-1252) so that the
/// file writes back byte for byte; indices are positions and never change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameFile {
    /// Players or tournaments.
    pub kind: NameKind,
    /// The header as stored.
    pub header: Header,
    records: Vec<u8>,
}

impl NameFile {
    /// An empty name file.
    pub fn new(kind: NameKind, header: Header) -> NameFile {
        let header =
            Header { n1: 0, n2: 0, game_year: 0, board_size: 0, game_type: 0, depth: 0, reserved: 0, ..header };
        NameFile { kind, header, records: Vec::new() }
    }

    /// A new name file as the FFO starts one: entry 0 is the name of unknown games (`???` for
    /// players, `Diverses parties` for tournaments), which an importer gives a game without a name.
    pub fn with_unknown_entry(kind: NameKind, header: Header) -> NameFile {
        let mut file = NameFile::new(kind, header);
        let unknown: &[u8] = match kind {
            NameKind::Players => b"???",
            NameKind::Tournaments => b"Diverses parties",
        };
        let mut record = vec![0; kind.record_len()];
        record[..unknown.len()].copy_from_slice(unknown);
        file.records = record;
        file
    }

    pub(super) fn from_records(kind: NameKind, header: Header, records: Vec<u8>) -> NameFile {
        NameFile { kind, header, records }
    }

    pub(super) fn records(&self) -> &[u8] {
        &self.records
    }

    /// Number of names.
    pub fn len(&self) -> usize {
        self.records.len() / self.kind.record_len()
    }

    /// Whether the file holds no name.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The raw record at `index`.
    pub fn record(&self, index: usize) -> Option<&[u8]> {
        let len = self.kind.record_len();
        self.records.get(index * len..(index + 1) * len)
    }

    /// The name at `index`, decoded from Windows-1252.
    pub fn name(&self, index: usize) -> Option<Cow<'_, str>> {
        self.record(index).map(|r| Codepage::Windows1252.decode(until_nul(r)))
    }

    /// Every name in index order.
    pub fn names(&self) -> impl Iterator<Item = Cow<'_, str>> + '_ {
        self.records.chunks_exact(self.kind.record_len()).map(|r| Codepage::Windows1252.decode(until_nul(r)))
    }

    /// The index of `name` (exact match), if present.
    pub fn find(&self, name: &str) -> Option<u16> {
        self.names().position(|n| n == name).and_then(|i| u16::try_from(i).ok())
    }

    /// The index of `name`, appending it when it is not there yet (indices stay stable).
    pub fn find_or_append(&mut self, name: &str) -> Result<u16, WthorError> {
        match self.find(name) {
            Some(i) => Ok(i),
            None => self.append(name),
        }
    }

    /// Appends `name` and returns its index. Refuses names longer than the record allows or
    /// with characters outside Windows-1252, and a file that would exceed 65,535 names.
    pub fn append(&mut self, name: &str) -> Result<u16, WthorError> {
        let index = self.len();
        let location = Location::record(index as u64);
        let refuse = |reason: String| WthorError::Name { location: location.clone(), name: name.to_owned(), reason };
        let bytes = Codepage::Windows1252.encode(name).map_err(|c| refuse(format!("{c:?} is not in Windows-1252")))?;
        let max = self.kind.record_len() - 1;
        if bytes.len() > max {
            return Err(refuse(format!("{} bytes; {} holds at most {max}", bytes.len(), self.kind.file_name())));
        }
        if bytes.is_empty() || bytes.contains(&0) {
            return Err(refuse("names are non-empty and contain no NUL".into()));
        }
        let index = u16::try_from(index).map_err(|_| WthorError::TooMany {
            location: location.clone(),
            count: index + 1,
            max: 65_535,
        })?;
        if index == u16::MAX {
            return Err(WthorError::TooMany { location, count: 65_536, max: 65_535 });
        }
        self.records.extend_from_slice(&bytes);
        self.records.resize(self.records.len() + self.kind.record_len() - bytes.len(), 0);
        Ok(index)
    }
}
