//! A T-BASE set (`.dia` + `.tjn` + `.rem`) replaced by a set with a `.dia` alone, killed after
//! every step of its commit: the next read finds the old three files or the new one, byte for
//! byte, never a new `.dia` beside the old solutions.

use std::fs;
use std::path::{Path, PathBuf};

use tabiya_shogi::convert::OutputFile;
use tabiya_shogi::tbase::{self, FileSet};
use tabiya_testdata::kill;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn write_old(dir: &Path) {
    for (from, to) in [("example_3line.dia", "set.dia"), ("example.tjn", "set.tjn"), ("example.rem", "set.rem")] {
        fs::copy(fixture(from), dir.join(to)).unwrap();
    }
}

#[test]
#[ignore = "run by the test below as a child process"]
fn child_writes() {
    kill::child(|_, dir, hook| {
        let dia = dir.join("set.dia");
        let mut transaction = tbase::begin_set(&dia).unwrap();
        transaction.on_step(hook);
        let files = [OutputFile { path: dia.clone(), bytes: fs::read(fixture("example_4line.dia")).unwrap() }];
        tbase::commit_set(transaction, &dia, &files).unwrap();
    });
}

#[test]
fn a_tbase_set_replaced_is_old_or_new_after_a_kill() {
    kill::killed_at_every_step("child_writes", "tbase_replace", write_old, |dir| {
        FileSet::beside(&dir.join("set.dia")).read().unwrap();
    });
}
