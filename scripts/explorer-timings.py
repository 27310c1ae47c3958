"""How fast `tabiya serve` answers a move: request to table drawn, as the page measures it.

    source scripts/venv.sh
    python scripts/explorer-timings.py --tabiya target/release/tabiya SOURCE... [--moves "e2e4 c7c5 ..."]

Starts `tabiya serve SOURCE...` and headless Chromium (chromedriver), plays the moves (UCI, by
clicking their squares; by default a 20-ply Najdorf line), and prints the page's own time from
asking `/api/explore` to the frame with the new tables laid out (`window.tabiyaTimings`, one per
move), then the fetch's share of it (the browser's Resource Timing of each `/api/explore`), then each
answer fetched alone from Python for the same positions.
A benchmark for BENCHMARKS.md, not a test: it asserts nothing about speed.
"""

import argparse
import os
import statistics
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "suites"))
from browser_test import explorer  # noqa: E402

NAJDORF = ("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 "
           "c1e3 e7e5 d4b3 c8e6 f2f3 f8e7 d1d2 e8g8 e1c1 b8d7")


def summary(name, times):
    print(f"{name}: {len(times)} moves, median {statistics.median(times):.1f} ms, "
          f"worst {max(times):.1f} ms ({', '.join(f'{t:.1f}' for t in times)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabiya", required=True)
    parser.add_argument("--moves", default=NAJDORF)
    parser.add_argument("sources", nargs="+")
    a = parser.parse_args()
    moves = a.moves.split()
    with explorer(a.tabiya, a.sources) as (url, driver):
        driver.go(url)
        driver.drawn(1)
        for n, uci in enumerate(moves, start=2):
            driver.click(f"[data-square={uci[:2]}]")
            driver.click(f"[data-square={uci[2:4]}]")
            driver.drawn(n)
        timings = driver.run("return window.tabiyaTimings")[1:]
        summary("request to table drawn (page)", timings)
        fetched = driver.run("return performance.getEntriesByType('resource')"
                             ".filter(e => e.name.includes('/api/explore')).map(e => e.responseEnd - e.startTime)")[1:]
        summary("of which the answer's fetch (page, Resource Timing)", fetched)
        api = []
        for n in range(1, len(moves) + 1):
            started = time.perf_counter()
            with urllib.request.urlopen(f"{url.rstrip('/')}/api/explore?play={','.join(moves[:n])}") as response:
                response.read()
            api.append((time.perf_counter() - started) * 1000)
        summary("/api/explore alone (Python client)", api)


if __name__ == "__main__":
    main()
