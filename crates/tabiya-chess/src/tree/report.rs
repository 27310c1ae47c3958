//! What a tree answers: a probe (the books' shape, with the tree's statistics and top games),
//! its info, its verification, every position as JSON Lines, and the opening book it makes.

use std::io::{self, Write};
use std::path::Path;

use serde_json::{Map, Value, json};
use shakmaty::Chess;
use tabiya_io::report::{Info, Probe, ProbeMove, Verification};
use tabiya_io::{Diagnostic, Location};

use tabiya_io::tree::{BLOCK, Footer, TOP_GAMES, TopGame, TreeError, TreeFile, TreeMove, TreeSource};

use super::GAME;
use super::build::code_move;
use super::key::{KEY_BYTES, PositionKey};
use super::table::{GameRef, read_game};
use crate::book::{Book, BookBuilder, BuildOptions, MoveStats, fen_of};

/// The stable codes of the tree's [`Diagnostic`]s.
pub mod codes {
    /// Error: a record, index entry or game that cannot be read.
    pub const DAMAGED: &str = "tree.damaged";
    /// Error: a stored move not legal in its position.
    pub const ILLEGAL_MOVE: &str = "tree.illegal_move";
    /// Error: counts that contradict each other (more wins than games, …).
    pub const COUNTS: &str = "tree.counts";
}

/// The format's name in reports.
pub const FORMAT: &str = "tree";

fn mean(sum: u64, count: u64) -> Option<u64> {
    (count > 0).then(|| (sum + count / 2) / count)
}

/// The rating performance of a move: the opponents' mean rating + 400 × (wins − losses) /
/// decided-or-drawn games (the linear rule), when some opponent was rated.
fn performance(m: &TreeMove) -> Option<i64> {
    let played = m.wins + m.draws + m.losses;
    let opponents = mean(m.opponent_rating_sum, m.opponent_rated)?;
    (played > 0).then(|| opponents as i64 + 400 * (m.wins as i64 - m.losses as i64) / played as i64)
}

fn year(y: u16) -> Value {
    if y == 0 { Value::Null } else { json!(y) }
}

/// The statistics of a move (or a position's moves added up) as JSON fields.
fn statistics(m: &TreeMove, fields: &mut Map<String, Value>) {
    fields.insert("average_rating".into(), json!(mean(m.mover_rating_sum, m.mover_rated)));
    fields.insert("opponent_average_rating".into(), json!(mean(m.opponent_rating_sum, m.opponent_rated)));
    fields.insert("performance".into(), json!(performance(m)));
    fields.insert("first_year".into(), year(m.first_year));
    fields.insert("last_year".into(), year(m.last_year));
}

/// An opened chess tree (memory-mapped).
#[derive(Debug)]
pub struct Tree {
    file: TreeFile<KEY_BYTES>,
}

impl Tree {
    /// Opens the tree in `path`.
    pub fn open(path: &Path) -> Result<Tree, TreeError> {
        Ok(Tree { file: TreeFile::open(path, GAME)? })
    }

    /// The file underneath, for merging.
    pub fn file(&self) -> &TreeFile<KEY_BYTES> {
        &self.file
    }

    /// The file as it was named.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// What the footer says.
    pub fn footer(&self) -> &Footer {
        self.file.footer()
    }

    /// The sources, in the order their games were numbered.
    pub fn sources(&self) -> &[TreeSource] {
        self.file.sources()
    }

    /// The moves of the position `key`, when the tree holds it.
    pub fn get(&self, key: &PositionKey) -> Result<Option<Vec<TreeMove>>, TreeError> {
        self.file.get(&key.0)
    }

    /// Game `id` of the table.
    pub fn game(&self, id: u64) -> Result<GameRef, TreeError> {
        let (bytes, start) = self.file.game_record(id)?;
        read_game(&mut tabiya_io::tree::Decoder::new(bytes, start), id, self.file.source_of(id))
            .map_err(|e| self.file.damaged(format!("game {id}: record at offset {start}: {e}")))
    }

    fn top_games(&self, top: &[TopGame], problems: &mut Vec<Diagnostic>) -> Value {
        let games = top.iter().filter_map(|t| match self.game(t.game) {
            Ok(game) => serde_json::to_value(game).ok(),
            Err(e) => {
                problems.push(Diagnostic::error(codes::DAMAGED, Location::file(self.path()), e.to_string()));
                None
            }
        });
        Value::Array(games.collect())
    }

