//! Shogi notations: SFEN positions, the Japanese move notation (T-BASE, KI2, KIF moves), and the
//! KIF, KI2 and CSA records, all read into and written from [`Kifu`].
//!
//! ```
//! use tabiya_shogi::board::usi;
//! use tabiya_shogi::notation::japanese::{Style, parse_tokens, resolve_line, write_line};
//! use tabiya_shogi::notation::sfen;
//!
//! let start = sfen::parse("7gl/8k/9/5+R3/4B4/9/9/9/9 b GPrb2g4s4n3l17p 1").unwrap();
//! let moves = resolve_line(&start, &parse_tokens("14龍13金合22金同金").unwrap()).unwrap();
//! assert_eq!(moves.iter().map(|&m| usi(m)).collect::<Vec<_>>(), ["4d1d", "G*1c", "G*2b", "2a2b"]);
//! assert_eq!(write_line(&start, &moves, Style::Ki2), ["１四龍", "１三金", "２二金", "同　金"]);
//! ```

pub mod csa;
pub mod handicap;
pub mod japanese;
pub mod kif;
pub mod sfen;

use shogi_core::{Move, PartialPosition};
use tabiya_io::{Diagnostic, Location, Unit};

use crate::{Error, Format};

/// A game or tsume record as KIF, KI2 and CSA hold it: header fields in file order, the start
/// position (hands included), the moves, and the comment lines on the start position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kifu {
    /// `(key, value)` in file order: for tsume `作品番号`, `作品名`, `作者`, `発表誌`, `発表年月`,
    /// `手数`, `完全性`, …
    pub headers: Vec<(String, String)>,
    /// The start position, hands and side to move included.
    pub start: PartialPosition,
    /// The main line, every move legal.
    pub moves: Vec<Move>,
    /// The comment lines on the start position.
    pub comments: Vec<String>,
    /// Comment lines on moves: `(n, line)` follows the n-th move (KIF's and KI2's `*` lines,
    /// CSA's `'*` lines after a move), in file order.
    pub move_comments: Vec<(usize, String)>,
    /// How the record says the game ended (`投了`, `%TORYO`, `詰み`, …), when it says.
    pub end: Option<Ending>,
    /// The time of each move (index `n - 1` for the n-th move), then of the ending line (index
    /// `moves.len()`): KIF's time column, CSA's `T`. Shorter than the moves, or empty, where the
    /// record gives no time.
    pub times: Vec<Option<MoveTime>>,
    /// The lines that branch off the main line (KIF's and KI2's `変化：N手` blocks), in file
    /// order; each holds the lines that branch off it in turn.
    pub variations: Vec<Variation>,
}

/// The time a move took, as KIF's time column (`( 0:16/00:00:16)`: this move, and the mover's
/// running total) and CSA's `T16` (this move only) say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MoveTime {
    /// Seconds the move took.
    pub seconds: u32,
    /// The mover's total in seconds after the move, when the record states it (KIF does, CSA
    /// does not).
    pub total: Option<u32>,
}

/// A line of play that branches off another: its moves replace that line's moves from move
/// number `ply` on (KIF's `変化：N手`, N = `ply`). The alternatives to a variation's first move
/// are its siblings in the list that holds it, in file order, as KIF writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variation {
    /// The number of its first move in the game (1 for an alternative first move).
    pub ply: usize,
    /// Its moves, every one legal.
    pub moves: Vec<Move>,
    /// As [`Kifu::times`]: index `i` is move number `ply + i`, then the ending.
    pub times: Vec<Option<MoveTime>>,
    /// As [`Kifu::move_comments`], `n` the move's number in the game (`ply - 1` for lines
    /// before its first move).
    pub move_comments: Vec<(usize, String)>,
    /// How the line ends, when it says (`投了`, …).
    pub end: Option<Ending>,
    /// The lines that branch off its second and later moves.
    pub variations: Vec<Variation>,
}

impl Variation {
    /// An empty variation from move number `ply`.
    pub fn new(ply: usize) -> Variation {
        Variation {
            ply,
            moves: Vec::new(),
            times: Vec::new(),
            move_comments: Vec::new(),
            end: None,
            variations: Vec::new(),
        }
    }

    /// Every variation in it and below, itself included.
    pub fn count(&self) -> usize {
        1 + self.variations.iter().map(Variation::count).sum::<usize>()
    }
}

/// Sets `times[index]`, growing the list with `None` up to it.
pub(crate) fn set_time(times: &mut Vec<Option<MoveTime>>, index: usize, time: MoveTime) {
    if times.len() <= index {
        times.resize(index + 1, None);
    }
    times[index] = Some(time);
}

/// How a game ended, as KIF's last move line and CSA's `%` statement say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// 投了, `%TORYO`: the side to move resigned.
    Resign,
    /// 中断, `%CHUDAN`: the game was stopped.
    Interrupt,
    /// 千日手, `%SENNICHITE`: fourfold repetition.
    Repetition,
    /// 持将棋, `%JISHOGI`: impasse.
    Impasse,
    /// 切れ負け, `%TIME_UP`: the side to move lost on time.
    TimeUp,
    /// 反則負け, `%ILLEGAL_MOVE`: the side to move lost by an illegal move.
    IllegalMove,
    /// 入玉勝ち, `%KACHI`: the side to move declared a win by entering king.
    EnteringKing,
    /// 詰み, `%TSUMI`: the side to move is mated.
    Mate,
    /// 不詰, `%FUZUMI`: no mate (tsume).
    NoMate,
    /// 封じ手: the game was adjourned with a sealed move. CSA (V2.2 and V3.0) has no statement
    /// for it: it is written `%CHUDAN` (what the game is to a reader that knows no more) followed
    /// by the comment line `'封じ手`, which tabiya reads back as this ending.
    Sealed,
}

