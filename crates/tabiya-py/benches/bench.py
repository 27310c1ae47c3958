"""Side-by-side timings of the Python package (BENCHMARKS.md, "Python"): run with a release
build installed (`pip install ./crates/tabiya-py`) and python-chess.

    python crates/tabiya-py/benches/bench.py read_games PGN      # tabiya
    python crates/tabiya-py/benches/bench.py python_chess PGN    # python-chess, the same work
    python crates/tabiya-py/benches/bench.py positions PGN [planes]

Each prints: wall seconds, CPU seconds of the process (all threads), games or positions, and
for `positions` the rate per wall second and per CPU second, with the load average before the
run (issue 20's target: 5 M positions per wall second on 2 idle cores; `RAYON_NUM_THREADS`
sets the threads).
The same work: every game's tags as a dict and its main line as UCI strings.
"""

import sys
import time


def read_games(path):
    import tabiya

    games = moves = 0
    for game in tabiya.read_games(path):
        tags = game.tags
        moves += len(game.moves)
        games += 1 if tags is not None else 0
    return f"{games} games, {moves} moves"


def python_chess(path):
    import chess.pgn

    games = moves = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            tags = dict(game.headers)
            moves += len([m.uci() for m in game.mainline_moves()])
            games += 1 if tags is not None else 0
    return f"{games} games, {moves} moves"


def positions(path, layout="bitboards"):
    import tabiya

    rows = 0
    for batch in tabiya.positions(path, layout=layout):
        rows += len(batch["turn"])
    return rows


if __name__ == "__main__":
    import os

    what, path, *rest = sys.argv[1:]
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    done = {"read_games": read_games, "python_chess": python_chess, "positions": positions}[what](path, *rest)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if what == "positions":
        done = f"{done} positions, {done / wall / 1e6:.2f} M/s wall, {done / cpu / 1e6:.2f} M/s CPU (load {load:.1f})"
    print(f"{what}: {wall:.2f} s wall, {cpu:.2f} s CPU, {done}")
