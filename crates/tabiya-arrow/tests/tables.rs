//! Every table written, then read back by the Parquet reader, against facts from outside the
//! code under test: the games as the PGN reader reads them, Polyglot keys from the Polyglot
//! document, the game counts Wthor headers state, the T-BASE example's solution length.

use std::fs::File;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use tabiya_arrow::chess::{ChessTable, ChessWriter, ParquetGames};
use tabiya_arrow::othello::{OthelloTable, OthelloWriter};
use tabiya_chess::game::Game;
use tabiya_othello::wthor::{GameContext, GameFile};

/// The whole table at `path`, as one batch.
fn read_table(path: &Path) -> RecordBatch {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap()).unwrap().build().unwrap();
    let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    arrow_select_concat(&batches)
}

fn arrow_select_concat(batches: &[RecordBatch]) -> RecordBatch {
    let schema = batches[0].schema();
    let columns = (0..schema.fields().len())
        .map(|i| {
            let parts: Vec<&dyn Array> = batches.iter().map(|b| b.column(i).as_ref()).collect();
            arrow_select::concat::concat(&parts).unwrap()
        })
        .collect();
    RecordBatch::try_new(schema, columns).unwrap()
}

fn write_games(games: &[Game], table: ChessTable, path: &Path) {
    let mut writer = ChessWriter::new(File::create(path).unwrap(), table).unwrap();
    for game in games {
        writer.add(game.clone()).unwrap();
    }
    let (summary, _) = writer.finish().unwrap();
    assert_eq!(summary.games, games.len() as u64);
}

/// The games of a PGN file as its reader gives them, and the same games written as a games
/// table and read back: equal, tags, comments, NAGs, variations and start positions included.
#[test]
fn chess_games_come_back_as_they_went_in() {
    let files = [
        "pgn/small-varied.pgn",
        "pgn/edge-cases/pgnextract-null-moves.pgn",
        "pgn/edge-cases/dirty-immortal-games-latin1-crlf.pgn",
        "pgn/edge-cases/pgnmentor-double-blank-line-crlf.pgn",
        "pgn/edge-cases/pychess-chessbase-empty-line.pgn",
    ];
    let dir = tempfile::tempdir().unwrap();
    for relative in files {
        let Some(pgn) = tabiya_testdata::corpus_file(relative) else { return };
        let games: Vec<Game> = tabiya_chess::games::open(&pgn).unwrap().filter_map(Result::ok).collect();
        assert!(!games.is_empty(), "{relative}");
        let path = dir.path().join("games.parquet");
        write_games(&games, ChessTable::Games, &path);
        let back: Vec<Game> = ParquetGames::open(&path).unwrap().map(|row| row.unwrap().0).collect();
        assert_eq!(back.len(), games.len(), "{relative}");
        for (n, (back, game)) in back.iter().zip(&games).enumerate() {
            assert!(back == game, "{relative}, game {}:\n{back:?}\n{game:?}", n + 1);
        }
        // The columns say what the games say.
        let table = read_table(&path);
        let plies = table.column_by_name("plies").unwrap().as_primitive::<UInt32Type>();
        let white = table.column_by_name("White").unwrap().as_string::<i32>();
        let moves = table.column_by_name("moves").unwrap().as_list::<i32>();
        for (n, game) in games.iter().enumerate() {
            assert_eq!(plies.value(n) as usize, game.ply_count());
            assert_eq!(white.is_null(n), game.tag("White").is_none());
            assert_eq!(moves.value(n).len(), game.ply_count());
        }
    }
}

