//! Random legal games through transcripts, GGF and Wthor records; mutated text never panics.

use proptest::prelude::*;
use tabiya_othello::board::{Position, Square, Symmetry};
use tabiya_othello::game::TextExport;
use tabiya_othello::text::{ggf, transcript};
use tabiya_othello::wthor::{
    GameContext, GameFile, Header, Importer, NameFile, NameKind, NewGame, Replay, TheoreticalPolicy,
};

/// A legal game chosen by `choices`, passes skipped, stopping at the end or after the choices.
fn random_game(choices: &[u8]) -> Vec<Square> {
    let mut position = Position::start();
    let mut moves = Vec::new();
    for &c in choices {
        if position.is_game_over() {
            break;
        }
        if position.moves() == 0 {
            position = position.pass();
        }
        let legal: Vec<Square> = Square::iter(position.moves()).collect();
        let square = legal[usize::from(c) % legal.len()];
        position = position.play(square).unwrap();
        moves.push(square);
    }
    moves
}

fn importer() -> Importer<'static> {
    let header = Header::dated((2026, 2, 16));
    Importer::new(
        GameFile::new(header, 2026),
        NameFile::new(NameKind::Players, header),
        NameFile::new(NameKind::Tournaments, header),
        TheoreticalPolicy::CopyReal,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn games_survive_every_format(choices in proptest::collection::vec(any::<u8>(), 1..64), sym in 0usize..8) {
        let moves = random_game(&choices);
        // Seen through a symmetry that keeps the start position, the game is stored as its f5 form.
        let symmetry = Symmetry::ALL[sym];
        let start = Position::start();
        let keeps_start = symmetry.apply(start.black()) == start.black() && symmetry.apply(start.white()) == start.white();
        let shown: Vec<Square> = if keeps_start { moves.iter().map(|&m| symmetry.square(m)).collect() } else { moves.clone() };
        let text = transcript::format(&shown);
        let parsed = transcript::parse_line(&text, 1).unwrap();
        prop_assert_eq!(&parsed, &shown);

        let mut imp = importer();
        let replay = Replay::of_squares(moves.iter().map(|&m| Ok(m)), 0).unwrap();
        let result = Some(replay.position.black_disc_difference());
        imp.add(&NewGame { moves: parsed, black: "Black One".into(), white: "White Two".into(), tournament: "Cup".into(), result }).unwrap();
        let record = imp.games.games[0];
        let names = tabiya_othello::wthor::Names { players: &imp.players, tournaments: &imp.tournaments };
        let g = GameContext { game: &record, year: 2026, record: 0, depth: 24, names: Some(names) };
        let first = moves[0];
        let f5 = Square::from_coords(5, 4).unwrap();
        let back = transcript::parse_line(&g.transcript().unwrap(), 1).unwrap();
        prop_assert_eq!(back[0], f5);
        if first == f5 {
            prop_assert_eq!(&back, &moves);
        }
        // GGF carries the same moves, the passes made explicit, and the names.
        let game = ggf::parse(&g.ggf().unwrap().format()).next().unwrap().unwrap();
        let squares: Vec<Square> = game.moves.iter().filter_map(|m| m.square).collect();
        prop_assert_eq!(&squares, &back);
        for pair in game.moves.windows(2) {
            prop_assert!(pair[0].black != pair[1].black, "GGF moves alternate once passes are written");
        }
        prop_assert_eq!(game.tag("PB"), Some("Black One"));
    }

    #[test]
    fn text_readers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = transcript::parse(&text).count();
        let _ = ggf::parse(&text).count();
        let _ = ggf::parse(&format!("(;GM[Othello]{text};)")).count();
    }
}
