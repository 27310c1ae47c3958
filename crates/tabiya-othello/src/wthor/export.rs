//! Wthor games as text: transcripts, GGF, OBF positions, JSON Lines and CSV rows, with names
//! resolved, and the filters users select games by.

use std::borrow::Cow;
use std::ops::RangeInclusive;

use serde_json::{Value, json};

use super::game::{Game, GameRecord, GamesFile};
use super::replay::{Replay, ReplayError};
use super::square::square_of_code;
use super::verify::Names;
use crate::board::{Position, Square, Symmetry};
use crate::game::TextExport;
use crate::text::ggf::{GgfGame, STANDARD_BOARD};
use crate::text::{obf, transcript};

/// A game with what the record itself does not hold: its year, its place in the file and the
/// name files its indices point into.
#[derive(Debug, Clone, Copy)]
pub struct GameContext<'a> {
    /// The record.
    pub game: &'a Game,
    /// The year of its file.
    pub year: u16,
    /// 0-based record number in its file.
    pub record: usize,
    /// P3 of the file.
    pub depth: u8,
    /// The name files its indices point into, when known.
    pub names: Option<Names<'a>>,
}

/// A name from a name file, or `#index` when it is out of range or there are no name files.
fn name(file: Option<&super::NameFile>, index: u16) -> Cow<'_, str> {
    file.and_then(|f| f.name(usize::from(index))).unwrap_or_else(|| Cow::Owned(format!("#{index}")))
}

impl<'a> GameContext<'a> {
    /// Black's name (`#index` when it cannot be resolved).
    pub fn black_name(&self) -> Cow<'a, str> {
        name(self.names.map(|n| n.players), self.game.black)
    }

    /// White's name (`#index` when it cannot be resolved).
    pub fn white_name(&self) -> Cow<'a, str> {
        name(self.names.map(|n| n.players), self.game.white)
    }

    /// The tournament's name (`#index` when it cannot be resolved).
    pub fn tournament_name(&self) -> Cow<'a, str> {
        name(self.names.map(|n| n.tournaments), self.game.tournament)
    }

    /// The stored moves as squares.
    pub fn squares(&self) -> Result<Vec<Square>, ReplayError> {
        self.game
            .stored_moves()
            .iter()
            .enumerate()
            .map(|(index, &byte)| square_of_code(byte).ok_or(ReplayError::BadByte { index, byte }))
            .collect()
    }
}

/// Wthor games with their names resolved: `#index` for a name the name files do not hold.
impl TextExport for GameContext<'_> {
    const CSV_HEADER: &'static str = "year,record,tournament,tournament_index,black,black_index,white,white_index,\
real_score,theoretical_score,depth,moves,move_count,passes,ending";

    /// Passes omitted, as in the file.
    fn transcript(&self) -> Result<String, ReplayError> {
        self.squares().map(|s| transcript::format(&s))
    }

    /// Players, tournament as place, year as date, the real score as the result (disc
    /// difference for Black), the standard start.
    fn ggf(&self) -> Result<GgfGame, ReplayError> {
        let squares = self.squares()?;
        let replay = Replay::run(&self.game.moves, 0)?;
        let moves = crate::text::ggf::moves_with_passes(&squares, replay.white_moves);
        let difference = 2 * i32::from(self.game.real_score) - 64;
        let tags = [
            ("GM", "Othello".to_owned()),
            ("PC", self.tournament_name().into_owned()),
            ("DT", self.year.to_string()),
            ("PB", self.black_name().into_owned()),
            ("PW", self.white_name().into_owned()),
            ("TY", "8".to_owned()),
            ("RE", format!("{difference:+}.000")),
            ("BO", STANDARD_BOARD.to_owned()),
        ];
        Ok(GgfGame { tags: tags.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(), moves })
    }

    fn obf_at(&self, empties: u8) -> Result<Option<String>, ReplayError> {
        let Some(after) = 60usize.checked_sub(usize::from(empties)) else { return Ok(None) };
        let replay = Replay::run(&self.game.moves, after)?;
        Ok(replay.snapshot.filter(|p| !p.is_game_over()).map(|p| obf::format_line(&p, &[])))
    }

    fn json(&self) -> Result<Value, ReplayError> {
        let replay = Replay::run(&self.game.moves, 0)?;
        let g = self.game;
        Ok(json!({
            "year": self.year,
            "record": self.record,
            "tournament": self.tournament_name(),
            "tournament_index": g.tournament,
            "black": self.black_name(),
            "black_index": g.black,
            "white": self.white_name(),
            "white_index": g.white,
            "real_score": g.real_score,
            "theoretical_score": g.theoretical_score,
            "depth": self.depth,
            "moves": self.transcript()?,
            "move_count": replay.moves,
            "passes": replay.passes,
            "ending": replay.ending(),
        }))
    }
}

