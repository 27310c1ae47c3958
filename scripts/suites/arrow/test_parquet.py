"""Parquet written by `tabiya convert`, read by pyarrow and DuckDB, checked against python-chess
and the corpus. Needs TABIYA (the binary) and TABIYA_CORPUS; a missing corpus fails (a skip is
not a pass)."""

import datetime
import io
import json
import os
import struct
import subprocess
from pathlib import Path

import chess
import chess.pgn
import chess.polyglot
import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

TABIYA = os.environ["TABIYA"]
CORPUS = Path(os.environ["TABIYA_CORPUS"])
SMALL = CORPUS / "pgn" / "small-varied.pgn"


def tabiya(*args):
    done = subprocess.run([TABIYA, "--quiet", *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def sql(query):
    """The rows of a DuckDB query."""
    return duckdb.sql(query).fetchall()


def python_chess_games(path):
    games = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(game)
    return games


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """The first 1,000 games of the corpus's small PGN (before its game 2,318, whose blank line
    inside the movetext python-chess reads as the end of the game and tabiya does not)."""
    assert SMALL.exists(), SMALL
    text = SMALL.read_bytes()
    starts = [i + 2 for i in range(len(text)) if text.startswith(b"\n\n[Event ", i)]
    path = tmp_path_factory.mktemp("sample") / "sample.pgn"
    path.write_bytes(text[: starts[999]])
    return path


@pytest.fixture(scope="module")
def small_games(sample):
    return python_chess_games(sample)


def test_games_table_matches_python_chess(tmp_path, sample, small_games):
    out = tmp_path / "games.parquet"
    tabiya("convert", sample, "-o", out)
    assert len(small_games) == 1000
    table = pq.read_table(out)
    assert table.num_rows == len(small_games)
    rows = table.to_pylist()
    for row, game in zip(rows, small_games):
        assert row["moves"] == [m.uci() for m in game.mainline_moves()]
        assert row["plies"] == len(row["moves"])
        tags = {t["name"]: t["value"] for t in reversed(row["tags"])}
        for name in ("Event", "White", "Black"):
            assert row[name] == game.headers.get(name) == tags.get(name)
        if "WhiteElo" in game.headers and game.headers["WhiteElo"].isdigit():
            assert row["WhiteElo"] == int(game.headers["WhiteElo"])
    # DuckDB reads it with SQL, without tabiya.
    count, plies = sql(f"SELECT count(*), sum(plies) FROM '{out}'")[0]
    assert count == len(small_games)
    assert plies == sum(len(list(g.mainline_moves())) for g in small_games)


def test_games_table_reads_back_to_the_same_pgn(tmp_path):
    direct, table, back = tmp_path / "direct.pgn", tmp_path / "games.parquet", tmp_path / "back.pgn"
    tabiya("convert", SMALL, "-o", direct)
    tabiya("convert", SMALL, "-o", table)
    tabiya("convert", table, "-o", back)
    assert back.read_bytes() == direct.read_bytes()


def test_moves_table_matches_python_chess(tmp_path, sample, small_games):
    out = tmp_path / "moves.parquet"
    tabiya("convert", sample, "-o", out, "--rows", "moves", "--fen-column")
    rows = pq.read_table(out).to_pylist()
    expected = []
    for index, game in enumerate(small_games):
        board = game.board()
        result = game.headers.get("Result", "*")
        for ply, move in enumerate(game.mainline_moves()):
            white = board.turn == chess.WHITE
            score = {"1-0": 1.0 if white else 0.0, "0-1": 0.0 if white else 1.0, "1/2-1/2": 0.5}.get(result)
            expected.append((index, ply, chess.polyglot.zobrist_hash(board), board.fen(), move.uci(), board.san(move), score))
            board.push(move)
    got = [(r["game_index"], r["ply"], r["polyglot_key"], r["fen"], r["uci"], r["san"], r["mover_score"]) for r in rows]
    assert got == expected
    n = sql(f"SELECT count(DISTINCT polyglot_key) FROM '{out}' WHERE ply < 2")[0][0]
    assert n == len({(e[2]) for e in expected if e[1] < 2})


def test_tree_key_groups_the_moves_as_the_tree_counts_them(tmp_path, sample):
    """The moves table's `tree_key` is the tree's own key: grouped by it in DuckDB, the moves
    of the sample count what `tabiya probe` reads from `tabiya tree` of the same games, for the
    most played positions and for positions deep in the games."""
    table, tree = tmp_path / "moves.parquet", tmp_path / "sample.tree"
    tabiya("convert", sample, "-o", table, "--rows", "moves", "--fen-column")
    tabiya("tree", sample, "-o", tree)
    assert sql(f"SELECT count(*) FROM '{table}' WHERE tree_key IS NULL OR octet_length(tree_key) <> 26") == [(0,)]
    positions = sql(
        f"""SELECT tree_key, any_value(fen), count(*) AS n, min(ply) AS ply FROM '{table}'
            GROUP BY tree_key ORDER BY n DESC, tree_key LIMIT 5"""
    ) + sql(
        f"""SELECT tree_key, any_value(fen), count(*) AS n, min(ply) AS ply FROM '{table}'
            GROUP BY tree_key HAVING min(ply) >= 24 AND count(*) >= 2 ORDER BY n DESC, tree_key LIMIT 5"""
    )
    assert len(positions) == 10
    for key, fen, n, _ in positions:
        counts = dict(duckdb.execute(f"SELECT uci, count(*) FROM '{table}' WHERE tree_key = ? GROUP BY uci", [key]).fetchall())
        probe = json.loads(tabiya("probe", tree, "--fen", fen, "--json").stdout)
        assert probe["found"], fen
        assert {m["uci"]: m["games"] for m in probe["moves"]} == counts, fen
        assert sum(counts.values()) == n


def test_lichess_shaped_table_is_a_games_source(tmp_path):
    # The columns of lichess's Parquet on Hugging Face: a column per tag, the moves in movetext.
    table = pa.table({
        "Event": ["Rated Blitz game", "Rated Bullet game"],
        "Site": ["https://lichess.org/abcd1234", "https://lichess.org/efgh5678"],
        "White": ["alice", "carol"],
        "Black": ["bob", "dave"],
        "Result": ["1-0", "1/2-1/2"],
        "WhiteTitle": [None, "FM"],
        "BlackTitle": [None, None],
        "WhiteElo": pa.array([1500, 2300], pa.int16()),
        "BlackElo": pa.array([1480, 2290], pa.int16()),
        "WhiteRatingDiff": pa.array([6, -1], pa.int16()),
        "BlackRatingDiff": pa.array([-6, 1], pa.int16()),
        "UTCDate": pa.array([datetime.date(2024, 2, 29), datetime.date(2013, 1, 1)], pa.date32()),
        "UTCTime": pa.array([datetime.time(23, 59, 7), datetime.time(0, 0, 1)], pa.time64("us")),
        "ECO": ["C20", "A00"],
        "Opening": ["King's Pawn Game", "Polish Opening"],
        "Termination": ["Normal", "Time forfeit"],
        "TimeControl": ["180+0", "60+0"],
        "movetext": [
            "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
            "1. b4 e5 2. Bb2 1/2-1/2",
        ],
    })
    source, out = tmp_path / "lichess.parquet", tmp_path / "lichess.pgn"
    pq.write_table(table, source)
    tabiya("convert", source, "-o", out)
    games = python_chess_games(out)
    assert len(games) == 2
    first = games[0]
    assert first.headers["UTCDate"] == "2024.02.29"
    assert first.headers["UTCTime"] == "23:59:07"
    assert first.headers["WhiteElo"] == "1500"
    assert first.headers["WhiteRatingDiff"] == "+6"
    assert first.headers["BlackRatingDiff"] == "-6"
    assert "WhiteTitle" not in first.headers
    assert [m.uci() for m in first.mainline_moves()] == ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
    assert first.variations[0].comment == "[%clk 0:03:00]"
    assert games[1].headers["WhiteTitle"] == "FM"
    assert games[1].headers["Result"] == "1/2-1/2"


def test_wthor_games_and_positions(tmp_path):
    wtb = CORPUS / "wthor" / "current" / "WTH_1980.wtb"
    data = wtb.read_bytes()
    stated = struct.unpack_from("<I", data, 4)[0]
    games, positions = tmp_path / "wthor.parquet", tmp_path / "positions.parquet"
    tabiya("convert", wtb, "-o", games)
    tabiya("convert", wtb, "-o", positions, "--rows", "positions")
    table = pq.read_table(games)
    assert table.num_rows == stated
    # Record i: 8 bytes of header fields, then the move bytes (10·row + column, 0 pads).
    for i, row in enumerate(table.to_pylist()):
        record = data[16 + 68 * i: 16 + 68 * (i + 1)]
        assert row["real_score"] == record[6]
        codes = [b for b in record[8:] if b]
        assert row["moves"] == ["abcdefgh"[c % 10 - 1] + str(c // 10) for c in codes]
    moves = sum(len(r) for r in table.column("moves").to_pylist())
    assert sql(f"SELECT count(*) FROM '{positions}'")[0][0] == moves
    first = sql(f"SELECT black, white, to_move FROM '{positions}' WHERE ply = 0 LIMIT 1")[0]
    assert first == ((1 << 35) | (1 << 28), (1 << 27) | (1 << 36), "black")
