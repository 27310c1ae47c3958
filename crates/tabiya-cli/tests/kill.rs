//! The real `tabiya` binary killed with SIGKILL at random instants while it appends to a SCID
//! database or a Kvetka book: after each kill the next open (which recovers) finds the old
//! files or the new ones, byte for byte. And two appends started together both land: the
//! second waits for the first's lock. (The kills after every step of a commit are the
//! libraries' tests: tabiya-chess's commit_kill.)

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tabiya_chess::kvetka;
use tabiya_chess::scid::Database;
use tabiya_testdata::Xorshift;

/// `count` short games, numbered from `first` so that every file has games of its own.
fn pgn(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|n| {
            format!(
                "[Event \"game {n}\"]\n[White \"w{}\"]\n[Black \"b{n}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 {{{n}}} 1-0\n\n",
                n % 97
            )
        })
        .collect()
}

fn tabiya(args: &[&str], dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tabiya"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tabiya runs")
}

fn run(args: &[&str], dir: &Path) {
    assert!(tabiya(args, dir).wait().unwrap().success(), "tabiya {args:?}");
}

/// The files of `dir` by name, but for hidden ones (a killed writer's temporaries) and the
/// inputs.
fn listing(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| (e.file_name().into_string().unwrap(), e.path()))
        .filter(|(name, _)| !name.starts_with('.') && !name.ends_with(".pgn"))
        .map(|(name, path)| (name, fs::read(path).unwrap()))
        .collect()
}

/// Sets up `old` (the files before the append) in `dir` with the input `more.pgn`.
fn set_up(dir: &Path, old: &BTreeMap<String, Vec<u8>>, more: &str) {
    for (name, bytes) in old {
        fs::write(dir.join(name), bytes).unwrap();
    }
    fs::write(dir.join("more.pgn"), more).unwrap();
}

/// Makes the old files with `create`, appends with `append` once to learn the new files and
/// how long an append takes, then kills appends at random instants up to a little past that
/// and checks, after `open`, that each left the old files or the new ones.
fn killed_at_random_instants(create: &[&str], append: &[&str], open: impl Fn(&Path)) {
    let first = tempfile::tempdir().unwrap();
    fs::write(first.path().join("old.pgn"), pgn(0, 300)).unwrap();
    run(create, first.path());
    let old = listing(first.path());
    let more = pgn(1000, 3000);
    set_up(first.path(), &old, &more);
    let started = Instant::now();
    run(append, first.path());
    let whole = started.elapsed();
    let new = listing(first.path());
    assert!(old != new, "the append changes the files");
    let mut random = Xorshift::new(16);
    let mut seen = BTreeMap::new();
    for _ in 0..10 {
        let dir = tempfile::tempdir().unwrap();
        set_up(dir.path(), &old, &more);
        let mut child = tabiya(append, dir.path());
        let micros = random.below(whole.as_micros() as usize * 5 / 4 + 1) as u64;
        std::thread::sleep(Duration::from_micros(micros));
        let _ = child.kill();
        child.wait().unwrap();
        open(dir.path());
        let found = listing(dir.path());
        let which = if found == old {
            "old"
        } else {
            assert!(found == new, "killed after {micros} µs: neither the old files nor the new ones");
            "new"
        };
        *seen.entry(which).or_insert(0) += 1;
    }
    assert_eq!(seen.values().sum::<u32>(), 10, "{seen:?}");
}

#[test]
fn a_scid_append_killed_at_random_instants_is_old_or_new() {
    killed_at_random_instants(
        &["convert", "old.pgn", "-o", "db.si4"],
        &["convert", "more.pgn", "-o", "db.si4", "--append"],
        |dir| drop(Database::open(dir.join("db.si4")).unwrap()),
    );
}

#[test]
fn a_kvetka_append_killed_at_random_instants_is_old_or_new() {
    killed_at_random_instants(
        &["book", "old.pgn", "-o", "book.kob"],
        &["book", "more.pgn", "-o", "book.kob", "--append"],
        |dir| drop(kvetka::open(&dir.join("book.kob"), Default::default()).unwrap()),
    );
}

#[test]
fn two_scid_appends_started_together_both_land() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    fs::write(dir.join("old.pgn"), pgn(0, 300)).unwrap();
    fs::write(dir.join("a.pgn"), pgn(1000, 2000)).unwrap();
    fs::write(dir.join("b.pgn"), pgn(5000, 1500)).unwrap();
    run(&["convert", "old.pgn", "-o", "db.si4"], dir);
    let a = tabiya(&["convert", "a.pgn", "-o", "db.si4", "--append"], dir);
    let b = tabiya(&["convert", "b.pgn", "-o", "db.si4", "--append"], dir);
    for mut child in [a, b] {
        assert!(child.wait().unwrap().success());
    }
    assert_eq!(Database::open(dir.join("db.si4")).unwrap().len(), 300 + 2000 + 1500);
}

#[test]
fn an_append_to_a_missing_database_or_book_creates_it() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    fs::write(dir.join("a.pgn"), pgn(0, 20)).unwrap();
    run(&["convert", "a.pgn", "-o", "db.si4", "--append"], dir);
    assert_eq!(Database::open(dir.join("db.si4")).unwrap().len(), 20);
    run(&["book", "a.pgn", "-o", "book.kob", "--append"], dir);
    assert!(!kvetka::open(&dir.join("book.kob"), Default::default()).unwrap().book.blocks.is_empty());
}

#[test]
fn a_multi_file_output_refuses_standard_output_and_an_existing_file_of_the_set() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    fs::write(dir.join("a.pgn"), pgn(0, 5)).unwrap();
    let status = |args: &[&str]| tabiya(args, dir).wait().unwrap().code();
    assert_eq!(status(&["convert", "a.pgn", "-o", "-", "--to", "si4"]), Some(2));
    fs::write(dir.join("db.sn4"), b"someone's names").unwrap();
    assert_eq!(status(&["convert", "a.pgn", "-o", "db.si4"]), Some(2), "db.sn4 exists");
    assert_eq!(fs::read(dir.join("db.sn4")).unwrap(), b"someone's names");
    fs::write(dir.join("book.kin"), b"someone's index").unwrap();
    assert_eq!(status(&["book", "a.pgn", "-o", "book.kob"]), Some(2), "book.kin exists");
    assert_eq!(fs::read(dir.join("book.kin")).unwrap(), b"someone's index");
}

#[test]
fn a_writer_that_waits_for_another_says_so() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    fs::write(dir.join("a.pgn"), pgn(0, 20)).unwrap();
    run(&["convert", "a.pgn", "-o", "db.si4"], dir);
    let lock = tabiya_io::WriteLock::acquire(&dir.join("db"), || {}).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabiya"))
        .args(["convert", "a.pgn", "-o", "db.si4", "--append"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let (line, told) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for l in stderr.lines().map_while(Result::ok) {
            let _ = line.send(l);
        }
    });
    // A minute is far beyond any start-up: no line by then means the wait was silent.
    let first = told.recv_timeout(Duration::from_secs(60));
    drop(lock);
    let first = first.expect("the waiting writer said nothing");
    assert!(first.contains("waiting for another writer") && first.contains(".db.lock"), "{first}");
    assert!(child.wait().unwrap().success());
    assert_eq!(Database::open(dir.join("db.si4")).unwrap().len(), 40);
}
