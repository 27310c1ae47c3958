//! Writes the games of a PGN file that `tabiya select --player NAME --elo LOW..` keeps, as the
//! CLI's `select … -o OUT.pgn` does (standard layout, no duplicates removed): for profiling the
//! select path without building the CLI.
//! `cargo run --release -p tabiya-chess --example select_write -- IN.pgn OUT.pgn [NAME [LOW..]]`

use tabiya_chess::games::select::criteria::{RatingIn, TagPrefix};
use tabiya_chess::games::select::{Duplicates, Held, Rules, Selection};
use tabiya_chess::games::{Sink, Source};
use tabiya_chess::pgn::WriterOptions;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, rest @ ..] = args.as_slice() else {
        return Err("usage: select_write IN.pgn OUT.pgn [NAME [LOW..HIGH]]".into());
    };
    let player = rest.first().map_or("Carlsen", String::as_str);
    let elo = rest.get(1).map_or("2800..", String::as_str);
    let selection =
        Selection::all().with(TagPrefix::player(player)).with(RatingIn::parse(&["WhiteElo", "BlackElo"], elo)?);
    let source = Source::open(input.as_ref())?.with_access(tabiya_io::Access::Map);
    let out = std::io::BufWriter::new(std::fs::File::create(output)?);
    let mut sink = Sink::pgn(out, output.as_ref(), WriterOptions::default());
    let mut duplicates = Duplicates::<Held>::new(Rules::default());
    let mut diagnostics = Vec::new();
    let summary = sink.add_selected(&source, 0, &selection, &mut duplicates, &mut diagnostics, |_| ())?;
    sink.finish_selected(duplicates, &[input.into()], &mut diagnostics)?;
    sink.finish(&mut diagnostics)?;
    println!("{} games kept of {} read, {} diagnostics", summary.selected, summary.read, diagnostics.len());
    Ok(())
}
