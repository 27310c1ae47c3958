//! Checking Wthor game files: replay with the forced-pass rule, the 0 padding, the real score,
//! the theoretical score where it is determined, name indices, header consistency.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use tabiya_io::{Finding, Location, Severity, Warnings};

use super::game::{Game, Game10, GameFile, GameFile10, GameRecord};
use super::header::HEADER_LEN;
use super::names::{NameFile, NameKind};
use super::replay::{Ending, Replay, ReplayError};
use super::square::{BoardSize, code_of_square};
use super::theoretical::EndgameSolver;
use crate::board::Square;

/// What a verification counted; adds up over files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct GameStats {
    pub games: u64,
    pub games_with_pass: u64,
    pub passes: u64,
    pub max_passes: u32,
    pub full_board: u64,
    pub early_end: u64,
    pub truncated: u64,
    /// Games with a byte that is no square, an illegal move or a move after the end.
    pub unreplayable: u64,
    pub real_score_mismatches: u64,
    /// Theoretical scores checked: games that end before the depth (= real), or solved (deep).
    pub theoretical_checked: u64,
    pub theoretical_mismatches: u64,
    pub full_board_theoretical_equals_real: u64,
    /// Games whose first move is not f5 (g6 on 10×10 boards).
    pub not_starting_f5: u64,
    pub bytes_after_padding: u64,
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

/// The result of verifying one file.
#[derive(Debug, Clone, Default)]
pub struct Verification {
    pub stats: GameStats,
    pub problems: Vec<Finding>,
}

impl Verification {
    pub fn ok(&self) -> bool {
        self.problems.iter().all(|p| p.severity == Severity::Warning)
    }

    fn push(&mut self, severity: Severity, location: Location, what: impl Into<String>) {
        self.problems.push(Finding { severity, location, what: what.into() });
    }
}

/// The player and tournament files a game file's indices point into.
#[derive(Debug, Clone, Copy)]
pub struct Names<'a> {
    pub players: &'a NameFile,
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

