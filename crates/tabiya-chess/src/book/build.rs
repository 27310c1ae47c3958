//! Building a [`Book`] from games: every main-line move up to a ply limit, counted for the
//! position it was played from (repetitions inside a game count each time, as `polyglot
//! make-book` counts them).

use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

use super::{Book, KeyMap, MoveStats, PackedPosition, PositionRecord, position_key};
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

const NONE: u32 = u32::MAX;

/// A position while the book grows. Most positions of a book have one move, so the first is
/// kept here, in the hash table, and the others in a list through `MoveSlot::next`: one
/// cache miss per move counted instead of three.
struct Growing {
    first: MoveStats,
    /// The second move, `NONE` if there is none yet.
    more: u32,
    /// The last move of the list, `NONE` if there is none yet.
    last: u32,
    /// Index into `BookBuilder::packed`.
    packed: u32,
}

struct MoveSlot {
    stats: MoveStats,
    next: u32,
}

/// Accumulates games (or move statistics read from another book) into a [`Book`].
#[derive(Default)]
pub struct BookBuilder {
    options: BuildOptions,
    index: KeyMap<Growing>,
    packed: Vec<PackedPosition>,
    moves: Vec<MoveSlot>,
    summary: BuildSummary,
}

impl BookBuilder {
    pub fn new(options: BuildOptions) -> BookBuilder {
        BookBuilder { options, ..BookBuilder::default() }
    }

    pub fn summary(&self) -> BuildSummary {
        self.summary
    }

    /// Positions so far.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The book, positions sorted by key.
    pub fn finish(self) -> Book {
        let BookBuilder { index, packed, moves, .. } = self;
        let mut positions: Vec<(u64, Growing)> = index.into_iter().collect();
        positions.sort_unstable_by_key(|(key, _)| *key);
        let mut book = Book {
            positions: Vec::with_capacity(positions.len()),
            packed,
            moves: Vec::with_capacity(positions.len() + moves.len()),
        };
        for (key, p) in positions {
            let first_move = book.moves.len() as u32;
            book.moves.push(p.first);
            let mut slot = p.more;
            while let Some(m) = moves.get(slot as usize) {
                book.moves.push(m.stats);
                slot = m.next;
            }
            let move_count = book.moves.len() as u32 - first_move;
            book.positions.push(PositionRecord { key, packed: p.packed, first_move, move_count });
        }
        book
    }

    /// The statistics of `mv` in the position with `key`, added empty when new.
    fn stats_mut(&mut self, key: u64, pos: &Chess, mv: shakmaty::Move) -> &mut MoveStats {
        let packed = &mut self.packed;
        let position = self.index.entry(key).or_insert_with(|| {
            packed.push(PackedPosition::new(pos));
            Growing { first: MoveStats::new(mv), more: NONE, last: NONE, packed: packed.len() as u32 - 1 }
        });
        if position.first.mv == mv {
            return &mut position.first;
        }
        let mut slot = position.more;
        while slot != NONE {
            if self.moves[slot as usize].stats.mv == mv {
                return &mut self.moves[slot as usize].stats;
            }
            slot = self.moves[slot as usize].next;
        }
        let new = self.moves.len() as u32;
        self.moves.push(MoveSlot { stats: MoveStats::new(mv), next: NONE });
        match position.last {
            NONE => position.more = new,
            last => self.moves[last as usize].next = new,
        }
        position.last = new;
        &mut self.moves[new as usize].stats
    }

    /// Adds statistics of a move read from elsewhere (another book format).
    pub fn add_stats(&mut self, pos: &Chess, stats: &MoveStats) {
        self.stats_mut(position_key(pos), pos, stats.mv).add(stats);
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
            let stats = self.stats_mut(key, &pos, mv);
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
