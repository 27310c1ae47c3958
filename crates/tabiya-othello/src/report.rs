//! `info` and `verify` for every Othello format, as [`tabiya_io::report`] answers: what the
//! command line prints, and what any other door (a Python package, a web page) serves.

use std::collections::BTreeSet;
use std::path::Path;

use tabiya_io::report::{GameFacts, Info, Outcome, Statistics, Tally, Verification};
use tabiya_io::{DataError, Diagnostic, Location, Unit};

use crate::Format;
use crate::solve::{CachedSolver, SolitaireSolver, check_solitaire};
use crate::text::{self, TextError, obf};
use crate::wthor::{
    self, GameCheck, GameFile, GameFile10, GameStats, Header, NameFile, NameKind, Names, SolitaireFile,
};

/// What `verify` may use beyond the file's bytes.
#[derive(Default)]
pub struct VerifyOptions<'a> {
    /// The name files game indices point into; without them indices are not checked.
    pub names: Option<Names<'a>>,
    /// Solves the theoretical score of every complete `.wtb` game (`--deep`).
    pub deep: Option<&'a mut CachedSolver>,
    /// Solves every solitaire of a `.pzz` file; without it only the records are read.
    pub solitaires: Option<&'a SolitaireSolver>,
    /// Called after each solitaire solved, for a progress bar.
    pub progress: Option<&'a dyn Fn()>,
}

/// What a file is: its header fields and counts, and what reading found. With `names`, a game
/// file's counts also say how many of its distinct player and tournament indices the name
/// files resolve. Errors only when the file cannot be read at all (a header cut short).
///
/// Its problems (and their count, `warnings`) are [`verify`]'s without solving: the two
/// commands list the same problems of a file.
pub fn info(path: &Path, format: Format, data: &[u8], names: Option<Names<'_>>) -> Result<Info, DataError> {
    let mut info = Info::new(path, format.name());
    let mut found = Vec::new();
    match format {
        Format::WthorGames => {
            let file = GameFile::read(data, &mut found)?;
            game_counts(&mut info, &file, names);
        }
        Format::WthorGames10 => {
            let file = GameFile10::read(data, &mut found)?;
            game_counts(&mut info, &file, names);
        }
        Format::WthorSolitaires => {
            let file = SolitaireFile::read(data, &mut found)?;
            header_fields(&mut info, &file.header);
            info.count("solitaires", file.solitaires.len()).count("empties", file.header.n2);
        }
        Format::WthorPlayers | Format::WthorTournaments => {
            let file = NameFile::read(name_kind(format), data, &mut found)?;
            header_fields(&mut info, &file.header);
            info.count("names", file.len());
        }
        Format::Transcript | Format::Ggf | Format::Obf | Format::JsonLines | Format::Csv => {}
    }
    let check = verify(path, format, data, VerifyOptions { names, ..VerifyOptions::default() });
    for (name, value) in check.checked {
        if matches!(name.as_str(), "games" | "positions" | "unreadable_games" | "unreadable_lines") {
            info.count(&name, value);
        }
    }
    info.count("warnings", check.problems.len());
    info.problems = check.problems;
    Ok(info)
}

/// Checks a file: Wthor games replayed and scored (8×8 and 10×10), solitaires solved, name
/// files read record by record, text games read and replayed, OBF lines read. Never fails:
/// what stops reading is an error in the report.
pub fn verify(path: &Path, format: Format, data: &[u8], mut options: VerifyOptions<'_>) -> Verification {
    let mut report = Verification::new(path, format.name());
    let mut found = Vec::new();
    match format {
        Format::WthorGames | Format::WthorGames10 => {
            if options.names.is_none() {
                report.problem(no_names(path));
            }
            let check = if format == Format::WthorGames {
                let solver = options.deep.as_deref_mut().map(|s| s as &mut dyn wthor::EndgameSolver);
                wthor::verify_games(path, data, options.names, solver)
            } else {
                wthor::verify_games_10(path, data, options.names)
            };
            add_check(&mut report, check);
            if let Some(solver) = options.deep {
                report.checked("positions_solved", solver.solved).checked("positions_from_cache", solver.hits);
                report.checked("solver_nodes", solver.nodes);
            }
            return report;
        }
        Format::WthorSolitaires => match SolitaireFile::read(data, &mut found) {
            Ok(file) => {
                report.checked("records", file.solitaires.len());
                if let Some(solver) = options.solitaires {
                    for (index, solitaire) in file.solitaires.iter().enumerate() {
                        // By record alone: the presence table is 256 bytes or the document's 512.
                        let at = Location::record(index as u64).in_file(path);
                        for problem in check_solitaire(solver, solitaire) {
                            report.problem(Diagnostic::error(problem.code(), at.clone(), problem.to_string()));
                        }
                        if let Some(progress) = options.progress {
                            progress();
                        }
                    }
                    report.checked("solitaires_solved", file.solitaires.len());
                }
            }
            Err(e) => found.push(wthor::unreadable(e)),
        },
        Format::WthorPlayers | Format::WthorTournaments => match NameFile::read(name_kind(format), data, &mut found) {
            Ok(file) => {
                report.checked("records", file.len());
            }
            Err(e) => found.push(wthor::unreadable(e)),
        },
        Format::Obf => {
            let text = text::decode(data);
            let mut positions = 0u64;
            for (_, line) in obf::parse(&text) {
                match line {
                    Ok(_) => positions += 1,
                    Err(e) => found.push(text_diagnostic(format, e)),
                }
            }
            report.checked("positions", positions).checked("unreadable_lines", found.len());
        }
        Format::Transcript | Format::Ggf | Format::JsonLines | Format::Csv => {
            let text = text::decode(data);
            let (mut games, mut unreadable) = (0u64, 0u64);
            for (at, game) in text::read_games(format, &text).into_iter().flatten() {
                match game.and_then(|game| game.replay(0).map_err(|e| replay_diagnostic(at, e))) {
                    Ok(_) => games += 1,
                    Err(d) => {
                        unreadable += 1;
                        found.push(d);
                    }
                }
            }
            report.checked("games", games).checked("unreadable_games", unreadable);
        }
    }
    report.problems(found.into_iter().map(|d| d.in_file(path)));
    report
}

