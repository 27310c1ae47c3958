//! `info` and `verify` for every Othello format, as [`tabiya_io::report`] answers: what the
//! command line prints, and what any other door (a Python package, a web page) serves.

use std::collections::BTreeSet;
use std::path::Path;

use tabiya_io::report::{GameFacts, Info, Outcome, Statistics, Tally, Verification};
use tabiya_io::{DataError, Diagnostic, Location, Unit};

use crate::Format;
use crate::solve::{CachedSolver, SolitaireSolver, check_solitaire};
use crate::text::{self, TextError, ggf, obf, transcript};
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
        Format::Transcript | Format::Ggf | Format::Obf | Format::JsonLines | Format::Csv => {
            let text = text::decode(data);
            let (what, records, errors) = match format {
                Format::Transcript => {
                    ("games", "unreadable_lines", text_problems(transcript::parse(&text).map(|(_, r)| r)))
                }
                Format::Ggf => ("games", "unreadable_games", text_problems(ggf::parse(&text))),
                Format::Obf => ("positions", "unreadable_lines", text_problems(obf::parse(&text).map(|(_, r)| r))),
                _ => {
                    info.count("bytes", data.len()).header("reader", "not available yet");
                    return Ok(info);
                }
            };
            info.count(what, errors.0).count(records, errors.1.len() as u64);
            found.extend(errors.1.into_iter().map(|e| text_diagnostic(format, e)));
        }
    }
    info.count("warnings", found.len());
    info.problems = found.into_iter().map(|d| d.in_file(path)).collect();
    Ok(info)
}

/// Checks a file: Wthor games replayed and scored (8×8 and 10×10), solitaires solved, name and
/// text files read record by record. Never fails: what stops reading is an error in the report.
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
        Format::Transcript | Format::Ggf | Format::Obf => {
            let text = text::decode(data);
            let (what, (count, errors)) = match format {
                Format::Transcript => ("games", text_problems(transcript::parse(&text).map(|(_, r)| r))),
                Format::Ggf => ("games", text_problems(ggf::parse(&text))),
                _ => ("positions", text_problems(obf::parse(&text).map(|(_, r)| r))),
            };
            report.checked(what, count);
            found.extend(errors.into_iter().map(|e| text_diagnostic(format, e)));
        }
        Format::JsonLines | Format::Csv => {
            found.push(Diagnostic::warning(
                "othello.not_verified",
                Location::default(),
                "games written by tabiya's export; there is no reader to check them with",
            ));
        }
    }
    report.problems(found.into_iter().map(|d| d.in_file(path)));
    report
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

/// How many records read, and the errors of the others.
fn text_problems<T>(records: impl Iterator<Item = Result<T, TextError>>) -> (u64, Vec<TextError>) {
    let mut errors = Vec::new();
    let mut read = 0;
    for record in records {
        match record {
            Ok(_) => read += 1,
            Err(e) => errors.push(e),
        }
    }
    (read, errors)
}

/// A text record that does not parse: `transcript.syntax`, `ggf.syntax`, `obf.syntax`, located
/// by line (transcripts, OBF) or by game (GGF, whose parser counts games).
pub fn text_diagnostic(format: Format, e: TextError) -> Diagnostic {
    let (code, unit) = match format {
        Format::Ggf => ("ggf.syntax", Unit::Game),
        Format::Obf => ("obf.syntax", Unit::Line),
        _ => ("transcript.syntax", Unit::Line),
    };
    let mut location = e.location;
    location.unit = unit;
    Diagnostic::error(code, location, format!("expected {}, found {:?}", e.expected, e.found))
}
