// Scratch (not committed): one pass of PgnReader or PgnWalk over a file.
use std::ops::ControlFlow;
use tabiya_chess::pgn::{PgnReader, PgnWalk, ReadOptions, WalkOptions};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[2]).unwrap();
    let n: usize = match args[1].as_str() {
        "reader" => PgnReader::new(&bytes[..]).flatten().map(|g| g.game.ply_count()).sum(),
        "mainline" => {
            PgnReader::from_bytes(&bytes, ReadOptions { variations: false, comments: false, ..ReadOptions::default() })
                .flatten()
                .map(|g| g.game.ply_count())
                .sum()
        }
        "walk" => PgnWalk::new(&bytes, WalkOptions::default())
            .flatten()
            .map(|mut g| g.play(|_, _| ControlFlow::Continue(())).plies as usize)
            .sum(),
        _ => PgnWalk::new(&bytes, WalkOptions { max_plies: 40, file: None })
            .flatten()
            .map(|mut g| g.play(|_, _| ControlFlow::Continue(())).plies as usize)
            .sum(),
    };
    println!("{n}");
}
