//! Reading `.dia` records: structure errors stop a record, field inconsistencies are findings.

use shogi_core::{PartialPosition, Square};
use tabiya_io::{Codepage, DataError, Location};

use super::{Diagram, Form, field, letters};
use crate::board::{self, KindCounts};
use tabiya_io::Diagnostic;

use crate::Error;

/// The size of one `.dia` record.
pub const RECORD_LEN: usize = 330;

/// One `.dia` record as read: its 330 bytes in the CR LF layout, the diagram, and the findings of
/// its consistency checks.
#[derive(Debug, Clone)]
pub struct DiaRecord {
    /// The record as read (CR LF line ends).
    pub bytes: [u8; RECORD_LEN],
    /// Every field decoded.
    pub diagram: Diagram,
    /// What decoding found (checksums, 玉位置, …).
    pub findings: Vec<Diagnostic>,
}

/// The records of a `.dia` file, in order, or the error that stops each. A trailing part
/// shorter than a record is an error; a lone DOS end-of-file byte (0x1A) after the last record
/// is ignored. A file whose lines end in LF alone (converted by a Unix tool; the seed's jgawk
/// script writes such files) is read line by line, lines recognised by their lengths (100,
/// then 124 + 48 or 174, then 50 bytes), each record rebuilt with CR LF and a warning on the first.
pub fn dia_records(bytes: &[u8]) -> DiaRecords<'_> {
    let lf_only = bytes.get(100) == Some(&b'\n') && bytes.get(99) != Some(&b'\r');
    DiaRecords { bytes, offset: 0, index: 0, lf_only }
}

/// Iterator of [`dia_records`].
#[derive(Debug, Clone)]
pub struct DiaRecords<'a> {
    bytes: &'a [u8],
    offset: usize,
    index: u64,
    lf_only: bool,
}

impl Iterator for DiaRecords<'_> {
    type Item = Result<DiaRecord, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.bytes.get(self.offset..).unwrap_or_default();
        if rest.is_empty() || rest == [0x1A] {
            return None;
        }
        let index = self.index;
        self.index += 1;
        if self.lf_only {
            return Some(self.next_from_lines(index));
        }
        let record = &rest[..rest.len().min(RECORD_LEN)];
        self.offset += record.len();
        Some(Diagram::decode_checked(record, index).map(|(diagram, findings)| DiaRecord {
            bytes: record.try_into().unwrap_or([b' '; RECORD_LEN]),
            diagram,
            findings,
        }))
    }
}

impl DiaRecords<'_> {
    /// The next line (without LF or CR LF) and its file offset.
    fn line(&mut self) -> Option<(usize, &[u8])> {
        let rest = self.bytes.get(self.offset..).filter(|r| !r.is_empty() && *r != [0x1A])?;
        let start = self.offset;
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        self.offset += (end + 1).min(rest.len());
        let line = &rest[..end];
        Some((start, line.strip_suffix(b"\r").unwrap_or(line)))
    }

    fn next_from_lines(&mut self, index: u64) -> Result<DiaRecord, Error> {
        let mut record = [b' '; RECORD_LEN];
        // (record offset, file offset) of each line, to give findings their place in the file.
        let mut starts: Vec<(usize, usize)> = Vec::with_capacity(4);
        let mut put = |this: &mut Self, at: usize, lengths: &[usize], what: &str| -> Result<usize, Error> {
            let at_file = this.offset;
            let (file_offset, line) = this.line().ok_or_else(|| {
                DataError::new(
                    Location {
                        offset: Some(at_file as u64),
                        unit: tabiya_io::Unit::Record,
                        number: Some(index + 1),
                        file: None,
                    },
                    format!("{what} of a record"),
                )
                .found("the end of the file")
            })?;
            if !lengths.contains(&line.len()) {
                let location = Location {
                    offset: Some(file_offset as u64),
                    unit: tabiya_io::Unit::Record,
                    number: Some(index + 1),
                    file: None,
                };
                let expected = format!(
                    "{what}: a line of {} bytes",
                    lengths.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(" or ")
                );
                return Err(DataError::new(location, expected).found(format!("{} bytes", line.len())).into());
            }
            record[at..at + line.len()].copy_from_slice(line);
            record[at + line.len()..at + line.len() + 2].copy_from_slice(b"\r\n");
            starts.push((at, file_offset));
            Ok(line.len())
        };
        put(self, 0, &[100], "line 1")?;
        if put(self, 102, &[124, 174], "line 2")? == 124 {
            put(self, 228, &[48], "the index line")?;
        }
        put(self, 278, &[50], "the last line")?;
        let to_file = |offset: u64| {
            let r = offset.saturating_sub(index * RECORD_LEN as u64) as usize;
            let (line_start, file_start) = starts.iter().rev().find(|(s, _)| *s <= r).copied().unwrap_or((0, 0));
            (file_start + r - line_start) as u64
        };
        let (diagram, mut findings) = Diagram::decode_checked(&record, index).map_err(|e| match e {
            Error::Data(mut d) => {
                d.location.offset = d.location.offset.map(to_file);
                Error::Data(d)
            }
            other => other,
        })?;
        for f in &mut findings {
            f.location.offset = f.location.offset.map(to_file);
        }
        if index == 0 {
            let at = Location { offset: Some(0), unit: tabiya_io::Unit::Record, number: Some(1), file: None };
            findings.insert(
                0,
                Diagnostic::warning(
                    "tbase.lf_line_ends",
                    at,
                    "LF line ends: read line by line (the records are written back with CR LF)",
                ),
            );
        }
        Ok(DiaRecord { bytes: record, diagram, findings })
    }
}

