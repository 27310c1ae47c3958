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


EN_PASSANT = """[Event "pinned"]
[SetUp "1"]
[FEN "7k/2p5/8/KP5r/8/8/8/8 b - - 0 1"]
[Result "*"]

1... c5 2. Ka4 Kg8 *

[Event "free"]
[SetUp "1"]
[FEN "7k/2p5/8/1P6/8/8/8/K7 b - - 0 1"]
[Result "1-0"]

1... c5 2. bxc6 Kg8 1-0
"""


def test_en_passant_only_when_legal(tmp_path):
    """After 1... c5 both positions have a pawn beside c5; only in the second may it take (in
    the first the capture opens the fifth rank to the rook): python-chess's
    `has_legal_en_passant`."""
    path = tmp_path / "ep.pgn"
    path.write_text(EN_PASSANT)
    expected = expected_rows(path)
    got = next(iter(tabiya.positions(path)))
    assert [row[3] for row in expected] == got["en_passant"].tolist() == [-1, -1, -1, -1, chess.C6, -1]


def test_file_objects_compressed_files_and_paths_give_the_same_rows(tmp_path, sample_pgn):
    import gzip
    import io

    def rows(source, **options):
        batches = list(tabiya.positions(source, **options))
        return {k: np.concatenate([b[k] for b in batches]) for k in batches[0]}

    plain = rows(sample_pgn)
    packed = tmp_path / "sample.pgn.gz"
    packed.write_bytes(gzip.compress(sample_pgn.read_bytes()))
    for other in (rows(packed), rows(io.BytesIO(sample_pgn.read_bytes())), rows(sample_pgn, batch_size=7)):
        assert other.keys() == plain.keys()
        for k in plain:
            assert (other[k] == plain[k]).all(), k
    # The games read one by one (the tree keys' path) give the same rows.
    keyed = rows(sample_pgn, tree_keys=True)
    for k in plain:
        assert (keyed[k] == plain[k]).all(), k


BROKEN = """[Event "one"]
[Result "1-0"]

1. e4 e5 1-0

[Event "two"]
[SetUp "1"]
[FEN "not a position"]
[Result "*"]

1. e4 *

[Event "three"]
[Result "0-1"]

1. d4 d5 2. c4 0-1
"""


def test_games_that_cannot_be_read_keep_their_numbers(tmp_path):
    path = tmp_path / "broken.pgn"
    path.write_text(BROKEN)
    got = next(iter(tabiya.positions(path, on_error="skip")))
    assert got["game"].tolist() == [0, 0, 2, 2, 2]
    assert got["result"].tolist() == [1, 1, -1, -1, -1]
    try:
        list(tabiya.positions(path))
    except tabiya.TabiyaError as e:
        assert (e.file, e.number, e.unit) == (str(path), 2, "game")
    else:
        raise AssertionError("the second game cannot be read")
