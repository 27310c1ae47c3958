//! How fast each layer of PGN reading goes, for BENCHMARKS.md: the tokenizer with SAN parsing
//! but no move resolved (`tokens`: the walk with no ply wanted), the main line resolved and
//! played (`main`: the walk), every game built with full legal replay of its moves, variations
//! and comments (`replay`: `PgnReader` over the text held whole, as `verify` reads each piece
//! of a file, so with no look for where a piece ends first), all three on one thread with the
//! file read into memory first; `verify`, the library's whole `tabiya verify FILE` from the file
//! (every game replayed and counted, not built; with its report; the file's reading counted),
//! to hold against `replay`; and `select`, the library path of `tabiya select FILE --player Carlsen --elo 2800..
//! -o OUT` on all cores (tags judged first, rejected movetext skipped), writing the games kept
//! to OUT when given.
//! Prints games and CPU seconds of the process (every thread's).
//! `cargo run --release -p tabiya-chess --example pgn_layers -- LAYER FILE [OUT]`

use std::ops::ControlFlow;
use std::path::Path;

use tabiya_chess::games::select::criteria::{RatingIn, TagPrefix};
use tabiya_chess::games::select::{Duplicates, Rules, Selection};
use tabiya_chess::games::{Sink, Source};
use tabiya_chess::pgn::{PgnReader, PgnWalk, ReadOptions, WalkOptions, WriterOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (layer, path, out) = match args.as_slice() {
        [layer, path] => (layer, path, None),
        [layer, path, out] => (layer, path, Some(out)),
        _ => return Err("usage: pgn_layers tokens|main|replay|verify|select FILE [OUT]".into()),
    };
    if layer == "select" {
        return select(Path::new(path), out.map(Path::new));
    }
    if layer == "verify" {
        let started = cpu_seconds();
        let verification = tabiya_chess::games::verify(Path::new(path), &mut |_, _| {});
        let cpu = cpu_seconds() - started;
        let count = |name: &str| verification.checked.get(name).and_then(|v| v.as_u64()).unwrap_or(0);
        let (games, plies) = (count("games"), count("plies"));
        let problems = verification.problems.len();
        println!(
            "verify: {games} games, {plies} plies, {problems} problems, {cpu:.3} CPU s, {:.0} games per CPU-second",
            games as f64 / cpu
        );
        return Ok(());
    }
    let bytes = std::fs::read(path)?;
    let started = cpu_seconds();
    let (games, plies) = match layer.as_str() {
        "tokens" => (PgnWalk::new(&bytes, WalkOptions { max_plies: 0, ..WalkOptions::default() }).count(), 0),
        "main" => PgnWalk::new(&bytes, WalkOptions::default()).flatten().fold((0, 0), |(games, plies), mut game| {
            (games + 1, plies + game.play(|_, _| ControlFlow::Continue(())).plies as usize)
        }),
        // As `verify` reads each piece of a file: held whole, the lenient repairs on.
        "replay" => PgnReader::from_vec(bytes, ReadOptions::default())
            .repairing()
            .flatten()
            .fold((0, 0), |(games, plies), read| (games + 1, plies + read.game.ply_count())),
        other => return Err(format!("unknown layer {other}").into()),
    };
    let cpu = cpu_seconds() - started;
    println!("{layer}: {games} games, {plies} plies, {cpu:.3} CPU s, {:.0} games per CPU-second", games as f64 / cpu);
    Ok(())
}

/// The games of Carlsen with both ratings 2800 or more, as `tabiya select` reads and writes
/// them (standard PGN layout), to `out` or nowhere.
fn select(path: &Path, out: Option<&Path>) -> Result<(), Box<dyn std::error::Error>> {
    let started = cpu_seconds();
    let selection =
        Selection::all().with(TagPrefix::player("Carlsen")).with(RatingIn::parse(&["WhiteElo", "BlackElo"], "2800..")?);
    let written: Box<dyn std::io::Write + Send> = match out {
        Some(out) => Box::new(std::io::BufWriter::new(std::fs::File::create(out)?)),
        None => Box::new(std::io::sink()),
    };
    let mut sink = Sink::pgn(written, out.unwrap_or(Path::new("-")), WriterOptions::default());
    let mut duplicates = Duplicates::new(Rules::default());
    let mut found = Vec::new();
    let summary = sink.add_selected(&Source::open(path)?, 0, &selection, &mut duplicates, &mut found, |_| {})?;
    sink.finish_selected(duplicates, &[path.to_path_buf()], &mut found)?;
    let kept = sink.finish(&mut found)?.written;
    let cpu = cpu_seconds() - started;
    println!(
        "select: {kept} kept of {} games, {} diagnostics, {cpu:.3} CPU s, {:.0} games per CPU-second",
        summary.read,
        found.len(),
        summary.read as f64 / cpu
    );
    Ok(())
}

/// User and system CPU seconds of this process so far (from /proc/self/stat).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or_default().split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}
