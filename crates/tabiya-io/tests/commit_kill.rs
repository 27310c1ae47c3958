//! A multi-file commit killed with SIGKILL at every step and at random instants leaves the old
//! set or the new set, whole, once the next reader or writer has opened it. The killed writer
//! is this test binary run again as a child (`child_commits`, ignored in a normal run).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tabiya_io::{AtomicFile, Transaction};
use tabiya_testdata::Xorshift;

/// The book of the test: parts `book_N.kob` and an index `book.kin`, as Kvetka writes them.
const OLD: [&str; 4] = ["book.kin", "book_0.kob", "book_1.kob", "book_2.kob"];
/// The new book has two parts: `book_2.kob` must go in the same commit.
const NEW: [&str; 3] = ["book.kin", "book_0.kob", "book_1.kob"];

fn content(which: &str, name: &str, size: usize) -> Vec<u8> {
    let mut bytes = format!("{which} {name}\n").into_bytes();
    bytes.resize(size, which.as_bytes()[0]);
    bytes
}

/// The files of `dir`, by name.
fn listing(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().into_string().unwrap(), fs::read(e.path()).unwrap())
        })
        .collect()
}

fn set(which: &str, names: &[&str], size: usize) -> BTreeMap<String, Vec<u8>> {
    names.iter().map(|n| (n.to_string(), content(which, n, size))).collect()
}

fn write_old_set(dir: &Path, size: usize) {
    for (name, bytes) in set("old", &OLD, size) {
        fs::write(dir.join(name), bytes).unwrap();
    }
}

/// The child: replaces the book in `TABIYA_TEST_DIR` by the new one, killing itself with
/// SIGKILL after commit step `TABIYA_TEST_KILL_AT` when that is set.
#[test]
#[ignore = "run by the tests below as a child process"]
fn child_commits() {
    let dir = PathBuf::from(std::env::var_os("TABIYA_TEST_DIR").expect("run as a child"));
    let size: usize = std::env::var("TABIYA_TEST_SIZE").unwrap().parse().unwrap();
    let kill_at: Option<usize> = std::env::var("TABIYA_TEST_KILL_AT").ok().map(|n| n.parse().unwrap());
    let stem = dir.join("book");
    let mut tx = Transaction::begin(&stem, || {}).unwrap();
    tx.on_step(move |step| {
        if Some(step) == kill_at {
            // SAFETY: the process ends here, as a crash would end it.
            unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
        }
    });
    let mut files = Vec::new();
    for name in NEW {
        let mut file = AtomicFile::create(dir.join(name)).unwrap();
        file.write_all(&content("new", name, size)).unwrap();
        files.push(file);
    }
    tx.remove(dir.join("book_2.kob"));
    tx.commit(files).unwrap();
}

fn child(dir: &Path, size: usize, kill_at: Option<usize>) -> Command {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--ignored", "--exact", "child_commits", "--test-threads=1", "--quiet"])
        .env("TABIYA_TEST_DIR", dir)
        .env("TABIYA_TEST_SIZE", size.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(n) = kill_at {
        command.env("TABIYA_TEST_KILL_AT", n.to_string());
    }
    command
}

/// What a reader finds after recovering, and that a writer's open then leaves no debris.
fn after_recovery(dir: &Path, size: usize) -> &'static str {
    let stem = dir.join("book");
    Transaction::recover(&stem).unwrap();
    let found = listing(dir);
    let which = if found == set("old", &OLD, size) {
        "old"
    } else if found == set("new", &NEW, size) {
        "new"
    } else {
        // Temporaries of the killed writer may remain until a writer opens: compare the set.
        let files: BTreeMap<_, _> = found.into_iter().filter(|(n, _)| !n.starts_with('.')).collect();
        if files == set("old", &OLD, size) {
            "old"
        } else {
            assert_eq!(files, set("new", &NEW, size), "neither the old nor the new set");
            "new"
        }
    };
    drop(Transaction::begin(&stem, || {}).unwrap());
    let names: Vec<String> = listing(dir).into_keys().collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "debris after a writer's open: {names:?}");
    which
}

#[test]
fn a_commit_killed_after_any_step_is_old_or_new_after_recovery() {
    let size = 1000;
    // Steps: 0 synced, 1 journal, 2-4 renames, 5 removal, 6 journal removed.
    for step in 0..=7 {
        let dir = tempfile::tempdir().unwrap();
        write_old_set(dir.path(), size);
        let status = child(dir.path(), size, Some(step)).status().unwrap();
        let which = after_recovery(dir.path(), size);
        if step < 7 {
            assert_eq!(status.signal(), Some(libc::SIGKILL), "step {step}");
        } else {
            assert!(status.success(), "a commit with fewer steps than {step} finishes");
        }
        // Before the journal the old set stands; once it is written, the new one.
        assert_eq!(which, if step == 0 { "old" } else { "new" }, "killed after step {step}");
    }
}

#[test]
fn a_commit_killed_at_random_instants_is_old_or_new_after_recovery() {
    let size = 1 << 20;
    let mut random = Xorshift::new(16);
    let mut seen = BTreeMap::new();
    for _ in 0..12 {
        let dir = tempfile::tempdir().unwrap();
        write_old_set(dir.path(), size);
        let mut running = child(dir.path(), size, None).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_micros(random.below(40_000) as u64));
        let _ = running.kill();
        running.wait().unwrap();
        *seen.entry(after_recovery(dir.path(), size)).or_insert(0) += 1;
    }
    assert_eq!(seen.values().sum::<i32>(), 12, "{seen:?}");
}

#[test]
fn a_second_writer_waits_for_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let stem = dir.path().join("games");
    let first = Transaction::begin(&stem, || panic!("nobody holds the lock yet")).unwrap();
    let (told, waiting) = std::sync::mpsc::channel();
    let second = {
        let stem = stem.clone();
        std::thread::spawn(move || {
            let tx = Transaction::begin(&stem, move || told.send(()).unwrap()).unwrap();
            let mut file = AtomicFile::create(stem.with_extension("si4")).unwrap();
            file.write_all(b"second").unwrap();
            tx.commit(vec![file]).unwrap();
        })
    };
    // The second is told to wait while the first holds the lock.
    waiting.recv().unwrap();
    let mut file = AtomicFile::create(stem.with_extension("si4")).unwrap();
    file.write_all(b"first").unwrap();
    first.commit(vec![file]).unwrap();
    second.join().unwrap();
    assert_eq!(fs::read(stem.with_extension("si4")).unwrap(), b"second", "the second wrote after the first");
    assert_eq!(listing(dir.path()).into_keys().collect::<Vec<_>>(), ["games.si4"], "no lock file is left");
}

#[test]
fn a_writer_removes_the_temporaries_of_dead_writers_only() {
    let dir = tempfile::tempdir().unwrap();
    let stem = dir.path().join("games");
    let mut finished = Command::new("true").spawn().unwrap();
    let dead = finished.id();
    finished.wait().unwrap();
    let own = std::process::id();
    let names = [
        format!(".games.si4.{dead}.0.tmp"),
        format!(".games.sg4.{own}.0.tmp"),
        format!(".games2.si4.{dead}.0.tmp"),
        "games.si4".to_string(),
    ];
    for name in &names {
        fs::write(dir.path().join(name), b"x").unwrap();
    }
    drop(Transaction::begin(&stem, || {}).unwrap());
    let left: Vec<String> = listing(dir.path()).into_keys().collect();
    // A live writer's temporary (ours) and another database's stay.
    assert_eq!(left, names[1..]);
}
