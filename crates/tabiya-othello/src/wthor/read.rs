//! Reading Wthor files: lenient about what real files do, never panicking on any bytes.

use tabiya_io::{ByteReader, DataError, DiagnosticSink, Location};

use super::game::{GameRecord, GamesFile};
use super::header::{HEADER_LEN, Header};
use super::names::{NameFile, NameKind};
use super::solitaire::{PRESENCE_TABLE_LEN, Solitaire, SolitaireFile};

/// Splits the bytes after the header into whole records; a count field that disagrees with the
/// file size, or a partial record at the end, is an error (the file is damaged and the bytes
/// are not carried). Returns the whole records.
fn records<'a>(data: &'a [u8], start: usize, len: usize, declared: u64, sink: &mut impl DiagnosticSink) -> &'a [u8] {
    let body = data.get(start..).unwrap_or_default();
    let whole = body.len() / len;
    if body.len() % len != 0 {
        sink.error(
            "wthor.trailing_bytes",
            Location::at((start + whole * len) as u64),
            format!("{} bytes after the last whole {len}-byte record are ignored", body.len() % len),
        );
    }
    if declared != whole as u64 {
        sink.error(
            "wthor.header_count",
            Location::at(4),
            format!("the header counts {declared} records but the file size holds {whole}; reading {whole}"),
        );
    }
    &body[..whole * len]
}

impl<const M: usize> GameRecord<M> {
    /// Decodes one record (exactly `8 + M` bytes; `None` for any other length).
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let (head, moves) = bytes.split_first_chunk::<8>()?;
        Some(GameRecord {
            tournament: u16::from_le_bytes([head[0], head[1]]),
            black: u16::from_le_bytes([head[2], head[3]]),
            white: u16::from_le_bytes([head[4], head[5]]),
            real_score: head[6],
            theoretical_score: head[7],
            moves: moves.try_into().ok()?,
        })
    }
}

impl<const M: usize> GamesFile<M> {
    /// Reads a game file. Errors only when the header is unreadable; a count that disagrees
    /// with the file size, a partial last record or unexpected header fields are warnings.
    pub fn read(data: &[u8], sink: &mut impl DiagnosticSink) -> Result<Self, DataError> {
        let header = Header::read(data, sink)?;
        let expected = GameRecord::<M>::BOARD.side();
        if header.board_size != expected && !(expected == 8 && header.board_size == 0) {
            sink.error(
                "wthor.board_size",
                Location::at(12),
                format!("P1 board size {} in a {expected}×{expected} game file", header.board_size),
            );
        }
        if header.game_type != 0 || header.n2 != 0 {
            sink.error(
                "wthor.game_file_fields",
                Location::at(8),
                format!("N2 {} and P2 {} (both 0 in game files)", header.n2, header.game_type),
            );
        }
        let body = records(data, HEADER_LEN, GameRecord::<M>::LEN, u64::from(header.n1), sink);
        let games = body.chunks_exact(GameRecord::<M>::LEN).filter_map(GameRecord::from_bytes).collect();
        Ok(GamesFile { header, games })
    }
}

impl NameFile {
    /// Reads WTHOR.JOU or WTHOR.TRN. Records without a NUL or with bytes after it are warnings.
    pub fn read(kind: NameKind, data: &[u8], sink: &mut impl DiagnosticSink) -> Result<NameFile, DataError> {
        let header = Header::read(data, sink)?;
        if header.n1 != 0 || header.game_year != 0 {
            sink.error(
                "wthor.name_file_fields",
                Location::at(4),
                format!("N1 {} and year {} (both 0 in name files)", header.n1, header.game_year),
            );
        }
        let len = kind.record_len();
        let body = records(data, HEADER_LEN, len, u64::from(header.n2), sink);
        for (i, record) in body.chunks_exact(len).enumerate() {
            let at = Location::at((HEADER_LEN + i * len) as u64).with_record(i as u64);
            match record.iter().position(|&b| b == 0) {
                None => sink.warning(
                    "wthor.name_unterminated",
                    at,
                    format!("name without a terminating NUL in its {len} bytes"),
                ),
                Some(0) => sink.warning("wthor.empty_name", at, "empty name"),
                Some(end) if record[end..].iter().any(|&b| b != 0) => {
                    sink.warning("wthor.bytes_after_nul", at, "bytes after the terminating NUL")
                }
                Some(_) => {}
            }
        }
        Ok(NameFile::from_records(kind, header, body.to_vec()))
    }
}

