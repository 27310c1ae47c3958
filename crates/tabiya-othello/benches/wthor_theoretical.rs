//! The theoretical-score check of specs/wthor.md §6 and §11 as a checked benchmark run: the 24
//! sample games of release-2022/WTH_2019.wtb solved at 24 empties (the header's P3) must all
//! agree with the stored theoretical score, and solved at 22 empties 16 of them must disagree.
//!
//! `TABIYA_CORPUS=/work/shared/corpus cargo bench -p tabiya-othello --bench wthor_theoretical -- [--threads N] [--depth 24|22]`

use std::process::ExitCode;
use std::time::Instant;

use tabiya_io::Diagnostic;
use tabiya_othello::solve::{CachedSolver, Solver};
use tabiya_othello::wthor::{EndgameSolver, GameFile, Replay};

/// 0-based record indices listed in specs/wthor.md §11.
const SAMPLE: [usize; 24] = [
    1366, 1508, 837, 1099, 1587, 1563, 329, 150, 1474, 237, 598, 1838, 36, 71, 900, 1867, 1818, 991, 661, 760, 707,
    1853, 146, 1117,
];

fn main() -> ExitCode {
    let Some(corpus) = std::env::var_os("TABIYA_CORPUS") else {
        eprintln!("skipped: TABIYA_CORPUS not set");
        return ExitCode::SUCCESS;
    };
    let mut threads = 1;
    let mut depths = vec![24u8, 22];
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" => threads = args.next().and_then(|n| n.parse().ok()).unwrap_or(1),
            "--depth" => depths = args.next().and_then(|n| n.parse().ok()).into_iter().collect(),
            _ => {}
        }
    }
    let path = std::path::Path::new(&corpus).join("wthor/release-2022/WTH_2019.wtb");
    let data = std::fs::read(&path).expect("WTH_2019.wtb in the corpus");
    let file = GameFile::read(&data, &mut Vec::<Diagnostic>::new()).expect("a valid game file");
    assert_eq!(file.header.depth, 24, "header P3");

    let mut ok = true;
    for depth in depths {
        let mut solver = CachedSolver::new(Solver::new().threads(threads).expect("thread pool"));
        let started = Instant::now();
        let mut disagree = 0;
        println!("depth {depth}, threads {threads}");
        println!("record | stored | solved |        nodes |   time (s)");
        for &record in &SAMPLE {
            let game = &file.games[record];
            let replay = Replay::run(&game.moves, 60 - usize::from(depth)).expect("a legal game");
            let position = replay.snapshot.expect("the game reaches the depth");
            assert_eq!(position.board.empties(), u32::from(depth));
            let (nodes_before, clock) = (solver.nodes, Instant::now());
            let solved = solver.black_score(&position);
            disagree += usize::from(solved != game.theoretical_score);
            println!(
                "{record:>6} | {:>6} | {solved:>6} | {:>12} | {:>10.3}",
                game.theoretical_score,
                solver.nodes - nodes_before,
                clock.elapsed().as_secs_f64()
            );
        }
        let expected = if depth == 24 { 0 } else { 16 };
        println!(
            "depth {depth}: {} of 24 agree, {disagree} disagree (expected {expected}); {} nodes in {:.3} s",
            24 - disagree,
            solver.nodes,
            started.elapsed().as_secs_f64()
        );
        ok &= depth != 24 && depth != 22 || disagree == expected;
    }
    if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
