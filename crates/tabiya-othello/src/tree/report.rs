//! What an Othello tree answers: a probe (the books' shape: moves with games and W/D/L from
//! the mover's view, the exact score when solved, the best games), its info, its verification.

use std::io::Write;
use std::path::Path;

use serde_json::{Map, Value, json};
use tabiya_io::report::{Info, Probe, ProbeMove, Verification};
use tabiya_io::tree::{BLOCK, Decoder, TreeError, TreeFile, TreeMove};
use tabiya_io::{Diagnostic, Location};

use super::GAME;
use super::build::{KEY_BYTES, key_of, position_of};
use crate::board::{Position, Square};

/// The format's name in reports.
pub const FORMAT: &str = "othello_tree";

/// An opened Othello tree (memory-mapped).
#[derive(Debug)]
pub struct Tree {
    file: TreeFile<KEY_BYTES>,
}

fn year(y: u16) -> Value {
    if y == 0 { Value::Null } else { json!(y) }
}

/// The position as Edax's OBF board: 64 squares a1…h8 (`X` Black, `O` White, `-` empty) and
/// the side to move.
fn board_text(position: &Position) -> String {
    let square = |i: u8| {
        let bit = 1u64 << i;
        if position.black() & bit != 0 {
            'X'
        } else if position.white() & bit != 0 {
            'O'
        } else {
            '-'
        }
    };
    let side = if position.side == crate::board::Color::Black { 'X' } else { 'O' };
    format!("{} {side}", (0..64).map(square).collect::<String>())
}

impl Tree {
    /// Opens the tree in `path`.
    pub fn open(path: &Path) -> Result<Tree, TreeError> {
        Ok(Tree { file: TreeFile::open(path, GAME)? })
    }

    /// The file underneath.
    pub fn file(&self) -> &TreeFile<KEY_BYTES> {
        &self.file
    }

    /// The game `id` as JSON: its number in its file, players, tournament, scores, year.
    fn game(&self, id: u64) -> Result<Value, TreeError> {
        let (bytes, start) = self.file.game_record(id)?;
        let mut d = Decoder::new(bytes, start);
        let read = (|| {
            let number = d.varint()?;
            let mut names = Vec::new();
            for _ in 0..3 {
                names.push(String::from_utf8_lossy(&d.text()?).into_owned());
            }
            let scores = d.bytes(2)?;
            let year = d.varint()?;
            Ok::<_, std::io::Error>(json!({"id": id, "source": self.file.source_of(id), "number": number,
                "black": names[0], "white": names[1], "tournament": names[2],
                "black_discs": scores[0], "theoretical_black_discs": scores[1], "year": year}))
        })();
        read.map_err(|e| self.file.damaged(format!("game {id}: record at offset {start}: {e}")))
    }

    fn extra(&self, m: &TreeMove, problems: &mut Vec<Diagnostic>) -> Map<String, Value> {
        let mut extra = Map::new();
        extra.insert("exact_score".into(), json!(m.exact));
        extra.insert("first_year".into(), year(m.first_year));
        extra.insert("last_year".into(), year(m.last_year));
        let games = m.top.iter().filter_map(|t| {
            self.game(t.game)
                .map_err(|e| {
                    problems.push(Diagnostic::error("tree.damaged", Location::file(self.file.path()), e.to_string()))
                })
                .ok()
        });
        extra.insert("top_games".into(), Value::Array(games.collect()));
        extra
    }