/// Verifies a `.wtb` file from its bytes. `names` enables the index checks; `solver` (deep
/// verification) solves the theoretical score of every complete game at the header's depth.
pub fn verify_games(
    path: &Path,
    data: &[u8],
    names: Option<Names<'_>>,
    mut solver: Option<&mut dyn EndgameSolver>,
) -> Verification {
    let mut v = Verification::default();
    let Some(file) = read_reporting(path, &mut v, |w| GameFile::read(data, w)) else { return v };
    check_header(path, &file, &mut v);
    let depth = file.header.effective_depth().min(60);
    let at = |record: usize, byte: usize| {
        Location::at((HEADER_LEN + record * Game::LEN + byte) as u64).in_file(path).with_record(record as u64)
    };
    let f5 = Square::from_coords(5, 4).map_or(0, code_of_square);
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
            v.push(Severity::Error, at(i, 8 + count), format!("non-zero move byte after the 0 that ends move {count}"));
        }
        if game.moves[0] != f5 && game.moves[0] != 0 {
            v.stats.not_starting_f5 += 1;
            v.push(Severity::Warning, at(i, 8), format!("first move byte {} is not f5 (56)", game.moves[0]));
        }
        let replay = match Replay::run(&game.moves, 60 - usize::from(depth)) {
            Ok(r) => r,
            Err(e) => {
                v.stats.unreplayable += 1;
                let index = match e {
                    ReplayError::BadByte { index, .. }
                    | ReplayError::Illegal { index, .. }
                    | ReplayError::AfterEnd { index, .. } => index,
                };
                v.push(Severity::Error, at(i, 8 + index), e.to_string());
                continue;
            }
        };
        check_scores(game, &replay, depth, solver.as_deref_mut(), &mut v, || at(i, 6));
        let s = &mut v.stats;
        s.passes += u64::from(replay.passes);
        s.games_with_pass += u64::from(replay.passes > 0);
        s.max_passes = s.max_passes.max(replay.passes);
        if replay.ending() == Ending::Truncated {
            s.truncated += 1;
            truncated.push(i);
        }
    }
    if !truncated.is_empty() {
        let list: Vec<String> = truncated.iter().take(10).map(usize::to_string).collect();
        let more = if truncated.len() > 10 { ", …" } else { "" };
        v.push(
            Severity::Warning,
            Location::default().in_file(path),
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
                v.push(
                    Severity::Error,
                    Location::default().in_file(path),
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
        v.push(
            Severity::Warning,
            Location::default().in_file(path),
            "every theoretical score equals the real score: copied, not solved (as Edax's writer does)",
        );
    }
    v
}

/// Verifies `.wtb` files in parallel, each from its bytes as [`verify_games`] does; the results
/// are in the order of `paths`.
pub fn verify_game_files(paths: &[PathBuf], names: Option<Names<'_>>) -> Vec<Result<Verification, tabiya_io::Error>> {
    use rayon::prelude::*;
    paths
        .par_iter()
        .map(|path| {
            let data = tabiya_io::read_input(path)?;
            Ok(verify_games(path, &data, names, None))
        })
        .collect()
}

/// Verifies a `.wtd` file (10×10): move bytes on the board, the 0 padding, the first move g6,
/// N1 against the file size. There is no 10×10 board to replay the games on.
pub fn verify_games_10(path: &Path, data: &[u8]) -> Verification {
    let mut v = Verification::default();
    let Some(file) = read_reporting(path, &mut v, |w| GameFile10::read(data, w)) else { return v };
    let g6 = BoardSize::Ten.encode(6, 5).unwrap_or(0);
    for (i, game) in file.games.iter().enumerate() {
        v.stats.games += 1;
        let at = |byte: usize| {
            Location::at((HEADER_LEN + i * Game10::LEN + byte) as u64).in_file(path).with_record(i as u64)
        };
        if let Some(k) = game.stored_moves().iter().position(|&b| BoardSize::Ten.decode(b).is_none()) {
            v.stats.unreplayable += 1;
            v.push(Severity::Error, at(8 + k), format!("move {k}: byte {} is not a 10×10 square", game.moves[k]));
        }
        if game.has_bytes_after_padding() {
            v.stats.bytes_after_padding += 1;
            v.push(Severity::Error, at(8 + game.move_count()), "non-zero move byte after the 0 padding");
        }
        if game.moves[0] != g6 && game.moves[0] != 0 {
            v.stats.not_starting_f5 += 1;
            v.push(Severity::Warning, at(8), format!("first move byte {} is not g6 ({g6})", game.moves[0]));
        }
    }
    v
}

/// The year a game file is named for: `WTH_2001.wtb` → 2001.
pub fn year_in_file_name(path: &Path) -> Option<u16> {
    path.file_stem()?.to_str()?.rsplit('_').next()?.parse().ok()
}

/// Reads a game file, recording in `v` the error that stops reading or the reader's warnings.
/// Warnings about the counts and sizes (header offset 4 on) mean a damaged file and count as
/// errors; a creation date outside the usual range does not.
fn read_reporting<F>(
    path: &Path,
    v: &mut Verification,
    read: impl FnOnce(&mut Warnings) -> Result<F, tabiya_io::DataError>,
) -> Option<F> {
    let mut warnings = Warnings::default();
    let file = read(&mut warnings);
    for w in warnings.iter() {
        let severity = if w.location.offset.unwrap_or(0) >= 4 { Severity::Error } else { Severity::Warning };
        v.push(severity, w.location.clone().in_file(path), w.message.clone());
    }
    match file {
        Ok(file) => Some(file),
        Err(e) => {
            v.push(Severity::Error, e.location.in_file(path), format!("expected {}", e.expected));
            None
        }
    }
}

fn check_header(path: &Path, file: &GameFile, v: &mut Verification) {
    let h = &file.header;
    if let Some(year) = year_in_file_name(path).filter(|&y| y != h.game_year) {
        v.push(
            Severity::Warning,
            Location::at(10).in_file(path),
            format!("header year {} but the file is named for {year}", h.game_year),
        );
    }
    if !matches!(h.depth, 0 | 22 | 24) {
        v.push(
            Severity::Warning,
            Location::at(14).in_file(path),
            format!(
                "P3 depth {} (real files have 24; Edax writes 1); theoretical scores checked at {}",
                h.depth, h.depth
            ),
        );
    }
}

fn check_scores<'s>(
    game: &GameRecord<60>,
    replay: &Replay,
    depth: u8,
    solver: Option<&mut (dyn EndgameSolver + 's)>,
    v: &mut Verification,
    at: impl Fn() -> Location,
) {
    let Some(real) = replay.real_score() else { return };
    let s = &mut v.stats;
    match replay.ending() {
        Ending::FullBoard => {
            s.full_board += 1;
            s.full_board_theoretical_equals_real += u64::from(game.theoretical_score == game.real_score);
        }
        Ending::Early => s.early_end += 1,
        Ending::Truncated => {}
    }
    if real != game.real_score {
        s.real_score_mismatches += 1;
        v.push(Severity::Error, at(), format!("real score {} but the moves give {real}", game.real_score));
    }
    let expected = if replay.moves <= 60 - usize::from(depth) {
        Some(real)
    } else {
        solver.zip(replay.snapshot).map(|(solver, position)| solver.black_score(&position))
    };
    if let Some(expected) = expected {
        let s = &mut v.stats;
        s.theoretical_checked += 1;
        if expected != game.theoretical_score {
            s.theoretical_mismatches += 1;
            let mut at = at();
            at.offset = at.offset.map(|o| o + 1);
            v.push(
                Severity::Error,
                at,
                format!(
                    "theoretical score {} but perfect play at {depth} empties gives {expected}",
                    game.theoretical_score
                ),
            );
        }
    }
}
