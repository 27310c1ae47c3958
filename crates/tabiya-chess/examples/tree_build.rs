//! The tree build alone, for profiling and for comparing builds: the tree of the games of the
//! given files, as `tabiya tree` builds it, without the CLI around it.
//!
//! `cargo run --release -p tabiya-chess --example tree_build -- OUT GAMES... [--memory BYTES]`

use std::path::Path;

use tabiya_chess::tree::{self, TreeOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = TreeOptions::default();
    if let Some(i) = args.iter().position(|a| a == "--memory") {
        options.memory = args.get(i + 1).ok_or("--memory takes a number of bytes")?.parse()?;
        args.drain(i..i + 2);
    }
    let (out, games) = args.split_first().ok_or("usage: tree_build OUT GAMES... [--memory BYTES]")?;
    let paths: Vec<&Path> = games.iter().map(Path::new).collect();
    let file = std::io::BufWriter::new(std::fs::File::create(out)?);
    let (_, footer, summary) = tree::build(&paths, options, file)?;
    println!(
        "{} games, {} moves, {} positions, {} runs spilled",
        summary.games_added, summary.moves_added, footer.positions, summary.runs
    );
    Ok(())
}
