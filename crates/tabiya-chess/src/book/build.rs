//! Building a [`Book`] from games: every main-line move up to a ply limit, counted for the
//! position it was played from (repetitions inside a game count each time, as `polyglot
//! make-book` counts them).

use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Color, EnPassantMode, Position};

use super::{Book, position_key};
use crate::game::{Game, GameResult};

/// Which games and moves go into the book.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Moves at plies `0..max_ply` of each game are counted (Polyglot's `-max-ply`, default
    /// 1024).
    pub max_ply: u32,
    /// Only games where both players have an Elo tag of at least this value.
    pub min_elo: Option<u32>,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions { max_ply: 1024, min_elo: None }
    }
}

/// What the builder did with the games it was given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BuildSummary {
    pub games_added: u64,
    /// Chess960 games: Polyglot, CTG and Kvetka books hold standard chess only.
    pub games_chess960: u64,
    pub games_below_min_elo: u64,
    /// Games whose start position is not legal chess.
    pub games_invalid_start: u64,
    /// Moves counted into the book.
    pub moves_added: u64,
}

#[derive(Debug, Default)]
pub struct BookBuilder {
    options: BuildOptions,
    book: Book,
    summary: BuildSummary,
}

impl BookBuilder {
    pub fn new(options: BuildOptions) -> BookBuilder {
        BookBuilder { options, book: Book::default(), summary: BuildSummary::default() }
    }

    pub fn summary(&self) -> BuildSummary {
        self.summary
    }

    pub fn finish(self) -> Book {
        self.book
    }

    fn below_min_elo(&self, game: &Game) -> bool {
        let Some(min) = self.options.min_elo else { return false };
        let elo = |tag| game.tag(tag).and_then(|v| v.trim().parse::<u32>().ok()).unwrap_or(0);
        elo("WhiteElo") < min || elo("BlackElo") < min
    }

    /// Counts the game's main line into the book; a null move ends it. Returns whether the
    /// game was used.
    pub fn add_game(&mut self, game: &Game) -> bool {
        if game.castling_mode == CastlingMode::Chess960 {
            self.summary.games_chess960 += 1;
            return false;
        }
        if self.below_min_elo(game) {
            self.summary.games_below_min_elo += 1;
            return false;
        }
        let Ok(mut pos) = game.start_position() else {
            self.summary.games_invalid_start += 1;
            return false;
        };
        self.summary.games_added += 1;
        let winner = match game.result {
            GameResult::WhiteWins => Some(Some(Color::White)),
            GameResult::BlackWins => Some(Some(Color::Black)),
            GameResult::Draw => Some(None),
            GameResult::Unknown => None,
        };
        let mut key = position_key(&pos);
        for node in game.moves.nodes.iter().take(self.options.max_ply as usize) {
            let Some(mv) = node.mv else { break };
            let mover = pos.turn();
            let stats = self.book.position_mut(key, &pos).stats_mut(mv);
            stats.games += 1;
            match winner {
                Some(Some(color)) if color == mover => stats.wins += 1,
                Some(Some(_)) => stats.losses += 1,
                Some(None) => stats.draws += 1,
                None => {}
            }
            self.summary.moves_added += 1;
            let next = pos.update_zobrist_hash(Zobrist64(key), mv, EnPassantMode::PseudoLegal);
            pos.play_unchecked(mv);
            key = match next {
                Some(Zobrist64(k)) => k,
                None => position_key(&pos),
            };
        }
        true
    }
}
