"""The web explorer (`tabiya serve`) in headless Chromium, driven over WebDriver.

Plays 1.e4 c5 by clicking squares and checks that the board and every source's table show
the numbers of outside oracles: python-chess's Polyglot reader for the Polyglot book,
python-chess's count of SCID 5.0.2's own PGN export for the SCID database, of the sample PGN
for the Kvetka book built from it, and the figures of ../shared/specs/ctg.md (DroidFish's
weights, 2·wins + draws of the mover) for the CTG book. Then takes a move back with the arrow
key, reloads the shared URL, opens a top game in the viewer and steps through it, and keeps a
screenshot and the request-to-table-drawn times under --out. Then serves a Wthor file: an
Othello board, f5 d6 by clicks, the tree's table against a count of the file's bytes; and a
chess tree, whose top game after 1.e4 opens in the viewer with python-chess's first moves.
"""

import argparse
import base64
import collections
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import chess
import chess.pgn
import chess.polyglot

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000"]
RESULTS = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    RESULTS.append(bool(condition))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """Just the WebDriver commands the test needs, over plain HTTP."""

    def __init__(self, port, user_data):
        self.base = f"http://127.0.0.1:{port}"
        options = {"binary": shutil.which("chromium"), "args": FLAGS + [f"--user-data-dir={user_data}"]}
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)["value"]

    def do(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def go(self, url):
        self.do("POST", "/url", {"url": url})

    def run(self, script, *args):
        return self.do("POST", "/execute/sync", {"script": script, "args": list(args)})

    def click(self, css):
        element = self.do("POST", "/element", {"using": "css selector", "value": css})
        self.do("POST", f"/element/{next(iter(element.values()))}/click")

    def key(self, key):
        self.do("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})

    def wait(self, script, what, timeout=20):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = self.run(script)
            if value:
                return value
            time.sleep(0.02)
        raise TimeoutError(what)

    def drawn(self, count):
        """Waits until the page has drawn its `count`-th answer."""
        self.wait(f"return Number(document.body.dataset.ready || 0) >= {count}", f"answer {count} drawn")

    def quit(self):
        self.call("DELETE", f"/session/{self.session}")


TABLES = """
return [...document.querySelectorAll('section.source')].map(s => ({
  format: s.dataset.format,
  totals: s.querySelector('[data-col=totals]')?.textContent ?? null,
  rows: [...s.querySelectorAll('tbody tr')].map(r => {
    const cells = {uci: r.dataset.uci};
    r.querySelectorAll('td[data-col]').forEach(td => cells[td.dataset.col] = td.textContent);
    return cells;
  }),
  games: [...s.querySelectorAll('.top-games a')].length,
}));
"""
BOARD = "return Object.fromEntries([...document.querySelectorAll('[data-square]')].map(s => [s.dataset.square, s.dataset.piece || '']))"


def board_pieces(fen):
    board = chess.Board(fen)
    return {chess.square_name(sq): ("" if p is None else ("w" if p.color else "b") + p.symbol().upper())
            for sq, p in ((sq, board.piece_at(sq)) for sq in chess.SQUARES)}


def counted(pgn_path, prefix):
    """Per next move after `prefix` (UCI), games and W/D/L of the side that plays it, counted
    by python-chess over every game's main line."""
    stats = collections.defaultdict(lambda: [0, 0, 0, 0])
    with open(pgn_path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            moves = [m.uci() for m in game.mainline_moves()]
            if len(moves) <= len(prefix) or moves[:len(prefix)] != prefix:
                continue
            mover_white = len(prefix) % 2 == 0
            result = game.headers.get("Result", "*")
            won = result == ("1-0" if mover_white else "0-1")
            lost = result == ("0-1" if mover_white else "1-0")
            s = stats[moves[len(prefix)]]
            s[0] += 1
            s[1] += won
            s[2] += result == "1/2-1/2"
            s[3] += lost
    return stats


def play_by_clicks(driver, board, uci, answer):
    """Clicks the move's two squares, waits for the page's `answer`-th answer, checks the board
    (`board` with the move played) and returns the tables."""
    driver.click(f"[data-square={uci[:2]}]")
    driver.click(f"[data-square={uci[2:4]}]")
    driver.drawn(answer)
    board.push_uci(uci)
    check(driver.run(BOARD) == board_pieces(board.fen()), f"clicking {uci[:2]} then {uci[2:4]} plays {uci}")
    return driver.run(TABLES)


def table_of(tables, format_name):
    return next(t for t in tables if t["format"] == format_name)


def check_counts(table, expected, what):
    rows = {r["uci"]: r for r in table["rows"]}
    check(set(rows) == set(expected), f"{what}: the moves are {sorted(expected)}")
    for uci, (games, w, d, l) in expected.items():
        row = rows.get(uci, {})
        check(row.get("games") == f"{games:,}" and row.get("wdl") == f"+{w} ={d} −{l}",
              f"{what}: {uci} {games} games +{w} ={d} -{l} (table: {row.get('games')} {row.get('wdl')})")


def check_polyglot(table, book, fen, what):
    with chess.polyglot.open_reader(book) as reader:
        entries = list(reader.find_all(chess.Board(fen), minimum_weight=0))
    total = sum(e.weight for e in entries)
    rows = {r["uci"]: r for r in table["rows"]}
    check(len(rows) == len(entries), f"{what}: {len(entries)} moves as python-chess reads the book")
    for e in entries:
        row = rows.get(e.move.uci(), {})
        share = f"{100 * e.weight / total:.1f}%"
        check(row.get("weight") == f"{e.weight:,}" and row.get("share") == share,
              f"{what}: {e.move.uci()} weight {e.weight} share {share} (table: {row.get('weight')} {row.get('share')})")


def check_ctg(table, uci, weight, what):
    row = next((r for r in table["rows"] if r["uci"] == uci), None)
    check(row is not None, f"{what}: {uci} in the CTG table")
    if row is None:
        return
    wins, draws, _ = (int(x[1:].replace(",", "")) for x in row["wdl"].split())
    check(2 * wins + draws == weight, f"{what}: {uci} 2·wins + draws = {weight} as DroidFish weighs it (table: {row['wdl']})")


OTHELLO_TABLE = """
return [...document.querySelectorAll('#tables tbody tr')].map(r => [...r.cells].map(c => c.textContent));
"""


def othello_openings(wtb, line):
    """Games of a Wthor file by their next move after `line`, from the bytes (68-byte records,
    moves at 8..68 as 10 * row + column)."""
    codes = [10 * int(m[1]) + "abcdefgh".index(m[0]) + 1 for m in line]
    data = open(wtb, "rb").read()
    count = collections.Counter()
    for at in range(16, len(data) - 67, 68):
        moves = list(data[at + 8:at + 68])
        if moves[:len(codes)] == codes and moves[len(codes)]:
            code = moves[len(codes)]
            count["abcdefgh"[code % 10 - 1] + str(code // 10)] += 1
    return count


def check_othello(driver, a):
    """`tabiya serve` of a Wthor file: an Othello board; f5 and d6 played by clicks; the tree's
    table after them against the file's bytes; pass disabled, take back, the shared URL."""
    serve = subprocess.Popen([a.tabiya, "serve", a.wthor, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = serve.stdout.readline().strip()
        driver.go(url)
        driver.drawn(1)
        discs = "return [...document.querySelectorAll('#board .disc')].length"
        check(driver.run(discs) == 4, "Othello: the board shows the four start discs")
        for n, square in enumerate(["f5", "d6"], start=2):
            driver.click(f"#board .cell.legal[data-square={square}]")
            driver.drawn(n)
        check(driver.run(discs) == 6, "Othello: f5 d6 played by clicks (six discs)")
        rows = driver.run(OTHELLO_TABLE)
        shown = {row[0]: int(row[1]) for row in rows}
        expected = othello_openings(a.wthor, ["f5", "d6"])
        check(shown == dict(expected), f"Othello: games after f5 d6 as the Wthor bytes count them {dict(expected)}")
        check(driver.run("return document.getElementById('pass').disabled"), "Othello: pass only when forced")
        check(driver.run("return location.search") == "?play=f5%2Cd6", "Othello: the URL holds the moves")
        driver.key("\ue012")  # ArrowLeft: take back
        driver.drawn(4)
        check(driver.run(discs) == 5, "Othello: the left arrow takes d6 back")
        driver.go(url + "?play=f5,d6,c3")
        driver.drawn(1)
        check(driver.run(discs) == 7, "Othello: the shared URL opens on f5 d6 c3")
        with open(os.path.join(a.out, "othello.png"), "wb") as f:
            f.write(base64.b64decode(driver.do("GET", "/screenshot")))
    finally:
        serve.terminate()


def check_tree_game(driver, a):
    """`tabiya serve` of a chess tree: after 1.e4 a top game opens in the viewer, its players and
    first moves those python-chess reads in the PGN the tree was built from."""
    serve = subprocess.Popen([a.tabiya, "serve", a.tree, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = serve.stdout.readline().strip()
        driver.go(url + "?play=e2e4")
        driver.drawn(1)
        driver.click("section.source .top-games a")
        driver.wait("return !document.getElementById('viewer').hidden && document.body.dataset.ready >= 2", "viewer")
        title = driver.run("return document.getElementById('viewer-title').textContent")
        shown = driver.run("return [...document.querySelectorAll('#viewer-moves > span.move')].slice(0, 6)"
                           ".map(s => s.textContent.replace(/[!?]+$/, ''))")
        expected = None
        with open(a.tree_pgn) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if title.startswith(f"{game.headers['White']} – {game.headers['Black']} "):
                    board = game.board()
                    expected = []
                    for move in list(game.mainline_moves())[:6]:
                        expected.append(board.san(move))
                        board.push(move)
                    break
        check(expected is not None and shown == expected,
              f"tree: a top game opens in the viewer with python-chess's first moves ({title}: {shown})")
    finally:
        serve.terminate()


@contextlib.contextmanager
def explorer(tabiya, sources):
    """`tabiya serve SOURCES` and headless Chromium driven through chromedriver: yields the
    server's address and the driver; stops both and removes the browser's profile after."""
    serve = subprocess.Popen([tabiya, "serve", *sources, "--port", "0"], stdout=subprocess.PIPE, text=True)
    driver_port = free_port()
    chromedriver = subprocess.Popen(["chromedriver", f"--port={driver_port}"], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
    user_data = tempfile.mkdtemp(prefix="tabiya-chromium-")
    driver = None
    try:
        url = serve.stdout.readline().strip()
        for _ in range(100):
            try:
                driver = WebDriver(driver_port, user_data)
                break
            except OSError:
                time.sleep(0.1)
        yield url, driver
    finally:
        if driver is not None:
            driver.quit()
        chromedriver.terminate()
        serve.terminate()
        shutil.rmtree(user_data, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    for name in ["tabiya", "out", "ctg", "polyglot", "scid", "scid-export", "kvetka", "kvetka-pgn", "wthor", "tree",
                 "tree-pgn"]:
        parser.add_argument("--" + name, required=True)
    a = parser.parse_args()
    with explorer(a.tabiya, [a.ctg, a.polyglot, a.scid, a.kvetka]) as (url, driver):
        check(url.startswith("http://127.0.0.1:"), f"tabiya serve prints its address on this machine ({url})")
        driver.go(url)
        driver.drawn(1)
        tables = driver.run(TABLES)
        check([t["format"] for t in tables] == ["ctg", "polyglot", "games", "kvetka"], "one table per source, in order")
        check(driver.run(BOARD) == board_pieces(chess.STARTING_FEN), "the board shows the start position")

        after_e4 = chess.Board()
        tables = play_by_clicks(driver, after_e4, "e2e4", 2)
        check_ctg(table_of(tables, "ctg"), "c7c5", 498, "after 1.e4")
        check_polyglot(table_of(tables, "polyglot"), a.polyglot, after_e4.fen(), "after 1.e4")
        check_counts(table_of(tables, "games"), counted(a.scid_export, ["e2e4"]), "SCID after 1.e4")
        check_counts(table_of(tables, "kvetka"), counted(a.kvetka_pgn, ["e2e4"]), "Kvetka after 1.e4")

        sicilian = after_e4.copy()
        tables = play_by_clicks(driver, sicilian, "c7c5", 3)
        check_ctg(table_of(tables, "ctg"), "b1c3", 421, "after 1.e4 c5")
        check_polyglot(table_of(tables, "polyglot"), a.polyglot, sicilian.fen(), "after 1.e4 c5")
        expected = counted(a.scid_export, ["e2e4", "c7c5"])
        check_counts(table_of(tables, "games"), expected, "SCID after 1.e4 c5")
        white, draws, black = (sum(s[i] for s in expected.values()) for i in (1, 2, 3))
        totals = f"results: white {white:,}, draws {draws:,}, black {black:,}"
        check(table_of(tables, "games")["totals"] == totals, f"SCID after 1.e4 c5: {totals}")
        check(all(t["rows"] or t["format"] == "kvetka" for t in tables), "CTG, Polyglot and SCID tables for 1.e4 c5")
        check(table_of(tables, "games")["games"] > 0, "the SCID table lists top games")
        check(driver.run("return location.search") == "?play=e2e4%2Cc7c5", "the URL holds the moves")
        driver.run("document.getElementById('tables').scrollIntoView()")
        with open(os.path.join(a.out, "explorer.png"), "wb") as f:
            f.write(base64.b64decode(driver.do("GET", "/screenshot")))
        timings = driver.run("return window.tabiyaTimings")

        driver.key("\ue012")  # ArrowLeft: take back
        driver.drawn(4)
        check(driver.run(BOARD) == board_pieces(after_e4.fen()), "the left arrow takes 1...c5 back")

        driver.go(url + "?play=e2e4,c7c5")
        driver.drawn(1)
        check(driver.run(BOARD) == board_pieces(sicilian.fen()), "the shared URL opens on 1.e4 c5")

        driver.click("section[data-format=games] .top-games a")
        driver.wait("return !document.getElementById('viewer').hidden && document.body.dataset.ready >= 2", "viewer")
        moves = driver.run("return [...document.querySelectorAll('#viewer-moves > span.move')].length")
        check(moves > 2, f"the game viewer shows the game's moves ({moves})")
        driver.key("\ue014")  # ArrowRight: the game's first move
        driver.drawn(3)
        check(driver.run(BOARD) == board_pieces(after_e4.fen()), "the right arrow steps the viewed game to 1.e4")

        with open(os.path.join(a.out, "timings.json"), "w") as f:
            json.dump(timings, f)
        print(f"request to table drawn, ms: {', '.join(f'{t:.1f}' for t in timings)}")
        check_othello(driver, a)
        check_tree_game(driver, a)
    failed = RESULTS.count(False)
    print(f"browser: {RESULTS.count(True)} passed, {failed} failed")
    return 1 if failed or not RESULTS else 0


if __name__ == "__main__":
    sys.exit(main())
