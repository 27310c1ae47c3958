//! Checking Wthor game files: replay with the forced-pass rule, the 0 padding, the real score,
//! the theoretical score where it is determined, name indices, header consistency.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use tabiya_io::{DataError, Diagnostic, DiagnosticSink, Location};

use super::game::{GameFile, GameFile10, GameRecord, GamesFile};
use super::header::HEADER_LEN;
use super::names::{NameFile, NameKind};
use super::replay::{Ending, Replay, Replay10, ReplayError};
use super::theoretical::EndgameSolver;
use crate::board::Position;

/// What a verification counted; adds up over files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct GameStats {
    /// Games read.
    pub games: u64,
    /// Games with at least one forced pass.
    pub games_with_pass: u64,
    /// Forced passes in all.
    pub passes: u64,
    /// The most passes in one game.
    pub max_passes: u32,
    /// Games that fill the board.
    pub full_board: u64,
    /// Games over before the board is full.
    pub early_end: u64,
    /// Games whose moves stop before the game is over.
    pub truncated: u64,
    /// Games with a byte that is no square, an illegal move or a move after the end.
    pub unreplayable: u64,
    /// Games whose stored real score is not what the moves give.
    pub real_score_mismatches: u64,
    /// Theoretical scores checked: games that end before the depth (= real), or solved (deep).
    pub theoretical_checked: u64,
    /// Checked theoretical scores that are wrong.
    pub theoretical_mismatches: u64,
    /// Full-board games whose theoretical score equals the real one (all of them: copied).
    pub full_board_theoretical_equals_real: u64,
    /// Games whose first move is not f5 (g6 on 10×10 boards).
    pub not_starting_f5: u64,
    /// Games with a non-zero move byte after the 0 padding starts.
    pub bytes_after_padding: u64,
    /// Games naming a player or tournament beyond the name files.
    pub name_index_out_of_range: u64,
}

impl std::ops::AddAssign for GameStats {
    fn add_assign(&mut self, o: GameStats) {
        self.games += o.games;
        self.games_with_pass += o.games_with_pass;
        self.passes += o.passes;
        self.max_passes = self.max_passes.max(o.max_passes);
        self.full_board += o.full_board;
        self.early_end += o.early_end;
        self.truncated += o.truncated;
        self.unreplayable += o.unreplayable;
        self.real_score_mismatches += o.real_score_mismatches;
        self.theoretical_checked += o.theoretical_checked;
        self.theoretical_mismatches += o.theoretical_mismatches;
        self.full_board_theoretical_equals_real += o.full_board_theoretical_equals_real;
        self.not_starting_f5 += o.not_starting_f5;
        self.bytes_after_padding += o.bytes_after_padding;
        self.name_index_out_of_range += o.name_index_out_of_range;
    }
}

/// What checking one game file found: the counts, and every problem (the reader's and the
/// checks'), each located in the file.
#[derive(Debug, Clone, Default)]
pub struct GameCheck {
    /// What was counted.
    pub stats: GameStats,
    /// Errors and warnings in the order found.
    pub problems: Vec<Diagnostic>,
}

impl GameCheck {
    /// No error among the problems.
    pub fn ok(&self) -> bool {
        !tabiya_io::any_error(&self.problems)
    }
}

/// The player and tournament files a game file's indices point into.
#[derive(Debug, Clone, Copy)]
pub struct Names<'a> {
    /// WTHOR.JOU.
    pub players: &'a NameFile,
    /// WTHOR.TRN.
    pub tournaments: &'a NameFile,
}

/// The name files in `dir`: `WTHOR.JOU`/`WTHOR.TRN` or `WTH.JOU`/`WTH.TRN`, any case.
pub fn name_files_in(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let entries: Vec<PathBuf> = std::fs::read_dir(dir).ok()?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    let find = |ext: &str| {
        ["wthor", "wth"].iter().find_map(|stem| {
            entries.iter().find(|p| {
                p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case(&format!("{stem}.{ext}")))
            })
        })
    };
    Some((find("jou")?.clone(), find("trn")?.clone()))
}

