//! Every format of every game crate, under one name for the command line: sniffing a file asks
//! each family in turn, and `--from`/`--to` names resolve in the family of the input. Parquet
//! (tabiya-arrow) is a table of any family's games: a family of its own.

use std::fmt;
use std::path::{Path, PathBuf};

use tabiya_io::Head;

/// A format of one of the three families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Chess(tabiya_chess::Format),
    Othello(tabiya_othello::Format),
    Shogi(tabiya_shogi::Format),
    /// Apache Parquet: chess games and moves, Wthor games and positions, T-BASE problems.
    Parquet,
}

/// The game a format belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Chess,
    Othello,
    Shogi,
    /// Tables of any game's records (Parquet).
    Table,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Chess(f) => f.name(),
            Format::Othello(f) => f.name(),
            Format::Shogi(f) => f.name(),
            Format::Parquet => "parquet",
        }
    }

    /// The extensions of the format's files, the usual one first.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Chess(f) => f.extensions(),
            Format::Othello(f) => f.extensions(),
            Format::Shogi(f) => f.extensions(),
            Format::Parquet => &["parquet"],
        }
    }

    pub fn family(self) -> Family {
        match self {
            Format::Chess(_) => Family::Chess,
            Format::Othello(_) => Family::Othello,
            Format::Shogi(_) => Family::Shogi,
            Format::Parquet => Family::Table,
        }
    }

    /// The format named by `--from`/`--to` (a name or an extension), looked up first in
    /// `family` (the input's, for an output: `jsonl` is chess, Othello or shogi JSON Lines).
    pub fn from_name(name: &str, family: Option<Family>) -> Option<Format> {
        let chess = || tabiya_chess::Format::from_name(name).map(Format::Chess);
        let othello = || tabiya_othello::Format::from_name(name).map(Format::Othello);
        let shogi = || tabiya_shogi::Format::from_name(name).map(Format::Shogi);
        if name.eq_ignore_ascii_case("parquet") {
            return Some(Format::Parquet);
        }
        match family {
            Some(Family::Othello) => othello().or_else(chess).or_else(shogi),
            Some(Family::Shogi) => shogi().or_else(chess).or_else(othello),
            Some(Family::Chess | Family::Table) | None => chess().or_else(othello).or_else(shogi),
        }
    }

    /// Names a file's format from its head: the Othello and shogi formats by their extensions
    /// (checked against record sizes; Othello's JSON Lines by a first line with a transcript
    /// as its moves), everything else by chess's magic bytes and extensions; a head whose
    /// extension no family knows (a stream) by its content, chess's looks first, then
    /// Othello's, then shogi's.
    pub fn sniff(head: &Head) -> Option<Format> {
        use tabiya_othello::Format as O;
        if head.bytes.starts_with(tabiya_arrow::MAGIC) {
            return Some(Format::Parquet);
        }
        use tabiya_shogi::Format as S;
        match O::from_extension(&head.extension) {
            Some(O::JsonLines) if O::sniff(head).is_some() => return Some(Format::Othello(O::JsonLines)),
            Some(O::JsonLines) | None => {}
            Some(_) => return O::sniff(head).map(Format::Othello),
        }
        if S::from_extension(&head.extension).is_some_and(|f| f != S::JsonLines) {
            return S::sniff(head).map(Format::Shogi);
        }
        // Chess names every head with a chess extension; what it leaves has an extension no
        // family knows (a stream: `-`, a FIFO, `<(…)`): Othello's and shogi's content next.
        tabiya_chess::Format::sniff(head)
            .map(Format::Chess)
            .or_else(|| O::by_content(head).map(Format::Othello))
            .or_else(|| S::by_content(head).map(Format::Shogi))
    }

    /// The file that names a multi-file format given by its stem, in any family.
    pub fn find_by_stem(stem: &Path) -> Option<PathBuf> {
        tabiya_chess::Format::find_by_stem(stem)
            .or_else(|| tabiya_othello::Format::find_by_stem(stem))
            .or_else(|| tabiya_shogi::Format::find_by_stem(stem))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