impl Ending {
    /// Every ending, with its KIF word and its CSA statement.
    pub const ALL: [(Ending, &'static str, &'static str); 10] = [
        (Ending::Resign, "投了", "%TORYO"),
        (Ending::Interrupt, "中断", "%CHUDAN"),
        (Ending::Repetition, "千日手", "%SENNICHITE"),
        (Ending::Impasse, "持将棋", "%JISHOGI"),
        (Ending::TimeUp, "切れ負け", "%TIME_UP"),
        (Ending::IllegalMove, "反則負け", "%ILLEGAL_MOVE"),
        (Ending::EnteringKing, "入玉勝ち", "%KACHI"),
        (Ending::Mate, "詰み", "%TSUMI"),
        (Ending::NoMate, "不詰", "%FUZUMI"),
        (Ending::Sealed, "封じ手", "%CHUDAN"),
    ];

    /// The KIF word (`投了`).
    pub fn kif(self) -> &'static str {
        Ending::ALL.iter().find(|e| e.0 == self).map_or("中断", |e| e.1)
    }

    /// The CSA statement (`%TORYO`).
    pub fn csa(self) -> &'static str {
        Ending::ALL.iter().find(|e| e.0 == self).map_or("%CHUDAN", |e| e.2)
    }

    /// The ending a KIF move text starts with (`投了`, `反則負け`; `詰` alone for 詰み).
    pub fn from_kif(text: &str) -> Option<Ending> {
        Ending::ALL.iter().find(|e| text.starts_with(e.1)).map(|e| e.0).or_else(|| {
            let word = text.split_whitespace().next().unwrap_or("");
            (word == "詰").then_some(Ending::Mate)
        })
    }

    /// The ending of a CSA `%` statement.
    pub fn from_csa(statement: &str) -> Option<Ending> {
        Ending::ALL.iter().find(|e| e.2 == statement).map(|e| e.0)
    }
}

impl Kifu {
    /// An empty record from `start`.
    pub fn new(start: PartialPosition) -> Kifu {
        Kifu {
            headers: Vec::new(),
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            move_comments: Vec::new(),
            end: None,
            times: Vec::new(),
            variations: Vec::new(),
        }
    }

    /// The time of the `n`-th move (`moves.len() + 1`: the ending line's), when it is given.
    pub fn time_of(&self, n: usize) -> Option<MoveTime> {
        self.times.get(n.checked_sub(1)?).copied().flatten()
    }

    /// The number of variations, nested ones included.
    pub fn variation_count(&self) -> usize {
        self.variations.iter().map(Variation::count).sum()
    }

    /// The ending to write: the stated one, else 詰み when the moves end in mate.
    pub fn written_end(&self) -> Option<Ending> {
        self.end.or_else(|| (!self.moves.is_empty() && self.ends_in_mate()).then_some(Ending::Mate))
    }

    /// What `verify` finds in a record of `format` that read: a stated 詰み that is not mate, a
    /// `手数` header (tsume) that differs from the number of moves.
    pub fn check(&self, format: Format, at: Location) -> Vec<Diagnostic> {
        let (not_mate, move_count) = match format {
            Format::Kif => ("kif.not_mate", "kif.move_count"),
            Format::Ki2 => ("ki2.not_mate", "ki2.move_count"),
            _ => ("csa.not_mate", "csa.move_count"),
        };
        let mut found = Vec::new();
        if self.end == Some(Ending::Mate) && !self.ends_in_mate() {
            found.push(Diagnostic::error(not_mate, at.clone(), "the record ends 詰み, the last position is not mate"));
        }
        if let Some(stated) = self.header("手数").and_then(|n| n.trim().parse::<usize>().ok())
            && stated != self.moves.len()
        {
            let what = format!("手数 is {stated}, the record has {} moves", self.moves.len());
            found.push(Diagnostic::error(move_count, at, what));
        }
        found
    }

    /// The comment lines on the `n`-th move.
    pub fn comments_on(&self, n: usize) -> impl Iterator<Item = &str> {
        self.move_comments.iter().filter(move |(ply, _)| *ply == n).map(|(_, text)| text.as_str())
    }

    /// The value of a header field.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The position after every move, and whether the side to move there is mated.
    pub fn ends_in_mate(&self) -> bool {
        let mut position = self.start.clone();
        for &mv in &self.moves {
            if position.make_move(mv).is_none() {
                return false;
            }
        }
        crate::board::is_mate(&position)
    }
}

/// A text-format error of code `code`: byte offset of the line, its number, what was expected
/// and what was there.
fn line_error(code: &'static str, offset: usize, line: usize, expected: impl std::fmt::Display, found: &str) -> Error {
    let location = Location::of(Unit::Line, line as u64).with_offset(offset as u64);
    Error::Record(Diagnostic::error(code, location, format!("expected {expected}, found {found:?}")))
}

/// The lines of a text with their byte offsets and 1-based numbers, CR LF or LF.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let mut offset = 0;
    text.split('\n').enumerate().map(move |(i, line)| {
        let start = offset;
        offset += line.len() + 1;
        (start, i + 1, line.strip_suffix('\r').unwrap_or(line))
    })
}
