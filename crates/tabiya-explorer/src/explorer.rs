//! The explorer: the opened sources and the answers of the JSON API, in shapes close to
//! lichess's opening explorer where the fields mean the same (`white`, `draws`, `black`,
//! `moves[{uci, san, white, draws, black}]`, `topGames`, `opening{eco, name}`), with every
//! field of the book's own probe beside them.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};
use shakmaty::{Chess, Position};
use tabiya_io::Diagnostic;
use tabiya_io::report::{Probe, ProbeMove};

use std::sync::Mutex;

use tabiya_othello::solve::Solver;

use crate::game_view::{GameView, read_game};
use crate::othello::{self, OthelloBoard};
use crate::position::{Located, locate};
use crate::sources::{Source, SourceError, SourceSummary};

/// The sources opened, in the order given, and the solver of Othello positions (its table
/// kept between requests).
pub struct Explorer {
    sources: Vec<(PathBuf, Source)>,
    solver: Mutex<Solver>,
}

impl Default for Explorer {
    fn default() -> Explorer {
        Explorer { sources: Vec::new(), solver: Mutex::new(Solver::new().table_bits(20)) }
    }
}

/// The answer for an Othello position: the board, its moves and exact scores, then one table
/// per Othello source.
#[derive(Debug, Clone, Serialize)]
pub struct OthelloExploration {
    /// The position and its moves.
    #[serde(flatten)]
    pub board: OthelloBoard,
    /// One answer per Othello source.
    pub sources: Vec<OthelloAnswer>,
}

/// One Othello source's table: its probe (moves with games, W/D/L from the mover's view, the
/// tree's exact scores, top games), or why it could not be looked up.
#[derive(Debug, Clone, Serialize)]
pub struct OthelloAnswer {
    /// The source's number.
    pub source: usize,
    /// The tree's answer.
    #[serde(flatten)]
    pub probe: Option<Probe>,
    /// Why the source could not be looked up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The answer for one position: the board and its legal moves, then one table per source.
#[derive(Debug, Clone, Serialize)]
pub struct Exploration {
    /// The position and how it was reached.
    #[serde(flatten)]
    pub position: Located,
    /// The ECO code and name the chess-openings table gives the position itself
    /// ([`tabiya_chess::openings::lookup`]); absent when it names none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening: Option<Opening>,
    /// One answer per source, in the sources' order.
    pub sources: Vec<SourceAnswer>,
}

/// An opening's code and name, as lichess's `opening`.
#[derive(Debug, Clone, Serialize)]
pub struct Opening {
    /// `B20`.
    pub eco: String,
    /// `Sicilian Defense`.
    pub name: String,
}

/// One source's table for a position.
#[derive(Debug, Clone, Serialize)]
pub struct SourceAnswer {
    /// The source's number.
    pub source: usize,
    /// The file.
    pub path: PathBuf,
    /// The format (`polyglot`, `ctg`, `kvetka`, `games`, …).
    pub format: &'static str,
    /// Whether the source holds the position.
    pub found: bool,
    /// Games White won from here, when the source counts games (lichess's `white`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white: Option<u64>,
    /// Drawn games from here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws: Option<u64>,
    /// Games Black won from here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black: Option<u64>,
    /// The moves, in the source's order.
    pub moves: Vec<MoveAnswer>,
    /// The best-rated games that reached the position (lichess's `topGames`), when the source
    /// lists them.
    #[serde(rename = "topGames")]
    pub top_games: Vec<Value>,
    /// The source's own statistics of the position.
    pub position: Map<String, Value>,
    /// What the look-up met (collisions, illegal stored moves).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Diagnostic>,
    /// Why the source could not be looked up; its table says so instead of its moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One move of a source's table: the probe's move with lichess's colour-wise counts and its
/// share of the weights.
#[derive(Debug, Clone, Serialize)]
pub struct MoveAnswer {
    /// The probe's fields: `uci`, `san`, `weight`, `games`, `wins`, `draws`, `losses`,
    /// `annotation`, and the format's own.
    #[serde(flatten)]
    pub probe: ProbeMove,
    /// Games White won after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white: Option<u64>,
    /// Games Black won after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black: Option<u64>,
    /// Its weight over the weights of all the position's moves (0 when they are all 0).
    pub share: f64,
}

impl Explorer {
    /// No sources yet.
    pub fn new() -> Explorer {
        Explorer::default()
    }

    /// Opens `path` (a book, a tree, or games counted in memory) as the next source.
    pub fn open(&mut self, path: &Path) -> Result<SourceSummary, SourceError> {
        let source = Source::open(path)?;
        let summary = source.summary(self.sources.len(), path);
        self.sources.push((path.to_path_buf(), source));
        Ok(summary)
    }

    /// What each source is.
    pub fn summaries(&self) -> Vec<SourceSummary> {
        self.sources.iter().enumerate().map(|(i, (path, source))| source.summary(i, path)).collect()
    }

