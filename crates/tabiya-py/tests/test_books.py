"""open_book against python-chess's Polyglot reader; the counts of the Spark build reduced
here by hand give the CLI's book."""

import chess
import chess.pgn
import chess.polyglot
import numpy as np
import pytest

import tabiya
from cli import book, split_pgn
from conftest import corpus_file


def positions_of(pgn_path, games=20, plies=16):
    boards = []
    with open(pgn_path, encoding="utf-8", errors="replace") as f:
        for _ in range(games):
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            for move in list(game.mainline_moves())[:plies]:
                boards.append(board.copy())
                board.push(move)
    return boards


@pytest.mark.parametrize("name", ["polyglot/performance.bin", "polyglot/lasker-trap.bin"])
def test_polyglot_entries_match_python_chess(name):
    path = corpus_file(name)
    ours = tabiya.open_book(path)
    assert ours.format == "polyglot"
    boards = [chess.Board()] + positions_of(corpus_file("pgn/small-varied.pgn"))
    found = 0
    with chess.polyglot.open_reader(path) as theirs:
        for board in boards:
            expected = sorted(((e.move, e.weight, e.learn) for e in theirs.find_all(board)), key=lambda t: -t[1])
            got = [(e.move, e.weight, e.learn) for e in ours.find_all(board)]
            assert got == expected, board.fen()
            for e in ours.find_all(board):
                assert e.key == chess.polyglot.zobrist_hash(board)
            found += bool(got)
    assert found > 0


def test_ctg_entries_are_legal_with_statistics():
    ctg = corpus_file("ctg/PowerPlay17-Sicilienne")
    stem = next(p for p in ctg.iterdir() if p.suffix == ".ctg")
    book_ = tabiya.open_book(stem)
    assert book_.format == "ctg"
    board = chess.Board()
    board.push_san("e4")
    board.push_san("c5")
    entries = list(book_.find_all(board))
    assert entries, "the Sicilian is in a Sicilian book"
    for e in entries:
        assert e.move in board.legal_moves
        assert e.games is not None and e.games >= (e.wins or 0) + (e.draws or 0) + (e.losses or 0)
    assert book_.verify()["ok"] is not None


def test_counts_reduced_by_hand_give_the_cli_book(tmp_path, sample_pgn):
    expected = tmp_path / "cli.bin"
    book([sample_pgn], expected, "--min-games", "1")
    shards = split_pgn(sample_pgn, 3, tmp_path)
    rows = {}
    for shard, path in enumerate(shards):
        c = tabiya.book_counts(str(path), shard=shard)
        for i in range(len(c["key"])):
            k = (int(c["key"][i]), int(c["raw_move"][i]))
            row = [bool(c["black"][i]), int(c["games"][i]), int(c["wins"][i]), int(c["losses"][i]), int(c["order"][i])]
            if k in rows:
                old = rows[k]
                rows[k] = [old[0], old[1] + row[1], old[2] + row[2], old[3] + row[3], min(old[4], row[4])]
            else:
                rows[k] = row
    # In key then first-played order, as the Spark build hands them to the writer.
    keys = sorted(rows, key=lambda k: (k[0], rows[k][4]))
    col = lambda j, t: np.array([rows[k][j] for k in keys], dtype=t)
    out = tmp_path / "reduced.bin"
    writer = tabiya.PolyglotCountsWriter(str(out), min_games=1)
    half = len(keys) // 2
    for part in (slice(0, half), slice(half, None)):
        writer.add(
            np.array([k[0] for k in keys], dtype=np.uint64)[part],
            np.array([k[1] for k in keys], dtype=np.uint16)[part],
            col(0, bool)[part],
            col(1, np.uint32)[part],
            col(2, np.uint32)[part],
            col(3, np.uint32)[part],
        )
    assert writer.finish() * 16 == out.stat().st_size
    assert out.read_bytes() == expected.read_bytes()
    # python-chess reads it.
    with chess.polyglot.open_reader(out) as reader:
        assert [e.move.uci() for e in reader.find_all(chess.Board())][:1] == ["e2e4"]
