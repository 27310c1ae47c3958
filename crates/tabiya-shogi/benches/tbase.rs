//! Read + verify speed of a generated 10,000-record T-BASE set (numbers 0000–9999, alternating
//! the seed's 17-move example and the 15-move board of the seed's #0003 line, varied authors
//! and titles), as `tabiya verify` does it: decode and check every record, replay every solution.
//!
//! `cargo bench -p tabiya-shogi --bench tbase`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tabiya_shogi::tbase::{self, Diagram, FileSet, Solution, dia_records, read_solutions};

const RECORDS: u16 = 10_000;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The .dia and .tjn bytes of the generated set.
fn generate() -> (Vec<u8>, Vec<u8>) {
    let templates: Vec<(Diagram, Solution)> = [("example_3line.dia", "example.tjn"), ("seed0003.dia", "seed0003.tjn")]
        .iter()
        .map(|(dia, tjn)| (Diagram::decode(&fixture(dia), 0).unwrap(), read_solutions(&fixture(tjn)).0.remove(0)))
        .collect();
    let mut dia = Vec::with_capacity(usize::from(RECORDS) * tbase::RECORD_LEN);
    let mut solutions = Vec::new();
    for number in 0..RECORDS {
        let (template, solution) = &templates[usize::from(number % 2)];
        let mut d = template.clone();
        d.number = number;
        d.author = ["初代宗桂", "伊藤看寿", "伊藤宗看", "添川公司"][usize::from(number % 4)].to_owned();
        d.title = format!("第{}番", number % 100);
        dia.extend_from_slice(&d.encode().unwrap());
        solutions.push(Solution { number, ..solution.clone() });
    }
    (dia, tbase::write_solutions(&solutions).unwrap())
}

fn bench(c: &mut Criterion) {
    let (dia, tjn) = generate();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bench.dia"), &dia).unwrap();
    std::fs::write(dir.path().join("bench.tjn"), &tjn).unwrap();
    let set = FileSet::beside(&dir.path().join("bench.dia"));
    let mut group = c.benchmark_group("tbase");
    group.throughput(Throughput::Elements(u64::from(RECORDS)));
    group.sample_size(10);
    group.bench_function("decode_and_check_records", |b| {
        b.iter(|| dia_records(black_box(&dia)).filter(|r| r.as_ref().is_ok_and(|r| r.findings.is_empty())).count())
    });
    group.bench_function("read_and_verify_set", |b| {
        b.iter(|| {
            let v = set.read().unwrap().verify(true);
            assert_eq!((&v.checked["records"], &v.checked["mates"], v.ok), (&RECORDS.into(), &RECORDS.into(), true));
            v
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
