//! The `.ksf` game-source file (spec 8): a table of contents, then one description per
//! source with a record per game.

use tabiya_io::{ByteReader, DataError, Diagnostic, DiagnosticSink, Location};

use super::conventions::{KSF_TABLE_ALIGN, StringEndian};
use super::text::{Decoded, decode_ansi, read_ansi, read_unicode, unicode_size, write_ansi, write_unicode};

/// source_type 1: a PGN file.
pub const SOURCE_PGN: u8 = 1;

/// All sources of a book, in index order (a [`super::SourceRef`] points into them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    /// The sources (PGN files), in order.
    pub sources: Vec<Source>,
}

/// One source: a PGN file, a web page or a ChessBase .cbh file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Source {
    /// 0 empty, 1 PGN, 2 web page, 3 ChessBase .cbh.
    pub source_type: u8,
    /// Non-zero: the source is known to be unavailable.
    pub is_bad: u8,
    /// URL or full path; `%currentdir` may stand for Kvetka's folder.
    pub address: String,
    /// Its games, in order.
    pub games: Vec<GameRecord>,
}

/// Where a game is in its source and who played it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// PGN: byte offset of the game's first byte.
    pub address: u32,
    /// PGN: bytes up to the next game or the end of the file.
    pub length: u32,
    /// White's name, Windows-1251 bytes as stored.
    pub white: Vec<u8>,
    /// Black's name, Windows-1251.
    pub black: Vec<u8>,
    /// White's Elo; 0 unknown.
    pub white_elo: u16,
    /// Black's Elo; 0 unknown.
    pub black_elo: u16,
    /// 0 = 0-1, 1 = 1-0, 2 = ½-½, 3 = unknown.
    pub result: u8,
}

impl GameRecord {
    /// White's name, decoded.
    pub fn white_name(&self) -> String {
        decode_ansi(&self.white)
    }

    /// Black's name, decoded.
    pub fn black_name(&self) -> String {
        decode_ansi(&self.black)
    }

    /// The result as PGN writes it.
    pub fn result_pgn(&self) -> &'static str {
        match self.result {
            0 => "0-1",
            1 => "1-0",
            2 => "1/2-1/2",
            _ => "*",
        }
    }
}

/// Size of the table of contents for `n` sources: `4 + 4n` rounded up to 512.
pub fn table_size(n: usize) -> usize {
    (4 + 4 * n).div_ceil(KSF_TABLE_ALIGN) * KSF_TABLE_ALIGN
}

/// Smallest possible game record: two empty names.
const MIN_GAME_RECORD: usize = 4 + 4 + 4 + 4 + 2 + 2 + 1;

impl Sources {
    /// A referenced game with its source.
    pub fn game(&self, r: super::SourceRef) -> Option<(&Source, &GameRecord)> {
        let source = self.sources.get(usize::from(r.source))?;
        Some((source, source.games.get(r.game as usize)?))
    }

    /// Parses a whole `.ksf`. Deviations (table size, overlapping sources) are warnings.
    pub fn parse(data: &[u8], endian: StringEndian, warnings: &mut Vec<Diagnostic>) -> Result<Sources, DataError> {
        let mut r = ByteReader::new(data);
        let count = r.u32_be("source_number")? as usize;
        if count > data.len() / 4 {
            return Err(DataError::new(Location::at(0), "a source count that fits the file").found(count.to_string()));
        }
        let addresses: Vec<u32> = (0..count).map(|_| r.u32_be("source address")).collect::<Result<_, _>>()?;
        let table = table_size(count);
        if data.len() < table {
            warnings.warning(
                "kvetka.ksf_table",
                Location::at(r.offset()),
                format!("table of contents shorter than {table} bytes"),
            );
        }
        let mut little_endian = false;
        let mut sources = Vec::with_capacity(count);
        for (i, &address) in addresses.iter().enumerate() {
            if (address as usize) < table.min(data.len()) {
                let at = Location::at(4 + 4 * i as u64);
                warnings.warning("kvetka.ksf_table", at, format!("source {i} starts inside the table of contents"));
            }
            let mut r = ByteReader::new(data);
            r.seek(address as usize, "source description").map_err(|e| e.with_record(i as u64))?;
            let source = parse_source(&mut r, endian, &mut little_endian).map_err(|e| e.with_record(i as u64))?;
            sources.push(source);
        }
        if little_endian {
            warnings.warning("kvetka.ksf_utf16le", Location::default(), "Unicode strings read as UTF-16LE");
        }
        Ok(Sources { sources })
    }

