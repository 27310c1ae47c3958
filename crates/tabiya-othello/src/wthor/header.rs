//! The 16-byte header every Wthor file starts with.

use tabiya_io::{ByteReader, DataError, DiagnosticSink, Location};

/// Header size in bytes.
pub const HEADER_LEN: usize = 16;

/// The largest N1 a reader accepts: the field is a signed Pascal `Longint`.
pub const MAX_RECORDS: u32 = i32::MAX as u32;

/// The header fields, kept as stored so that a file writes back byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Header {
    /// "Century" of the file's creation: `year / 100`, 20 in every real file.
    pub century: u8,
    /// Year within the century (the date the FFO last regenerated this file, not the game year).
    pub year: u8,
    /// Month of creation, 1–12.
    pub month: u8,
    /// Day of creation, 1–31.
    pub day: u8,
    /// Number of games or solitaires (0 in name files).
    pub n1: u32,
    /// Number of names (name files) or of empties (solitaires); 0 in game files.
    pub n2: u16,
    /// Year of the games; 0 in name and solitaire files.
    pub game_year: u16,
    /// P1, board size: 0 or 8 for 8×8, 10 for 10×10, 0 in name files.
    pub board_size: u8,
    /// P2, game type: 1 for solitaires, else 0.
    pub game_type: u8,
    /// P3, the number of empties at which the theoretical score is computed (24 in real files;
    /// 0 means 22).
    pub depth: u8,
    /// The last byte, 0 in real files; kept as stored.
    pub reserved: u8,
}

impl Header {
    /// A header dated `date` (year, month, day) with every count zero.
    pub fn dated((year, month, day): (u16, u8, u8)) -> Header {
        Header {
            century: (year / 100) as u8,
            year: (year % 100) as u8,
            month,
            day,
            n1: 0,
            n2: 0,
            game_year: 0,
            board_size: 0,
            game_type: 0,
            depth: 0,
            reserved: 0,
        }
    }

    /// A header dated today (UTC), for a new or modified file.
    pub fn today() -> Header {
        let days =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400);
        Header::dated(civil_date(days as i64))
    }

    /// The creation date as (year, month, day), e.g. (2007, 5, 22).
    pub fn date(&self) -> (u16, u8, u8) {
        (u16::from(self.century) * 100 + u16::from(self.year), self.month, self.day)
    }

    /// The depth of the theoretical score with the document's rule that 0 means 22.
    pub fn effective_depth(&self) -> u8 {
        if self.depth == 0 { 22 } else { self.depth }
    }

    /// Reads the header; deviations seen or tolerated in real files become warnings.
    pub fn read(data: &[u8], sink: &mut impl DiagnosticSink) -> Result<Header, DataError> {
        let mut r = ByteReader::new(data);
        let header = Header {
            century: r.u8("century of creation")?,
            year: r.u8("year of creation")?,
            month: r.u8("month of creation")?,
            day: r.u8("day of creation")?,
            n1: r.u32_le("N1, number of records")?,
            n2: r.u16_le("N2, number of names or empties")?,
            game_year: r.u16_le("year of the games")?,
            board_size: r.u8("P1, board size")?,
            game_type: r.u8("P2, game type")?,
            depth: r.u8("P3, depth")?,
            reserved: r.u8("reserved byte")?,
        };
        if header.n1 > MAX_RECORDS {
            return Err(
                DataError::new(Location::at(4), format!("N1 at most {MAX_RECORDS}")).found(header.n1.to_string())
            );
        }
        if !(19..=21).contains(&header.century) {
            sink.warning(
                "wthor.century",
                Location::at(0),
                format!("century byte {} (real files have 20: year / 100)", header.century),
            );
        }
        if header.year > 99 || !(1..=12).contains(&header.month) || !(1..=31).contains(&header.day) {
            sink.warning(
                "wthor.creation_date",
                Location::at(1),
                format!("creation date {}-{}-{} is not a date", header.year, header.month, header.day),
            );
        }
        Ok(header)
    }

    /// The 16 bytes as stored.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut out = [0; HEADER_LEN];
        out[0] = self.century;
        out[1] = self.year;
        out[2] = self.month;
        out[3] = self.day;
        out[4..8].copy_from_slice(&self.n1.to_le_bytes());
        out[8..10].copy_from_slice(&self.n2.to_le_bytes());
        out[10..12].copy_from_slice(&self.game_year.to_le_bytes());
        out[12] = self.board_size;
        out[13] = self.game_type;
        out[14] = self.depth;
        out[15] = self.reserved;
        out
    }
}

/// The (year, month, day) of a day number counted from 1970-01-01.
fn civil_date(days: i64) -> (u16, u8, u8) {
    let (year, month, day) = tabiya_io::date::civil_date(days);
    (year as u16, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_500), (2026, 2, 16));
        let today = Header::today();
        assert_eq!(today.century, 20);
    }

    #[test]
    fn test_vector_of_wth_1977() {
        // specs/wthor.md section 11.
        let bytes = [0x14, 0x07, 0x05, 0x16, 0x0c, 0, 0, 0, 0, 0, 0xb9, 0x07, 0x08, 0x00, 0x18, 0x00];
        let mut found = Vec::new();
        let h = Header::read(&bytes, &mut found).unwrap();
        assert!(found.is_empty());
        assert_eq!(h.date(), (2007, 5, 22));
        assert_eq!((h.n1, h.n2, h.game_year, h.board_size, h.game_type, h.depth), (12, 0, 1977, 8, 0, 24));
        assert_eq!(h.to_bytes(), bytes);
    }

    #[test]
    fn refuses_n1_beyond_a_signed_longint() {
        let mut bytes = [0x14, 0x07, 0x05, 0x16, 0, 0, 0, 0x80, 0, 0, 0, 0, 8, 0, 24, 0];
        assert!(Header::read(&bytes, &mut Vec::new()).is_err());
        bytes[7] = 0x7f;
        assert!(Header::read(&bytes, &mut Vec::new()).is_ok());
        assert!(Header::read(&bytes[..15], &mut Vec::new()).is_err());
    }
}