/// A text game whose moves do not replay (an illegal move, a move after the end).
fn replay_diagnostic(at: Location, e: wthor::ReplayError) -> Diagnostic {
    Diagnostic::error(e.code(), at, format!("{e}; the game cannot be replayed"))
}

/// Adds what a game check found to a report.
pub fn add_check(report: &mut Verification, check: GameCheck) {
    add_stats(report, &check.stats);
    report.problems(check.problems);
}

/// Adds game counts to a report, one `checked` entry each.
pub fn add_stats(report: &mut Verification, stats: &GameStats) {
    if let Ok(serde_json::Value::Object(map)) = serde_json::to_value(stats) {
        for (k, v) in map {
            report.checked(&k, v);
        }
    }
}

/// The warning of a game file verified without its name files.
pub fn no_names(path: &Path) -> Diagnostic {
    Diagnostic::warning(
        "wthor.no_names",
        Location::file(path),
        "no WTHOR.JOU/WTHOR.TRN beside the file or in --names: name indices not checked",
    )
}

fn game_counts<const M: usize>(info: &mut Info, file: &wthor::GamesFile<M>, names: Option<Names<'_>>) {
    header_fields(info, &file.header);
    info.count("games", file.games.len());
    info.statistics = Some(statistics(file, names));
    let Some(names) = names else { return };
    let players: BTreeSet<u16> = file.games.iter().flat_map(|g| [g.black, g.white]).collect();
    let tournaments: BTreeSet<u16> = file.games.iter().map(|g| g.tournament).collect();
    let named = |set: &BTreeSet<u16>, file: &NameFile| set.iter().filter(|&&i| usize::from(i) < file.len()).count();
    info.count("players", players.len()).count("players_named", named(&players, names.players));
    info.count("tournaments", tournaments.len()).count("tournaments_named", named(&tournaments, names.tournaments));
}

/// Names of each kind shown in the statistics.
const TOP: usize = 10;

/// The statistics of a Wthor game file: results by the real score (Black's discs against half
/// the board), the file's year as the date range, players and tournaments by name (by index,
/// `#12`, without the name files). Wthor holds no ratings and no opening names.
fn statistics<const M: usize>(file: &wthor::GamesFile<M>, names: Option<Names<'_>>) -> Statistics {
    let half = wthor::GameRecord::<M>::BOARD.side().pow(2) / 2;
    let year = (file.header.game_year != 0).then(|| format!("{:04}", file.header.game_year));
    let name = |file: Option<&NameFile>, index: u16| -> Vec<u8> {
        match file.and_then(|f| f.name(usize::from(index))) {
            Some(name) => name.trim_end().as_bytes().to_vec(),
            None => format!("#{index}").into_bytes(),
        }
    };
    let mut tally = Tally::default();
    for game in &file.games {
        let [black, white, tournament] = [
            name(names.map(|n| n.players), game.black),
            name(names.map(|n| n.players), game.white),
            name(names.map(|n| n.tournaments), game.tournament),
        ];
        tally.add(&GameFacts {
            plies: game.moves.iter().take_while(|&&m| m != 0).count() as u64,
            outcome: match game.real_score.cmp(&half) {
                std::cmp::Ordering::Greater => Outcome::Black,
                std::cmp::Ordering::Equal => Outcome::Draw,
                std::cmp::Ordering::Less => Outcome::White,
            },
            date: year.as_deref().map(str::as_bytes),
            ratings: [0, 0],
            players: [Some(&black), Some(&white)],
            event: Some(&tournament),
            opening: None,
        });
    }
    tally.finish(TOP)
}

fn name_kind(format: Format) -> NameKind {
    if format == Format::WthorPlayers { NameKind::Players } else { NameKind::Tournaments }
}

fn header_fields(info: &mut Info, h: &Header) {
    let (y, m, d) = h.date();
    info.header("created", format!("{y:04}-{m:02}-{d:02}"))
        .header("century_byte", h.century)
        .header("n1", h.n1)
        .header("n2", h.n2)
        .header("game_year", h.game_year)
        .header("p1_board_size", h.board_size)
        .header("p2_game_type", h.game_type)
        .header("p3_depth", h.depth)
        .header("reserved", h.reserved);
}

/// A text record that does not parse: `transcript.syntax`, `ggf.syntax`, `obf.syntax`,
/// `othello_jsonl.syntax`, `othello_csv.syntax`, located by line (by game for GGF, whose parser
/// counts games).
pub fn text_diagnostic(format: Format, e: TextError) -> Diagnostic {
    let (code, unit) = match format {
        Format::Ggf => ("ggf.syntax", Unit::Game),
        Format::Obf => ("obf.syntax", Unit::Line),
        Format::JsonLines => ("othello_jsonl.syntax", Unit::Line),
        Format::Csv => ("othello_csv.syntax", Unit::Line),
        _ => ("transcript.syntax", Unit::Line),
    };
    let mut location = e.location;
    location.unit = unit;
    Diagnostic::error(code, location, format!("expected {}, found {:?}", e.expected, e.found))
}
