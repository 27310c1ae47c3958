//! Builds one book from a PGN file as `tabiya book` does, for timing the build alone:
//! `cargo run --release -p tabiya-chess --example book_build -- polyglot|kvetka PGN OUT [MAX_PLY]`
//! (Polyglot: `--min-games 1`, OUT a `.bin`; Kvetka: OUT a `.kob`, MAX_PLY its `--max-move`).
//! A compressed PGN is read as a stream, as `tabiya book` reads it.
//! `book_build kvetka-polyglot BOOK_0.kob OUT.bin` converts a Kvetka book to Polyglot as
//! `tabiya convert` does, for timing that conversion alone.

use std::path::Path;

use tabiya_chess::book::BuildOptions;
use tabiya_chess::kvetka::Header;
use tabiya_chess::kvetka::build::Builder;
use tabiya_chess::polyglot::{self, MakeOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, pgn, out, rest @ ..] = &args[..] else {
        return Err("usage: book_build polyglot|kvetka PGN OUT [MAX_PLY], or kvetka-polyglot BOOK OUT".into());
    };
    if kind == "kvetka-polyglot" {
        let reader = tabiya_chess::kvetka::BookReader::open(Path::new(pgn), Default::default())?;
        let (model, _) = tabiya_chess::kvetka::convert::read_model_from(&reader)?;
        let written = polyglot::entries_of_model(model);
        polyglot::write_entries(&written.entries, &mut std::io::BufWriter::new(std::fs::File::create(out)?))?;
        println!("{} entries", written.entries.len());
        return Ok(());
    }
    let max_ply: Option<u32> = rest.first().map(|m| m.parse()).transpose()?;
    let mut data = tabiya_io::open_decompressed(Path::new(pgn))?;
    let bytes = match data.compression() {
        Some(_) => None,
        None => Some(tabiya_io::read_input(Path::new(pgn))?),
    };
    match kind.as_str() {
        "polyglot" => {
            let build = BuildOptions { max_ply: max_ply.unwrap_or(1024), keep_positions: false, ..Default::default() };
            let make = MakeOptions { min_games: 1, ..MakeOptions::default() };
            // Each range written as it comes, as `tabiya book` writes it.
            let mut file = std::fs::File::create(out)?;
            let mut written = Ok(());
            let write_run = |run: &mut polyglot::EntryRun| {
                if written.is_ok() {
                    written = polyglot::write_entries(&run.entries, &mut file);
                }
            };
            let made = match &bytes {
                Some(bytes) => polyglot::make_from_pgn_with(bytes, &build, &make, write_run),
                None => polyglot::make_from_pgn_stream_with(&mut data, &build, &make, write_run)?,
            };
            written?;
            println!("{} games", made.summary.games_added);
        }
        "kvetka" => {
            let max_move = max_ply.map_or(Header::default().max_move, |m| u8::try_from(m).unwrap_or(0xff));
            let mut builder = Builder::new(Header { max_move, ..Header::default() });
            match &bytes {
                Some(bytes) => builder.add_pgn(Path::new(pgn), bytes)?,
                None => builder.add_pgn_stream(Path::new(pgn), &mut data)?,
            }
            let report = builder.write(None, Path::new(out), &Default::default())?;
            println!("{} games, {} positions", report.games_added, report.positions);
        }
        other => return Err(format!("{other}: polyglot or kvetka").into()),
    }
    Ok(())
}