/// The fields of a JSON object named by a CSV header, as a CSV row (RFC 4180 quoting; `null`
/// is an empty field).
pub fn csv_row(header: &str, value: &Value) -> String {
    let fields: Vec<String> = header
        .split(',')
        .map(|k| match &value[k] {
            Value::String(s) => csv_field(s),
            Value::Null => String::new(),
            other => other.to_string(),
        })
        .collect();
    fields.join(",")
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_owned() }
}

/// Whether a game reaches `wanted` (or an image of it under a symmetry of the start): a
/// position of `n` discs can only be the one after `n − 4` moves, so one replay decides.
fn reaches(moves: &[Square], wanted: &Position) -> bool {
    let discs = (wanted.black() | wanted.white()).count_ones() as usize;
    let Some(after) = discs.checked_sub(4) else { return false };
    let Ok(replay) = Replay::of_squares(moves.iter().copied().map(Ok), after) else { return false };
    replay.snapshot.is_some_and(|found| {
        start_symmetries().any(|s| {
            s.apply(found.black()) == wanted.black()
                && s.apply(found.white()) == wanted.white()
                && found.side == wanted.side
        })
    })
}

/// Which games to keep. Name filters match case-insensitive substrings of the resolved names.
#[derive(Debug, Clone, Default)]
pub struct GameFilter {
    /// Keep games of these years.
    pub years: Option<RangeInclusive<u16>>,
    /// Keep games in which one of these players plays.
    pub players: Vec<String>,
    /// Keep games of tournaments whose names contain one of these.
    pub tournaments: Vec<String>,
    /// Drop games in which a program plays (names such as `Logistello (buro)`).
    pub exclude_programs: bool,
    /// Keep games that open with one of these lines. Lines and games are compared as Wthor
    /// stores games: each turned by the symmetry of the start position that takes its first
    /// move to f5, so `d3 c3` finds the games that open `f5 f6` and those that open `d3 c3`.
    pub lines: Vec<Vec<Square>>,
    /// Keep games that reach one of these positions (the side to move included), or its image
    /// under one of the four symmetries of the start position (the games' normalisation).
    pub positions: Vec<Position>,
}

/// Moves turned by the symmetry that takes the first to f5 (Wthor's normalisation); a line
/// whose first move is none of d3, c4, f5, e6 (no legal game's) stays as it is.
fn normalised(moves: &[Square]) -> Vec<Square> {
    match moves.first().and_then(|&first| super::normalising_symmetry(first)) {
        Some(symmetry) => moves.iter().map(|&m| symmetry.square(m)).collect(),
        None => moves.to_vec(),
    }
}

/// The symmetries of the board that keep the start position: the images a normalised game
/// may have been turned by.
fn start_symmetries() -> impl Iterator<Item = Symmetry> {
    let start = Position::start();
    Symmetry::ALL
        .into_iter()
        .filter(move |s| s.apply(start.black()) == start.black() && s.apply(start.white()) == start.white())
}

/// Program entries are written `Name (author)`, e.g. `Logistello (buro)`, `Edax (delorme)`.
pub fn is_program(name: &str) -> bool {
    name.ends_with(')') && name.contains(" (")
}

impl GameFilter {
    /// The years of `--years`: `1990` or `1990-2000`; `None` for anything else.
    pub fn parse_years(text: &str) -> Option<RangeInclusive<u16>> {
        let (first, last) = text.split_once('-').unwrap_or((text, text));
        Some(first.trim().parse().ok()?..=last.trim().parse().ok()?)
    }

    /// Whether the filter keeps a game in its context.
    pub fn matches(&self, g: &GameContext<'_>) -> bool {
        self.keeps(g.game, g.year, g.names)
    }

