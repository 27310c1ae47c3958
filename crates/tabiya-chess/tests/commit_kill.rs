//! The multi-file writers killed after every step of their commit: a SCID database created
//! over an old one and appended to, and a two-part Kvetka book replaced by a one-part book.
//! After each kill the next open (which recovers) finds the old files or the new ones, byte
//! for byte (tabiya_testdata::kill runs the writer as a child that kills itself).

use std::path::Path;

use tabiya_chess::game::Game;
use tabiya_chess::kvetka::{self, Book, BookFiles, Element, Header, KEY_LEN, Key};
use tabiya_chess::scid::{Database, DatabaseWriter, Version};
use tabiya_testdata::{corpus_file, kill};

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
fn write_new(case: &str, dir: &Path, hook: kill::StepHook) {
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

#[test]
#[ignore = "run by the tests below as a child process"]
fn child_writes() {
    kill::child(write_new);
}

fn killed_at_every_step(case: &str) {
    kill::killed_at_every_step("child_writes", case, |dir| write_old(case, dir), |dir| open(case, dir));
}

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
