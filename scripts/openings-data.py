#!/usr/bin/env python3
"""Writes crates/tabiya-chess/src/openings/openings.tsv, the opening names tabiya ships, from
the CC0 lichess-org/chess-openings TSVs (../shared/data/chess-openings by default).

The compact form is the TSVs' rows in file order (a.tsv to e.tsv) as `eco<TAB>name<TAB>moves`,
the moves in SAN without move numbers: the crate builds from its own files (the TSVs are not in
the repository), the data stays reviewable as text, and needs no chess library to make.

Usage: scripts/openings-data.py [DIR]
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
source = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root.parent / "shared" / "data" / "chess-openings"
target = root / "crates" / "tabiya-chess" / "src" / "openings" / "openings.tsv"

rows = []
for letter in "abcde":
    lines = (source / f"{letter}.tsv").read_text(encoding="utf-8").splitlines()
    if lines[0] != "eco\tname\tpgn":
        sys.exit(f"{letter}.tsv: unexpected header {lines[0]!r}")
    for line in lines[1:]:
        eco, name, pgn = line.split("\t")
        moves = [token for token in pgn.split() if not re.fullmatch(r"\d+\.+", token)]
        rows.append(f"{eco}\t{name}\t{' '.join(moves)}\n")

target.write_text("".join(rows), encoding="utf-8")
print(f"{target}: {len(rows)} openings")