impl Solitaire {
    /// Decodes one 36-byte record.
    pub fn read(r: &mut ByteReader<'_>) -> Result<Solitaire, DataError> {
        Ok(Solitaire {
            year: r.u16_le("year of the source game")?,
            tournament: r.u16_le("tournament index")?,
            black: r.u32_le("Black player index")?,
            white: r.u32_le("White player index")?,
            position: r.array("position")?,
            empties: r.u8("number of empties")?,
            side_to_move: r.u8("side to move")?,
            score: r.u8("solution score")? as i8,
            best_move: r.u8("first move of the solution")?,
            real_score: r.u8("real score")?,
            played_move: r.u8("move played")?,
            reserved: r.array("reserved")?,
        })
    }
}

impl SolitaireFile {
    /// Reads a `.pzz` file: the header, the 256-byte presence table (512 accepted when the file
    /// size fits that exactly), then the records.
    pub fn read(data: &[u8], sink: &mut impl DiagnosticSink) -> Result<SolitaireFile, DataError> {
        let header = Header::read(data, sink)?;
        if header.game_type != 1 {
            sink.warning(
                "wthor.game_type",
                Location::at(13),
                format!("P2 game type {} (1 in solitaire files)", header.game_type),
            );
        }
        let fits = |table: usize| (data.len() as u64) == (HEADER_LEN + table) as u64 + 36 * u64::from(header.n1);
        let table_len = if !fits(PRESENCE_TABLE_LEN) && fits(2 * PRESENCE_TABLE_LEN) {
            sink.warning(
                "wthor.presence_table_size",
                Location::at(16),
                "512-byte presence table (as the document says; Cassio writes 256)",
            );
            2 * PRESENCE_TABLE_LEN
        } else {
            PRESENCE_TABLE_LEN
        };
        let mut r = ByteReader::new(data);
        r.skip(HEADER_LEN, "header")?;
        let table = r.bytes(table_len, "presence table")?;
        let mut file = SolitaireFile { header, solitaires: Vec::new() };
        if table[..PRESENCE_TABLE_LEN] != file.presence_table_for(header.n1)
            || table[PRESENCE_TABLE_LEN..].iter().any(|&b| b != 0)
        {
            sink.warning(
                "wthor.presence_table",
                Location::at(16),
                format!("presence table does not hold N1 = {} at entry N2 = {} alone", header.n1, header.n2),
            );
        }
        let body = records(data, HEADER_LEN + table_len, Solitaire::LEN, u64::from(header.n1), sink);
        let mut r = ByteReader::with_base(body, (HEADER_LEN + table_len) as u64);
        while !r.is_empty() {
            file.solitaires.push(Solitaire::read(&mut r)?);
        }
        for (i, s) in file.solitaires.iter().enumerate() {
            let at = || Location::at((HEADER_LEN + table_len + i * Solitaire::LEN) as u64).with_record(i as u64);
            if s.odd_squares() != 0 {
                sink.warning(
                    "wthor.odd_squares",
                    at(),
                    format!("position has squares coded 01 (bitboard {:#018x})", s.odd_squares()),
                );
            }
            if u16::from(s.empties) != header.n2 {
                sink.warning(
                    "wthor.solitaire_empties",
                    at(),
                    format!("{} empties in a file of {}-empty solitaires", s.empties, header.n2),
                );
            }
            if !(1..=2).contains(&s.side_to_move) {
                sink.warning("wthor.side_to_move", at(), format!("side to move {} (1 Black, 2 White)", s.side_to_move));
            }
        }
        Ok(file)
    }
}
