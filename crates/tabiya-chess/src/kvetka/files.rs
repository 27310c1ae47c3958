//! The files of one book: `stem_0.kob`, `stem_1.kob`, …, `stem.kin`, `stem.ksf`.

use std::path::{Path, PathBuf};

use tabiya_io::Transaction;

use super::KvetkaError;

/// The paths of a book, derived from any of its files or its stem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookFiles {
    /// `dir/book_name`: every file name is this plus a suffix.
    pub stem: PathBuf,
}

impl BookFiles {
    /// From `book_0.kob`, `book_3.kob`, `book.kin`, `book.ksf`, `book.kob` or `book`.
    pub fn new(path: &Path) -> BookFiles {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let stem = match name.rsplit_once('.') {
            Some((base, "kob")) => match base.rsplit_once('_') {
                Some((stem, number)) if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => stem,
                _ => base,
            },
            Some((base, "kin" | "ksf")) => base,
            _ => name.as_str(),
        };
        BookFiles { stem: path.with_file_name(stem) }
    }

    fn with_suffix(&self, suffix: &str) -> PathBuf {
        let mut name = self.stem.file_name().unwrap_or_default().to_os_string();
        name.push(suffix);
        self.stem.with_file_name(name)
    }

    /// Part file `number` (`stem_N.kob`).
    pub fn part(&self, number: usize) -> PathBuf {
        self.with_suffix(&format!("_{number}.kob"))
    }

    /// The `.kin`.
    pub fn kin(&self) -> PathBuf {
        self.with_suffix(".kin")
    }

    /// The `.ksf`.
    pub fn ksf(&self) -> PathBuf {
        self.with_suffix(".ksf")
    }

    /// The part files that exist, numbered consecutively from 0.
    pub fn existing_parts(&self) -> Vec<PathBuf> {
        (0..).map(|n| self.part(n)).take_while(|p| p.is_file()).collect()
    }

    /// A part numbered beyond the first gap (`book_0`, `book_2` without `book_1`), if any.
    pub fn part_after_gap(&self) -> Option<PathBuf> {
        self.parts_from(self.existing_parts().len() + 1).into_iter().next()
    }

    /// Every part file `stem_N.kob` in the directory numbered `first` or more, gaps or not.
    pub fn parts_from(&self, first: usize) -> Vec<PathBuf> {
        let dir = match self.stem.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let Some(prefix) = self.stem.file_name().map(|n| format!("{}_", n.to_string_lossy())) else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
        entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                name.strip_prefix(&prefix)
                    .and_then(|rest| rest.strip_suffix(".kob"))
                    .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|n| n.parse::<usize>().ok())
                    .is_some_and(|n| n >= first)
            })
            .collect()
    }

    /// Locks the book for writing and completes or clears what an interrupted writer left
    /// (see [`Transaction`]); a second writer waits.
    pub fn begin(&self) -> Result<Transaction, KvetkaError> {
        Transaction::begin(&self.stem, || {}).map_err(|e| KvetkaError::io(self.kin(), e))
    }

    /// Completes a commit that a killed writer left, so that a reader finds the old book or
    /// the new one, whole.
    pub fn recover(&self) -> Result<(), KvetkaError> {
        Transaction::recover(&self.stem).map(drop).map_err(|e| KvetkaError::io(self.kin(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_name_leads_to_the_stem() {
        for name in ["dir/book_0.kob", "dir/book_12.kob", "dir/book.kin", "dir/book.ksf", "dir/book.kob", "dir/book"] {
            assert_eq!(BookFiles::new(Path::new(name)).stem, Path::new("dir/book"), "{name}");
        }
        let files = BookFiles::new(Path::new("my_book_2.kob"));
        assert_eq!(files.part(0), Path::new("my_book_0.kob"));
        assert_eq!(files.kin(), Path::new("my_book.kin"));
    }
}
