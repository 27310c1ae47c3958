//! Writing Wthor files: the counts in the header always agree with the records written.

use std::io;
use std::path::Path;

use tabiya_io::Transaction;

use super::game::{GameRecord, GamesFile};
use super::header::HEADER_LEN;
use super::names::NameFile;
use super::solitaire::{PRESENCE_TABLE_LEN, Solitaire, SolitaireFile};

impl<const M: usize> GameRecord<M> {
    /// Appends the record's bytes to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.tournament.to_le_bytes());
        out.extend_from_slice(&self.black.to_le_bytes());
        out.extend_from_slice(&self.white.to_le_bytes());
        out.push(self.real_score);
        out.push(self.theoretical_score);
        out.extend_from_slice(&self.moves);
    }
}

/// The stem of the Wthor files of `dir`: its game files and the name files `WTHOR.JOU` and
/// `WTHOR.TRN` that they all index into change under one lock and journal, `dir/.WTHOR.*`.
fn stem(dir: &Path) -> std::path::PathBuf {
    dir.join("WTHOR")
}

/// Locks the Wthor files of `dir` for writing (a second writer waits) and completes or clears
/// what an interrupted writer left: a game file and the names it adds are then committed
/// together, so a kill never leaves games whose names are missing.
pub fn begin_write(dir: &Path) -> io::Result<Transaction> {
    Transaction::begin(&stem(dir), || {})
}

/// Completes a commit of the Wthor files of `dir` that a killed writer left, for a reader.
pub fn recover(dir: &Path) -> io::Result<()> {
    Transaction::recover(&stem(dir)).map(drop)
}

/// N1 for `count` records; files hold at most [`MAX_RECORDS`](super::MAX_RECORDS).
fn record_count(count: usize) -> u32 {
    u32::try_from(count).ok().filter(|&n| n <= super::MAX_RECORDS).expect("more records than a Wthor file holds")
}

impl<const M: usize> GamesFile<M> {
    /// The file's bytes; N1 is the number of games.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.games.len() * GameRecord::<M>::LEN);
        let header = super::Header { n1: record_count(self.games.len()), ..self.header };
        out.extend_from_slice(&header.to_bytes());
        for game in &self.games {
            game.write_to(&mut out);
        }
        out
    }

    /// Writes the file atomically.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        tabiya_io::write_atomic(path, &self.to_bytes())
    }
}

impl NameFile {
    /// The file's bytes; N2 is the number of names.
    pub fn to_bytes(&self) -> Vec<u8> {
        // `append` refuses the 65,536th name, so the count fits.
        let header = super::Header { n2: self.len() as u16, ..self.header };
        let mut out = header.to_bytes().to_vec();
        out.extend_from_slice(self.records());
        out
    }

    /// Writes the file atomically.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        tabiya_io::write_atomic(path, &self.to_bytes())
    }
}

impl Solitaire {
    /// Appends the 36-byte record to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.year.to_le_bytes());
        out.extend_from_slice(&self.tournament.to_le_bytes());
        out.extend_from_slice(&self.black.to_le_bytes());
        out.extend_from_slice(&self.white.to_le_bytes());
        out.extend_from_slice(&self.position);
        out.extend_from_slice(&[
            self.empties,
            self.side_to_move,
            self.score as u8,
            self.best_move,
            self.real_score,
            self.played_move,
        ]);
        out.extend_from_slice(&self.reserved);
    }
}

impl SolitaireFile {
    /// The presence table for a file of `n1` solitaires with this header's N2.
    pub(super) fn presence_table_for(&self, n1: u32) -> [u8; PRESENCE_TABLE_LEN] {
        let mut table = [0; PRESENCE_TABLE_LEN];
        let entry = usize::from(self.header.n2);
        if (1..=64).contains(&entry) {
            table[(entry - 1) * 4..entry * 4].copy_from_slice(&n1.to_le_bytes());
        }
        table
    }

    /// The file's bytes: header (N1 = number of solitaires), 256-byte presence table, records.
    pub fn to_bytes(&self) -> Vec<u8> {
        let n1 = record_count(self.solitaires.len());
        let header = super::Header { n1, ..self.header };
        let mut out = Vec::with_capacity(HEADER_LEN + PRESENCE_TABLE_LEN + self.solitaires.len() * Solitaire::LEN);
        out.extend_from_slice(&header.to_bytes());
        out.extend_from_slice(&self.presence_table_for(n1));
        for s in &self.solitaires {
            s.write_to(&mut out);
        }
        out
    }

    /// Writes the file atomically.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        tabiya_io::write_atomic(path, &self.to_bytes())
    }
}
