//! A chess tree's top games open in the game viewer: the tree of the sample games, its best
//! games after 1.e4, each read back from the file the tree names, checked against the sample's
//! own text (players and first moves as typed in `samples/famous-games.pgn`).

use std::path::Path;

use tabiya_chess::tree::{TreeOptions, build};
use tabiya_explorer::Explorer;

/// The sample's games as (White, Black, first SAN moves), from its text alone.
fn typed_games(pgn: &str) -> Vec<(String, String, Vec<String>)> {
    pgn.split("[Event ")
        .skip(1)
        .map(|game| {
            let tag = |name: &str| {
                let start = game.find(&format!("[{name} \"")).map(|i| i + name.len() + 3).unwrap();
                game[start..].split('"').next().unwrap().to_owned()
            };
            // The main line: comments and variations left out.
            let (mut depth, mut movetext) = (0, String::new());
            for c in game[game.find("\n\n").unwrap()..].chars() {
                match c {
                    '{' | '(' => depth += 1,
                    '}' | ')' => depth -= 1,
                    _ if depth == 0 => movetext.push(c),
                    _ => {}
                }
            }
            let moves = movetext
                .split_whitespace()
                .filter(|t| !t.ends_with('.') && t.chars().next().is_some_and(char::is_alphabetic))
                .take(4)
                .map(str::to_owned)
                .collect();
            (tag("White"), tag("Black"), moves)
        })
        .collect()
}

#[test]
fn top_games_of_a_tree_open_in_the_viewer() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let pgn = samples.join("famous-games.pgn");
    let typed = typed_games(&std::fs::read_to_string(&pgn).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("famous.tree");
    build(&[pgn.as_path()], TreeOptions::default(), std::fs::File::create(&tree).unwrap()).unwrap();
    let mut explorer = Explorer::new();
    explorer.open(&tree).unwrap();
    let answer = explorer.explore(None, Some("e2e4")).unwrap();
    let cards = &answer.sources[0].top_games;
    assert!(!cards.is_empty(), "the tree lists top games after 1.e4");
    for card in cards {
        let game = card["game"].as_u64().unwrap() as usize;
        let view = explorer.game(0, game).unwrap().expect("the tree's game is found in its file");
        let tag = |name: &str| view.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap();
        assert_eq!(
            (tag("White").as_str(), tag("Black").as_str()),
            (card["white"]["name"].as_str().unwrap(), card["black"]["name"].as_str().unwrap())
        );
        let (_, _, first) = typed.iter().find(|(w, b, _)| *w == tag("White") && *b == tag("Black")).unwrap();
        let shown: Vec<&str> = view.moves.nodes.iter().take(4).map(|n| n.mv.san.as_str()).collect();
        assert_eq!(shown, *first, "{} – {}", tag("White"), tag("Black"));
        assert_eq!(shown[0], "e4");
    }
    assert!(explorer.game(0, 10_000).is_err() || explorer.game(0, 10_000).unwrap().is_none());
}
