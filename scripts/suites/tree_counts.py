"""The tree's counts against an independent count (issue 19's acceptance test).

Reads a PGN file with a tokenizer of its own, replays the first PLIES moves of every game with
python-chess, and counts for every (position, move): games, and wins/draws/losses from the
mover's point of view. Then compares them with the tree tabiya built with --max-ply PLIES
(dumped as JSON Lines) and with `tabiya probe --json` of the position after 1.e4 c5: every
count equal, nothing missing, nothing extra.

usage: tree_counts.py TABIYA PGN PLIES WORKDIR
"""

import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import chess

TAG = re.compile(rb'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def games(data):
    """(tags, movetext) of every game: a tag section, then the text up to the next one."""
    tags, text, in_moves = {}, [], False
    for line in data.split(b"\n"):
        line = line.rstrip(b"\r")
        if line.startswith(b"%"):
            continue
        m = TAG.match(line)
        if m and (in_moves or not text):
            if in_moves:
                yield tags, b"\n".join(text)
                tags, text, in_moves = {}, [], False
            tags[m.group(1).decode()] = m.group(2).decode("utf-8", "replace")
        elif line.strip():
            in_moves = True
            text.append(line)
        elif text:
            text.append(line)
    if tags or text:
        yield tags, b"\n".join(text)


def sans(movetext, limit):
    """The first `limit` SAN tokens of the main line: comments, variations, NAGs and move
    numbers left out."""
    text = movetext.decode("utf-8", "replace")
    out, depth, i = [], 0, 0
    while i < len(text) and len(out) < limit:
        c = text[i]
        if c == "{":
            i = text.find("}", i)
            i = len(text) if i < 0 else i + 1
        elif c == ";":
            i = text.find("\n", i)
            i = len(text) if i < 0 else i + 1
        elif c == "(":
            depth, i = depth + 1, i + 1
        elif c == ")":
            depth, i = depth - 1, i + 1
        elif c.isspace():
            i += 1
        else:
            j = i
            while j < len(text) and not text[j].isspace() and text[j] not in "{;()":
                j += 1
            token, i = text[i:j], j
            if depth > 0 or token.startswith("$"):
                continue
            token = re.sub(r"^\d+\.+", "", token).rstrip("!?")
            if token and token not in RESULTS:
                out.append(token)
    return out


def count(pgn, plies):
    counts = defaultdict(lambda: [0, 0, 0, 0])
    for tags, movetext in games(pgn.read_bytes()):
        if "960" in tags.get("Variant", ""):
            continue
        board = chess.Board(tags["FEN"]) if "FEN" in tags else chess.Board()
        result = tags.get("Result", "*")
        for san in sans(movetext, plies):
            if san in ("--", "Z0"):
                break
            move = board.parse_san(san)
            key = (" ".join(board.fen().split()[:4]), move.uci())
            c = counts[key]
            c[0] += 1
            mover = "1-0" if board.turn == chess.WHITE else "0-1"
            if result == "1/2-1/2":
                c[2] += 1
            elif result == mover:
                c[1] += 1
            elif result in ("1-0", "0-1"):
                c[3] += 1
            board.push(move)
    return counts


def main():
    tabiya, pgn, plies, work = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
    work.mkdir(parents=True, exist_ok=True)
    tree, dump = work / "counts.tree", work / "counts.jsonl"
    subprocess.run([tabiya, "-q", "--force", "tree", str(pgn), "-o", str(tree), "--max-ply", str(plies)], check=True)
    subprocess.run([tabiya, "-q", "--force", "convert", str(tree), "-o", str(dump)], check=True)
    expected = count(pgn, plies)
    found = {}
    for line in dump.read_text().splitlines():
        position = json.loads(line)
        epd = " ".join(position["fen"].split()[:4])
        for m in position["moves"]:
            found[(epd, m["uci"])] = [m["games"], m["wins"], m["draws"], m["losses"]]
    wrong = [k for k in expected if found.get(k) != expected[k]]
    extra = [k for k in found if k not in expected]
    for k in (wrong + extra)[:10]:
        print(f"  {k}: tree {found.get(k)}, python-chess {expected.get(k)}")
    moves = sum(c[0] for c in expected.values())
    print(f"{len(expected)} (position, move) pairs, {moves} moves of the first {plies} plies: "
          f"{len(wrong)} differ, {len(extra)} only in the tree")
    probe = json.loads(subprocess.run([tabiya, "probe", str(tree), "--moves", "e4 c5", "--json"], check=True,
                                      capture_output=True, text=True).stdout)
    board = chess.Board()
    board.push_san("e4")
    board.push_san("c5")
    epd = " ".join(board.fen().split()[:4])
    probed = {m["uci"]: [m["games"], m["wins"], m["draws"], m["losses"]] for m in probe["moves"]}
    wanted = {uci: c for (e, uci), c in expected.items() if e == epd}
    print(f"probe 1.e4 c5: {len(probed)} moves, {'equal' if probed == wanted else 'DIFFERENT'}")
    if wrong or extra or not expected or probed != wanted or not probe["found"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
