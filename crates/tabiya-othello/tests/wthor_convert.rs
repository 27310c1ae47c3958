//! Wthor games out to transcripts, GGF, OBF, JSON and CSV, and back in through the importer.

use tabiya_io::Diagnostic;
use tabiya_othello::board::{Position, Square};
use tabiya_othello::game::TextExport;
use tabiya_othello::text::{ggf, transcript};
use tabiya_othello::wthor::{
    EndgameSolver, Ending, GameContext, GameFile, GameFilter, Header, Importer, NameFile, NameKind, Names, NewGame,
    Replay, TheoreticalPolicy, name_files_in,
};
use tabiya_testdata::corpus_file;

fn corpus() -> Option<(GameFile, NameFile, NameFile)> {
    let dir = corpus_file("wthor/current")?;
    let (jou, trn) = name_files_in(&dir).unwrap();
    let read = |kind, p| NameFile::read(kind, &std::fs::read(p).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap();
    let file =
        GameFile::read(&std::fs::read(dir.join("WTH_1977.wtb")).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap();
    Some((file, read(NameKind::Players, jou), read(NameKind::Tournaments, trn)))
}

fn context<'a>(file: &'a GameFile, record: usize, names: Names<'a>) -> GameContext<'a> {
    GameContext { game: &file.games[record], year: file.header.game_year, record, depth: 24, names: Some(names) }
}

#[test]
fn exports_of_wth_1977() {
    let Some((file, players, tournaments)) = corpus() else { return };
    let names = Names { players: &players, tournaments: &tournaments };
    let g = context(&file, 0, names);
    assert_eq!(
        g.transcript().unwrap(),
        "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1"
    );
    let game = g.ggf().unwrap();
    assert_eq!(game.tag("PB"), Some("Inoue Hiroshi"));
    assert_eq!(game.tag("PW"), Some("Heiberg Thomas"));
    assert_eq!(game.tag("PC"), Some("World Championship"));
    assert_eq!(game.tag("DT"), Some("1977"));
    assert_eq!(game.tag("RE"), Some("+4.000"), "34 discs: 34 − 30");
    // Record 9: White has no move before the 60th stored move.
    let nine = context(&file, 9, names).ggf().unwrap();
    assert_eq!(nine.moves.len(), 61);
    assert_eq!((nine.moves[59].black, nine.moves[59].square), (false, None), "W[PA] before Black's 60th move");
    let text = nine.format();
    assert!(text.starts_with("(;GM[Othello]PC[World Championship]DT[1977]PB["), "{text}");
    assert_eq!(text.matches("W[PA]").count(), 1, "{text}");
    assert_eq!(ggf::parse(&text).next().unwrap().unwrap(), nine);

    let obf = g.obf_at(20).unwrap().unwrap();
    assert_eq!(obf.len(), 64 + 3);
    assert_eq!(obf.bytes().filter(|&b| b == b'-').count(), 20);
    assert!(obf.ends_with(" X;") || obf.ends_with(" O;"));
    assert_eq!(g.obf_at(0).unwrap(), None, "the game is over at 0 empties");
    assert_eq!(g.obf_at(61).unwrap(), None);

    let json = g.json().unwrap();
    assert_eq!(json["black"], "Inoue Hiroshi");
    assert_eq!(json["real_score"], 34);
    assert_eq!(json["theoretical_score"], 41);
    assert_eq!(json["passes"], 2);
    assert_eq!(json["ending"], "full_board");
    let row = g.csv_row().unwrap();
    assert!(
        row.starts_with("1977,0,World Championship,1,Inoue Hiroshi,346,Heiberg Thomas,843,34,41,24,f5d6c3"),
        "{row}"
    );
    assert_eq!(row.split(',').count(), GameContext::CSV_HEADER.split(',').count());
}

#[test]
fn filters() {
    let Some((file, players, tournaments)) = corpus() else { return };
    let names = Names { players: &players, tournaments: &tournaments };
    let keep = |f: &GameFilter| (0..file.games.len()).filter(|&i| f.matches(&context(&file, i, names))).count();
    assert_eq!(keep(&GameFilter::default()), 12);
    assert_eq!(keep(&GameFilter { years: Some(1978..=2000), ..GameFilter::default() }), 0);
    assert_eq!(keep(&GameFilter { players: vec!["inoue".into()], ..GameFilter::default() }), {
        file.games.iter().filter(|g| g.black == 346 || g.white == 346).count()
    });
    assert_eq!(keep(&GameFilter { tournaments: vec!["World".into()], ..GameFilter::default() }), 12);
    assert_eq!(keep(&GameFilter { exclude_programs: true, ..GameFilter::default() }), 12, "no programs in 1977");
    assert!(tabiya_othello::wthor::is_program("Logistello (buro)"));
    assert!(!tabiya_othello::wthor::is_program("Tastet Marc"));
}

fn importer<'p>(policy: TheoreticalPolicy<'p>) -> Importer<'p> {
    let mut players = NameFile::new(NameKind::Players, Header::dated((2026, 2, 16)));
    players.append("???").unwrap();
    let mut tournaments = NameFile::new(NameKind::Tournaments, Header::dated((2026, 2, 16)));
    tournaments.append("Diverses parties").unwrap();
    Importer::new(GameFile::new(Header::dated((2026, 2, 16)), 2026), players, tournaments, policy)
}