    /// Whether the filter keeps a game record (8×8 or 10×10) of a file of `year`, its indices
    /// resolved in `names` (`#index` without them, which no name filter matches).
    pub fn keeps<const M: usize>(&self, game: &GameRecord<M>, year: u16, names: Option<Names<'_>>) -> bool {
        let contains = |name: &str, needles: &[String]| {
            let name = name.to_lowercase();
            needles.iter().any(|n| name.contains(&n.to_lowercase()))
        };
        if self.years.as_ref().is_some_and(|y| !y.contains(&year)) {
            return false;
        }
        let players = names.map(|n| n.players);
        let (black, white) = (name(players, game.black), name(players, game.white));
        if !self.players.is_empty() && !contains(&black, &self.players) && !contains(&white, &self.players) {
            return false;
        }
        let tournament = name(names.map(|n| n.tournaments), game.tournament);
        if !self.tournaments.is_empty() && !contains(&tournament, &self.tournaments) {
            return false;
        }
        if self.exclude_programs && (is_program(&black) || is_program(&white)) {
            return false;
        }
        // Lines and positions are 8×8: a 10×10 game has neither.
        let squares = || game.stored_moves().iter().map(|&code| square_of_code(code)).collect::<Option<Vec<_>>>();
        !self.uses_moves() || (M == 60 && squares().is_some_and(|moves| self.keeps_moves(&moves)))
    }

    /// Whether the filter keeps a game of a text format: a year or name filter drops a game
    /// whose record does not give the year or the names.
    pub fn keeps_game(&self, game: &crate::game::Game) -> bool {
        if self.years.as_ref().is_some_and(|y| !game.year.is_some_and(|year| y.contains(&year))) {
            return false;
        }
        let matches = |name: &Option<String>, needles: &[String]| {
            name.as_ref().is_some_and(|name| {
                let name = name.to_lowercase();
                needles.iter().any(|n| name.contains(&n.to_lowercase()))
            })
        };
        if !self.players.is_empty() && !matches(&game.black, &self.players) && !matches(&game.white, &self.players) {
            return false;
        }
        if !self.tournaments.is_empty() && !matches(&game.tournament, &self.tournaments) {
            return false;
        }
        let program = |name: &Option<String>| name.as_deref().is_some_and(is_program);
        !(self.exclude_programs && (program(&game.black) || program(&game.white))) && self.keeps_moves(&game.moves)
    }

    /// Whether the filter keeps a game of these moves by its line and position filters.
    pub fn keeps_moves(&self, moves: &[Square]) -> bool {
        if !self.lines.is_empty() {
            let game = normalised(moves);
            if !self.lines.iter().any(|line| game.starts_with(&normalised(line))) {
                return false;
            }
        }
        self.positions.is_empty() || self.positions.iter().any(|wanted| reaches(moves, wanted))
    }

    /// Whether the filter selects by the moves (and so must read them).
    fn uses_moves(&self) -> bool {
        !self.lines.is_empty() || !self.positions.is_empty()
    }

    /// Whether the filter selects by name (and so needs the name files).
    pub fn uses_names(&self) -> bool {
        !self.players.is_empty() || !self.tournaments.is_empty() || self.exclude_programs
    }

    /// The games of `files` the filter keeps, in file order, in one file under the first
    /// file's header (creation date, year, P1–P3 kept; the writer sets N1). A Wthor game file
    /// holds one year: kept games of files of different years are refused.
    pub fn select<const M: usize>(
        &self,
        files: &[GamesFile<M>],
        names: Option<Names<'_>>,
    ) -> Result<Option<GamesFile<M>>, super::WthorError> {
        let Some(first) = files.first() else { return Ok(None) };
        let mut out = GamesFile { header: first.header, games: Vec::new() };
        for file in files {
            let year = file.header.game_year;
            let before = out.games.len();
            out.games.extend(file.games.iter().filter(|g| self.keeps(g, year, names)));
            if out.games.len() > before && year != out.header.game_year {
                if before > 0 {
                    return Err(super::WthorError::MixedYears { first: out.header.game_year, other: year });
                }
                out.header = file.header;
            }
        }
        Ok(Some(out))
    }
}
