//! The multi-file writers killed after every step of their commit: a SCID database created
//! over an old one and appended to, and a two-part Kvetka book replaced by a one-part book.
//! After each kill the next open (which recovers) finds the old files or the new ones, byte
//! for byte. The killed writer is this test binary run again as a child (`child_writes`,
//! ignored in a normal run), which SIGKILLs itself from the commit's step hook.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tabiya_chess::game::Game;
use tabiya_chess::kvetka::{self, Book, BookFiles, Element, Header, KEY_LEN, Key};
use tabiya_chess::scid::{Database, DatabaseWriter, Version};
use tabiya_testdata::corpus_file;

/// Games of a SCID 5.0.2 database of the corpus.
fn games(name: &str) -> Option<Vec<Game>> {
    let path = corpus_file(&format!("scid/generated-scid502/{name}"))?;
    Some(Database::open(path).unwrap().games().map(Result::unwrap).collect())
}

/// A book of `blocks` blocks of three 600-byte elements: 10,500 blocks take two parts.
fn book(blocks: u32, seed: u8) -> Book {
    let elements = (0..3 * blocks)
        .map(|i| {
            let mut key = [seed; KEY_LEN];
            key[..4].copy_from_slice(&i.to_be_bytes());
            let mut e = Element::new(Key(key));
            e.flags = 0x08;
            e.extra = vec![seed; 600];
            e
        })
        .collect();
    Book::from_elements(Header::default(), elements).unwrap()
}

/// What each case writes over the old files of `dir` (the child's work).
fn write_new(case: &str, dir: &Path, hook: impl FnMut(usize) + Send + 'static) {
    match case {
        "scid_create" => {
            let mut writer = DatabaseWriter::create(&dir.join("db.si4"), Version::Scid4).unwrap();
            games("utf8_4.si4").unwrap().iter().for_each(|g| writer.add(g).unwrap());
            writer.on_commit_step(hook);
            writer.finish().unwrap();
        }
        "scid_append" => {
            let mut writer = DatabaseWriter::append(&dir.join("db.si5"), Version::Scid5).unwrap();
            games("utf8_4.si4").unwrap().iter().for_each(|g| writer.add(g).unwrap());
            writer.on_commit_step(hook);
            writer.finish().unwrap();
        }
        "kvetka_replace" => {
            let mut transaction = BookFiles::new(&dir.join("book")).begin().unwrap();
            transaction.on_step(hook);
            book(40, 7).write_in(transaction, &Default::default()).unwrap();
        }
        other => panic!("no case {other}"),
    }
}

/// The old files of each case.
fn write_old(case: &str, dir: &Path) {
    match case {
        "scid_create" => {
            tabiya_chess::scid::write::write_database(
                &dir.join("db.si4"),
                Version::Scid4,
                games("five_4.si4").unwrap(),
            )
            .unwrap();
        }
        "scid_append" => {
            tabiya_chess::scid::write::write_database(
                &dir.join("db.si5"),
                Version::Scid5,
                games("five_4.si4").unwrap(),
            )
            .unwrap();
        }
        "kvetka_replace" => {
            book(10_500, 3).write(&dir.join("book"), &Default::default()).unwrap();
            assert!(dir.join("book_1.kob").exists(), "the old book has two parts");
        }
        other => panic!("no case {other}"),
    }
}

/// Opens what is in `dir` as the next reader would, which recovers.
fn open(case: &str, dir: &Path) {
    match case {
        "scid_create" => drop(Database::open(dir.join("db.si4")).unwrap()),
        "scid_append" => drop(Database::open(dir.join("db.si5")).unwrap()),
        _ => drop(kvetka::open(&dir.join("book"), Default::default()).unwrap()),
    }
}

/// The files of `dir` by name, but for hidden ones (a killed writer's temporaries, which
/// the next writer removes).
fn listing(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| (e.file_name().into_string().unwrap(), e.path()))
        .filter(|(name, _)| !name.starts_with('.'))
        .map(|(name, path)| (name, fs::read(path).unwrap()))
        .collect()
}

#[test]
#[ignore = "run by the tests below as a child process"]
fn child_writes() {
    let var = |name: &str| std::env::var(name).expect("run as a child");
    let (case, dir) = (var("TABIYA_TEST_CASE"), PathBuf::from(var("TABIYA_TEST_DIR")));
    let kill_at: Option<usize> = std::env::var("TABIYA_TEST_KILL_AT").ok().map(|n| n.parse().unwrap());
    write_new(&case, &dir, move |step| {
        if Some(step) == kill_at {
            // As a crash would end it: nothing after this step runs.
            let _ = Command::new("kill").args(["-KILL", &std::process::id().to_string()]).status();
            loop {
                std::thread::park();
            }
        }
    });
}

fn child(case: &str, dir: &Path, kill_at: Option<usize>) -> std::process::ExitStatus {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--ignored", "--exact", "child_writes", "--test-threads=1", "--quiet"])
        .env("TABIYA_TEST_CASE", case)
        .env("TABIYA_TEST_DIR", dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(n) = kill_at {
        command.env("TABIYA_TEST_KILL_AT", n.to_string());
    }
    command.status().unwrap()
}

/// Kills the writer of `case` after each step of its commit and checks what the next open
/// finds: the old files before the journal is written (step 0), the new ones after.
fn killed_at_every_step(case: &str) {
    let old_dir = tempfile::tempdir().unwrap();
    write_old(case, old_dir.path());
    let old = listing(old_dir.path());
    let new_dir = tempfile::tempdir().unwrap();
    write_old(case, new_dir.path());
    assert!(child(case, new_dir.path(), None).success());
    let new = listing(new_dir.path());
    assert_ne!(old, new);
    let mut step = 0;
    loop {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in &old {
            fs::write(dir.path().join(name), bytes).unwrap();
        }
        let status = child(case, dir.path(), Some(step));
        open(case, dir.path());
        let found = listing(dir.path());
        if status.success() {
            assert_eq!(found, new, "{case}: finished");
            assert!(step > 2, "{case}: a commit has at least a journal, a rename and the journal's removal");
            break;
        }
        assert_eq!(status.signal(), Some(SIGKILL), "{case}: step {step}");
        let expected = if step == 0 { &old } else { &new };
        assert!(
            found == *expected,
            "{case}: killed after step {step}, the files are not the {} ones",
            if step == 0 { "old" } else { "new" }
        );
        step += 1;
    }
}

/// SIGKILL's number (9 on every Unix).
const SIGKILL: i32 = 9;

#[test]
fn a_scid_database_created_over_an_old_one_is_old_or_new_after_a_kill() {
    if games("five_4.si4").is_some() {
        killed_at_every_step("scid_create");
    }
}

#[test]
fn a_scid_append_is_old_or_new_after_a_kill() {
    if games("five_4.si4").is_some() {
        killed_at_every_step("scid_append");
    }
}

#[test]
fn a_two_part_kvetka_book_replaced_by_a_one_part_book_is_old_or_new_after_a_kill() {
    killed_at_every_step("kvetka_replace");
}
