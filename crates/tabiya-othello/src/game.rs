//! The Othello game model the text formats meet in: the moves from the standard start
//! (passes implied) and what the record says of the game. Transcripts and GGF read into it;
//! transcripts, GGF, OBF positions, JSON Lines and CSV are written from it, after the same
//! filters as Wthor games ([`GameFilter::keeps_game`](crate::wthor::GameFilter::keeps_game)).
//!
//! ```
//! use tabiya_othello::game::Game;
//! use tabiya_othello::text::ggf;
//!
//! let text = "(;GM[Othello]PC[Paris]DT[1999.05.01]PB[Alice]PW[Bob]RE[+2.000]B[f5]W[d6]B[c3];)";
//! let game = Game::from_ggf(ggf::parse(text).next().unwrap()?).unwrap();
//! assert_eq!((game.year, game.black.as_deref()), (Some(1999), Some("Alice")));
//! assert_eq!(game.transcript(), "f5d6c3");
//! # Ok::<(), tabiya_othello::text::TextError>(())
//! ```

use serde_json::{Value, json};

use crate::Format;
use crate::board::Square;
use crate::text::ggf::{self, GgfGame, STANDARD_BOARD};
use crate::text::{obf, transcript};
use crate::wthor::{GameContext, Replay, ReplayError};

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

    /// The transcript, `f5d6c3…` (passes omitted).
    pub fn transcript(&self) -> String {
        transcript::format(&self.moves)
    }

    /// The moves replayed from the start, to put the passes back and find the end.
    pub fn replay(&self, snapshot_after: usize) -> Result<Replay, ReplayError> {
        Replay::of_squares(self.moves.iter().copied().map(Ok), snapshot_after)
    }

    /// The game in GGF: the record it was read from, else one built from the model (the
    /// standard start, passes written `PA`, the result as `RE`).
    pub fn to_ggf(&self) -> Result<GgfGame, ReplayError> {
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

    /// The position at `empties` empty squares as an OBF line, with the side that must play
    /// to move; `None` when the game does not reach it or is over there.
    pub fn obf_at(&self, empties: u8) -> Result<Option<String>, ReplayError> {
        let Some(after) = 60usize.checked_sub(usize::from(empties)) else { return Ok(None) };
        let replay = self.replay(after)?;
        Ok(replay.snapshot.filter(|p| !p.is_game_over()).map(|p| obf::format_line(&p, &[])))
    }

    /// The game as one JSON object; what the record does not say is `null`.
    pub fn json(&self) -> Result<Value, ReplayError> {
        let replay = self.replay(0)?;
        Ok(json!({
            "year": self.year,
            "tournament": self.tournament,
            "black": self.black,
            "white": self.white,
            "result": self.result,
            "moves": self.transcript(),
            "move_count": replay.moves,
            "passes": replay.passes,
            "ending": replay.ending(),
        }))
    }

    /// The header of [`Game::csv_row`].
    pub const CSV_HEADER: &'static str = "year,tournament,black,white,result,moves,move_count,passes,ending";

    /// The game as a CSV row (RFC 4180 quoting) in the order of [`Game::CSV_HEADER`]; what the
    /// record does not say is an empty field.
    pub fn csv_row(&self) -> Result<String, ReplayError> {
        Ok(crate::wthor::csv_row(Self::CSV_HEADER, &self.json()?))
    }
}

/// A game every text format can be written from: a Wthor record in its context
/// ([`GameContext`](crate::wthor::GameContext)) or a text game ([`Game`]). `line` picks the
/// format; the rest say how each format writes the game.
pub trait TextExport {
    /// The CSV header line of [`TextExport::csv_line`].
    const CSV_HEADER: &'static str;
    /// The transcript.
    fn transcript_line(&self) -> Result<String, ReplayError>;
    /// The game in GGF.
    fn ggf_line(&self) -> Result<String, ReplayError>;
    /// The position at `empties` empty squares, when the game reaches it and is not over.
    fn obf_line(&self, empties: u8) -> Result<Option<String>, ReplayError>;
    /// The JSON object.
    fn json_line(&self) -> Result<String, ReplayError>;
    /// The CSV row.
    fn csv_line(&self) -> Result<String, ReplayError>;

    /// The game as one line of `format` (transcript, GGF, OBF at `empties`, JSON Lines or
    /// CSV); `None` when there is nothing to write (no position at `empties`, or `format` is
    /// not a text format).
    fn line(&self, format: Format, empties: u8) -> Result<Option<String>, ReplayError> {
        match format {
            Format::Transcript => self.transcript_line().map(Some),
            Format::Ggf => self.ggf_line().map(Some),
            Format::Obf => self.obf_line(empties),
            Format::JsonLines => self.json_line().map(Some),
            Format::Csv => self.csv_line().map(Some),
            _ => Ok(None),
        }
    }
}

impl TextExport for Game {
    const CSV_HEADER: &'static str = Game::CSV_HEADER;

    fn transcript_line(&self) -> Result<String, ReplayError> {
        Ok(self.transcript())
    }

    fn ggf_line(&self) -> Result<String, ReplayError> {
        self.to_ggf().map(|g| g.format())
    }

    fn obf_line(&self, empties: u8) -> Result<Option<String>, ReplayError> {
        self.obf_at(empties)
    }

    fn json_line(&self) -> Result<String, ReplayError> {
        self.json().map(|j| j.to_string())
    }

    fn csv_line(&self) -> Result<String, ReplayError> {
        self.csv_row()
    }
}

impl TextExport for GameContext<'_> {
    const CSV_HEADER: &'static str = GameContext::CSV_HEADER;

    fn transcript_line(&self) -> Result<String, ReplayError> {
        self.transcript()
    }

    fn ggf_line(&self) -> Result<String, ReplayError> {
        self.ggf().map(|g| g.format())
    }

    fn obf_line(&self, empties: u8) -> Result<Option<String>, ReplayError> {
        self.obf_at(empties)
    }

    fn json_line(&self) -> Result<String, ReplayError> {
        self.json().map(|j| j.to_string())
    }

    fn csv_line(&self) -> Result<String, ReplayError> {
        self.csv_row()
    }
}
