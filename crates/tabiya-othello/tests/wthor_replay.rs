//! Replay and verification of the whole database against the figures of specs/wthor.md.

use std::path::PathBuf;

use tabiya_io::{Diagnostic, Severity};
use tabiya_othello::board::Color;
use tabiya_othello::wthor::{
    Ending, GameFile, GameStats, NameFile, NameKind, Names, Replay, name_files_in, verify_games,
};
use tabiya_testdata::corpus_file;

fn names(dir: &std::path::Path) -> (NameFile, NameFile) {
    let (jou, trn) = name_files_in(dir).expect("name files");
    let read = |kind, path: PathBuf| {
        NameFile::read(kind, &std::fs::read(path).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap()
    };
    (read(NameKind::Players, jou), read(NameKind::Tournaments, trn))
}

fn game_file(relative: &str) -> Option<GameFile> {
    let path = corpus_file(relative)?;
    Some(GameFile::read(&std::fs::read(path).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap())
}

#[test]
fn regression_figures_of_current() {
    let Some(dir) = corpus_file("wthor/current") else { return };
    let (players, tournaments) = names(&dir);
    let names = Names { players: &players, tournaments: &tournaments };
    let mut total = GameStats::default();
    let mut files = 0;
    let mut ended_above_depth = 0;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "wtb")) {
        let v = verify_games(path, &std::fs::read(path).unwrap(), Some(names), None);
        let errors: Vec<_> = v.problems.iter().filter(|p| p.severity == Severity::Error).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        total += v.stats;
        let file = GameFile::read(&std::fs::read(path).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap();
        ended_above_depth += file
            .games
            .iter()
            .filter(|g| g.move_count() < 36 && Replay::run(&g.moves, 36).is_ok_and(|r| r.ending() == Ending::Early))
            .count();
        files += 1;
    }
    assert_eq!(files, 49);
    assert_eq!(total.games, 137_548);
    assert_eq!(total.games_with_pass, 80_200);
    assert_eq!(total.passes, 156_887);
    assert_eq!(total.max_passes, 15);
    assert_eq!(total.full_board, 130_689);
    assert_eq!(total.early_end, 6_446);
    assert_eq!(total.truncated, 413);
    assert_eq!(total.unreplayable, 0, "illegal moves");
    assert_eq!(total.real_score_mismatches, 0);
    assert_eq!(total.full_board_theoretical_equals_real, 16_126);
    // Theoretical = real is required of games that end at or before 24 empties: 29 end with more
    // empties (the notes' figure), 7 end exactly at 24.
    assert_eq!(ended_above_depth, 29);
    assert_eq!(total.theoretical_checked, 36);
    assert_eq!(total.theoretical_mismatches, 0);
    assert_eq!((total.not_starting_f5, total.bytes_after_padding, total.name_index_out_of_range), (0, 0, 0));
}

#[test]
fn games_of_the_notes() {
    let Some(f1977) = game_file("wthor/current/WTH_1977.wtb") else { return };
    // The notes call record 0 a game without a pass, but White has no move before stored moves
    // 54 (a7) and 57 (g1), which Black plays; the regression totals above agree with this replay.
    let r = Replay::run(&f1977.games[0].moves, 36).unwrap();
    assert_eq!(r.white_moves >> 53 & 1, 0, "a7 is Black's");
    assert_eq!((r.moves, r.passes, r.ending(), r.real_score()), (60, 2, Ending::FullBoard, Some(34)));
    // Record 9: White has no move before the 60th stored move; Black plays moves 59 and 60.
    let r = Replay::run(&f1977.games[9].moves, 36).unwrap();
    assert_eq!((r.moves, r.passes, r.real_score()), (60, 1, Some(40)));
    assert_eq!(r.white_moves >> 58 & 0b11, 0, "moves 59 and 60 are Black's");

    let f1981 = game_file("wthor/current/WTH_1981.wtb").unwrap();
    let g = &f1981.games[137];
    let r = Replay::run(&g.moves, 36).unwrap();
    assert_eq!((r.moves, r.passes, r.ending()), (33, 6, Ending::Early));
    assert_eq!(r.white_moves >> 27, 0, "Black plays stored moves 28–33");
    assert_eq!((r.position.black().count_ones(), r.position.white().count_ones()), (37, 0));
    assert_eq!((r.real_score(), g.real_score, g.theoretical_score), (Some(64), 64, 64));
    let truncated = &f1981.games[68];
    let r = Replay::run(&truncated.moves, 36).unwrap();
    assert_eq!((r.moves, r.ending(), r.real_score()), (47, Ending::Truncated, None));
    assert_eq!((r.position.black().count_ones(), r.position.white().count_ones()), (24, 27));
    assert_eq!((truncated.real_score, truncated.theoretical_score), (0, 5));

    let f1989 = game_file("wthor/current/WTH_1989.wtb").unwrap();
    let r = Replay::run(&f1989.games[142].moves, 36).unwrap();
    assert_eq!((r.moves, r.ending(), r.real_score()), (18, Ending::Early, Some(1)));
    assert_eq!((r.position.black().count_ones(), r.position.white().count_ones()), (1, 21));

    let f1986 = game_file("wthor/current/WTH_1986.wtb").unwrap();
    let r = Replay::run(&f1986.games[548].moves, 36).unwrap();
    assert_eq!((r.moves, r.real_score(), f1986.games[548].real_score), (58, Some(32), 32));
    assert_eq!((r.position.black().count_ones(), r.position.white().count_ones()), (31, 31));
    // The snapshot for the theoretical score is the position after 36 moves, 24 empties.
    let r = Replay::run(&f1977.games[0].moves, 36).unwrap();
    let snapshot = r.snapshot.unwrap();
    assert_eq!(snapshot.board.empties(), 24);
    assert_eq!(snapshot.side, if r.white_moves >> 36 & 1 == 1 { Color::White } else { Color::Black });
}

#[test]
fn old_name_files_are_diagnosed() {
    let Some(old) = corpus_file("wthor/release-2022") else { return };
    let (players, tournaments) = names(&old);
    let path = corpus_file("wthor/current/WTH_2025.wtb").unwrap();
    let v = verify_games(
        &path,
        &std::fs::read(&path).unwrap(),
        Some(Names { players: &players, tournaments: &tournaments }),
        None,
    );
    assert!(!v.ok());
    assert!(v.stats.name_index_out_of_range > 0);
    let diagnosis: Vec<&str> =
        v.problems.iter().map(|p| p.message.as_str()).filter(|m| m.contains("older than")).collect();
    assert_eq!(diagnosis.len(), 2, "players and tournaments: {diagnosis:?}");
    assert!(diagnosis[0].contains("beyond the 3884 names of WTHOR.JOU"), "{}", diagnosis[0]);
    assert!(diagnosis[0].starts_with("302 distinct player indices from 3884 to 4447 (3884, "), "{}", diagnosis[0]);
    assert!(diagnosis[1].contains("beyond the 439 names of WTHOR.TRN"), "{}", diagnosis[1]);
    // The same year files of the 2022 release are consistent with their own name files.
    for year in [2019, 2020, 2021] {
        let path = old.join(format!("WTH_{year}.wtb"));
        let v = verify_games(
            &path,
            &std::fs::read(&path).unwrap(),
            Some(Names { players: &players, tournaments: &tournaments }),
            None,
        );
        assert!(v.ok(), "{year}: {:?}", v.problems);
    }
}

#[test]
fn name_files_are_found_by_either_spelling_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(name_files_in(dir.path()), None);
    std::fs::write(dir.path().join("wth.jou"), b"").unwrap();
    assert_eq!(name_files_in(dir.path()), None, "both files are needed");
    std::fs::write(dir.path().join("WTH.Trn"), b"").unwrap();
    let (jou, trn) = name_files_in(dir.path()).unwrap();
    assert_eq!((jou.file_name().unwrap(), trn.file_name().unwrap()), ("wth.jou".as_ref(), "WTH.Trn".as_ref()));
    std::fs::write(dir.path().join("WTHOR.JOU"), b"").unwrap();
    assert_eq!(name_files_in(dir.path()).unwrap().0.file_name().unwrap(), "WTHOR.JOU", "WTHOR.* first");
}
