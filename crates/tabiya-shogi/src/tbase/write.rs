//! Writing `.dia` records: every field at its offset, the derived fields computed from the
//! board; and putting a set's files in place together.

use std::io;
use std::path::Path;

use shogi_core::Square;
use tabiya_io::{AtomicFile, Codepage, DataError, Location, Transaction};

use super::read::count_digits;
use super::{Diagram, Form, RECORD_LEN, field, letters};
use crate::Error;
use crate::board;

/// Locks the set whose `.dia` is `dia` for writing (a second writer waits) and completes what
/// an interrupted writer left, for [`commit_set`].
pub fn begin_set(dia: &Path) -> io::Result<Transaction> {
    Transaction::begin(&dia.with_extension(""), || {})
}

/// Puts the files of the set whose `.dia` is `dia` in place as one commit of `transaction`
/// (from [`begin_set`]; a kill leaves the old set or the new one, whole, for the next
/// [`FileSet::read`](super::FileSet::read)): `files` in the order
/// [`convert`](crate::convert::convert) gives them (`.tjn` and `.rem` first, the `.dia` last);
/// a `.tjn` or `.rem` of the old set that the new one lacks is removed in the same commit.
pub fn commit_set(mut transaction: Transaction, dia: &Path, files: &[crate::convert::OutputFile]) -> io::Result<()> {
    for ext in ["tjn", "rem", "TJN", "REM"] {
        let companion = dia.with_extension(ext);
        if !files.iter().any(|f| f.path == companion) {
            transaction.remove(companion);
        }
    }
    let staged = files.iter().map(|f| AtomicFile::with_bytes(&f.path, &f.bytes)).collect::<io::Result<_>>()?;
    transaction.commit(staged)
}

struct Record {
    bytes: [u8; RECORD_LEN],
    number: u16,
}

impl Record {
    fn error(&self, expected: String, found: impl Into<String>) -> Error {
        DataError::new(Location::default(), format!("作品番号 {:04}: {expected}", self.number)).found(found).into()
    }

    fn put(&mut self, (offset, len): (usize, usize), bytes: &[u8], name: &str) -> Result<(), Error> {
        if bytes.len() > len {
            let found = Codepage::ShiftJis.decode(bytes).into_owned();
            return Err(self.error(format!("{name} of at most {len} bytes"), found));
        }
        self.bytes[offset..offset + bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    fn text(&mut self, place: (usize, usize), text: &str, name: &str) -> Result<(), Error> {
        let bytes = Codepage::ShiftJis
            .encode(text)
            .map_err(|c| self.error(format!("{name} in Shift-JIS (CP932)"), format!("{c:?}")))?;
        self.put(place, &bytes, name)
    }

    fn number(&mut self, place: (usize, usize), value: Option<u16>, name: &str) -> Result<(), Error> {
        match value {
            Some(n) => self.put(place, format!("{n:0width$}", width = place.1).as_bytes(), name),
            None => Ok(()),
        }
    }

    fn counts(&mut self, place: (usize, usize), counts: &[u8], name: &str) -> Result<(), Error> {
        let (pawns, rest) = counts.split_last().unwrap_or((&0, &[]));
        if *pawns > 99 || rest.iter().any(|&c| c > 9) {
            return Err(self.error(format!("{name}: at most 9 of a kind (99 歩)"), format!("{counts:?}")));
        }
        self.put(place, count_digits(counts).as_bytes(), name)
    }
}

fn square_number(square: Option<Square>) -> Option<u16> {
    square.map(|s| u16::from(s.file()) * 10 + u16::from(s.rank()))
}

impl Diagram {
    /// The 330-byte record of this diagram. Text must fit its field in Shift-JIS; the derived
    /// fields are computed from the board and the attacker's hand.
    pub fn encode(&self) -> Result<[u8; RECORD_LEN], Error> {
        let mut r = Record { bytes: [b' '; RECORD_LEN], number: self.number };
        for end in field::LINE_ENDS {
            r.bytes[end..end + 2].copy_from_slice(b"\r\n");
        }
        let hand = board::hand_counts(self.attacker_hand);
        r.counts(field::HAND, &hand, "持駒")?;
        r.number(field::HAND_TOTAL, Some(hand.iter().map(|&c| u16::from(c)).sum()), "持駒数")?;
        for file in 1..=9u8 {
            for rank in 1..=9u8 {
                let piece = Square::new(file, rank).and_then(|s| self.board.piece_at(s));
                r.bytes[field::cell(file, rank)] = letters::letter(piece);
            }
            r.bytes[field::cell(file, 9) + 1] = b'/';
        }
        if self.number > 9999 {
            return Err(r.error("作品番号 0001–9999".into(), self.number.to_string()));
        }
        r.number(field::NUMBER, Some(self.number), "作品番号")?;
        r.text(field::AUTHOR, &self.author, "作者名")?;
        r.text(field::AUTHOR_CODE, &self.author_code, "作者コード")?;
        r.text(field::SOURCE, &self.source, "出典")?;
        r.text(field::SOURCE_CODE, &self.source_code, "出典コード")?;
        r.text(field::SOURCE_NUMBER, &self.source_number, "出典中番号")?;
        r.text(field::DATE, &self.date, "発表年月")?;
        r.number(field::KING, square_number(self.king_square()), "玉位置")?;
        r.number(field::MOVES, self.moves, "詰手数")?;
        r.number(field::ORIGINALITY, self.originality.map(u16::from), "オリジナル")?;
        let on_board = board::board_counts(&self.board);
        let mut used = on_board;
        for (u, h) in used[1..].iter_mut().zip(hand) {
            *u = u.saturating_add(h);
        }
        let sum = |counts: &[u8]| Some(counts.iter().map(|&c| u16::from(c)).sum());
        r.number(field::USED_TOTAL, sum(&used), "使用駒数")?;
        r.counts(field::USED_KINDS, &used, "使用駒種類")?;
        r.text(field::NOTE, &self.note, "記事")?;
        r.text(field::TITLE, &self.title, "作品題名")?;
        r.number(field::JISSEN, self.jissen.map(u16::from), "実戦型")?;
        r.number(field::COMPLETENESS, self.completeness.map(u16::from), "完全性")?;
        r.text(field::PRIZES, &self.prizes, "入賞歴")?;
        r.text(field::ORIGINAL_SOURCE, &self.original_source, "作品原出典")?;
        r.number(field::FINAL_KING, square_number(self.final_king), "詰上り玉位置")?;
        r.number(field::FINAL_PIECES, self.final_pieces.map(u16::from), "詰上り駒数")?;
        match self.form {
            Form::FourLine => r.put(field::FINAL_ATTACKER, b"\r\n", "line end")?,
            Form::ThreeLine => {
                r.number(field::FINAL_ATTACKER, self.final_attacker_pieces.map(u16::from), "詰上り攻方駒数")?
            }
        }
        r.put(field::INDEX, &self.index, "index fields")?;
        r.counts(field::BOARD_KINDS, &on_board, "置駒種類")?;
        r.number(field::BOARD_TOTAL, sum(&on_board), "置駒数")?;
        r.put(field::TAIL, &self.tail, "last line")?;
        Ok(r.bytes)
    }
}