    /// The tree's moves for `position`, most played first (ties by square), each with its
    /// games, W/D/L from the mover's view, weight = games, and the exact score (the mover's
    /// final disc difference with best play) when solved.
    pub fn probe(&self, position: &Position) -> Result<Probe, TreeError> {
        let mut probe = Probe {
            book: self.file.path().to_path_buf(),
            format: FORMAT,
            fen: board_text(position),
            found: false,
            position: Map::new(),
            moves: Vec::new(),
            problems: Vec::new(),
        };
        let Some(mut moves) = self.file.get(&key_of(position))? else { return Ok(probe) };
        probe.found = true;
        moves.sort_by_key(|m| (std::cmp::Reverse(m.games), m.code));
        let mut all = TreeMove::default();
        for m in &moves {
            all.add(m);
            let name =
                Square::from_index(m.code as u8).map(|s| s.to_string()).unwrap_or_else(|| format!("#{}", m.code));
            let extra = self.extra(m, &mut probe.problems);
            probe.moves.push(ProbeMove {
                uci: name.clone(),
                san: name,
                weight: m.games,
                games: Some(m.games),
                wins: Some(m.wins),
                draws: Some(m.draws),
                losses: Some(m.losses),
                annotation: None,
                extra,
            });
        }
        for (name, n) in [("games", all.games), ("wins", all.wins), ("draws", all.draws), ("losses", all.losses)] {
            probe.position.insert(name.into(), json!(n));
        }
        probe.position.insert("empties".into(), json!(position.board.empties()));
        Ok(probe)
    }

    /// What the tree holds.
    pub fn info(&self) -> Info {
        let mut info = Info::new(self.file.path(), FORMAT);
        info.version = json!(self.file.version());
        let f = self.file.footer();
        info.count("positions", f.positions).count("moves", f.moves).count("games", f.games);
        info.count("occurrences", f.occurrences).count("sources", f.sources);
        let sources: Vec<Value> =
            self.file.sources().iter().map(|s| json!({"name": s.name, "games": s.games})).collect();
        info.header("sources", sources);
        info
    }

    /// Every record read and checked: keys ascending and positions, moves sorted and legal,
    /// counts that agree, the index and the footer's counts right.
    pub fn verify(&self) -> Verification {
        let path = self.file.path().to_path_buf();
        let mut v = Verification::new(&path, FORMAT);
        let at = |offset: u64| Location::file(&path).with_offset(offset);
        let mut records = self.file.records();
        let (mut positions, mut moves) = (0u64, 0u64);
        let mut last: Option<[u8; KEY_BYTES]> = None;
        loop {
            let offset = records.offset;
            let (key, found) = match records.position::<KEY_BYTES>() {
                Ok(Some(record)) => record,
                Ok(None) => break,
                Err(e) => {
                    v.problem(Diagnostic::error("tree.damaged", at(offset), format!("record {}: {e}", positions + 1)));
                    break;
                }
            };
            if positions.is_multiple_of(BLOCK) && self.file.index_entry(positions / BLOCK) != Some(offset) {
                v.problem(Diagnostic::error("tree.damaged", at(offset), "the index does not point at this record"));
            }
            positions += 1;
            moves += found.len() as u64;
            if last.is_some_and(|last| last >= key) {
                v.problem(Diagnostic::error("tree.damaged", at(offset), "keys out of order"));
            }
            last = Some(key);
            let Some(position) = position_of(&key) else {
                v.problem(Diagnostic::error("tree.damaged", at(offset), "the key is not a position"));
                continue;
            };
            for m in &found {
                let legal = Square::from_index(m.code as u8).is_some_and(|s| position.play(s).is_ok());
                if !legal || m.wins + m.draws + m.losses > m.games {
                    let what = format!("move {} of {}: illegal or counts that disagree", m.code, board_text(&position));
                    v.problem(Diagnostic::error("tree.counts", at(offset), what));
                }
            }
        }
        let f = self.file.footer();
        if (positions, moves) != (f.positions, f.moves) {
            let what = format!(
                "the footer counts {} positions, {} moves; the records hold {positions}, {moves}",
                f.positions, f.moves
            );
            v.problem(Diagnostic::error("tree.damaged", at(f.footer_offset), what));
        }
        v.checked("positions", positions).checked("moves", moves);
        v
    }
}

/// Merges trees into `out`: the same bytes as the tree built from all their games in that order.
pub fn merge_trees<W: Write>(trees: &[Tree], out: W) -> Result<W, TreeError> {
    let files: Vec<&TreeFile<KEY_BYTES>> = trees.iter().map(Tree::file).collect();
    tabiya_io::tree::merge_trees(&files, out, GAME)
}
