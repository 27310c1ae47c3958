//! The FFO endgame suite (corpus/ffo): exact scores and best-move sets of ffo_1_79_answers.tsv,
//! the answers Edax's OBF files list and Egaroucid's table agrees with.

use tabiya_othello::board::{Color, Square};
use tabiya_othello::solve::Solver;
use tabiya_othello::text::obf;
use tabiya_testdata::corpus_file;

struct Answer {
    id: usize,
    board: String,
    side: Color,
    empties: u32,
    score: i32,
    best_moves: Vec<Square>,
}

fn answers() -> Option<Vec<Answer>> {
    let path = corpus_file("ffo/ffo_1_79_answers.tsv")?;
    let text = std::fs::read_to_string(path).unwrap();
    let rows = text.lines().filter(|l| !l.starts_with('#')).skip(1);
    Some(
        rows.map(|row| {
            let f: Vec<&str> = row.split('\t').collect();
            Answer {
                id: f[0].parse().unwrap(),
                board: f[1].to_owned(),
                side: if f[2] == "X" { Color::Black } else { Color::White },
                empties: f[3].parse().unwrap(),
                score: f[4].parse().unwrap(),
                best_moves: f[5].split(',').map(|m| m.parse().unwrap()).collect(),
            }
        })
        .collect(),
    )
}

/// Every OBF line of the four suite files, in order (#1..#79).
fn obf_lines() -> Option<Vec<obf::ObfLine>> {
    let mut lines = Vec::new();
    for name in ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf", "fforum-60-79.obf"] {
        let text = std::fs::read_to_string(corpus_file(&format!("ffo/{name}"))?).unwrap();
        lines.extend(obf::parse(&text).map(|(_, l)| l.unwrap()));
    }
    Some(lines)
}

#[test]
fn obf_files_hold_the_79_problems_of_the_answer_table() {
    let (Some(answers), Some(lines)) = (answers(), obf_lines()) else {
        eprintln!("skipped: TABIYA_CORPUS not set");
        return;
    };
    assert_eq!((answers.len(), lines.len()), (79, 79));
    for (answer, line) in answers.iter().zip(&lines) {
        let board_text = line.position.to_string();
        assert_eq!(&board_text[..64], answer.board, "#{}", answer.id);
        assert_eq!(line.position.side, answer.side, "#{}", answer.id);
        assert_eq!(line.position.board.empties(), answer.empties, "#{}", answer.id);
        // The first listed move is a best one, with the best score.
        assert_eq!(line.scores[0].1, answer.score, "#{}", answer.id);
        assert!(answer.best_moves.contains(&line.scores[0].0), "#{}", answer.id);
    }
}

/// #1–#39 except #37 and #38 (22 and 24 empties, seconds each: they run with #40–#49 in
/// `cargo bench --bench ffo`): the exact score and exactly the set of best moves.
#[test]
fn solves_ffo_1_to_39_with_every_best_move() {
    let (Some(answers), Some(lines)) = (answers(), obf_lines()) else {
        eprintln!("skipped: TABIYA_CORPUS not set");
        return;
    };
    let solver = Solver::new().table_bits(20).all_best_moves(true).threads(2).unwrap();
    for (answer, line) in answers.iter().zip(&lines).take(39).filter(|(a, _)| a.id != 37 && a.id != 38) {
        let solution = solver.solve(line.position.board);
        let mut found = solution.best_moves.clone();
        found.sort();
        let mut expected = answer.best_moves.clone();
        expected.sort();
        assert_eq!((solution.score, found), (answer.score, expected), "#{}", answer.id);
    }
}
