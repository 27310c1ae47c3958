//! Prints games, errors, warnings and main-line plies of PGN files; `-v` lists the warnings.
//! `cargo run --release -p tabiya-chess --example pgn_summary -- [-v] FILE...`

use tabiya_chess::pgn::{PgnReader, ReadOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let verbose = std::env::args().any(|a| a == "-v");
    for path in std::env::args().skip(1).filter(|a| a != "-v") {
        let bytes = std::fs::read(&path)?;
        let options = ReadOptions { file: Some(path.clone().into()), ..ReadOptions::default() };
        let (mut games, mut errors, mut warnings, mut plies) = (0, 0, 0, 0);
        for item in PgnReader::from_bytes(&bytes, options) {
            match item {
                Ok(read) => {
                    games += 1;
                    plies += read.game.ply_count();
                    warnings += read.diagnostics.len();
                    if verbose {
                        read.diagnostics.iter().for_each(|d| println!("  {d}"));
                    }
                }
                Err(e) => {
                    errors += 1;
                    if verbose {
                        println!("  error: {e}");
                    }
                }
            }
        }
        println!("{path}: {games} games, {errors} errors, {warnings} warnings, {plies} plies");
    }
    Ok(())
}
