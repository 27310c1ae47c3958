"""Positions, openings and statistics of chess games against python-chess, an independent
reading of the same games: run by positions.sh with the tabiya binary and the position_search
example built.

Over the first GAMES games of the corpus medium PGN (and the SCID 4 database tabiya makes of
them), python-chess replays every game and computes:
  * the games that reach each of a set of positions (the openings of BENCHMARKS.md, positions
    sampled from the games themselves), by the chess-openings rule: pieces, side to move,
    castling rights, en passant only where a capture is legal; and the games that reach
    material balances;
  * each game's opening by the chess-openings rule (the last named position, transpositions
    included) from the table's own TSVs;
  * games, plies, results, dates, ratings and the most frequent players, events and ECO codes.
Each is compared with tabiya's answer: the example's position search (SCID index search and
PGN replay), `convert --add-eco`, `info --json`.
"""

import collections
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import chess
import chess.pgn

GAMES = 3000
root = pathlib.Path(__file__).resolve().parent.parent.parent
corpus = pathlib.Path(os.environ["TABIYA_CORPUS"])
tabiya = os.environ["TABIYA_BIN"]
search = os.environ["POSITION_SEARCH_BIN"]
# The chess-openings TSVs are shared beside the corpus (../shared/data/chess-openings).
openings_dir = corpus.parent / "data" / "chess-openings"
failures = []


def check(what, got, expected):
    if got != expected:
        failures.append(what)
        print(f"FAIL {what}:\n  tabiya:      {str(got)[:400]}\n  python-chess: {str(expected)[:400]}")
    else:
        print(f"ok   {what}")


def key(board):
    """The chess-openings identity: pieces, turn, castling, en passant only if legal."""
    return board.epd(en_passant="legal")


def read_games(path, n):
    games = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while len(games) < n:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games.append(game)
    return games


work = pathlib.Path(tempfile.mkdtemp(prefix="tabiya-positions-"))
games = read_games(corpus / "pgn" / "medium-pgnmentor-12players.pgn", GAMES)
subset = work / "subset.pgn"
with open(subset, "w", encoding="utf-8") as f:
    for game in games:
        print(game, file=f, end="\n\n")
subprocess.run([tabiya, "convert", "-q", str(subset), "-o", str(work / "subset.si4")], check=True)

# Every game's positions and materials, by replay.
positions = []
materials = []
for game in games:
    board = game.board()
    keys = [key(board)]
    for move in game.mainline_moves():
        board.push(move)
        keys.append(key(board))
    positions.append(set(keys))


def material(board):
    return "".join(sorted(p.symbol() for p in board.piece_map().values()))


for game in games:
    board = game.board()
    seen = {material(board)}
    for move in game.mainline_moves():
        board.push(move)
        seen.add(material(board))
    materials.append(seen)


def run_search(path, *query):
    out = subprocess.run([search, str(path), *query, "--list"], check=True, capture_output=True, text=True).stdout
    return [int(line) for line in out.split("\n")[1:] if line]


def select_count(path, *query):
    out = subprocess.run([tabiya, "select", str(path), *query, "--count", "--quiet"], check=True, capture_output=True, text=True)
    return int(out.stdout.strip())