    /// The tree's moves for `pos`, most played first (ties by UCI code), each with its W/D/L from
    /// the mover's view, weight = games, and the tree's statistics and top games as raw fields;
    /// the position's own (all its moves added up) in `position`.
    pub fn probe(&self, pos: &Chess) -> Result<Probe, TreeError> {
        let mut probe = Probe {
            book: self.path().to_path_buf(),
            format: FORMAT,
            fen: fen_of(pos),
            found: false,
            position: Map::new(),
            moves: Vec::new(),
            problems: Vec::new(),
        };
        let Ok(key) = PositionKey::new(pos) else { return Ok(probe) };
        let Some(mut moves) = self.get(&key)? else { return Ok(probe) };
        probe.found = true;
        let mut all = TreeMove::default();
        moves.iter().for_each(|m| all.add(m));
        moves.sort_by_key(|m| (std::cmp::Reverse(m.games), m.code));
        for m in &moves {
            let Some(mv) = code_move(m.code, pos) else {
                let what = format!("stored move code {:#06x} is not legal in {}", m.code, probe.fen);
                probe.problems.push(Diagnostic::error(codes::ILLEGAL_MOVE, Location::file(self.path()), what));
                continue;
            };
            let mut extra = Map::new();
            statistics(m, &mut extra);
            extra.insert("top_games".into(), self.top_games(&m.top, &mut probe.problems));
            probe.moves.push(ProbeMove {
                uci: mv.to_uci(shakmaty::CastlingMode::Standard).to_string(),
                san: shakmaty::san::San::from_move(pos, mv).to_string(),
                weight: m.games,
                games: Some(m.games),
                wins: Some(m.wins),
                draws: Some(m.draws),
                losses: Some(m.losses),
                annotation: None,
                extra,
            });
        }
        let position = &mut probe.position;
        for (name, n) in [("games", all.games), ("wins", all.wins), ("draws", all.draws), ("losses", all.losses)] {
            position.insert(name.into(), json!(n));
        }
        statistics(&all, position);
        let top = self.top_games(&all.top, &mut probe.problems);
        probe.position.insert("top_games".into(), top);
        Ok(probe)
    }

    /// What the tree holds: positions, moves, games, sources.
    pub fn info(&self) -> Info {
        let mut info = Info::new(self.path(), FORMAT);
        info.version = json!(self.file.version());
        let f = self.footer();
        info.count("positions", f.positions).count("moves", f.moves).count("games", f.games);
        info.count("occurrences", f.occurrences).count("sources", f.sources);
        let sources: Vec<Value> = self.sources().iter().map(|s| json!({"name": s.name, "games": s.games})).collect();
        info.header("sources", sources);
        info
    }

    /// Every record read and checked: keys ascending and each a legal position, each move once,
    /// legal and with counts that agree, top games in order and in the table, the index and the
    /// footer's counts right, every game record readable.
    pub fn verify(&self) -> Verification {
        let mut v = Verification::new(self.path(), FORMAT);
        let file = self.path().to_path_buf();
        let at = |offset: u64| Location::file(&file).with_offset(offset);
        let f = *self.footer();
        let mut records = self.file.records();
        let (mut positions, mut moves, mut occurrences) = (0u64, 0u64, 0u64);
        let mut last: Option<PositionKey> = None;
        loop {
            let offset = records.offset;
            let (key, found) = match records.position::<KEY_BYTES>() {
                Ok(Some(record)) => record,
                Ok(None) => break,
                Err(e) => {
                    v.problem(Diagnostic::error(codes::DAMAGED, at(offset), format!("record {}: {e}", positions + 1)));
                    break;
                }
            };
            if positions.is_multiple_of(BLOCK) {
                let entry = self.file.index_entry(positions / BLOCK);
                if entry != Some(offset) {
                    let what = format!("index entry {} is {entry:?}, the record is at {offset}", positions / BLOCK);
                    v.problem(Diagnostic::error(codes::DAMAGED, at(offset), what));
                }
            }
            positions += 1;
            moves += found.len() as u64;
            let key = PositionKey(key);
            if last.is_some_and(|last| last >= key) {
                v.problem(Diagnostic::error(codes::DAMAGED, at(offset), "keys out of order"));
            }
            last = Some(key);
            let Some(pos) = key.position() else {
                v.problem(Diagnostic::error(codes::DAMAGED, at(offset), "the key is not a legal position"));
                continue;
            };
            if found.iter().enumerate().any(|(i, m)| found[..i].iter().any(|before| before.code == m.code)) {
                v.problem(Diagnostic::error(codes::DAMAGED, at(offset), "a move stored twice"));
            }
            for m in &found {
                occurrences += m.games;
                if code_move(m.code, &pos).is_none() {
                    let what = format!("move code {:#06x} is not legal in {}", m.code, fen_of(&pos));
                    v.problem(Diagnostic::error(codes::ILLEGAL_MOVE, at(offset), what));
                }
                let top_ok = m.top.len() <= TOP_GAMES
                    && m.top.len() as u64 <= m.games
                    && m.top.windows(2).all(|w| {
                        (std::cmp::Reverse(w[0].rating), w[0].game) < (std::cmp::Reverse(w[1].rating), w[1].game)
                    })
                    && m.top.iter().all(|t| t.game < f.games);
                let counts_ok = m.games > 0
                    && m.wins + m.draws + m.losses <= m.games
                    && m.mover_rated <= m.games
                    && m.opponent_rated <= m.games
                    && (m.first_year <= m.last_year)
                    && (m.first_year == 0) == (m.last_year == 0);
                if !(top_ok && counts_ok) {
                    let what =
                        format!("the counts of move code {:#06x} in {} contradict each other", m.code, fen_of(&pos));
                    v.problem(Diagnostic::error(codes::COUNTS, at(offset), what));
                }
            }
        }
        if (positions, moves, occurrences) != (f.positions, f.moves, f.occurrences) {
            let what = format!(
                "the footer counts {} positions, {} moves, {} occurrences; the records hold {positions}, {moves}, {occurrences}",
                f.positions, f.moves, f.occurrences
            );
            v.problem(Diagnostic::error(codes::DAMAGED, at(f.footer_offset), what));
        }
        let mut games = 0;
        for id in 0..f.games {
            match self.game(id) {
                Ok(_) => games += 1,
                Err(e) => v.problem(Diagnostic::error(codes::DAMAGED, Location::file(&file), e.to_string())),
            }
        }
        let source_games: u64 = self.sources().iter().map(|s| s.games).sum();
        if source_games != f.games {
            let what = format!("the sources name {source_games} games, the table holds {}", f.games);
            v.problem(Diagnostic::error(codes::DAMAGED, at(f.sources_offset), what));
        }
        v.checked("positions", positions).checked("moves", moves).checked("games", games);
        v
    }