    /// Every source's answer for the position of `fen` (the initial position when `None`)
    /// after the UCI moves `play`; `Err` names a bad FEN or an illegal move.
    pub fn explore(&self, fen: Option<&str>, play: Option<&str>) -> Result<Exploration, String> {
        let position = locate(fen, play)?;
        let sources = (0..self.sources.len()).map(|i| self.answer(i, &position.position)).collect();
        let opening = tabiya_chess::openings::lookup(&position.position)
            .map(|o| Opening { eco: o.eco.to_owned(), name: o.name.to_owned() });
        Ok(Exploration { position, opening, sources })
    }

    /// True when every source holds Othello games (the page shows an Othello board).
    pub fn is_othello(&self) -> bool {
        !self.sources.is_empty() && self.sources.iter().all(|(_, s)| matches!(s, Source::Othello(_)))
    }

    /// The Othello position after `play` (squares and `pass`, comma-separated, from the
    /// start): its moves, their exact scores near the end, and every Othello source's table.
    pub fn explore_othello(&self, play: Option<&str>) -> Result<OthelloExploration, String> {
        let (position, board) = othello::board(play, &self.solver)?;
        let sources = self
            .sources
            .iter()
            .enumerate()
            .filter_map(|(index, (path, source))| match source {
                Source::Othello(tree) => Some(match tree.probe(&position) {
                    // The file opened, not the tree built from it.
                    Ok(probe) => {
                        OthelloAnswer { source: index, probe: Some(Probe { book: path.clone(), ..probe }), error: None }
                    }
                    Err(e) => OthelloAnswer { source: index, probe: None, error: Some(e.to_string()) },
                }),
                _ => None,
            })
            .collect();
        Ok(OthelloExploration { board, sources })
    }

    /// Source `source`'s answer alone (lichess's shape at the top level).
    pub fn explore_source(
        &self,
        source: usize,
        fen: Option<&str>,
        play: Option<&str>,
    ) -> Result<Option<SourceAnswer>, String> {
        let position = locate(fen, play)?;
        Ok((source < self.sources.len()).then(|| self.answer(source, &position.position)))
    }

    /// Game `game` of source `source`: the game numbered so (from 0) in a games file, or row
    /// `game` of a chess tree's table read from the file it names; `Ok(None)` when there is no
    /// such source, game file or game.
    pub fn game(&self, source: usize, game: usize) -> Result<Option<GameView>, SourceError> {
        let Some((_, source)) = self.sources.get(source) else { return Ok(None) };
        if let Some(path) = source.games_path() {
            return Ok(read_game(path, game)?.map(|g| GameView::new(&g, game)));
        }
        // A tree: its table names the game's file and its number there.
        let Some((path, number)) = source.tree_game(game)? else { return Ok(None) };
        Ok(read_game(&path, number)?.map(|g| GameView::new(&g, game)))
    }

    fn answer(&self, index: usize, pos: &Chess) -> SourceAnswer {
        let (path, source) = &self.sources[index];
        match source.probe(pos) {
            Ok(probe) => SourceAnswer::new(index, probe, pos),
            Err(e) => {
                let summary = source.summary(index, path);
                SourceAnswer {
                    source: index,
                    path: summary.path,
                    format: summary.format,
                    found: false,
                    white: None,
                    draws: None,
                    black: None,
                    moves: Vec::new(),
                    top_games: Vec::new(),
                    position: Map::new(),
                    problems: Vec::new(),
                    error: Some(e.to_string()),
                }
            }
        }
    }
}

impl SourceAnswer {
    fn new(source: usize, mut probe: Probe, pos: &Chess) -> SourceAnswer {
        let white_moves = pos.turn().is_white();
        let total_weight: u64 = probe.moves.iter().map(|m| m.weight).sum();
        let moves: Vec<MoveAnswer> = probe
            .moves
            .into_iter()
            .map(|m| {
                let (white, black) = if white_moves { (m.wins, m.losses) } else { (m.losses, m.wins) };
                let share = if total_weight > 0 { m.weight as f64 / total_weight as f64 } else { 0.0 };
                MoveAnswer { probe: m, white, black, share }
            })
            .collect();
        let sum = |f: fn(&MoveAnswer) -> Option<u64>| moves.iter().map(f).sum::<Option<u64>>();
        let counted = !moves.is_empty();
        let top_games = match probe.position.remove("top_games") {
            Some(Value::Array(games)) => games,
            _ => Vec::new(),
        };
        SourceAnswer {
            source,
            path: probe.book,
            format: probe.format,
            found: probe.found,
            white: sum(|m| m.white).filter(|_| counted),
            draws: sum(|m| m.probe.draws).filter(|_| counted),
            black: sum(|m| m.black).filter(|_| counted),
            moves,
            top_games,
            position: probe.position,
            problems: probe.problems,
            error: None,
        }
    }
}
