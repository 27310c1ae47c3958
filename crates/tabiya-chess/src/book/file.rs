//! A book on disk, whatever its format: opened once, then probed, described and verified
//! through one interface that answers with the report types of [`tabiya_io::report`].

use std::path::{Path, PathBuf};

use shakmaty::Chess;
use tabiya_io::report::{Info, Probe, Verification};

use crate::Format;
use crate::ctg::{self, CtgError, Weights};
use crate::kvetka::{self, KvetkaError, conventions::ReadOptions};
use crate::polyglot::{self, Entry, PolyglotError};
use crate::tree::{Tree, TreeError};

/// An opened Polyglot, CTG or Kvetka book, or a position tree.
#[derive(Debug)]
pub enum BookFile {
    /// A Polyglot `.bin`, all entries in memory (16 bytes each).
    Polyglot {
        /// The file as it was named.
        path: PathBuf,
        /// Its entries, in file order.
        entries: Vec<Entry>,
    },
    /// A ChessBase `.ctg` with its `.cto`/`.ctb` (memory-mapped).
    Ctg {
        /// The book.
        book: ctg::Book,
        /// How a probe weights its moves ([`BookFile::with_ctg_weights`]).
        weights: Weights,
    },
    /// A Kvetka book (`.kob` parts, `.kin`, `.ksf`), read block by block as probes need.
    Kvetka(kvetka::BookReader),
    /// The explorer's position tree (memory-mapped), probed like a book.
    Tree(Tree),
}

/// Why a book cannot be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file cannot be read.
    #[error(transparent)]
    Io(#[from] tabiya_io::Error),
    /// A Polyglot book that cannot be read.
    #[error(transparent)]
    Polyglot(#[from] PolyglotError),
    /// A CTG book that cannot be read.
    #[error(transparent)]
    Ctg(#[from] CtgError),
    /// A Kvetka book that cannot be read.
    #[error(transparent)]
    Kvetka(#[from] KvetkaError),
    /// A tree that cannot be read.
    #[error(transparent)]
    Tree(#[from] TreeError),
    /// The file is not a book tabiya knows.
    #[error("{}: not an opening book ({})", path.display(), format.map_or("format not recognised", Format::name))]
    NotABook {
        /// The file.
        path: PathBuf,
        /// What it is instead, when known.
        format: Option<Format>,
    },
}

impl BookFile {
    /// Opens the book in `path` (or the stem of a multi-file book), its format found from its
    /// first bytes and name.
    pub fn open(path: &Path) -> Result<BookFile, BookError> {
        let file = if path.exists() { path.to_path_buf() } else { Format::find_by_stem(path).unwrap_or(path.into()) };
        let head = tabiya_io::Head::read(&file).map_err(|e| tabiya_io::Error::io(&file, e))?;
        match Format::sniff(&head) {
            Some(format) => BookFile::open_as(&file, format),
            None => Err(BookError::NotABook { path: file, format: None }),
        }
    }

    /// Opens `path` as a book of `format`.
    pub fn open_as(path: &Path, format: Format) -> Result<BookFile, BookError> {
        Ok(match format {
            Format::Polyglot => {
                let bytes = tabiya_io::read_input(path)?;
                BookFile::Polyglot { path: path.to_path_buf(), entries: polyglot::read_entries(&bytes, Some(path))? }
            }
            Format::Ctg => BookFile::Ctg { book: ctg::Book::open(path)?, weights: Weights::default() },
            Format::Kvetka => BookFile::Kvetka(kvetka::BookReader::open(path, ReadOptions::default())?),
            Format::Tree => BookFile::Tree(Tree::open(path)?),
            other => return Err(BookError::NotABook { path: path.to_path_buf(), format: Some(other) }),
        })
    }

    /// Sets how a CTG book weights its moves (other formats store their weights).
    pub fn with_ctg_weights(mut self, rule: Weights) -> BookFile {
        if let BookFile::Ctg { weights, .. } = &mut self {
            *weights = rule;
        }
        self
    }

    /// The book's format.
    pub fn format(&self) -> Format {
        match self {
            BookFile::Polyglot { .. } => Format::Polyglot,
            BookFile::Ctg { .. } => Format::Ctg,
            BookFile::Kvetka(_) => Format::Kvetka,
            BookFile::Tree(_) => Format::Tree,
        }
    }

    /// The book's moves for `pos`, in the book's own order, each with its weight and, where
    /// the book counts games, W/D/L from the point of view of the side that plays it; the
    /// format's raw fields ride along. What the look-up met (collisions, illegal stored
    /// moves, deviations found while opening) is in `problems`.
    pub fn probe(&self, pos: &Chess) -> Result<Probe, BookError> {
        Ok(match self {
            BookFile::Polyglot { path, entries } => polyglot::probe_report(path, entries, pos),
            BookFile::Ctg { book, weights } => book.probe_report(pos, *weights)?,
            BookFile::Kvetka(reader) => kvetka::probe::probe_report(reader, pos)?,
            BookFile::Tree(tree) => tree.probe(pos)?,
        })
    }

    /// What the book holds and its header fields.
    pub fn info(&self) -> Result<Info, BookError> {
        Ok(match self {
            BookFile::Polyglot { path, entries } => polyglot::info(path, entries),
            BookFile::Ctg { book, .. } => ctg::info(book)?,
            BookFile::Kvetka(reader) => kvetka::info(&reader.files().part(0))?,
            BookFile::Tree(tree) => tree.info(),
        })
    }

    /// The format's integrity checks.
    pub fn verify(&self) -> Verification {
        match self {
            BookFile::Polyglot { path, entries } => polyglot::verification(path, entries),
            BookFile::Ctg { book, .. } => ctg::verify(book),
            BookFile::Kvetka(reader) => kvetka::verify(&reader.files().part(0)),
            BookFile::Tree(tree) => tree.verify(),
        }
    }
}
