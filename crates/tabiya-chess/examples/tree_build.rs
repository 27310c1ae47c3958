//! The tree build alone, for profiling and for comparing builds: the tree of the games of the
//! given files as `tabiya tree` builds it, or the merge of trees as `tabiya convert` merges
//! them, without the CLI around it.
//!
//! `cargo run --release -p tabiya-chess --example tree_build -- OUT GAMES... [--memory BYTES] [--max-ply PLIES]`
//! `cargo run --release -p tabiya-chess --example tree_build -- --merge OUT TREE...`

use std::path::Path;

use tabiya_chess::tree::{self, Tree, TreeOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = TreeOptions::default();
    if let Some(i) = args.iter().position(|a| a == "--memory") {
        options.memory = args.get(i + 1).ok_or("--memory takes a number of bytes")?.parse()?;
        args.drain(i..i + 2);
    }
    if let Some(i) = args.iter().position(|a| a == "--max-ply") {
        options.max_ply = Some(args.get(i + 1).ok_or("--max-ply takes a number of plies")?.parse()?);
        args.drain(i..i + 2);
    }
    let merge = args.first().is_some_and(|a| a == "--merge");
    let (out, inputs) = args[usize::from(merge)..]
        .split_first()
        .ok_or("usage: tree_build OUT GAMES... [--memory BYTES] [--max-ply PLIES] | tree_build --merge OUT TREE...")?;
    let file = std::fs::File::create(out)?;
    if merge {
        let trees = inputs.iter().map(|p| Tree::open(p.as_ref())).collect::<Result<Vec<_>, _>>()?;
        tree::merge_trees(&trees, file)?;
        return Ok(());
    }
    let paths: Vec<&Path> = inputs.iter().map(Path::new).collect();
    let (_, footer, summary) = tree::build(&paths, options, file)?;
    for problem in &summary.problems {
        println!("{problem}");
    }
    println!(
        "{} games, {} moves, {} positions, {} runs spilled; {} cut, {} Chess960, {} with an illegal start, {} unreadable",
        summary.games_added,
        summary.moves_added,
        footer.positions,
        summary.runs,
        summary.games_cut,
        summary.games_chess960,
        summary.games_invalid_start,
        summary.games_unreadable
    );
    Ok(())
}
