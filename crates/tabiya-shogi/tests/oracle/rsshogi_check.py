#!/usr/bin/env python3
"""Checks tabiya's KIF, KI2 and CSA against rsshogi (MIT; PyPI `rsshogi`), both ways.

Not part of `cargo test` (it needs Python and a package from PyPI): run it by hand after changing
the notation writers or readers:

    python3 -m venv /tmp/rsshogi && /tmp/rsshogi/bin/pip install rsshogi==1.7.0
    cargo build -p tabiya-cli
    /tmp/rsshogi/bin/python crates/tabiya-shogi/tests/oracle/rsshogi_check.py target/debug/tabiya

1. tabiya writes the seed's example (tbase.md §10) as .kif/.ki2/.csa; rsshogi must read back the
   documented start SFEN and the documented 17-move USI line.
2. rsshogi writes that record as KIF, KI2 and CSA; tabiya must read each into a .dia + .tjn whose
   solution is the documented T-BASE line.
"""

import os
import shutil
import subprocess
import sys
import tempfile

import rsshogi
from rsshogi.record import Record

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
SFEN = "9/1kg6/1p7/3+R5/P+b1g5/2b6/9/9/9 b G2SNrg2s3n4l16p 1"
USI = "S*7c 7b7c N*9d 8e9d S*7a 8b9b G*8b 9b9c 9e9d 7f9d B*8d 7c8d 8b9b 9c9b 6d6b 9b9c 6b8b".split()
TBASE = "73銀同金94桂同馬71銀92玉82金93玉94歩同角84角同金92金同玉62龍93玉82龍"



def canonical(sfen, sente_only=False):
    """Board, side and the hands as counts (rsshogi orders hand pieces its own way)."""
    board, side, hand = sfen.split()[:3]
    counts, n = {}, ""
    for c in "" if hand == "-" else hand:
        if c.isdigit():
            n += c
            continue
        if not (sente_only and c.islower()):
            counts[c] = int(n or 1)
        n = ""
    return board, side, sorted(counts.items())


def usi_moves(record):
    return [entry.move.to_usi() for entry in record.moves]


def main(tabiya):
    failures = 0
    work = tempfile.mkdtemp()
    shutil.copy(os.path.join(DATA, "example_3line.dia"), os.path.join(work, "p.dia"))
    shutil.copy(os.path.join(DATA, "example.tjn"), os.path.join(work, "p.tjn"))
    readers = {"kif": Record.from_kif_str, "ki2": Record.from_ki2_str, "csa": Record.from_csa_str}
    for ext, read in readers.items():
        out = os.path.join(work, "out." + ext)
        subprocess.run([tabiya, "--quiet", "convert", os.path.join(work, "p.dia"), "-o", out], check=True)
        with open(out, encoding="cp932") as f:
            text = f.read()
        if ext != "csa" and "\n手数：" in text:
            # rsshogi 1.7.0 takes any line starting with 手数 for the start of the moves and rejects
            # the tsume header 手数：N that 柿木将棋 writes; check everything else.
            print(f"note: rsshogi {rsshogi.__version__} rejects the 手数： header line; checked without it")
            text = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("手数："))
        record = read(text)
        # rsshogi 1.7.0 reads P-00AL as gote's half of a set (9 歩 2 香 …), not as every remaining
        # piece (the CSA standard, and tsume usage): for CSA compare the board and sente's hand.
        sente_only = ext == "csa"
        start = canonical(record.init_position_sfen.removeprefix("sfen "), sente_only)
        expected = canonical(SFEN, sente_only)
        got = (start, usi_moves(record))
        ok = got == (expected, USI)
        failures += not ok
        print(f"tabiya → {ext} → rsshogi: {'ok' if ok else 'MISMATCH ' + repr(got)}")
    reference = Record.from_usi_position("sfen " + SFEN + " moves " + " ".join(USI))
    writers = {"kif": reference.to_kif, "ki2": reference.to_ki2, "csa": reference.to_csa}
    for ext, write in writers.items():
        path = os.path.join(work, "ref." + ext)
        with open(path, "w", encoding="utf-8") as f:
            f.write(write())
        dia = os.path.join(work, f"from_{ext}.dia")
        subprocess.run([tabiya, "--quiet", "convert", path, "-o", dia], check=True)
        tjn = open(dia[:-4] + ".tjn", "rb").read().decode("cp932")
        moves = "".join(line[5:].rstrip("/") for line in tjn.splitlines() if "まで" not in line)
        ok = moves == TBASE
        failures += not ok
        print(f"rsshogi → {ext} → tabiya: {'ok' if ok else 'MISMATCH ' + moves}")
    print(f"rsshogi {rsshogi.__version__}: {6 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "target/debug/tabiya"))
