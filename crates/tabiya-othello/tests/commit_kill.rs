//! A Wthor import killed after every step of its commit: a game file and the name files it
//! adds to (WTHOR.JOU, WTHOR.TRN) change together, so the next reader finds the old three
//! files or the new three, byte for byte, never games whose names are missing.

use std::fs;
use std::path::Path;

use tabiya_io::AtomicFile;
use tabiya_othello::wthor::{self, GameFile, NameFile, NameKind};
use tabiya_testdata::{corpus_file, kill};

const FILES: [&str; 3] = ["WTH_2001.wtb", "WTHOR.JOU", "WTHOR.TRN"];

fn write_old(dir: &Path) {
    for name in FILES {
        fs::copy(corpus_file(&format!("wthor/current/{name}")).unwrap(), dir.join(name)).unwrap();
    }
}

/// The new files: a player and a tournament added, and a copy of the first game between them.
fn new_files(dir: &Path) -> Vec<AtomicFile> {
    let mut found = Vec::new();
    let read = |name: &str| fs::read(dir.join(name)).unwrap();
    let mut players = NameFile::read(NameKind::Players, &read("WTHOR.JOU"), &mut found).unwrap();
    let mut tournaments = NameFile::read(NameKind::Tournaments, &read("WTHOR.TRN"), &mut found).unwrap();
    let mut games = GameFile::read(&read("WTH_2001.wtb"), &mut found).unwrap();
    let mut game = games.games[0];
    game.black = players.append("Killed Writer").unwrap();
    game.tournament = tournaments.append("Commit Step Open").unwrap();
    games.games.push(game);
    [("WTHOR.JOU", players.to_bytes()), ("WTHOR.TRN", tournaments.to_bytes()), ("WTH_2001.wtb", games.to_bytes())]
        .into_iter()
        .map(|(name, bytes)| AtomicFile::with_bytes(dir.join(name), &bytes).unwrap())
        .collect()
}

#[test]
#[ignore = "run by the test below as a child process"]
fn child_writes() {
    kill::child(|_, dir, hook| {
        let mut transaction = wthor::begin_write(dir).unwrap();
        transaction.on_step(hook);
        transaction.commit(new_files(dir)).unwrap();
    });
}

#[test]
fn a_wthor_import_with_its_names_is_old_or_new_after_a_kill() {
    if corpus_file("wthor/current/WTH_2001.wtb").is_none() {
        return;
    }
    kill::killed_at_every_step("child_writes", "wthor_import", write_old, |dir| {
        wthor::recover(dir).unwrap();
        let mut found = Vec::new();
        GameFile::read(&fs::read(dir.join("WTH_2001.wtb")).unwrap(), &mut found).unwrap();
    });
}