# Positions: the openings of BENCHMARKS.md and positions taken from games at several depths.
lines = ["e4", "Nf3", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", "d4 Nf6 c4 e6 Nc3 Bb4", "e4 e5 Nf3 Nc6 Bb5 a6"]
queries = []
for line in lines:
    board = chess.Board()
    for san in line.split():
        board.push_san(san)
    queries.append((f"after {line}", board.fen()))
for number, ply in [(5, 14), (100, 22), (777, 40), (1500, 60), (2999, 30)]:
    board = games[number].board()
    for move in list(games[number].mainline_moves())[:ply]:
        board.push(move)
    queries.append((f"game {number + 1} ply {ply}", board.fen()))
# `select --fen` on the SCID database searches its position index once `tabiya index` made it.
subprocess.run([tabiya, "index", "-q", str(work / "subset.si4")], check=True)
for what, fen in queries:
    target = key(chess.Board(fen))
    expected = [n + 1 for n, keys in enumerate(positions) if target in keys]
    check(f"--fen {what}: SCID search ({len(expected)} games)", run_search(work / "subset.si4", "--fen", fen), expected)
    check(f"--fen {what}: SCID position index", run_search(work / "subset.si4", "--fen", fen, "--index"), expected)
    check(f"--fen {what}: PGN replay", run_search(subset, "--fen", fen), expected)
    check(f"--fen {what}: tabiya select --count", select_count(subset, "--fen", fen), len(expected))
    check(f"--fen {what}: tabiya select --count, SCID position index", select_count(work / "subset.si4", "--fen", fen), len(expected))

for signature in ["KRPkr", "KQkq", "KRkr", "KRRPPkrrpp"]:
    wanted = "".join(sorted(signature))
    expected = [n + 1 for n, seen in enumerate(materials) if wanted in seen]
    check(f"--material {signature} ({len(expected)} games)", run_search(subset, "--material", signature), expected)
    check(f"--material {signature}: tabiya select --count", select_count(subset, "--material", signature), len(expected))

# Openings: the last named position of each game, from the table's own TSVs.
named = {}
for letter in "abcde":
    with open(openings_dir / f"{letter}.tsv", encoding="utf-8") as f:
        next(f)
        for row in f:
            eco, name, pgn = row.rstrip("\n").split("\t")
            board = chess.Board()
            for token in pgn.split():
                if not token[0].isdigit():
                    board.push_san(token)
            named.setdefault(key(board), (eco, name))
expected = []
for game in games:
    board = game.board()
    found = named.get(key(board))
    for move in game.mainline_moves():
        board.push(move)
        found = named.get(key(board), found)
    expected.append(found)
classified = work / "classified.pgn"
subprocess.run([tabiya, "convert", "-q", str(subset), "-o", str(classified), "--add-eco"], check=True)
got = []
with open(classified, encoding="utf-8") as f:
    for headers in iter(lambda: chess.pgn.read_headers(f), None):
        got.append((headers.get("ECO"), headers.get("Opening")))
# A game the table does not name keeps its own tags.
expected_tags = [
    found if found else (game.headers.get("ECO"), game.headers.get("Opening"))
    for found, game in zip(expected, games)
]
check(f"--add-eco: ECO and Opening of {len(games)} games", got, expected_tags)

# Statistics: info --json of the subset against python-chess's count.
info = json.loads(subprocess.run([tabiya, "info", "--json", str(subset)], check=True, capture_output=True, text=True).stdout)
stats = info["statistics"]
results = collections.Counter(game.headers.get("Result", "*") for game in games)
check("statistics: games and plies", (stats["games"], stats["plies"]),
      (len(games), sum(len(list(g.mainline_moves())) for g in games)))
check("statistics: results", stats["results"],
      {"white": results["1-0"], "draw": results["1/2-1/2"], "black": results["0-1"], "unknown": results["*"]})
dates = sorted(g.headers["Date"] for g in games if g.headers.get("Date", "?")[:4].isdigit())
check("statistics: dates", stats["dates"], [dates[0], dates[-1]])
ratings = [int(g.headers[t]) for g in games for t in ("WhiteElo", "BlackElo") if g.headers.get(t, "").isdigit() and int(g.headers[t]) > 0]
check("statistics: ratings", stats["ratings"],
      {"min": min(ratings), "max": max(ratings), "mean": round(sum(ratings) / len(ratings), 1), "count": len(ratings)})


def top(counter):
    return [{"name": name, "games": count} for name, count in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0].encode()))[:10]]


players = collections.Counter(g.headers[c] for g in games for c in ("White", "Black") if g.headers.get(c, "?") not in ("", "?"))
events = collections.Counter(g.headers["Event"] for g in games if g.headers.get("Event", "?") not in ("", "?"))
ecos = collections.Counter(g.headers.get("ECO") or (found or (None,))[0] for g, found in zip(games, expected))
ecos.pop(None, None)
check("statistics: players", stats["players"], top(players))
check("statistics: events", stats["events"], top(events))
check("statistics: openings", stats["openings"], top(ecos))

if failures:
    sys.exit(f"{len(failures)} failed: {', '.join(failures)}")
print(f"all {len(queries) * 5 + 4 * 2 + 1 + 7} checks passed")
