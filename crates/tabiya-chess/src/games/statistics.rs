//! The statistics of a chess games file (`info`'s `statistics`): a SCID database from its index
//! and names alone; PGN and JSON Lines read through on all cores, the opening of a game without
//! an `ECO` tag classified by position ([`crate::openings`]).

use tabiya_io::Diagnostic;
use tabiya_io::report::{GameFacts, Outcome, Statistics, Tally};

use super::{GamesError, Source};
use crate::game::{Game, GameResult};
use crate::scid::Database;
use crate::scid::fields::Eco;
use crate::scid::names::NameType;
use crate::text::Text;

/// Names of each kind shown: the most frequent first.
pub const TOP: usize = 10;

fn outcome(result: GameResult) -> Outcome {
    match result {
        GameResult::WhiteWins => Outcome::White,
        GameResult::Draw => Outcome::Draw,
        GameResult::BlackWins => Outcome::Black,
        GameResult::Unknown => Outcome::Unknown,
    }
}

/// A rating tag's value, 0 when absent or not a rating ([`Text::rating`]).
fn rating(game: &Game, tag: &str) -> u32 {
    game.tag(tag).and_then(Text::rating).unwrap_or(0)
}

/// Counts one game; `eco` is its opening when it has no `ECO` tag (classified on the thread
/// that read it).
fn add_game(tally: &mut Tally, game: &Game, eco: Option<&'static str>) {
    let tag = |name: &str| game.tag(name).map(|t| t.as_bytes()).filter(|t| !t.is_empty() && *t != b"?");
    tally.add(&GameFacts {
        plies: game.ply_count() as u64,
        outcome: outcome(game.result),
        date: tag("Date"),
        ratings: [rating(game, "WhiteElo"), rating(game, "BlackElo")],
        players: [tag("White"), tag("Black")],
        event: tag("Event"),
        opening: tag("ECO").or(eco.map(str::as_bytes)),
    });
}

/// The statistics of a PGN or JSON Lines source (every game read, on all cores) or of a SCID
/// database (its index and names: no game is decoded; an opening is the index's ECO code).
/// Problems count unreadable games and what reading the others found.
pub fn statistics(source: &Source) -> Result<Statistics, GamesError> {
    statistics_with(source, |_| {})
}

/// [`statistics`], handing each game of a PGN or JSON Lines source to `each` as it is counted
/// (the plies of its main line and what reading it found, or why it could not be read), so
/// that one pass over the input also gives what `info` counts: a stream is read once.
pub fn statistics_with(
    source: &Source,
    mut each: impl FnMut(Result<(usize, Vec<Diagnostic>), GamesError>) + Send,
) -> Result<Statistics, GamesError> {
    if let Source::Scid(db) = source {
        return Ok(scid_statistics(db));
    }
    let mut tally = Tally::default();
    source.read_with_diagnostics(
        |game| {
            let eco = if game.tag("ECO").is_some() { None } else { crate::openings::classify(&game).map(|o| o.eco) };
            (game, eco)
        },
        |item| {
            match item {
                Ok(((game, eco), found)) => {
                    add_game(&mut tally, &game, eco);
                    for _ in &found {
                        tally.problem();
                    }
                    each(Ok((game.ply_count(), found)));
                }
                Err(e) => {
                    tally.problem();
                    each(Err(e));
                }
            }
            Ok::<(), GamesError>(())
        },
    )?;
    Ok(tally.finish(TOP))
}

/// A SCID database's statistics from its index entries and name file.
fn scid_statistics(db: &Database) -> Statistics {
    let mut tally = Tally::default();
    let name = |kind, id| db.names.get(kind, id).filter(|n| !n.is_empty() && *n != b"?");
    for entry in &db.entries {
        let date = (entry.date.year() != 0).then(|| entry.date.pgn_bytes());
        let eco = Eco(entry.eco).to_text();
        tally.add(&GameFacts {
            plies: u64::from(entry.plies),
            outcome: outcome(crate::scid::fields::result_from_code(entry.result())),
            date: date.as_ref().map(|d| &d[..]),
            ratings: [entry.white_elo().into(), entry.black_elo().into()],
            players: [name(NameType::Player, entry.white), name(NameType::Player, entry.black)],
            event: name(NameType::Event, entry.event),
            opening: eco.as_deref().map(str::as_bytes),
        });
    }
    for _ in &db.diagnostics {
        tally.problem();
    }
    tally.finish(TOP)
}
