//! The PGN walk against `PgnReader`'s main lines on every corpus PGN file: the same games in
//! the same order with the same numbers, offsets, tags, start positions, results, main-line
//! moves and warnings, the same unreadable games; and the same with a ply limit. Offsets and
//! lengths tile the file, and pieces read in parallel give what one piece gives.

use std::ops::ControlFlow;

use shakmaty::Move;
use tabiya_chess::game::GameResult;
use tabiya_chess::pgn::{PgnReader, PgnWalk, ReadOptions, WalkOptions, walk_pieces};
use tabiya_chess::text::TextBuf;
use tabiya_chess::view::PositionView;
use tabiya_testdata::corpus_file;

/// What both readers say about one game.
#[derive(Debug, PartialEq)]
struct Seen {
    number: u64,
    offset: u64,
    tags: Vec<(TextBuf, TextBuf)>,
    start: String,
    chess960: bool,
    result: GameResult,
    moves: Vec<Option<Move>>,
    warnings: Vec<String>,
}

/// Where a game starts, its result and its main line.
type MainLine = (u64, GameResult, Vec<Option<Move>>);

fn by_reader(bytes: &[u8], max_plies: Option<u32>) -> Vec<Result<Seen, String>> {
    let options = ReadOptions { variations: false, comments: false, max_plies, file: None };
    PgnReader::from_bytes(bytes, options)
        .map(|item| {
            let read = item.map_err(|e| e.to_string())?;
            let game = &read.game;
            let mut warnings: Vec<String> = read.diagnostics.iter().map(|w| w.to_string()).collect();
            warnings.sort();
            Ok(Seen {
                number: read.number,
                offset: read.offset,
                tags: game.tags.iter().map(|(n, v)| (n.to_owned(), v.to_owned())).collect(),
                start: shakmaty::fen::Fen::from_position(
                    &game.start_position().unwrap(),
                    shakmaty::EnPassantMode::Legal,
                )
                .to_string(),
                chess960: game.castling_mode == shakmaty::CastlingMode::Chess960,
                result: game.result,
                moves: game.moves.nodes.iter().map(|n| n.mv).collect(),
                warnings,
            })
        })
        .collect()
}

fn seen(walk: PgnWalk<'_>) -> Vec<Result<(Seen, u64), String>> {
    walk.map(|item| {
        let mut game = item.map_err(|e| e.to_string())?;
        let mut moves = Vec::new();
        let played = game.play(|_, mv| {
            moves.push(mv);
            ControlFlow::Continue(())
        });
        assert_eq!(played.plies as usize, moves.len());
        let mut warnings: Vec<String> = game.diagnostics.iter().map(|w| w.to_string()).collect();
        warnings.sort();
        let seen = Seen {
            number: game.number,
            offset: game.offset,
            tags: game.tags().map(|(n, v)| (n.into_owned(), v.into_owned())).collect(),
            start: shakmaty::fen::Fen::from_position(game.start_position(), shakmaty::EnPassantMode::Legal).to_string(),
            chess960: game.castling_mode == shakmaty::CastlingMode::Chess960,
            result: game.result,
            moves,
            warnings,
        };
        Ok((as_the_reader_marks_a_cut_game(seen), game.length))
    })
    .collect()
}

/// The one place where the two differ on purpose: a game whose main line an illegal or
/// ambiguous move cut keeps its result in the walk (a book counts the game's moves with the
/// result it was given, as `polyglot make-book` does), where the reader marks it unfinished:
/// result `*` and a `Result "*"` tag.
fn as_the_reader_marks_a_cut_game(mut seen: Seen) -> Seen {
    if seen.warnings.iter().any(|w| w.contains("the main line ends before it")) {
        seen.result = GameResult::Unknown;
        for (name, value) in &mut seen.tags {
            if name.as_bytes() == b"Result" {
                *value = TextBuf::from(&b"*"[..]);
            }
        }
    }
    seen
}