    /// The file's bytes: table, then the sources in index order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let table = table_size(self.sources.len());
        let mut out = Vec::with_capacity(table);
        out.extend_from_slice(&(self.sources.len() as u32).to_be_bytes());
        let mut body = Vec::new();
        for source in &self.sources {
            out.extend_from_slice(&((table + body.len()) as u32).to_be_bytes());
            source.encode(&mut body);
        }
        out.resize(table, 0);
        out.extend_from_slice(&body);
        out
    }
}

fn parse_source(r: &mut ByteReader<'_>, endian: StringEndian, little_endian: &mut bool) -> Result<Source, DataError> {
    let source_type = r.u8("source_type")?;
    let is_bad = r.u8("is_bad")?;
    let (address, order) = read_unicode(r, "source address", endian)?;
    *little_endian |= order == Decoded::Little;
    let count = r.u32_be("games_number")? as usize;
    if count > r.remaining() / MIN_GAME_RECORD {
        return Err(r.error(format!("{count} game descriptions")).found(format!("{} bytes left", r.remaining())));
    }
    let mut games = Vec::with_capacity(count);
    for i in 0..count {
        let game = (|| {
            Ok::<_, DataError>(GameRecord {
                address: r.u32_be("game_address")?,
                length: r.u32_be("game_length")?,
                white: read_ansi(r, "white")?.to_vec(),
                black: read_ansi(r, "black")?.to_vec(),
                white_elo: r.u16_be("white_ELO")?,
                black_elo: r.u16_be("black_ELO")?,
                result: r.u8("game_result")?,
            })
        })()
        .map_err(|e| DataError { expected: format!("{} of game {i}", e.expected), ..e })?;
        games.push(game);
    }
    Ok(Source { source_type, is_bad, address, games })
}

impl Source {
    fn encode(&self, out: &mut Vec<u8>) {
        out.reserve(2 + unicode_size(&self.address) + 4 + self.games.len() * 32);
        out.push(self.source_type);
        out.push(self.is_bad);
        write_unicode(out, &self.address);
        out.extend_from_slice(&(self.games.len() as u32).to_be_bytes());
        for g in &self.games {
            out.extend_from_slice(&g.address.to_be_bytes());
            out.extend_from_slice(&g.length.to_be_bytes());
            write_ansi(out, &g.white);
            write_ansi(out, &g.black);
            out.extend_from_slice(&g.white_elo.to_be_bytes());
            out.extend_from_slice(&g.black_elo.to_be_bytes());
            out.push(g.result);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_follow_spec_8_1() {
        let sizes: Vec<usize> = [0, 127, 128, 255, 256].into_iter().map(table_size).collect();
        assert_eq!(sizes, [512, 512, 1024, 1024, 1536]);
    }

    #[test]
    fn a_huge_game_count_is_an_error_not_an_allocation() {
        let mut bytes = Sources::default().to_bytes();
        bytes[3] = 1;
        bytes[7] = 8; // source 0 at offset 8, inside the table
        bytes[8..16].copy_from_slice(&[1, 0, 0, 0, 0, 0, 0xff, 0xff]);
        let err = Sources::parse(&bytes, StringEndian::Auto, &mut Vec::new()).unwrap_err();
        assert!(err.expected.contains("4294901760 game descriptions"), "{err}");
    }
}