#[test]
fn every_game_of_1981_comes_back_through_transcripts() {
    let Some(path) = corpus_file("wthor/current/WTH_1981.wtb") else { return };
    let file = GameFile::read(&std::fs::read(path).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap();
    let mut imp = importer(TheoreticalPolicy::CopyReal);
    let mut truncated = Vec::new();
    for (record, game) in file.games.iter().enumerate() {
        let text = GameContext { game, year: 1981, record, depth: 24, names: None }.transcript().unwrap();
        let moves = transcript::parse_line(&text, 1).unwrap();
        let ending = Replay::run(&game.moves, 0).unwrap().ending();
        let result = (ending == Ending::Truncated).then(|| 2 * i32::from(game.real_score) - 64);
        imp.add(&NewGame { moves, result, ..NewGame::default() }).unwrap();
        let back = imp.games.games.last().unwrap();
        assert_eq!(back.moves, game.moves, "record {record}");
        assert_eq!(back.real_score, game.real_score, "record {record}");
        if ending == Ending::Truncated {
            truncated.push(record);
        }
    }
    assert_eq!(imp.games.games.len(), file.games.len());
    assert!(truncated.contains(&68), "record 68 is a truncated transcript: its result comes from RE");
}

#[test]
fn games_are_normalised_to_start_with_f5() {
    let line = "f5d6c3d3c4f4f6f3e6e7";
    let f5 = transcript::parse_line(line, 1).unwrap();
    let mut imp = importer(TheoreticalPolicy::CopyReal);
    imp.add(&NewGame { moves: f5.clone(), result: Some(0), ..NewGame::default() }).unwrap();
    let reference = imp.games.games[0].moves;
    // The same game seen through the three symmetries that keep the start position.
    for first in ["c4", "d3", "e6"] {
        let target: Square = first.parse().unwrap();
        let s = tabiya_othello::board::Symmetry::ALL
            .into_iter()
            .find(|s| s.square(f5[0]) == target && s.apply(Position::start().black()) == Position::start().black())
            .unwrap();
        let moves: Vec<Square> = f5.iter().map(|&m| s.square(m)).collect();
        imp.add(&NewGame { moves, result: Some(0), ..NewGame::default() }).unwrap();
        assert_eq!(imp.games.games.last().unwrap().moves, reference, "{first}");
    }
    assert!(imp.add(&NewGame { moves: transcript::parse_line("a1", 1).unwrap(), ..NewGame::default() }).is_err());
    let err = imp.add(&NewGame { moves: f5, result: None, ..NewGame::default() }).unwrap_err();
    assert_eq!(err.to_string(), "the game is not over after 10 moves and no result is given");
}

struct Fixed(u8);
impl EndgameSolver for Fixed {
    fn black_score(&mut self, position: &Position) -> u8 {
        assert_eq!(position.board.empties(), 24, "solved at P3 = 24 empties");
        self.0
    }
}

#[test]
fn theoretical_policies_and_names() {
    let Some((file, players, tournaments)) = corpus() else { return };
    let names = Names { players: &players, tournaments: &tournaments };
    let ggf_text = context(&file, 0, names).ggf().unwrap().format();
    let game = ggf::parse(&ggf_text).next().unwrap().unwrap();
    let new = NewGame::from_ggf(&game).unwrap();
    assert_eq!((new.black.as_str(), new.result), ("Inoue Hiroshi", Some(4)));
    let mut solver = Fixed(41);
    for (policy, expected) in [
        (TheoreticalPolicy::CopyReal, 34),
        (TheoreticalPolicy::Unknown, 0),
        (TheoreticalPolicy::Solve(&mut solver), 41),
    ] {
        let mut imp = importer(policy);
        imp.add(&new).unwrap();
        let g = imp.games.games[0];
        assert_eq!((g.real_score, g.theoretical_score), (34, expected));
        assert_eq!((g.black, g.white, g.tournament), (1, 2, 1), "names appended after index 0");
        assert_eq!(imp.players.name(1).unwrap(), "Inoue Hiroshi");
        assert_eq!(imp.tournaments.name(1).unwrap(), "World Championship");
    }
    // A game that ends before 24 empties stores its real score whatever the policy.
    // WTH_1989 record 142: 18 moves, White wins 21–1 with 42 empties; stored 1 and 1.
    let path = corpus_file("wthor/current/WTH_1989.wtb").unwrap();
    let f1989 = GameFile::read(&std::fs::read(path).unwrap(), &mut Vec::<Diagnostic>::new()).unwrap();
    let text = GameContext { game: &f1989.games[142], year: 1989, record: 142, depth: 24, names: None };
    let wipe_out = transcript::parse_line(&text.transcript().unwrap(), 1).unwrap();
    let mut imp = importer(TheoreticalPolicy::Unknown);
    let ending = imp.add(&NewGame { moves: wipe_out, ..NewGame::default() }).unwrap();
    assert_eq!(ending, Ending::Early);
    let g = imp.games.games[0];
    assert_eq!((g.real_score, g.theoretical_score), (1, 1));
}