fn walk_options(max_plies: Option<u32>) -> WalkOptions {
    WalkOptions { max_plies: max_plies.unwrap_or(u32::MAX), file: None }
}

fn compare(relative: &str) -> Option<usize> {
    let path = corpus_file(relative)?;
    let bytes = std::fs::read(path).unwrap();
    for max_plies in [None, Some(40), Some(1)] {
        let expected = by_reader(&bytes, max_plies);
        let walked = seen(PgnWalk::new(&bytes, walk_options(max_plies)));
        assert_eq!(walked.len(), expected.len(), "{relative}: games and errors");
        for (i, (walked, expected)) in walked.iter().zip(&expected).enumerate() {
            match (walked, expected) {
                (Ok((walked, _)), Ok(expected)) => assert_eq!(walked, expected, "{relative} item {i}"),
                (Err(_), Err(_)) => {}
                _ => panic!("{relative} item {i}: {walked:?} against {expected:?}"),
            }
        }
        // A game reaches to where the next one starts.
        let games: Vec<&(Seen, u64)> = walked.iter().flatten().collect();
        for pair in games.windows(2) {
            assert!(pair[0].0.offset + pair[0].1 <= pair[1].0.offset, "{relative}");
        }
    }
    Some(bytes.len())
}

#[test]
fn the_walk_reads_what_the_reader_reads_on_every_corpus_file() {
    let files = [
        "pgn/small-varied.pgn",
        "pgn/edge-cases/dirty-immortal-games-latin1-crlf.pgn",
        "pgn/edge-cases/pgnextract-barnes-horton-pregame-comment.pgn",
        "pgn/edge-cases/pgnextract-lalg-promotions.pgn",
        "pgn/edge-cases/pgnextract-long-line.pgn",
        "pgn/edge-cases/pgnextract-nagcomments.pgn",
        "pgn/edge-cases/pgnextract-nested-comment.pgn",
        "pgn/edge-cases/pgnextract-null-moves.pgn",
        "pgn/edge-cases/pgnmentor-double-blank-line-crlf.pgn",
        "pgn/edge-cases/pychess-antichess-programfox.pgn",
        "pgn/edge-cases/pychess-chessbase-empty-line.pgn",
        "pgn/edge-cases/pychess-crazyhouse-knightvuillaume-jannlee.pgn",
        "pgn/edge-cases/pychess-crazyhouse-saturs-jannlee.pgn",
        "pgn/edge-cases/pychess-uci-moves.pgn",
        "pgn/edge-cases/pychess-utf8-bom.pgn",
        "pgn/edge-cases/scid-res_gameLatin1.pgn",
        "pgn/edge-cases/scid-res_gameUTF8.pgn",
    ];
    for file in files {
        if compare(file).is_none() {
            return eprintln!("skipped: TABIYA_CORPUS is not set");
        }
    }
}

#[test]
fn the_medium_file_walked_in_pieces() {
    let Some(path) = corpus_file("pgn/medium-pgnmentor-12players.pgn") else { return eprintln!("skipped") };
    let bytes = std::fs::read(path).unwrap();
    // (games, plies played, warnings, offset + length of the last game) per piece.
    let tally = |walk: &mut PgnWalk<'_>| {
        let (mut games, mut plies, mut warnings, mut end) = (0u64, 0u64, 0usize, 0u64);
        for game in walk {
            let mut game = game.unwrap();
            plies += u64::from(game.play(|_, _| ControlFlow::Continue(())).plies);
            games += 1;
            warnings += game.diagnostics.len();
            assert_eq!(bytes[game.offset as usize], b'[');
            end = game.offset + game.length;
        }
        (games, plies, warnings, end)
    };
    let whole = tally(&mut PgnWalk::new(&bytes, WalkOptions::default()));
    // The notes: 31,990 games, 2,793,055 plies; nothing to warn about (two names not UTF-8 are
    // kept as they are).
    assert_eq!(whole, (31_990, 2_793_055, 0, bytes.len() as u64));
    let pieces = walk_pieces(&bytes, &WalkOptions::default(), 3, tally);
    assert_eq!(pieces.len(), 3);
    let sum = pieces.iter().fold((0, 0, 0), |(g, p, w), piece| (g + piece.0, p + piece.1, w + piece.2));
    assert_eq!(sum, (31_990, 2_793_055, 0));
    assert_eq!(pieces[2].3, bytes.len() as u64);
}