/// Where a byte of record `index` (0-based) is: file offset and 1-based record number.
pub(crate) fn location(index: u64, offset: usize) -> Location {
    Location {
        file: None,
        offset: Some(index * RECORD_LEN as u64 + offset as u64),
        unit: tabiya_io::Unit::Record,
        number: Some(index + 1),
    }
}

struct Fields<'a> {
    record: &'a [u8],
    index: u64,
    findings: Vec<Diagnostic>,
}

impl<'a> Fields<'a> {
    fn at(&self, offset: usize) -> Location {
        location(self.index, offset)
    }

    fn bytes(&self, (offset, len): (usize, usize)) -> &'a [u8] {
        &self.record[offset..offset + len]
    }

    fn error(&self, offset: usize, expected: impl Into<String>, found: &[u8]) -> Error {
        DataError::new(self.at(offset), expected).found(format!("{:?}", String::from_utf8_lossy(found))).into()
    }

    /// A Shift-JIS text field, trimmed of trailing ASCII and full-width spaces.
    fn text(&mut self, (offset, len): (usize, usize), name: &str) -> String {
        let bytes = self.bytes((offset, len));
        let mut i = 0;
        while i < bytes.len() {
            let lead = matches!(bytes[i], 0x81..=0x9F | 0xE0..=0xFC);
            if lead && i + 1 == bytes.len() {
                let at = self.at(offset + i);
                self.findings.push(Diagnostic::error("tbase.split_character", 
                    at,
                    format!("{name}: a field that ends on a whole Shift-JIS character, found a lead byte {:#04x} split by the field boundary", bytes[i]),
                ));
            }
            i += if lead { 2 } else { 1 };
        }
        let text = Codepage::ShiftJis.decode_strict(bytes).unwrap_or_else(|| {
            let at = self.at(offset);
            self.findings.push(Diagnostic::warning(
                "tbase.invalid_shift_jis",
                at,
                format!("{name}: invalid Shift-JIS, decoded with U+FFFD"),
            ));
            Codepage::ShiftJis.decode(bytes)
        });
        text.trim_end_matches([' ', '\u{3000}']).to_owned()
    }

    /// A number field: `None` when blank; a warning and `None` when not a number.
    fn number(&mut self, (offset, len): (usize, usize), name: &str) -> Option<u16> {
        let bytes = self.bytes((offset, len));
        let trimmed = bytes.trim_ascii();
        if trimmed.is_empty() {
            return None;
        }
        if trimmed.iter().all(u8::is_ascii_digit) {
            return trimmed.iter().try_fold(0u16, |n, &d| n.checked_mul(10)?.checked_add(u16::from(d - b'0')));
        }
        let finding = Diagnostic::warning(
            "tbase.not_digits",
            self.at(offset),
            format!("{name}: expected ASCII digits or blanks, found {:?}", Codepage::ShiftJis.decode(bytes)),
        );
        self.findings.push(finding);
        None
    }

    fn small_number(&mut self, place: (usize, usize), name: &str) -> Option<u8> {
        self.number(place, name).and_then(|n| u8::try_from(n).ok())
    }

    /// A square written as file digit + rank digit (`82` = 8二).
    fn square(&mut self, place: (usize, usize), name: &str) -> Option<Square> {
        let n = self.number(place, name)?;
        let square = Square::new((n / 10) as u8, (n % 10) as u8);
        if square.is_none() {
            self.findings.push(Diagnostic::warning(
                "tbase.square",
                self.at(place.0),
                format!("{name}: expected a square 11–99, found {n:02}"),
            ));
        }
        square
    }

    /// Digit counts: one digit per kind, the last kind (歩) two digits. Blanks count as 0.
    fn counts<const N: usize>(&self, (offset, _): (usize, usize), name: &str) -> Result<[u8; N], Error> {
        let mut counts = [0u8; N];
        for (i, count) in counts.iter_mut().enumerate() {
            let width = if i + 1 == N { 2 } else { 1 };
            let digits = self.bytes((offset + i, width));
            let mut value = 0u8;
            for &d in digits {
                value = value * 10
                    + match d {
                        b'0'..=b'9' => d - b'0',
                        b' ' => 0,
                        _ => return Err(self.error(offset + i, format!("{name}: ASCII digits"), digits)),
                    };
            }
            *count = value;
        }
        Ok(counts)
    }

    /// Compares a stored number with the value computed from the board.
    fn expect_number(&mut self, place: (usize, usize), name: &str, computed: u16, width: usize) {
        let stored = self.bytes(place);
        let expected = format!("{computed:0width$}");
        if stored != expected.as_bytes() {
            let found = Codepage::ShiftJis.decode(stored).into_owned();
            self.findings.push(Diagnostic::error(
                "tbase.checksum",
                self.at(place.0),
                format!("{name}: expected {expected}, found {found:?}"),
            ));
        }
    }
}

