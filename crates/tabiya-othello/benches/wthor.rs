//! Read + replay + verify every game of the Wthor database, single-threaded and with rayon, and
//! export every game to transcripts. Needs `TABIYA_CORPUS`:
//! `TABIYA_CORPUS=/work/shared/corpus cargo bench -p tabiya-othello --bench wthor`.

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use tabiya_io::Diagnostic;
use tabiya_othello::game::TextExport;
use tabiya_othello::wthor::{GameContext, GameFile, NameFile, NameKind, Names, verify_game_files, verify_games};

/// The bytes of every game file of `current/`, by path.
type GameFiles = Vec<(PathBuf, Vec<u8>)>;

fn corpus() -> Option<(GameFiles, NameFile, NameFile)> {
    let dir = PathBuf::from(std::env::var_os("TABIYA_CORPUS")?).join("wthor/current");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir).ok()?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let files = paths
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "wtb"))
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    let read = |kind, name| {
        NameFile::read(kind, &std::fs::read(dir.join(name)).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap()
    };
    Some((files, read(NameKind::Players, "WTHOR.JOU"), read(NameKind::Tournaments, "WTHOR.TRN")))
}

fn benches(c: &mut Criterion) {
    let Some((files, players, tournaments)) = corpus() else {
        eprintln!("skipped: TABIYA_CORPUS is not set");
        return;
    };
    let names = Names { players: &players, tournaments: &tournaments };
    let mut group = c.benchmark_group("wthor_current_137548_games");
    group.sample_size(10);
    group.bench_function("read_only", |b| {
        b.iter(|| {
            let games: usize = files
                .iter()
                .map(|(_, bytes)| GameFile::read(bytes, &mut Vec::<Diagnostic>::new()).unwrap().games.len())
                .sum();
            assert_eq!(games, 137_548);
        })
    });
    group.bench_function("verify_single_thread_in_memory", |b| {
        b.iter(|| {
            let games: u64 = files.iter().map(|(p, bytes)| verify_games(p, bytes, Some(names), None).stats.games).sum();
            assert_eq!(games, 137_548);
        })
    });
    let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    group.bench_function("verify_rayon_from_files", |b| {
        b.iter(|| {
            let games: u64 = verify_game_files(&paths, Some(names)).into_iter().map(|v| v.unwrap().stats.games).sum();
            assert_eq!(games, 137_548);
        })
    });
    group.bench_function("export_transcripts", |b| {
        b.iter(|| {
            let mut out = String::with_capacity(18 << 20);
            for (_, bytes) in &files {
                let file = GameFile::read(bytes, &mut Vec::<Diagnostic>::new()).unwrap();
                for (record, game) in file.games.iter().enumerate() {
                    let g = GameContext { game, year: file.header.game_year, record, depth: 24, names: Some(names) };
                    out.push_str(&g.transcript().unwrap());
                    out.push('\n');
                }
            }
            assert_eq!(out.lines().count(), 137_548);
        })
    });
    group.finish();
}

criterion_group!(wthor, benches);
criterion_main!(wthor);
