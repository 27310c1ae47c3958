"""positions() against python-chess's boards."""

import chess
import chess.pgn
import numpy as np
import pyarrow as pa

import tabiya
from conftest import corpus_file

PIECES = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING]


def expected_rows(path, limit=None):
    rows = []
    with open(path, encoding="utf-8", errors="replace") as f:
        index = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None or (limit is not None and index >= limit):
                return rows
            board = game.board()
            result = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}.get(game.headers.get("Result"), 2)
            for ply, move in enumerate(game.mainline_moves()):
                boards = [int(board.pieces_mask(p, c)) for c in (chess.WHITE, chess.BLACK) for p in PIECES]
                castling = (
                    board.has_kingside_castling_rights(chess.WHITE)
                    | board.has_queenside_castling_rights(chess.WHITE) << 1
                    | board.has_kingside_castling_rights(chess.BLACK) << 2
                    | board.has_queenside_castling_rights(chess.BLACK) << 3
                )
                ep = board.ep_square if board.has_legal_en_passant() else -1
                code = move.from_square + 64 * move.to_square + 4096 * (move.promotion or 0)
                turn = 0 if board.turn == chess.WHITE else 1
                rows.append((boards, turn, castling, ep, code, result, ply, index))
                board.push(move)
            index += 1


def test_sample_positions_match_python_chess(sample_pgn):
    expected = expected_rows(sample_pgn)
    batches = list(tabiya.positions(sample_pgn, batch_size=100))
    assert all(len(b["turn"]) >= 100 for b in batches[:-1])
    got = {k: np.concatenate([b[k] for b in batches]) for k in batches[0]}
    assert len(got["turn"]) == len(expected)
    for i, (boards, turn, castling, ep, code, result, ply, game) in enumerate(expected):
        assert got["bitboards"][i].tolist() == boards
        assert (int(got["turn"][i]), int(got["castling"][i]), int(got["en_passant"][i])) == (turn, castling, ep)
        assert (int(got["move"][i]), int(got["result"][i]), int(got["ply"][i]), int(got["game"][i])) == (code, result, ply, game)


def test_planes_layout_and_arrow(sample_pgn):
    bitboards = next(iter(tabiya.positions(sample_pgn)))["bitboards"]
    planes = next(iter(tabiya.positions(sample_pgn, layout="planes")))["planes"]
    assert planes.shape == (len(bitboards), 12, 64) and planes.dtype == np.uint8
    bits = (bitboards[:, :, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    assert (bits.astype(np.uint8) == planes).all()
    batch = next(iter(tabiya.positions(sample_pgn, arrow=True)))
    assert isinstance(batch, pa.RecordBatch)
    assert batch.num_rows == len(bitboards)
    assert batch.column("bitboards").type == pa.list_(pa.uint64(), 12)


def test_medium_file_ratings_and_counts():
    path = corpus_file("pgn/medium-pgnmentor-12players.pgn")
    expected = expected_rows(path, limit=300)
    total = 0
    first = None
    for batch in tabiya.positions(path):
        if first is None:
            first = batch
        total += len(batch["turn"])
    assert first["game"][len(expected) - 1] <= 300
    n = min(len(expected), len(first["turn"]))
    assert [int(x) for x in first["move"][:n]] == [row[4] for row in expected[:n]]
    with open(path, encoding="utf-8", errors="replace") as f:
        game = chess.pgn.read_game(f)
    assert int(first["white_elo"][0]) == int(game.headers.get("WhiteElo", "0") or 0)
    assert total > 2_000_000


def test_tree_keys_are_the_parquet_tables(tmp_path, sample_pgn):
    """`tree_keys=True` gives the key `tabiya convert --rows moves` writes as `tree_key` (the
    tree's own key), row for row."""
    import pyarrow.parquet as pq

    from cli import tabiya_bin
    import subprocess

    table = tmp_path / "moves.parquet"
    subprocess.run([str(tabiya_bin()), "convert", str(sample_pgn), "-o", str(table), "--rows", "moves", "--quiet"], check=True)
    expected = pq.read_table(table).column("tree_key").to_pylist()
    got = np.concatenate([b["tree_key"] for b in tabiya.positions(sample_pgn, tree_keys=True)])
    assert got.shape == (len(expected), 26)
    assert [row.tobytes() for row in got] == expected
    assert "tree_key" not in next(iter(tabiya.positions(sample_pgn)))
