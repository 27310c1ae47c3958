//! The FFO endgame suite as a checked benchmark run: solves problems FIRST..LAST of
//! corpus/ffo (default #40–#49), prints Edax-style lines (score, move, time, nodes, nodes per
//! second) and totals, and fails if any score or move disagrees with ffo_1_79_answers.tsv.
//!
//! `TABIYA_CORPUS=/work/shared/corpus cargo bench -p tabiya-othello --bench ffo -- [FIRST LAST] [--threads N] [--table-bits B]`
//! (the transposition table has 2^B slots of 24 bytes; default 22, 96 MiB)

use std::process::ExitCode;
use std::time::Duration;

use tabiya_othello::board::Square;
use tabiya_othello::solve::Solver;
use tabiya_othello::text::obf;

fn main() -> ExitCode {
    let Some(corpus) = std::env::var_os("TABIYA_CORPUS") else {
        eprintln!("skipped: TABIYA_CORPUS not set");
        return ExitCode::SUCCESS;
    };
    let mut numbers = Vec::new();
    let mut threads = 1;
    let mut table_bits = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" => threads = args.next().and_then(|n| n.parse().ok()).unwrap_or(1),
            "--table-bits" => table_bits = args.next().and_then(|n| n.parse().ok()),
            "--bench" => {}
            n => numbers.extend(n.parse::<usize>().ok()),
        }
    }
    let (first, last) = match numbers[..] {
        [a, b, ..] => (a, b),
        [a] => (a, a),
        [] => (40, 49),
    };
    let ffo = std::path::Path::new(&corpus).join("ffo");
    let mut lines = Vec::new();
    for name in ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf", "fforum-60-79.obf"] {
        let text = std::fs::read_to_string(ffo.join(name)).expect("FFO suite in the corpus");
        lines.extend(obf::parse(&text).map(|(_, l)| l.expect("valid OBF")));
    }
    let answers = std::fs::read_to_string(ffo.join("ffo_1_79_answers.tsv")).expect("answers");
    let answers: Vec<(i32, Vec<Square>)> = answers
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|row| {
            let f: Vec<&str> = row.split('\t').collect();
            (f[4].parse().unwrap(), f[5].split(',').map(|m| m.parse().unwrap()).collect())
        })
        .collect();

    let mut solver = Solver::new().threads(threads).expect("thread pool");
    if let Some(bits) = table_bits {
        solver = solver.table_bits(bits);
    }
    println!("threads {threads}");
    println!("  # | empties | score | move |     time (s) |  CPU time (s) |          nodes |     nodes/s");
    let (mut total_time, mut total_nodes, mut wrong) = (Duration::ZERO, 0u64, 0);
    for id in first..=last.min(79) {
        solver.clear();
        let line = &lines[id - 1];
        let cpu_before = cpu_seconds();
        let solution = solver.solve(line.position.board);
        let cpu = cpu_seconds().zip(cpu_before).map_or(f64::NAN, |(after, before)| after - before);
        let (score, best) = &answers[id - 1];
        let mv = solution.best_moves.first().copied();
        let ok = solution.score == *score && mv.is_some_and(|m| best.contains(&m));
        wrong += usize::from(!ok);
        let secs = solution.elapsed.as_secs_f64();
        println!(
            "{id:>3} | {:>7} | {:>+5} | {:>4} | {secs:>12.3} | {cpu:>13.3} | {:>14} | {:>11.0}{}",
            line.position.board.empties(),
            solution.score,
            mv.map_or("--".into(), |m| m.to_string()),
            solution.nodes,
            solution.nodes as f64 / secs,
            if ok { "" } else { "  WRONG" }
        );
        total_time += solution.elapsed;
        total_nodes += solution.nodes;
    }
    println!(
        "total #{first}-#{last}: {:.3} s, {total_nodes} nodes, {:.0} nodes/s, {wrong} wrong",
        total_time.as_secs_f64(),
        total_nodes as f64 / total_time.as_secs_f64()
    );
    if let Some(cpu) = cpu_seconds() {
        println!("process CPU time: {cpu:.3} s (the machine is shared: wall times include waiting)");
    }
    if wrong == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// Time this process (all its threads) has spent on a CPU (Linux: user + system time of
/// /proc/self/stat, in clock ticks of 1/100 s), in seconds.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
