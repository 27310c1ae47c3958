//! CTG speed on PowerPlay17 (needs `TABIYA_CORPUS`): warm probes, the full dump, CTG → Polyglot.
//!
//! `TABIYA_CORPUS=/work/shared/corpus cargo bench -p tabiya-chess --bench ctg`
//!
//! Measured in CPU time of the benchmarking thread (`CLOCK_THREAD_CPUTIME_ID`, 64-bit Linux), not wall
//! time: the project's VM runs many builds at once, and wall time there mostly measures the
//! wait for a core. `CTG_BENCH_WALL=1` measures wall time instead.

use std::hint::black_box;
use std::io::Write;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput};
use shakmaty::Chess;
use tabiya_chess::boardcode::Normalized;
use tabiya_chess::ctg::{Book, Key, Weights, dump, read_model};
use tabiya_chess::polyglot;

/// The position after `moves` (SAN or UCI) from the start.
fn after(moves: &str) -> Chess {
    tabiya_chess::book::probe_position(None, Some(moves)).expect("legal moves")
}

#[repr(C)]
struct Timespec {
    seconds: i64,
    nanoseconds: i64,
}

unsafe extern "C" {
    fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
}

/// Linux's clock of the calling thread's CPU time.
const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

/// CPU time of the calling thread in nanoseconds.
fn thread_cpu_ns() -> u64 {
    let mut time = Timespec { seconds: 0, nanoseconds: 0 };
    // SAFETY: clock_gettime writes one timespec (two 64-bit fields on 64-bit Linux) to `time`.
    let status = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    time.seconds as u64 * 1_000_000_000 + time.nanoseconds as u64
}

/// Criterion measurement of the benchmarking thread's CPU time.
struct ThreadCpuTime;

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        thread_cpu_ns()
    }

    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns() - start
    }

    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuTimeFormatter
    }
}

struct CpuTimeFormatter;

impl ValueFormatter for CpuTimeFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (divisor, unit) = match typical {
            t if t < 1e3 => (1.0, "ns cpu"),
            t if t < 1e6 => (1e3, "µs cpu"),
            t if t < 1e9 => (1e6, "ms cpu"),
            _ => (1e9, "s cpu"),
        };
        values.iter_mut().for_each(|v| *v /= divisor);
        unit
    }

    fn scale_throughputs(&self, _typical: f64, _throughput: &Throughput, _values: &mut [f64]) -> &'static str {
        "ns cpu"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns cpu"
    }
}

fn bench<M: Measurement + 'static>(c: &mut Criterion<M>) {
    let Some(path) = tabiya_testdata::corpus_file("ctg/PowerPlay17-Sicilienne/PowerPlay17-Sicilienne.ctg") else {
        return;
    };
    let book = Book::open(&path).unwrap();
    let positions = [
        ("start", Chess::default()),
        ("after_e4_c5", after("e2e4 c7c5")),
        ("after_e4_c5_nc3_nc6_f4", after("e2e4 c7c5 b1c3 b8c6 f2f4")),
    ];
    for (name, pos) in &positions {
        assert!(book.probe(pos).unwrap().record.is_some(), "{name}");
        c.bench_function(&format!("ctg probe {name} (record, moves, child records)"), |b| {
            b.iter(|| book.probe(black_box(pos)).unwrap().moves.len())
        });
        c.bench_function(&format!("ctg find {name} (normalise, key, hash, tree, page scan)"), |b| {
            b.iter(|| {
                let key = Key::encode(&Normalized::new(black_box(pos))).unwrap();
                book.find(&key).unwrap().is_some()
            })
        });
    }
    let mut group = c.benchmark_group("ctg whole book");
    group.sample_size(20);
    group.bench_function("dump PowerPlay17 (13,305 records, decoded)", |b| b.iter(|| dump(&book).unwrap().len()));
    group.bench_function("dump PowerPlay17 to JSON Lines in memory", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(8 << 20);
            for p in dump(&book).unwrap() {
                serde_json::to_writer(&mut out, &p.json_line()).unwrap();
                out.write_all(b"\n").unwrap();
            }
            out.len()
        })
    });
    group.bench_function("CTG -> Polyglot PowerPlay17 in memory", |b| {
        b.iter(|| {
            let (model, _) = read_model(&book, Weights::Play).unwrap();
            let export = polyglot::entries_of_model(model);
            let mut out = Vec::with_capacity(export.entries.len() * 16);
            polyglot::write_entries(&export.entries, &mut out).unwrap();
            out.len()
        })
    });
    group.finish();
}

fn main() {
    if std::env::var_os("CTG_BENCH_WALL").is_some() {
        bench(&mut Criterion::default().with_measurement(WallTime).configure_from_args());
    } else {
        bench(&mut Criterion::default().with_measurement(ThreadCpuTime).configure_from_args());
    }
    Criterion::default().configure_from_args().final_summary();
}
