//! The Othello tree: merge = the tree of the union byte for byte, counts equal a count of the
//! games made here, exact scores of last moves equal the discs counted on the final board.

use std::collections::HashMap;
use std::path::Path;

use tabiya_io::Diagnostic;
use tabiya_othello::board::{Color, Position};
use tabiya_othello::tree::{Tree, TreeBuilder, TreeOptions, key_of};
use tabiya_othello::wthor::{GameFile, square_of_code};
use tabiya_testdata::corpus_file;

fn read(path: &Path) -> GameFile {
    GameFile::read(&std::fs::read(path).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap()
}

fn build(files: &[(&GameFile, &str)], options: &TreeOptions) -> Vec<u8> {
    let mut builder = TreeBuilder::new(options.clone()).unwrap();
    for (file, name) in files {
        builder.add_file(file, name, None).unwrap();
    }
    let (bytes, _, summary) = builder.finish(Vec::new()).unwrap();
    assert_eq!(summary.games_unreadable, 0, "{:?}", summary.problems);
    bytes
}

#[test]
fn merge_counts_and_exact_scores() {
    let Some(path) = corpus_file("wthor/current/WTH_1983.wtb") else { return };
    let dir = tempfile::tempdir().unwrap();
    let options = TreeOptions { temp_dir: dir.path().to_path_buf(), solve_empties: 8, ..TreeOptions::default() };
    let file = read(&path);
    let (mut a, mut b) = (file.clone(), file.clone());
    let half = file.games.len() / 3;
    a.games.truncate(half);
    b.games.drain(..half);
    let whole = build(&[(&a, "a"), (&b, "b")], &options);
    let parts = [build(&[(&a, "a")], &options), build(&[(&b, "b")], &options)];
    let trees: Vec<Tree> = parts
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            let p = dir.path().join(format!("{i}.tree"));
            std::fs::write(&p, bytes).unwrap();
            Tree::open(&p).unwrap()
        })
        .collect();
    assert!(tabiya_othello::tree::merge_trees(&trees, Vec::new()).unwrap() == whole);
    let spilled = build(&[(&a, "a"), (&b, "b")], &TreeOptions { memory: 1, ..options.clone() });
    assert!(spilled == whole);

    let path = dir.path().join("whole.tree");
    std::fs::write(&path, &whole).unwrap();
    let tree = Tree::open(&path).unwrap();
    assert!(tree.verify().ok, "{:?}", tree.verify().problems);
    // Counted here: games, and the mover's wins by the recorded score, of every (position, move).
    let mut counts: HashMap<([u8; 17], String), (u64, u64)> = HashMap::new();
    let mut last_moves = Vec::new();
    for game in &file.games {
        let mut position = Position::start();
        for &code in game.stored_moves() {
            let square = square_of_code(code).unwrap();
            let before = if position.moves() == 0 { position.pass() } else { position };
            let c = counts.entry((key_of(&before), square.to_string())).or_default();
            c.0 += 1;
            let black_won = game.real_score > 32;
            let mover_won = if before.side == Color::Black { black_won } else { game.real_score < 32 };
            c.1 += u64::from(mover_won);
            position = before.play(square).unwrap();
            if position.is_game_over() && before.board.empties() <= 8 {
                // The final board, discs counted here: the exact score of the last move.
                let black = i32::try_from(position.black().count_ones()).unwrap();
                let white = i32::try_from(position.white().count_ones()).unwrap();
                let empties = 64 - black - white;
                let diff = black - white;
                let diff = diff + diff.signum() * empties;
                let mover = if before.side == Color::Black { diff } else { -diff };
                last_moves.push((before, square.to_string(), mover));
            }
        }
    }
    let mut checked = 0;
    for (position, square, score) in last_moves.iter().take(200) {
        let probe = tree.probe(position).unwrap();
        let m = probe.moves.iter().find(|m| &m.uci == square).unwrap();
        assert_eq!(m.extra["exact_score"].as_i64(), Some(i64::from(*score)), "{} {square}", probe.fen);
        let (games, wins) = counts[&(key_of(position), square.clone())];
        assert_eq!((m.games, m.wins), (Some(games), Some(wins)));
        checked += 1;
    }
    assert!(checked > 50, "{checked}");
    let start = tree.probe(&Position::start()).unwrap();
    assert_eq!(start.position["games"].as_u64(), Some(file.games.len() as u64));
}
