//! Times the tree's exact scores (`tabiya tree --solve-empties N`): for positions of real games
//! at 12, 14, 16 and 18 empty squares, the move played there solved as the tree builder solves
//! it (one [`Solver`] with a 2^20-entry table, the child position's exact score), and each
//! position's every legal move (what a position met with all its moves costs). The figures
//! chose [`SOLVE_EMPTIES`](tabiya_othello::tree::build::SOLVE_EMPTIES) (BENCHMARKS.md).
//!
//! `TABIYA_CORPUS=../shared/corpus cargo run --release -p tabiya-othello --example tree_solve_times -- [POSITIONS]`

use std::time::Instant;

use tabiya_io::Diagnostic;
use tabiya_othello::board::Square;
use tabiya_othello::solve::Solver;
use tabiya_othello::wthor::{GameFile, Replay, square_of_code};

fn main() {
    let Some(corpus) = std::env::var_os("TABIYA_CORPUS") else {
        eprintln!("TABIYA_CORPUS is not set");
        std::process::exit(2);
    };
    let wanted: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(40);
    let path = std::path::Path::new(&corpus).join("wthor/release-2022/WTH_2021.wtb");
    let data = std::fs::read(&path).expect("WTH_2021.wtb in the corpus");
    let file = GameFile::read(&data, &mut Vec::<Diagnostic>::new()).expect("a valid game file");
    println!("empties | positions | played move: mean ms, max ms | all moves: mean ms, max ms");
    for empties in [12u32, 14, 16, 18] {
        let solver = Solver::new().table_bits(20);
        let (mut played, mut all) = (Vec::new(), Vec::new());
        for game in &file.games {
            if played.len() == wanted {
                break;
            }
            let after = 60 - empties as usize;
            let Ok(replay) = Replay::run(&game.moves, after) else { continue };
            let (Some(position), Some(&code)) = (replay.snapshot, game.moves.get(after)) else { continue };
            let Some(next) = square_of_code(code) else { continue };
            if position.board.empties() != empties || position.is_game_over() {
                continue;
            }
            let Ok(child) = position.play(next) else { continue };
            let clock = Instant::now();
            solver.solve(child.board);
            played.push(clock.elapsed().as_secs_f64() * 1e3);
            let clock = Instant::now();
            for square in Square::iter(position.moves()) {
                if let Ok(child) = position.play(square) {
                    solver.solve(child.board);
                }
            }
            all.push(clock.elapsed().as_secs_f64() * 1e3);
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
        println!(
            "{empties:>7} | {:>9} | {:>10.2}, {:>8.2} | {:>10.2}, {:>8.2}",
            played.len(),
            mean(&played),
            max(&played),
            mean(&all),
            max(&all)
        );
    }
}