/// The digits of a piece-count field: one digit per kind, the last (歩) two digits.
pub(crate) fn count_digits(counts: &[u8]) -> String {
    let (pawns, rest) = counts.split_last().unwrap_or((&0, &[]));
    rest.iter().map(|c| c.to_string()).collect::<String>() + &format!("{pawns:02}")
}

fn total(counts: &[u8]) -> u16 {
    counts.iter().map(|&c| u16::from(c)).sum()
}

impl Diagram {
    /// Decodes one 330-byte record; `index` is its 0-based position in the file (for messages).
    pub fn decode(record: &[u8], index: u64) -> Result<Diagram, Error> {
        Diagram::decode_checked(record, index).map(|(diagram, _)| diagram)
    }

    /// Decodes one record and checks its derived fields (持駒数, 玉位置, 使用駒, 置駒), text fields
    /// that split a character, the piece totals, the HANTEN and SAKUJO marks.
    pub fn decode_checked(record: &[u8], index: u64) -> Result<(Diagram, Vec<Diagnostic>), Error> {
        if record.len() != super::RECORD_LEN {
            let expected = "a 330-byte record (the file size is not a multiple of 330)";
            return Err(DataError::new(location(index, 0), expected).found(format!("{} bytes", record.len())).into());
        }
        let mut f = Fields { record, index, findings: Vec::new() };
        for (line, &end) in field::LINE_ENDS.iter().enumerate() {
            let got = f.bytes((end, 2));
            if got != b"\r\n" {
                return Err(f.error(end, format!("CR LF ending line {}", [1, 3, 4][line]), got));
            }
        }
        let form = match f.bytes(field::FINAL_ATTACKER) {
            b"\r\n" => Form::FourLine,
            b if b.iter().all(|&c| c.is_ascii_digit() || c == b' ') => Form::ThreeLine,
            b => {
                let expected = "CR LF (4-line form) or 2 digits of 詰上り攻方駒数 (3-line form)";
                return Err(f.error(field::FINAL_ATTACKER.0, expected, b));
            }
        };
        let hand: [u8; 7] = f.counts(field::HAND, "持駒")?;
        let attacker_hand = board::hand_from_counts(hand);
        f.expect_number(field::HAND_TOTAL, "持駒数 (sum of the hand)", total(&hand), 2);
        let board = read_board(&f)?;
        let number = match f.number(field::NUMBER, "作品番号") {
            Some(n) => n,
            None => return Err(f.error(field::NUMBER.0, "作品番号: 4 ASCII digits", f.bytes(field::NUMBER))),
        };
        let mut diagram = Diagram {
            form,
            attacker_hand,
            number,
            author: f.text(field::AUTHOR, "作者名"),
            author_code: f.text(field::AUTHOR_CODE, "作者コード"),
            source: f.text(field::SOURCE, "出典"),
            source_code: f.text(field::SOURCE_CODE, "出典コード"),
            source_number: f.text(field::SOURCE_NUMBER, "出典中番号"),
            date: f.text(field::DATE, "発表年月"),
            moves: f.number(field::MOVES, "詰手数"),
            originality: f.small_number(field::ORIGINALITY, "オリジナル"),
            note: f.text(field::NOTE, "記事"),
            title: f.text(field::TITLE, "作品題名"),
            jissen: f.small_number(field::JISSEN, "実戦型"),
            completeness: f.small_number(field::COMPLETENESS, "完全性"),
            prizes: f.text(field::PRIZES, "入賞歴"),
            original_source: f.text(field::ORIGINAL_SOURCE, "作品原出典"),
            final_king: f.square(field::FINAL_KING, "詰上り玉位置"),
            final_pieces: f.small_number(field::FINAL_PIECES, "詰上り駒数"),
            final_attacker_pieces: match form {
                Form::ThreeLine => f.small_number(field::FINAL_ATTACKER, "詰上り攻方駒数"),
                Form::FourLine => None,
            },
            index: [0; 48],
            tail: [0; 39],
            board,
        };
        diagram.index.copy_from_slice(f.bytes(field::INDEX));
        diagram.tail.copy_from_slice(f.bytes(field::TAIL));
        check_derived(&mut f, &diagram, hand);
        Ok((diagram, f.findings))
    }
}

