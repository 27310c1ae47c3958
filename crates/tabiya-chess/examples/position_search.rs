//! The games of a file that reach a position or a material balance: a SCID database searched
//! through its index ([`search_scid`]), any other games file by replay.
//!
//! `cargo run --release -p tabiya-chess --example position_search -- FILE
//!  (--moves "e4 c5" | --fen FEN | --material KRPkr) [--index | --count] [--repeat N] [--list]`
//!
//! Prints the number of games found; `--list` adds their numbers (from 1), one a line; on
//! standard error, the time of each search (the database opened once, before). `--index`
//! searches a SCID database through its position index (`.tpx` beside it, made when missing:
//! [`PositionIndex`]). `--count` counts as `tabiya select FILE --fen FEN --count` does
//! ([`count_from`]: the index file read at each count, as each `select` process reads it).

use std::time::Instant;

use shakmaty::san::San;
use shakmaty::{Chess, Position};
use tabiya_chess::games::index::PositionIndex;
use tabiya_chess::games::search::{MaterialQuery, PositionQuery, search_scid};
use tabiya_chess::games::select::{Selection, count_from};
use tabiya_chess::games::{self, Source};

enum Query {
    Position(PositionQuery),
    Material(MaterialQuery),
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let path =
        args.first().ok_or("usage: position_search FILE (--moves M | --fen F | --material S) [--repeat N] [--list]")?;
    let query = match (value("--moves"), value("--fen"), value("--material")) {
        (Some(moves), _, _) => {
            let mut pos = Chess::default();
            for san in moves.split_whitespace() {
                let m = san.parse::<San>()?.to_move(&pos)?;
                pos.play_unchecked(m);
            }
            Query::Position(PositionQuery::new(pos))
        }
        (_, Some(fen), _) => Query::Position(PositionQuery::from_fen(&fen)?),
        (_, _, Some(material)) => Query::Material(MaterialQuery::parse(&material)?),
        _ => return Err("give --moves, --fen or --material".into()),
    };
    let repeat: usize = value("--repeat").map_or(Ok(1), |n| n.parse())?;
    let start = Instant::now();
    let source = Source::open(path.as_ref())?;
    eprintln!("opened in {:.2} ms", start.elapsed().as_secs_f64() * 1e3);
    if args.iter().any(|a| a == "--count") {
        let selection = match &query {
            Query::Position(q) => Selection::all().with(q.clone()),
            Query::Material(q) => Selection::all().with(q.clone()),
        };
        for _ in 0..repeat.max(1) {
            let start = Instant::now();
            let mut said = Vec::new();
            let counted = count_from(&source, &selection, &mut said, |_| {})?;
            said.iter().for_each(|d| eprintln!("{d}"));
            eprintln!("{:.2} ms", start.elapsed().as_secs_f64() * 1e3);
            println!("{} games", counted.selected);
        }
        return Ok(());
    }
    let index = match (&source, args.iter().any(|a| a == "--index")) {
        (Source::Scid(db), true) => {
            let start = Instant::now();
            let index = PositionIndex::open_or_build(db);
            let games = db.len().max(1);
            eprintln!(
                "index: {} positions, {} bytes ({:.1} a game), ready in {:.2} ms",
                index.positions(),
                index.byte_len(),
                index.byte_len() as f64 / games as f64,
                start.elapsed().as_secs_f64() * 1e3
            );
            Some(index)
        }
        _ => None,
    };
    let mut found = Vec::new();
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        found = match (&source, &query) {
            (Source::Scid(db), Query::Position(q)) => {
                let search = match &index {
                    Some(index) => index.search(db, q),
                    None => search_scid(db, q),
                };
                for (_, problem) in &search.problems {
                    eprintln!("{problem}");
                }
                eprint!("{} replayed, ", search.replayed);
                search.games.into_iter().map(|n| n + 1).collect()
            }
            _ => by_replay(path, &query)?,
        };
        eprintln!("{:.2} ms", start.elapsed().as_secs_f64() * 1e3);
    }
    println!("{} games", found.len());
    if args.iter().any(|a| a == "--list") {
        for n in found {
            println!("{n}");
        }
    }
    Ok(())
}

/// The numbers (from 1) of the games that match, every game read and replayed in order.
fn by_replay(path: &str, query: &Query) -> Result<Vec<usize>, games::GamesError> {
    let mut found = Vec::new();
    for (n, game) in games::open(path.as_ref())?.enumerate() {
        let game = game?;
        let hit = match query {
            Query::Position(q) => q.matches(&game),
            Query::Material(q) => q.matches(&game),
        };
        if hit {
            found.push(n + 1);
        }
    }
    Ok(found)
}
