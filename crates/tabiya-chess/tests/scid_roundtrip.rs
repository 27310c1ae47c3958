//! Random legal games with variations, NAGs and comments survive encoding and decoding.

use proptest::prelude::*;
use shakmaty::{Chess, Position};
use tabiya_chess::game::{Game, Line, Node};
use tabiya_chess::scid::Version;
use tabiya_chess::scid::decode::decode_record;
use tabiya_chess::scid::encode::encode_game;

/// Plays `choices` as indices into the legal moves; every third move gets a NAG, every fifth a
/// comment, every seventh (from the 2nd on, depth < 2) a one-move variation.
fn random_line(mut pos: Chess, choices: &[u16], depth: usize) -> Line {
    let mut line = Line::default();
    for (i, &c) in choices.iter().enumerate() {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let before = pos.clone();
        let m = moves[usize::from(c) % moves.len()];
        let mut node = Node::new(Some(m));
        if i % 3 == 0 {
            node.notes_mut().nags.push((c % 200) as u8 + 1);
        }
        if i % 5 == 4 {
            node.notes_mut().comments.push(format!("comment {c} at {depth}").into());
        }
        if i % 7 == 1 && depth < 2 && moves.len() > 1 {
            let rest: Vec<u16> = choices[i..].iter().take(4).map(|x| x.wrapping_add(1)).collect();
            let mut v = random_line(before.clone(), &rest, depth + 1);
            if !v.nodes.is_empty() && v.nodes[0].mv != Some(m) {
                v.comments.push("alternative".into());
                node.notes_mut().variations.push(v);
            }
        }
        pos.play_unchecked(m);
        line.nodes.push(node);
    }
    line
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn encode_then_decode_gives_the_same_moves(choices in proptest::collection::vec(any::<u16>(), 0..120)) {
        let mut game = Game { moves: random_line(Chess::default(), &choices, 0), ..Game::default() };
        if !choices.is_empty() {
            game.moves.comments.push("before the game".into());
        }
        for version in [Version::Scid4, Version::Scid5] {
            let encoded = encode_game(&game, version).unwrap();
            let record = decode_record(encoded.record(), 0, false, &mut Vec::new()).unwrap();
            prop_assert_eq!(&record.moves, &game.moves);
            prop_assert_eq!(usize::from(encoded.entry.plies), game.moves.nodes.len().min(1023));
        }
    }
}