#[test]
fn callers_stop_games_and_limits_leave_the_result() {
    // The result token comes long after the ply limit; the second game stops at the caller's
    // word; the third has no result token, so its Result tag counts.
    let pgn = b"[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {long} (3... Nf6) 4. Ba4 0-1\n\n\
                [Event \"b\"]\n\n1. d4 d5 2. c4 1/2-1/2\n\n[Event \"c\"]\n[Result \"1-0\"]\n\n1. c4\n";
    let options = WalkOptions { max_plies: 2, ..WalkOptions::default() };
    let mut games: Vec<_> = PgnWalk::new(pgn, options).map(Result::unwrap).collect();
    let results: Vec<GameResult> = games.iter().map(|g| g.result).collect();
    assert_eq!(results, [GameResult::BlackWins, GameResult::Draw, GameResult::WhiteWins]);
    assert_eq!(games.iter().map(|g| g.move_tokens()).collect::<Vec<_>>(), [2, 2, 1]);
    let played = games[1].play(|before, _| {
        if before.turn() == shakmaty::Color::Black { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    assert!(played.stopped);
    assert_eq!(played.plies, 1);
    // Each game starts at its `[Event` and reaches to the next one.
    let events: Vec<u64> = (0..pgn.len()).filter(|&i| pgn[i..].starts_with(b"[Event")).map(|i| i as u64).collect();
    assert_eq!(events.len(), 3);
    let offsets: Vec<(u64, u64)> = games.iter().map(|g| (g.offset, g.offset + g.length)).collect();
    assert_eq!(offsets, [(events[0], events[1]), (events[1], events[2]), (events[2], pgn.len() as u64)]);
}

#[test]
fn damaged_pgn_walks_to_the_same_main_lines() {
    use tabiya_testdata::Xorshift;

    // Four bytes of each copy replaced by PGN syntax; the walk must find the games, offsets,
    // results and main lines PgnReader finds (warnings are not compared: on damaged text the
    // two attach repairs to games differently).
    let files = [
        "pgn/edge-cases/dirty-immortal-games-latin1-crlf.pgn",
        "pgn/edge-cases/pgnextract-null-moves.pgn",
        "pgn/edge-cases/pgnextract-lalg-promotions.pgn",
        "pgn/edge-cases/pychess-chessbase-empty-line.pgn",
        "pgn/edge-cases/scid-res_gameUTF8.pgn",
    ];
    let syntax = b"{}()\n[]\"01-*;, e4Nx$!%";
    let mut rng = Xorshift::new(99);
    for file in files {
        let Some(path) = corpus_file(file) else { return eprintln!("skipped") };
        let bytes = std::fs::read(path).unwrap();
        for round in 0..200 {
            let mut copy = bytes.clone();
            for _ in 0..4 {
                let at = rng.below(copy.len());
                copy[at] = syntax[rng.below(syntax.len())];
            }
            let main_lines = |items: Vec<Result<Seen, String>>| -> Vec<Option<MainLine>> {
                items.into_iter().map(|item| item.ok().map(|s| (s.offset, s.result, s.moves))).collect()
            };
            let walked = seen(PgnWalk::new(&copy, walk_options(None)))
                .into_iter()
                .map(|item| item.map(|(seen, _)| seen))
                .collect();
            assert_eq!(
                main_lines(walked),
                main_lines(by_reader(&copy, None)),
                "{file}, round {round}: {:?}",
                String::from_utf8_lossy(&copy)
            );
        }
    }
}