/// Polyglot's document gives the keys of the start position and of 1.e4.
#[test]
fn the_moves_table_gives_polyglot_keys_san_and_the_movers_score() {
    let text = b"[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"2100\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
    let games: Vec<Game> =
        tabiya_chess::pgn::PgnReader::from_bytes(text, Default::default()).map(|g| g.unwrap().game).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("moves.parquet");
    write_games(&games, ChessTable::Moves { fen: true }, &path);
    let table = read_table(&path);
    assert_eq!(table.num_rows(), 3);
    let keys = table.column_by_name("polyglot_key").unwrap().as_primitive::<UInt64Type>();
    assert_eq!(keys.value(0), 0x463b96181691fc9c);
    assert_eq!(keys.value(1), 0x823c9b50fd114196);
    let column =
        |name| table.column_by_name(name).unwrap().as_string::<i32>().iter().map(Option::unwrap).collect::<Vec<_>>();
    assert_eq!(column("uci"), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(column("san"), ["e4", "e5", "Nf3"]);
    assert_eq!(column("fen")[1], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let score = table.column_by_name("mover_score").unwrap().as_primitive::<Float32Type>();
    assert_eq!(score.values().to_vec(), [1.0, 0.0, 1.0]);
    let mover_elo = table.column_by_name("mover_elo").unwrap();
    assert!(!mover_elo.is_null(0) && mover_elo.is_null(1) && !mover_elo.is_null(2));
}

/// Every game of a Wthor file, as many as its header says (bytes 4–7), and positions that start
/// from the standard start.
#[test]
fn wthor_games_and_positions() {
    let Some(wtb) = tabiya_testdata::corpus_file("wthor/current/WTH_1980.wtb") else { return };
    let data = std::fs::read(&wtb).unwrap();
    let stated = u32::from_le_bytes(data[4..8].try_into().unwrap()) as usize;
    let file = GameFile::read(&data, &mut Vec::new()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for table in [OthelloTable::Games, OthelloTable::Positions] {
        let path = dir.path().join("wthor.parquet");
        let mut writer = OthelloWriter::new(File::create(&path).unwrap(), table).unwrap();
        for (record, game) in file.games.iter().enumerate() {
            let context = GameContext { game, year: 1980, record, depth: 22, names: None };
            writer.push(&context).unwrap().unwrap();
        }
        let (games, rows, _) = writer.finish().unwrap();
        assert_eq!(games as usize, stated);
        let read = read_table(&path);
        assert_eq!(read.num_rows() as u64, rows);
        match table {
            OthelloTable::Games => {
                assert_eq!(rows as usize, stated);
                let scores = read.column_by_name("real_score").unwrap().as_primitive::<UInt8Type>();
                for (n, game) in file.games.iter().enumerate() {
                    assert_eq!(scores.value(n), game.real_score);
                }
                let years = read.column_by_name("year").unwrap().as_primitive::<UInt16Type>();
                assert!(years.values().iter().all(|&y| y == 1980));
            }
            OthelloTable::Positions => {
                let black = read.column_by_name("black").unwrap().as_primitive::<UInt64Type>();
                let white = read.column_by_name("white").unwrap().as_primitive::<UInt64Type>();
                // d5 and e4 black, d4 and e5 white (bit 0 = a1, bit 8·row + column).
                assert_eq!((black.value(0), white.value(0)), ((1 << 35) | (1 << 28), (1 << 27) | (1 << 36)));
                let moves: usize = file.games.iter().map(|g| g.move_count()).sum();
                assert_eq!(rows as usize, moves);
            }
        }
    }
}

/// The T-BASE example of tabiya-shogi's documentation: problem 3, a 17-move mate.
#[test]
fn tbase_problems() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tabiya-shogi/tests/data");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(data.join("example_3line.dia"), dir.path().join("example.dia")).unwrap();
    std::fs::copy(data.join("example.tjn"), dir.path().join("example.tjn")).unwrap();
    let path = dir.path().join("problems.parquet");
    let (summary, _) =
        tabiya_arrow::shogi::write_problems(&dir.path().join("example.dia"), File::create(&path).unwrap()).unwrap();
    assert_eq!(summary.problems, 1);
    let table = read_table(&path);
    assert_eq!(table.column_by_name("number").unwrap().as_primitive::<UInt16Type>().value(0), 3);
    assert_eq!(table.column_by_name("moves").unwrap().as_primitive::<UInt16Type>().value(0), 17);
    assert_eq!(table.column_by_name("solution_usi").unwrap().as_list::<i32>().value(0).len(), 17);
}
