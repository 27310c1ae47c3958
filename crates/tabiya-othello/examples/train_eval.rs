//! Fits the pattern evaluation that the solver orders moves with (`src/eval/weights.bin`).
//!
//! Data: every game of the FFO's Wthor files `wthor/current/WTH_*.wtb` in the corpus that
//! replays to its stored final score. Each position with 10–33 empties is a sample; its label,
//! for the side to move, is the game's theoretical score (perfect play from the header's P3
//! empties, 24) when the position has at least that many empties, otherwise the final disc
//! difference. Every tenth game is held out to report the error on unseen games.
//!
//! Fit: for each phase (a band of numbers of empties) the weights minimising the squared error
//! plus a small ridge term, by conjugate gradients with a diagonal preconditioner; then rounded
//! to 1/32 disc.
//!
//! `TABIYA_CORPUS=/work/shared/corpus cargo run --release -p tabiya-othello --example train_eval -- crates/tabiya-othello/src/eval/weights.bin`

use std::path::Path;

use tabiya_io::Diagnostic;
use tabiya_othello::board::{Color, Position};
use tabiya_othello::eval::{FEATURES, UNITS_PER_DISC, Weights, feature_indices};
use tabiya_othello::wthor::{GameFile, square_of_code};

/// Each phase's first number of empties; the first phase is fitted from 10 empties, the last
/// up to 33.
const FIRST_EMPTIES: [u8; 5] = [0, 16, 20, 24, 28];
const FEWEST: u32 = 10;
const MOST: u32 = 33;
/// The ridge term, in samples: a weight seen in few positions stays near 0.
const RIDGE: f64 = 4.0;
const ITERATIONS: usize = 60;

struct Sample {
    board: tabiya_othello::board::Board,
    label: i8,
    held_out: bool,
}

fn main() {
    let corpus = std::env::var_os("TABIYA_CORPUS").expect("TABIYA_CORPUS: the corpus directory");
    let output = std::env::args().nth(1).expect("usage: train_eval OUTPUT.bin");
    let samples = read_samples(&Path::new(&corpus).join("wthor/current"));
    let len = Weights::table_len();
    let mut tables = Vec::with_capacity(FIRST_EMPTIES.len() * len);
    for (phase, &first) in FIRST_EMPTIES.iter().enumerate() {
        let low = u32::from(first).max(FEWEST);
        let high = FIRST_EMPTIES.get(phase + 1).map_or(MOST, |&next| u32::from(next) - 1);
        let band: Vec<&Sample> = samples.iter().filter(|s| (low..=high).contains(&s.board.empties())).collect();
        let weights = fit(&band, len);
        let (train, test) = errors(&band, &weights);
        println!(
            "phase {phase}: {low}-{high} empties, {} positions ({} held out); RMS error {train:.2} discs, held out {test:.2}",
            band.len(),
            band.iter().filter(|s| s.held_out).count()
        );
        tables.extend(weights.iter().map(|w| (w * f64::from(UNITS_PER_DISC)).round().clamp(-32767.0, 32767.0) as i16));
    }
    let weights = Weights::new(FIRST_EMPTIES.to_vec(), tables).expect("ascending phases");
    std::fs::write(&output, weights.to_bytes()).expect("writing the weights");
    println!("wrote {output}");
}

/// The positions with `FEWEST..=MOST` empties of every game that replays to its stored score.
fn read_samples(dir: &Path) -> Vec<Sample> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("wthor/current")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("WTH_") && n.ends_with(".wtb"))
        })
        .collect();
    paths.sort();
    let (mut games, mut skipped, mut samples) = (0usize, 0usize, Vec::new());
    for path in paths {
        let data = std::fs::read(&path).expect("readable game file");
        let Ok(file) = GameFile::read(&data, &mut Vec::<Diagnostic>::new()) else { continue };
        let depth = u32::from(file.header.depth);
        for game in &file.games {
            let mut position = Position::start();
            let mut positions = Vec::new();
            let mut legal = true;
            for &code in game.stored_moves() {
                if (FEWEST..=MOST).contains(&position.board.empties()) && position.moves() != 0 {
                    positions.push(position);
                }
                match square_of_code(code).map(|s| position.play_after_forced_pass(s)) {
                    Some(Ok(next)) => position = next,
                    _ => {
                        legal = false;
                        break;
                    }
                }
            }
            let black_final = position.black_disc_difference();
            if !legal || !position.is_game_over() || i32::from(game.real_score) * 2 - 64 != black_final {
                skipped += 1;
                continue;
            }
            let black_theoretical = i32::from(game.theoretical_score) * 2 - 64;
            let held_out = games % 10 == 9;
            games += 1;
            for p in positions {
                let black = if depth > 0 && p.board.empties() >= depth { black_theoretical } else { black_final };
                let label = if p.side == Color::Black { black } else { -black };
                samples.push(Sample { board: p.board, label: label as i8, held_out });
            }
        }
    }
    println!(
        "{games} games ({skipped} skipped: illegal, unfinished or a stored score that is not the final one), {} positions",
        samples.len()
    );
    samples
}

/// The least-squares weights (in discs) of one phase: preconditioned conjugate gradients on
/// the normal equations `(AᵀA + ridge·I) w = Aᵀy`.
fn fit(band: &[&Sample], len: usize) -> Vec<f64> {
    let train: Vec<([u32; FEATURES], f64)> =
        band.iter().filter(|s| !s.held_out).map(|s| (feature_indices(s.board), f64::from(s.label))).collect();
    let constant = len - 1;
    let mut count = vec![0.0; len];
    let mut rhs = vec![0.0; len];
    for (features, label) in &train {
        for &i in features {
            count[i as usize] += 1.0;
            rhs[i as usize] += label;
        }
        count[constant] += 1.0;
        rhs[constant] += label;
    }
    let multiply = |p: &[f64]| {
        let mut q: Vec<f64> = p.iter().map(|x| x * RIDGE).collect();
        for (features, _) in &train {
            let t = p[constant] + features.iter().map(|&i| p[i as usize]).sum::<f64>();
            for &i in features {
                q[i as usize] += t;
            }
            q[constant] += t;
        }
        q
    };
    let precondition = |r: &[f64]| r.iter().zip(&count).map(|(x, c)| x / (c + RIDGE)).collect::<Vec<f64>>();
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut w = vec![0.0; len];
    let mut r = rhs;
    let mut z = precondition(&r);
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    for _ in 0..ITERATIONS {
        let q = multiply(&p);
        let alpha = rz / dot(&p, &q);
        for i in 0..len {
            w[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        z = precondition(&r);
        let next = dot(&r, &z);
        let beta = next / rz;
        rz = next;
        for i in 0..len {
            p[i] = z[i] + beta * p[i];
        }
    }
    w
}

/// The RMS error in discs on the fitted and on the held-out positions.
fn errors(band: &[&Sample], weights: &[f64]) -> (f64, f64) {
    let constant = weights.len() - 1;
    let mut sums = [(0.0, 0usize); 2];
    for s in band {
        let predicted = weights[constant] + feature_indices(s.board).iter().map(|&i| weights[i as usize]).sum::<f64>();
        let e = &mut sums[usize::from(s.held_out)];
        e.0 += (predicted - f64::from(s.label)).powi(2);
        e.1 += 1;
    }
    let rms = |(sum, n): (f64, usize)| (sum / n.max(1) as f64).sqrt();
    (rms(sums[0]), rms(sums[1]))
}
