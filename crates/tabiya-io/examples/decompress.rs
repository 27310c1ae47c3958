//! Decompresses a file (any compression tabiya reads, found by its magic bytes) to standard
//! output, as `zstdcat`/`zcat` do: the reader the game crates use, timed against those tools
//! for the tabiya-io README's figures.
//!
//! `cargo run --example decompress -p tabiya-io -- games.pgn.zst > games.pgn`

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: decompress FILE");
        return ExitCode::from(2);
    };
    let copied = tabiya_io::open_decompressed(&path)
        .map_err(io::Error::other)
        .and_then(|mut input| io::copy(&mut input, &mut io::stdout().lock()).and_then(|_| io::stdout().flush()));
    match copied {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("decompress: {e}");
            ExitCode::FAILURE
        }
    }
}
