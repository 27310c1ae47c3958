//! The explorer's Othello board over a Wthor file of the corpus: the tree's moves after f5 d6
//! against counts made here from the file's bytes (68-byte records, moves at 8..68 as
//! `10 · row + column`), the exact score of a last move against the FFO's stored real score,
//! passes, and moves that cannot be played.

use std::path::Path;

use tabiya_explorer::Explorer;
use tabiya_testdata::corpus_file;

/// The move bytes and real score (Black's discs) of every record.
fn records(path: &Path) -> Vec<(Vec<u8>, u8)> {
    let bytes = std::fs::read(path).unwrap();
    bytes[16..].chunks_exact(68).map(|r| (r[8..].iter().copied().take_while(|&b| b != 0).collect(), r[6])).collect()
}

fn square(code: u8) -> String {
    format!("{}{}", char::from(b'a' + code % 10 - 1), code / 10)
}

#[test]
fn f5_d6_moves_and_exact_scores() {
    let Some(wtb) = corpus_file("wthor/release-2022/WTH_2021.wtb") else { return };
    let games = records(&wtb);
    let mut explorer = Explorer::new();
    let summary = explorer.open(&wtb).unwrap();
    assert_eq!((summary.format, summary.games), ("othello_tree", Some(games.len())));
    assert!(explorer.is_othello());

    let answer = explorer.explore_othello(Some("f5,d6")).unwrap();
    assert_eq!(answer.board.legal, ["c3", "c4", "c5", "c6", "c7"]);
    assert_eq!(answer.board.turn, "black");
    let probe = answer.sources[0].probe.as_ref().unwrap();
    assert_eq!(probe.book, wtb);
    for m in &probe.moves {
        let third =
            games.iter().filter(|(moves, _)| moves.len() > 2 && moves[..2] == [56, 64] && square(moves[2]) == m.uci);
        assert_eq!(m.games, Some(third.count() as u64), "{}", m.uci);
    }
    let counted: u64 = probe.moves.iter().filter_map(|m| m.games).sum();
    assert_eq!(counted, games.iter().filter(|(m, _)| m.len() > 2 && m[..2] == [56, 64]).count() as u64);

    // A game that fills the board: before its last move the one legal move's exact score is
    // the final disc difference for the side that plays it, which the FFO stored.
    let (moves, black) = games.iter().find(|(m, _)| m.len() == 60).unwrap();
    let line: Vec<String> = moves[..59].iter().map(|&c| square(c)).collect();
    let mut play = line.join(",");
    let mut answer = explorer.explore_othello(Some(&play));
    if answer.as_ref().unwrap().board.must_pass {
        play.push_str(",pass");
        answer = explorer.explore_othello(Some(&play));
    }
    let board = answer.unwrap().board;
    let black_difference = 2 * i32::from(*black) - 64;
    let mover = if board.turn == "black" { black_difference } else { -black_difference };
    let exact = board.exact.unwrap();
    assert_eq!((exact.len(), exact[0].square.as_str(), exact[0].score), (1, square(moves[59]).as_str(), mover));

    // Moves that cannot be played are named.
    assert!(explorer.explore_othello(Some("f5,f5")).unwrap_err().contains("f5"));
    assert!(explorer.explore_othello(Some("pass")).unwrap_err().contains("pass"));
}