    /// Every position in key order as a JSON object: `{"fen", "moves": [{"uci", "san", "games",
    /// "wins", "draws", "losses", statistics…}]}`, moves in the file's order; game references
    /// as numbers into the table (`top_games`).
    pub fn dump(&self, out: &mut impl Write) -> Result<u64, TreeError> {
        let damaged = |e: io::Error| TreeError::Damaged { path: self.path().into(), what: e.to_string() };
        let mut records = self.file.records();
        let mut written = 0;
        while let Some((key, moves)) = records.position::<KEY_BYTES>().map_err(damaged)? {
            let pos =
                PositionKey(key).position().ok_or_else(|| damaged(io::Error::other("a key that is no position")))?;
            let moves: Vec<Value> = moves
                .iter()
                .filter_map(|m| {
                    let mv = code_move(m.code, &pos)?;
                    let mut fields = Map::new();
                    fields.insert("uci".into(), json!(mv.to_uci(shakmaty::CastlingMode::Standard).to_string()));
                    fields.insert("san".into(), json!(shakmaty::san::San::from_move(&pos, mv).to_string()));
                    for (name, n) in [("games", m.games), ("wins", m.wins), ("draws", m.draws), ("losses", m.losses)] {
                        fields.insert(name.into(), json!(n));
                    }
                    statistics(m, &mut fields);
                    fields.insert("top_games".into(), json!(m.top.iter().map(|t| t.game).collect::<Vec<_>>()));
                    Some(Value::Object(fields))
                })
                .collect();
            let line = json!({"fen": fen_of(&pos), "moves": moves});
            tabiya_io::report::write_json(out, &line).map_err(damaged)?;
            written += 1;
        }
        Ok(written)
    }

    /// The tree as an opening book (every position and move with its W/D/L), for the book
    /// writers: the same book as [`crate::book::build_from_pgn`] of the tree's games (the tree
    /// keeps en-passant squares as Polyglot's key does, and each position's moves in the order
    /// first played, the order make-book keeps among equal weights).
    pub fn to_book(&self) -> Result<Book, TreeError> {
        let damaged = |e: io::Error| TreeError::Damaged { path: self.path().into(), what: e.to_string() };
        let mut builder = BookBuilder::new(BuildOptions::default());
        let mut records = self.file.records();
        let narrow = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        while let Some((key, moves)) = records.position::<KEY_BYTES>().map_err(damaged)? {
            let pos =
                PositionKey(key).position().ok_or_else(|| damaged(io::Error::other("a key that is no position")))?;
            let stats: Vec<MoveStats> = moves
                .iter()
                .filter_map(|m| {
                    let mv = code_move(m.code, &pos)?;
                    let (games, wins, draws, losses) =
                        (narrow(m.games), narrow(m.wins), narrow(m.draws), narrow(m.losses));
                    Some(MoveStats { mv, games, wins, draws, losses })
                })
                .collect();
            builder.add_stats(&pos, &stats);
        }
        Ok(builder.finish())
    }
}

/// Merges trees into `out`: the same bytes as the tree built from all their games in that order
/// ([`tabiya_io::tree::merge_trees`]).
pub fn merge_trees<W: Write>(trees: &[Tree], out: W) -> Result<W, TreeError> {
    let files: Vec<&TreeFile<KEY_BYTES>> = trees.iter().map(Tree::file).collect();
    tabiya_io::tree::merge_trees(&files, out, GAME)
}
