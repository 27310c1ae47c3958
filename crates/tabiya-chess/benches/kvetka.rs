//! Kvetka probe latency on a warm book built from the corpus (medium-pgnmentor-12players.pgn,
//! max_move 40): `TABIYA_CORPUS=/work/shared/corpus cargo bench -p tabiya-chess --bench kvetka`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use shakmaty::Chess;
use tabiya_chess::kvetka::build::Builder;
use tabiya_chess::kvetka::{BookReader, Header, key, probe};

/// The position after `sans` (SAN or UCI) from the start.
fn after(sans: &str) -> Chess {
    tabiya_chess::book::probe_position(None, Some(sans)).expect("legal moves")
}

fn probes(c: &mut Criterion) {
    let Some(pgn) = tabiya_testdata::corpus_file("pgn/medium-pgnmentor-12players.pgn") else { return };
    let bytes = std::fs::read(&pgn).unwrap();
    let mut builder = Builder::new(Header { max_move: 40, ..Header::default() });
    builder.add_pgn(Path::new(&pgn), &bytes).unwrap();
    let (book, _) = builder.finish(None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    book.write(&dir.path().join("bench"), &Default::default()).unwrap();
    let reader = BookReader::open(&dir.path().join("bench"), Default::default()).unwrap();

    let sicilian = after("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6");
    let sicilian_key = key::encode(&sicilian).unwrap().0;
    c.bench_function("kvetka find one key (Najdorf)", |b| b.iter(|| reader.find(black_box(&sicilian_key)).unwrap()));
    c.bench_function("kvetka probe Najdorf (moves + their positions)", |b| {
        b.iter(|| probe::probe(&reader, black_box(&sicilian)).unwrap())
    });
    let start = Chess::default();
    c.bench_function("kvetka probe start position", |b| b.iter(|| probe::probe(&reader, black_box(&start)).unwrap()));
}

criterion_group!(benches, probes);
criterion_main!(benches);