/// The board: file k is the k-th group of 9 cells (rank 一 first), each group followed by `/`.
fn read_board(f: &Fields<'_>) -> Result<PartialPosition, Error> {
    let mut position = PartialPosition::empty();
    for file in 1..=9u8 {
        let slash = field::cell(file, 9) + 1;
        if f.record[slash] != b'/' {
            return Err(f.error(slash, format!("'/' closing file {file} of the board"), &f.record[slash..=slash]));
        }
        for rank in 1..=9u8 {
            let at = field::cell(file, rank);
            let letter = f.record[at];
            let piece = letters::piece(letter).ok_or_else(|| {
                f.error(
                    at,
                    format!(
                        "a T-BASE piece letter (QASDFGHJZXCVBN, lowercase for the attacker, or space) on {file}{rank}"
                    ),
                    &[letter],
                )
            })?;
            if let Some(square) = Square::new(file, rank) {
                position.piece_set(square, piece);
            }
        }
    }
    Ok(position)
}

fn check_derived(f: &mut Fields<'_>, diagram: &Diagram, hand: [u8; 7]) {
    let kings = diagram.board.piece_bitboard(shogi_core::Piece::new(shogi_core::PieceKind::King, board::DEFENDER));
    let record_start = f.at(0);
    match kings.count() {
        1 => {}
        0 => f.findings.push(Diagnostic::error(
            "tbase.defender_king",
            record_start.clone(),
            "no defender king (Q) on the board",
        )),
        n => f.findings.push(Diagnostic::error(
            "tbase.defender_king",
            record_start.clone(),
            format!("{n} defender kings (Q) on the board"),
        )),
    }
    if let Err(kind) = diagram.position() {
        let what = format!(
            "more {} on the board and in the attacker's hand than a set has",
            crate::notation::japanese::piece_name(kind)
        );
        f.findings.push(Diagnostic::error("tbase.piece_totals", record_start, what));
    }
    let stored_king = f.bytes(field::KING).to_vec();
    if let Some(king) = diagram.king_square() {
        let square = |s: Square| format!("{}{}", s.file(), s.rank());
        if stored_king != square(king).as_bytes() {
            let mirrored = Square::new(10 - king.file(), king.rank()).map(square).unwrap_or_default();
            let found = String::from_utf8_lossy(&stored_king);
            let at = f.at(field::KING.0);
            if stored_king == mirrored.as_bytes() {
                f.findings.push(Diagnostic::warning("tbase.mirrored", 
                    at,
                    format!("玉位置 {found} matches only the mirrored board (king on {}): the diagram may be stored mirrored", square(king)),
                ));
            } else {
                f.findings.push(Diagnostic::error(
                    "tbase.king_square",
                    at,
                    format!("玉位置: expected {} (the Q on the board), found {found:?}", square(king)),
                ));
            }
        }
    }
    let on_board = board::board_counts(&diagram.board);
    let mut used = on_board;
    for (u, h) in used[1..].iter_mut().zip(hand) {
        *u = u.saturating_add(h);
    }
    let expect_digits = |f: &mut Fields<'_>, place: (usize, usize), name: &str, counts: &KindCounts| {
        let expected = count_digits(counts);
        let stored = f.bytes(place);
        if stored != expected.as_bytes() {
            let found = String::from_utf8_lossy(stored).into_owned();
            f.findings.push(Diagnostic::error(
                "tbase.checksum",
                f.at(place.0),
                format!("{name}: expected {expected}, found {found:?}"),
            ));
        }
    };
    expect_digits(f, field::USED_KINDS, "使用駒種類 (玉飛角金銀桂香歩)", &used);
    f.expect_number(field::USED_TOTAL, "使用駒数", total(&used), 2);
    expect_digits(f, field::BOARD_KINDS, "置駒種類 (玉飛角金銀桂香歩)", &on_board);
    f.expect_number(field::BOARD_TOTAL, "置駒数", total(&on_board), 2);
    if diagram.hanten() != b' ' {
        f.findings.push(Diagnostic::warning(
            "tbase.hanten",
            f.at(311),
            "HANTEN is set: the diagram may be stored mirrored (read as stored)",
        ));
    }
    if diagram.sakujo() != b' ' {
        f.findings.push(Diagnostic::warning(
            "tbase.sakujo",
            f.at(312),
            "SAKUJO is set: the record may be marked deleted",
        ));
    }
}
