//! The Othello game model the text formats meet in: the moves from the standard start
//! (passes implied) and what the record says of the game. Transcripts and GGF read into it;
//! transcripts, GGF, OBF positions, JSON Lines and CSV are written from it, after the same
//! filters as Wthor games ([`GameFilter::keeps_game`](crate::wthor::GameFilter::keeps_game)).
//!
//! ```
//! use tabiya_othello::game::{Game, TextExport};
//! use tabiya_othello::text::ggf;
//!
//! let text = "(;GM[Othello]PC[Paris]DT[1999.05.01]PB[Alice]PW[Bob]RE[+2.000]B[f5]W[d6]B[c3];)";
//! let game = Game::from_ggf(ggf::parse(text).next().unwrap()?).unwrap();
//! assert_eq!((game.year, game.black.as_deref()), (Some(1999), Some("Alice")));
//! assert_eq!(game.transcript().unwrap(), "f5d6c3");
//! # Ok::<(), tabiya_othello::text::TextError>(())
//! ```

use serde_json::{Value, json};

use crate::Format;
use crate::board::Square;
use crate::text::ggf::{self, GgfGame, STANDARD_BOARD};
use crate::text::{obf, transcript};
use crate::wthor::{Replay, ReplayError};

/// One game of a text format.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Game {
    /// The moves, passes left out (the replay puts them back).
    pub moves: Vec<Square>,
    /// Black's name, when the record names the players.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Where it was played (GGF `PC`).
    pub tournament: Option<String>,
    /// The year it was played (the first four digits of GGF `DT`).
    pub year: Option<u16>,
    /// Black's final disc difference as recorded (GGF `RE`).
    pub result: Option<i32>,
    /// The GGF record it was read from, written back unchanged to GGF (annotations, times
    /// and every other tag kept).
    pub ggf: Option<GgfGame>,
}

impl Game {
    /// A transcript's moves; a transcript names no one.
    pub fn from_transcript(moves: Vec<Square>) -> Game {
        Game { moves, ..Game::default() }
    }

    /// A GGF game; `None` when it does not start from the standard position (the model's
    /// games all do).
    pub fn from_ggf(game: GgfGame) -> Option<Game> {
        if !game.starts_from_standard_position() {
            return None;
        }
        let tag = |key| game.tag(key).map(str::to_owned);
        Some(Game {
            moves: game.moves.iter().filter_map(|m| m.square).collect(),
            black: tag("PB"),
            white: tag("PW"),
            tournament: tag("PC"),
            year: game.tag("DT").and_then(|dt| dt.get(..4)).and_then(|y| y.parse().ok()),
            result: game.result(),
            ggf: Some(game),
        })
    }

    /// The moves replayed from the start, to put the passes back and find the end.
    pub fn replay(&self, snapshot_after: usize) -> Result<Replay, ReplayError> {
        Replay::of_squares(self.moves.iter().copied().map(Ok), snapshot_after)
    }
}

/// A game every text format can be written from: a Wthor record in its context
/// ([`GameContext`](crate::wthor::GameContext)) or a text game ([`Game`]).
pub trait TextExport {
    /// The header line of [`TextExport::csv_row`]: the names of [`TextExport::json`]'s fields.
    const CSV_HEADER: &'static str;

    /// The transcript, `f5d6c3…` (passes omitted).
    fn transcript(&self) -> Result<String, ReplayError>;

    /// The game in GGF, passes written `PA`.
    fn ggf(&self) -> Result<GgfGame, ReplayError>;

    /// The position at `empties` empty squares as an OBF line, with the side that must play
    /// to move; `None` when the game does not reach it or is over there.
    fn obf_at(&self, empties: u8) -> Result<Option<String>, ReplayError>;

    /// Every field as one JSON object.
    fn json(&self) -> Result<Value, ReplayError>;

    /// The fields of [`TextExport::CSV_HEADER`] as a CSV row (RFC 4180 quoting; what the
    /// record does not say is an empty field).
    fn csv_row(&self) -> Result<String, ReplayError> {
        Ok(crate::wthor::csv_row(Self::CSV_HEADER, &self.json()?))
    }

    /// The game as one line of `format` (transcript, GGF, OBF at `empties`, JSON Lines or
    /// CSV); `None` when there is nothing to write (no position at `empties`, or `format` is
    /// not a text format).
    fn line(&self, format: Format, empties: u8) -> Result<Option<String>, ReplayError> {
        match format {
            Format::Transcript => self.transcript().map(Some),
            Format::Ggf => self.ggf().map(|g| Some(g.format())),
            Format::Obf => self.obf_at(empties),
            Format::JsonLines => self.json().map(|j| Some(j.to_string())),
            Format::Csv => self.csv_row().map(Some),
            _ => Ok(None),
        }
    }
}

/// Text games: GGF records written back as read, the rest built from the model.
impl TextExport for Game {
    const CSV_HEADER: &'static str = "year,tournament,black,white,result,moves,move_count,passes,ending";

    fn transcript(&self) -> Result<String, ReplayError> {
        Ok(transcript::format(&self.moves))
    }

    /// The record it was read from, else one built from the model (the standard start, the
    /// result as `RE`).
    fn ggf(&self) -> Result<GgfGame, ReplayError> {
        if let Some(game) = &self.ggf {
            return Ok(game.clone());
        }
        let replay = self.replay(0)?;
        let mut tags = vec![("GM".to_owned(), "Othello".to_owned())];
        let known = [("PC", self.tournament.clone()), ("DT", self.year.map(|y| y.to_string()))]
            .into_iter()
            .chain([("PB", self.black.clone()), ("PW", self.white.clone())]);
        tags.extend(known.filter_map(|(k, v)| v.map(|v| (k.to_owned(), v))));
        tags.push(("TY".to_owned(), "8".to_owned()));
        if let Some(difference) =
            self.result.or_else(|| replay.position.is_game_over().then(|| replay.position.black_disc_difference()))
        {
            tags.push(("RE".to_owned(), format!("{difference:+}.000")));
        }
        tags.push(("BO".to_owned(), STANDARD_BOARD.to_owned()));
        Ok(GgfGame { tags, moves: ggf::moves_with_passes(&self.moves, replay.white_moves) })
    }

    fn obf_at(&self, empties: u8) -> Result<Option<String>, ReplayError> {
        let Some(after) = 60usize.checked_sub(usize::from(empties)) else { return Ok(None) };
        let replay = self.replay(after)?;
        Ok(replay.snapshot.filter(|p| !p.is_game_over()).map(|p| obf::format_line(&p, &[])))
    }

    /// What the record does not say is `null`.
    fn json(&self) -> Result<Value, ReplayError> {
        let replay = self.replay(0)?;
        Ok(json!({
            "year": self.year,
            "tournament": self.tournament,
            "black": self.black,
            "white": self.white,
            "result": self.result,
            "moves": transcript::format(&self.moves),
            "move_count": replay.moves,
            "passes": replay.passes,
            "ending": replay.ending(),
        }))
    }
}
