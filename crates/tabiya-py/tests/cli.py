"""The `tabiya` command of this workspace, for tests that compare with it (built when missing)."""

import os
import subprocess
from pathlib import Path

from conftest import ROOT


def tabiya_bin() -> Path:
    """target/debug/tabiya (`cargo test` builds it), or TABIYA_BIN."""
    if os.environ.get("TABIYA_BIN"):
        return Path(os.environ["TABIYA_BIN"])
    path = ROOT / "target" / "debug" / "tabiya"
    if not path.exists():
        subprocess.run(["cargo", "build", "-p", "tabiya-cli", "--bin", "tabiya"], cwd=ROOT, check=True)
    return path


def book(inputs, out, *options):
    subprocess.run([str(tabiya_bin()), "book", *map(str, inputs), "-o", str(out), "--quiet", *options], check=True)


def tree(inputs, out, *options):
    subprocess.run([str(tabiya_bin()), "tree", *map(str, inputs), "-o", str(out), "--quiet", *options], check=True)


def split_pgn(path: Path, shards: int, out_dir: Path, games=None):
    """Cuts a PGN file (its first `games` games, or all) between games into `shards` files, in
    order."""
    text = path.read_bytes()
    starts = [0]
    at = 0
    while True:
        at = text.find(b"\n[Event ", at + 1)
        if at < 0:
            break
        starts.append(at + 1)
    if games is not None and games < len(starts):
        text = text[: starts[games]]
        starts = starts[:games]
    per = max(1, len(starts) // shards)
    cuts = starts[::per][:shards] + [len(text)]
    paths = []
    for i in range(len(cuts) - 1):
        shard = out_dir / f"shard{i}.pgn"
        shard.write_bytes(text[cuts[i] : cuts[i + 1]])
        paths.append(shard)
    return paths
