//! A games file (PGN, SCID 3/4/5, JSON Lines) explored without a tree file: its moves counted
//! in memory when the explorer opens it, by the library's one book builder
//! ([`BookBuilder`]), each position with the best-rated games that reached it.
//!
//! Memory grows with the games (the counts of every position of every main line, like
//! `tabiya book`); the top games are kept for the first [`TOP_GAMES_PLIES`] plies only. A tree
//! file (`tabiya tree`) holds them all and is read from disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, json};
use shakmaty::{Chess, Position};
use tabiya_chess::book::{Book, BookBuilder, BuildOptions, fen_of, position_key};
use tabiya_chess::game::{Game, GameResult};
use tabiya_chess::games::{GamesError, Source};
use tabiya_io::report::{Probe, ProbeMove};

use crate::position::NamedMove;

/// Plies from the start of each game whose positions list their top games.
pub const TOP_GAMES_PLIES: usize = 40;
/// Games listed per position, the best-rated first.
pub const TOP_GAMES: usize = 8;

/// A game as a line of a table, in the shape of lichess's `topGames`: where it is in its
/// file, who played, how it ended.
#[derive(Debug, Clone, Serialize)]
pub struct GameCard {
    /// Its number in the file, from 0 (the game viewer's `game`).
    pub game: u32,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// `white`, `black`, or `null` for a draw or an unknown result.
    pub winner: Option<&'static str>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// The year of its date.
    pub year: Option<u16>,
    /// The event.
    pub event: String,
}

/// A player of a [`GameCard`].
#[derive(Debug, Clone, Serialize)]
pub struct Player {
    /// The name as the file gives it.
    pub name: String,
    /// The rating, when given.
    pub rating: Option<u16>,
}

impl GameCard {
    /// The card of a tree's top game: `game` is its number in the tree's table (which the
    /// game viewer resolves to its file and its number there).
    pub fn of_tree_game(game: &tabiya_chess::tree::GameRef) -> GameCard {
        let player = |name: &str, rating: u16| Player { name: name.to_owned(), rating: (rating > 0).then_some(rating) };
        GameCard {
            game: u32::try_from(game.id).unwrap_or(u32::MAX),
            white: player(&game.white, game.white_elo),
            black: player(&game.black, game.black_elo),
            winner: match game.result {
                "1-0" => Some("white"),
                "0-1" => Some("black"),
                _ => None,
            },
            result: game.result,
            year: game.date.get(..4).and_then(|y| y.parse().ok()),
            event: game.event.clone(),
        }
    }

    fn new(game: &Game, number: u32) -> GameCard {
        let tag = |name: &str| game.tag(name).map(|t| String::from_utf8_lossy(t.as_bytes()).into_owned());
        let player = |name: &str, elo: &str| Player {
            name: tag(name).unwrap_or_default(),
            rating: tag(elo).and_then(|t| t.trim().parse().ok()).filter(|&r| r > 0),
        };
        GameCard {
            game: number,
            white: player("White", "WhiteElo"),
            black: player("Black", "BlackElo"),
            winner: match game.result {
                GameResult::WhiteWins => Some("white"),
                GameResult::BlackWins => Some("black"),
                GameResult::Draw | GameResult::Unknown => None,
            },
            result: game.result.as_pgn(),
            year: tag("Date").and_then(|d| d.get(..4)?.parse().ok()),
            event: tag("Event").unwrap_or_default(),
        }
    }

    /// The players' mean rating, counting only ratings given; what orders the top games.
    fn rating(&self) -> u32 {
        let known: Vec<u32> = [self.white.rating, self.black.rating].into_iter().flatten().map(u32::from).collect();
        if known.is_empty() { 0 } else { known.iter().sum::<u32>() / known.len() as u32 }
    }
}

/// A games file counted in memory.
pub struct GamesTree {
    path: PathBuf,
    book: Book,
    cards: Vec<GameCard>,
    /// Per position key, the indices in `cards` of its best-rated games, best first.
    top: HashMap<u64, Vec<u32>>,
    /// Games that could not be read (each named on the report of [`GamesTree::open`]).
    pub unreadable: Vec<String>,
}

impl GamesTree {
    /// Reads every game of `path` (on all cores) and counts its main line.
    pub fn open(path: &Path) -> Result<GamesTree, GamesError> {
        let source = Source::open(path)?;
        let mut builder = BookBuilder::new(BuildOptions { keep_positions: false, ..BuildOptions::default() });
        let mut tree = GamesTree {
            path: source.path().to_path_buf(),
            book: Book::default(),
            cards: Vec::new(),
            top: HashMap::new(),
            unreadable: source.diagnostics().iter().map(ToString::to_string).collect(),
        };
        let mut number = 0u32;
        let read = source.read_in_parallel(
            |game| game,
            |item| {
                match item {
                    Ok(game) => {
                        builder.add_game(&game);
                        tree.index_top_games(&game, number);
                    }
                    Err(e) => tree.unreadable.push(format!("game {}: {e}", u64::from(number) + 1)),
                }
                number += 1;
                Ok::<(), std::convert::Infallible>(())
            },
        );
        let Ok(()) = read;
        tree.book = builder.finish();
        Ok(tree)
    }

    /// The file the games are read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Games read.
    pub fn games(&self) -> usize {
        self.cards.len()
    }

    fn index_top_games(&mut self, game: &Game, number: u32) {
        let Ok(mut pos) = game.start_position() else { return };
        let card = self.cards.len() as u32;
        self.cards.push(GameCard::new(game, number));
        let rating = self.cards[card as usize].rating();
        let mut moves = game.moves.nodes.iter().map(|node| node.mv);
        for _ in 0..=TOP_GAMES_PLIES {
            let list = self.top.entry(position_key(&pos)).or_default();
            if !list.contains(&card) {
                // Best first; among equals the earlier game (already there) first.
                let at = list.partition_point(|&c| self.cards[c as usize].rating() >= rating);
                if at < TOP_GAMES {
                    list.insert(at, card);
                    list.truncate(TOP_GAMES);
                }
            }
            match moves.next().flatten().filter(|mv| pos.is_legal(*mv)) {
                Some(mv) => pos.play_unchecked(mv),
                None => break,
            }
        }
    }

    /// The probe answer for `pos`: each move with its games and W/D/L from the mover's view,
    /// weighted by its games; the position's top games under `position.top_games`.
    pub fn probe(&self, pos: &Chess) -> Probe {
        let found = self.book.get(pos);
        let mut position = Map::new();
        let top: Vec<&GameCard> =
            self.top.get(&position_key(pos)).into_iter().flatten().map(|&c| &self.cards[c as usize]).collect();
        if !top.is_empty() {
            position.insert("top_games".into(), json!(top));
        }
        let moves = found.map_or_else(Vec::new, |p| {
            position.insert("games".into(), json!(p.games()));
            p.moves
                .iter()
                .map(|m| {
                    let named = NamedMove::new(pos, m.mv);
                    ProbeMove {
                        uci: named.uci,
                        san: named.san,
                        weight: u64::from(m.games),
                        games: Some(u64::from(m.games)),
                        wins: Some(u64::from(m.wins)),
                        draws: Some(u64::from(m.draws)),
                        losses: Some(u64::from(m.losses)),
                        annotation: None,
                        extra: Map::new(),
                    }
                })
                .collect()
        });
        Probe {
            book: self.path.clone(),
            format: "games",
            fen: fen_of(pos),
            found: found.is_some(),
            position,
            moves,
            problems: Vec::new(),
        }
    }
}
