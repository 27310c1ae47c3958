//! New games into a Wthor file: normalised by symmetry to start with f5, replayed, real score
//! computed, theoretical score from the chosen policy, names appended to the name files.

use std::collections::HashMap;

use crate::board::{Position, Square, Symmetry};
use crate::text::ggf::GgfGame;

use super::WthorError;
use super::game::{Game, GameFile};
use super::names::NameFile;
use super::replay::{Ending, Replay, ReplayError};
use super::square::code_of_square;
use super::theoretical::TheoreticalPolicy;

/// Why a game cannot be stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("no moves")]
    /// No move at all.
    Empty,
    #[error("more than 60 moves")]
    /// More moves than squares.
    TooLong,
    #[error("the first move {0} is not one of d3, c4, f5, e6")]
    /// A first move no symmetry turns into f5.
    BadFirstMove(Square),
    #[error(transparent)]
    /// The moves cannot be replayed.
    Replay(#[from] ReplayError),
    /// The moves stop before the game is over and no result was given.
    #[error("the game is not over after {moves} moves and no result is given")]
    /// Moves stop early without a result.
    NoResult {
        /// How many moves there are.
        moves: usize,
    },
    #[error(transparent)]
    /// A name the name files cannot store.
    Name(#[from] WthorError),
    #[error("the game does not start from the standard position")]
    /// A start position other than the standard one.
    NonStandardStart,
}

/// The symmetry that keeps the start position and takes `first` to f5.
pub fn normalising_symmetry(first: Square) -> Option<Symmetry> {
    let start = Position::start();
    let f5 = Square::from_coords(5, 4)?;
    Symmetry::ALL.into_iter().find(|s| {
        s.apply(start.black()) == start.black() && s.apply(start.white()) == start.white() && s.square(first) == f5
    })
}

/// One game to import.
#[derive(Debug, Clone, Default)]
pub struct NewGame {
    /// The moves, passes left out.
    pub moves: Vec<Square>,
    /// Black's name; empty for the name files' entry 0.
    pub black: String,
    /// White's name; empty for the name files' entry 0.
    pub white: String,
    /// The tournament's name; empty for entry 0.
    pub tournament: String,
    /// Black's final disc difference as recorded (GGF `RE`), used only when the moves stop
    /// before the game is over.
    pub result: Option<i32>,
}

impl NewGame {
    /// A GGF game: its moves (passes dropped), `PB`, `PW`, `PC` as names, `RE` as the result.
    pub fn from_ggf(game: &GgfGame) -> Result<NewGame, ImportError> {
        let game = crate::game::Game::from_ggf(game.clone()).ok_or(ImportError::NonStandardStart)?;
        Ok(NewGame::from_game(&game))
    }

    /// A game of the model (any text format): its moves, names (an unknown name is entry 0)
    /// and recorded result.
    pub fn from_game(game: &crate::game::Game) -> NewGame {
        let name = |name: &Option<String>| name.clone().unwrap_or_default();
        NewGame {
            moves: game.moves.clone(),
            black: name(&game.black),
            white: name(&game.white),
            tournament: name(&game.tournament),
            result: game.result,
        }
    }
}

/// Appends games to a game file and names to copies of the name files.
pub struct Importer<'p> {
    /// The game file the games go to.
    pub games: GameFile,
    /// The players, with the new names appended.
    pub players: NameFile,
    /// The tournaments, with the new names appended.
    pub tournaments: NameFile,
    policy: TheoreticalPolicy<'p>,
    /// Name → index of both name files, so that a large import does not scan them per game.
    player_index: HashMap<String, u16>,
    tournament_index: HashMap<String, u16>,
}

/// Every name of a file by index; the first of duplicates wins, as a scan would find it.
fn index_of(file: &NameFile) -> HashMap<String, u16> {
    let mut map = HashMap::with_capacity(file.len());
    for (i, name) in file.names().enumerate() {
        if let Ok(i) = u16::try_from(i) {
            map.entry(name.into_owned()).or_insert(i);
        }
    }
    map
}

/// The index of `name` in `file`, appending it if needed; an empty name is index 0 (`???`,
/// `Diverses parties` in the FFO's files).
fn name_index(file: &mut NameFile, index: &mut HashMap<String, u16>, name: &str) -> Result<u16, WthorError> {
    if name.is_empty() {
        return Ok(0);
    }
    if let Some(&i) = index.get(name) {
        return Ok(i);
    }
    let i = file.append(name)?;
    index.insert(name.to_owned(), i);
    Ok(i)
}

impl<'p> Importer<'p> {
    /// An importer appending to `games` and to copies of the name files, scoring by `policy`.
    pub fn new(games: GameFile, players: NameFile, tournaments: NameFile, policy: TheoreticalPolicy<'p>) -> Self {
        let (player_index, tournament_index) = (index_of(&players), index_of(&tournaments));
        Importer { games, players, tournaments, policy, player_index, tournament_index }
    }

    /// Adds a game; returns how it ends.
    pub fn add(&mut self, new: &NewGame) -> Result<Ending, ImportError> {
        let first = *new.moves.first().ok_or(ImportError::Empty)?;
        if new.moves.len() > 60 {
            return Err(ImportError::TooLong);
        }
        let symmetry = normalising_symmetry(first).ok_or(ImportError::BadFirstMove(first))?;
        let mut game = Game::default();
        for (byte, &square) in game.moves.iter_mut().zip(&new.moves) {
            *byte = code_of_square(symmetry.square(square));
        }
        let depth = self.games.header.effective_depth().min(60);
        let replay = Replay::run(&game.moves, 60 - usize::from(depth))?;
        let real = match (replay.real_score(), new.result) {
            (Some(real), _) => real,
            (None, Some(difference)) => ((difference.clamp(-64, 64) + 64) / 2) as u8,
            (None, None) => return Err(ImportError::NoResult { moves: replay.moves }),
        };
        game.real_score = real;
        game.theoretical_score = self.policy.score(&replay, real, depth);
        game.black = name_index(&mut self.players, &mut self.player_index, &new.black)?;
        game.white = name_index(&mut self.players, &mut self.player_index, &new.white)?;
        game.tournament = name_index(&mut self.tournaments, &mut self.tournament_index, &new.tournament)?;
        self.games.games.push(game);
        Ok(replay.ending())
    }
}