/// The game as replayed, whatever the board: what the checks need.
struct Replayed {
    ending: Ending,
    real_score: Option<u8>,
    moves: usize,
    passes: u32,
    /// The position at the header's depth, for the deep check (8×8 only).
    at_depth: Option<Position>,
}

/// What differs between the two board sizes for the checks.
struct BoardRules {
    /// The first move's byte (f5, or g6 on 10×10) and its name.
    first: (u8, &'static str),
    /// Every square.
    squares: usize,
    replay: fn(&[u8], usize) -> Result<Replayed, ReplayError>,
}

const EIGHT: BoardRules = BoardRules {
    first: (56, "f5"),
    squares: 60,
    replay: |moves, snapshot_after| {
        Replay::run(moves, snapshot_after).map(|r| Replayed {
            ending: r.ending(),
            real_score: r.real_score(),
            moves: r.moves,
            passes: r.passes,
            at_depth: r.snapshot,
        })
    },
};

const TEN: BoardRules = BoardRules {
    first: (79, "g6"),
    squares: 96,
    replay: |moves, _| {
        Replay10::run(moves).map(|r| Replayed {
            ending: r.ending(),
            real_score: r.real_score(),
            moves: r.moves,
            passes: r.passes,
            at_depth: None,
        })
    },
};

/// The name files of `dir` ([`name_files_in`]), read; `None` when there are none. What
/// reading them finds is left to their own verification.
pub fn load_name_files(dir: &Path) -> Result<Option<(NameFile, NameFile)>, tabiya_io::Error> {
    let Some((jou, trn)) = name_files_in(dir) else { return Ok(None) };
    let load = |kind, path: &Path| -> Result<NameFile, tabiya_io::Error> {
        let data = tabiya_io::read_input(path)?;
        NameFile::read(kind, &data, &mut Vec::new()).map_err(|e| e.in_file(path).into())
    };
    Ok(Some((load(NameKind::Players, &jou)?, load(NameKind::Tournaments, &trn)?)))
}

/// Verifies a `.wtb` file from its bytes. `names` enables the index checks; `solver` (deep
/// verification) solves the theoretical score of every complete game at the header's depth.
pub fn verify_games(
    path: &Path,
    data: &[u8],
    names: Option<Names<'_>>,
    solver: Option<&mut dyn EndgameSolver>,
) -> GameCheck {
    let mut v = GameCheck::default();
    let Some(file) = read_reporting(path, &mut v, |sink| GameFile::read(data, sink)) else { return v };
    check_games(path, &file, &EIGHT, names, solver, &mut v);
    v
}

/// Verifies a `.wtd` file (10×10) as [`verify_games`] does a `.wtb`: every game replayed on
/// the 10×10 board with the forced-pass rule, scores, padding, first move (g6), names, header.
pub fn verify_games_10(path: &Path, data: &[u8], names: Option<Names<'_>>) -> GameCheck {
    let mut v = GameCheck::default();
    let Some(file) = read_reporting(path, &mut v, |sink| GameFile10::read(data, sink)) else { return v };
    check_games(path, &file, &TEN, names, None, &mut v);
    v
}

fn check_games<const M: usize>(
    path: &Path,
    file: &GamesFile<M>,
    board: &BoardRules,
    names: Option<Names<'_>>,
    mut solver: Option<&mut dyn EndgameSolver>,
    v: &mut GameCheck,
) {
    check_header(path, &file.header, v);
    let depth = usize::from(file.header.effective_depth()).min(board.squares);
    let at = |record: usize, byte: usize| {
        Location::at((HEADER_LEN + record * GameRecord::<M>::LEN + byte) as u64)
            .in_file(path)
            .with_record(record as u64)
    };
    let (mut missing_players, mut missing_tournaments) = (BTreeSet::new(), BTreeSet::new());
    let mut truncated = Vec::new();
    for (i, game) in file.games.iter().enumerate() {
        let s = &mut v.stats;
        s.games += 1;
        if let Some(names) = names {
            let mut out_of_range = false;
            for index in [game.black, game.white] {
                if usize::from(index) >= names.players.len() {
                    missing_players.insert(index);
                    out_of_range = true;
                }
            }
            if usize::from(game.tournament) >= names.tournaments.len() {
                missing_tournaments.insert(game.tournament);
                out_of_range = true;
            }
            s.name_index_out_of_range += u64::from(out_of_range);
        }
        if game.has_bytes_after_padding() {
            s.bytes_after_padding += 1;
            let count = game.move_count();
            v.problems.error(
                "wthor.bytes_after_padding",
                at(i, 8 + count),
                format!("non-zero move byte after the 0 that ends move {count}"),
            );
        }
        let (first, first_name) = board.first;
        if game.moves[0] != first && game.moves[0] != 0 {
            v.stats.not_starting_f5 += 1;
            v.problems.warning(
                "wthor.first_move",
                at(i, 8),
                format!("first move byte {} is not {first_name} ({first})", game.moves[0]),
            );
        }
        let replay = match (board.replay)(&game.moves, board.squares - depth) {
            Ok(r) => r,
            Err(e) => {
                v.stats.unreplayable += 1;
                v.problems.error(e.code(), at(i, 8 + e.index()), e.to_string());
                continue;
            }
        };
        check_scores(game, &replay, board.squares - depth, solver.as_deref_mut(), v, || at(i, 6));
        let s = &mut v.stats;
        s.passes += u64::from(replay.passes);
        s.games_with_pass += u64::from(replay.passes > 0);
        s.max_passes = s.max_passes.max(replay.passes);
        if replay.ending == Ending::Truncated {
            s.truncated += 1;
            truncated.push(i);
        }
    }
    let whole_file = || Location::default().in_file(path);
    if !truncated.is_empty() {
        let list: Vec<String> = truncated.iter().take(10).map(usize::to_string).collect();
        let more = if truncated.len() > 10 { ", …" } else { "" };
        v.problems.warning(
            "wthor.truncated",
            whole_file(),
            format!(
                "{} truncated transcripts (the moves stop before the game is over; scores not checked): records {}{more}",
                truncated.len(),
                list.join(", ")
            ),
        );
    }
    if let Some(names) = names {
        for (missing, file) in [(missing_players, names.players), (missing_tournaments, names.tournaments)] {
            if let (Some(first), Some(last)) = (missing.first(), missing.last()) {
                let listed: Vec<String> = missing.iter().take(12).map(u16::to_string).collect();
                let more = if missing.len() > 12 { ", …" } else { "" };
                v.problems.error(
                    "wthor.name_index",
                    whole_file(),
                    format!(
                        "{} distinct {} indices from {first} to {last} ({}{more}) are beyond the {} names of {}: \
                         the name files are older than this game file; use {} of the same or a later release",
                        missing.len(),
                        if file.kind == NameKind::Players { "player" } else { "tournament" },
                        listed.join(", "),
                        file.len(),
                        file.kind.file_name(),
                        file.kind.file_name(),
                    ),
                );
            }
        }
    }
    let s = v.stats;
    if s.full_board >= 10 && s.full_board_theoretical_equals_real == s.full_board {
        v.problems.warning(
            "wthor.theoretical_copied",
            whole_file(),
            "every theoretical score equals the real score: copied, not solved (as Edax's writer does)",
        );
    }
}

/// Verifies `.wtb` files in parallel, each from its bytes as [`verify_games`] does; the results
/// are in the order of `paths`.
pub fn verify_game_files(paths: &[PathBuf], names: Option<Names<'_>>) -> Vec<Result<GameCheck, tabiya_io::Error>> {
    use rayon::prelude::*;
    paths
        .par_iter()
        .map(|path| {
            let data = tabiya_io::read_input(path)?;
            Ok(verify_games(path, &data, names, None))
        })
        .collect()
}

/// The year a game file is named for: `WTH_2001.wtb` → 2001.
pub fn year_in_file_name(path: &Path) -> Option<u16> {
    number_in_file_name(path)
}

/// The number after the last `_` of a Wthor file's name: the year of `WTH_2001.wtb`, the
/// empties of `SOLITAIRES_12.pzz`. A name without `_` names no number (`/dev/fd/63`, the
/// name of a `<(…)` stream, is not the year 63).
pub fn number_in_file_name(path: &Path) -> Option<u16> {
    path.file_stem()?.to_str()?.rsplit_once('_')?.1.parse().ok()
}

/// Reads a file, recording in `v` what the reader found (with the severity the reader gave)
/// and the error that stops reading.
fn read_reporting<F>(
    path: &Path,
    v: &mut GameCheck,
    read: impl FnOnce(&mut Vec<Diagnostic>) -> Result<F, DataError>,
) -> Option<F> {
    let mut found = Vec::new();
    let file = read(&mut found);
    v.problems.extend(found.into_iter().map(|d| d.in_file(path)));
    match file {
        Ok(file) => Some(file),
        Err(e) => {
            v.problems.report(unreadable(e.in_file(path)));
            None
        }
    }
}

/// The error that stops a reader, as a diagnostic.
pub fn unreadable(e: DataError) -> Diagnostic {
    let found = e.found.map(|f| format!(", found {f}")).unwrap_or_default();
    Diagnostic::error("wthor.unreadable", e.location, format!("expected {}{found}", e.expected))
}

fn check_header(path: &Path, h: &super::Header, v: &mut GameCheck) {
    if let Some(year) = year_in_file_name(path).filter(|&y| y != h.game_year) {
        v.problems.warning(
            "wthor.header_year",
            Location::at(10).in_file(path),
            format!("header year {} but the file is named for {year}", h.game_year),
        );
    }
    if !matches!(h.depth, 0 | 22 | 24) {
        v.problems.warning(
            "wthor.depth",
            Location::at(14).in_file(path),
            format!(
                "P3 depth {} (real files have 24; Edax writes 1); theoretical scores checked at {}",
                h.depth, h.depth
            ),
        );
    }
}

/// The real score against the moves, and the theoretical score where it is determined: equal
/// to the real one when the game ends before the depth, else solved when a solver is given.
fn check_scores<'s, const M: usize>(
    game: &GameRecord<M>,
    replay: &Replayed,
    moves_before_depth: usize,
    solver: Option<&mut (dyn EndgameSolver + 's)>,
    v: &mut GameCheck,
    at: impl Fn() -> Location,
) {
    let Some(real) = replay.real_score else { return };
    let s = &mut v.stats;
    match replay.ending {
        Ending::FullBoard => {
            s.full_board += 1;
            s.full_board_theoretical_equals_real += u64::from(game.theoretical_score == game.real_score);
        }
        Ending::Early => s.early_end += 1,
        Ending::Truncated => {}
    }
    if real != game.real_score {
        s.real_score_mismatches += 1;
        v.problems.error("wthor.real_score", at(), format!("real score {} but the moves give {real}", game.real_score));
    }
    let expected = if replay.moves <= moves_before_depth {
        Some(real)
    } else {
        solver.zip(replay.at_depth).map(|(solver, position)| solver.black_score(&position))
    };
    if let Some(expected) = expected {
        let s = &mut v.stats;
        s.theoretical_checked += 1;
        if expected != game.theoretical_score {
            s.theoretical_mismatches += 1;
            let mut at = at();
            at.offset = at.offset.map(|o| o + 1);
            v.problems.error(
                "wthor.theoretical_score",
                at,
                format!(
                    "theoretical score {} but perfect play at {} empties gives {expected}",
                    game.theoretical_score,
                    M - moves_before_depth
                ),
            );
        }
    }
}
