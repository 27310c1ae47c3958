"""Wthor games and positions against Othello's rules worked by hand; the solver against the
FFO answers."""

import struct

import numpy as np
import pytest

from tabiya import othello
from conftest import corpus_file


def wthor_file(path, games, year=2026):
    """A `.wtb`: header (created 2026-02-16, year, P1 8, P3 24) and 68-byte records with moves
    coded 10 · row + column (rows and columns from 1)."""
    header = bytes([20, 26, 2, 16]) + struct.pack("<IHHBBBB", len(games), 0, year, 8, 0, 24, 0)
    records = b""
    for black, white, real, theoretical, moves in games:
        codes = [10 * (int(m[1])) + (ord(m[0]) - ord("a") + 1) for m in moves]
        records += struct.pack("<HHHBB", 0, black, white, real, theoretical) + bytes(codes + [0] * (60 - len(codes)))
    path.write_bytes(header + records)


def square(name):
    return (ord(name[0]) - ord("a")) + 8 * (int(name[1]) - 1)


def bits(*names):
    return sum(1 << square(n) for n in names)


def test_games_as_arrays(tmp_path):
    path = tmp_path / "WTH_2026.wtb"
    wthor_file(path, [(1, 2, 40, 36, ["f5", "d6", "c3"]), (3, 4, 30, 32, ["f5", "f6"])])
    games = othello.read_wthor(path)
    assert games["moves"].shape == (2, 60)
    assert games["moves"][0, :4].tolist() == [square("f5"), square("d6"), square("c3"), 255]
    assert games["black"].tolist() == [1, 3] and games["white"].tolist() == [2, 4]
    assert games["real_score"].tolist() == [40, 30] and games["theoretical_score"].tolist() == [36, 32]
    assert games["year"].tolist() == [2026, 2026]


def test_positions_after_plies_and_at_empties(tmp_path):
    path = tmp_path / "WTH_2026.wtb"
    wthor_file(path, [(0, 0, 0, 0, ["f5", "d6"]), (0, 0, 0, 0, ["f5"])])
    # After f5 Black has d5, e4, e5, f5 and White d4; White to move.
    one = othello.positions(path, plies=1)
    assert one["black"].tolist() == [bits("d5", "e4", "e5", "f5")] * 2
    assert one["white"].tolist() == [bits("d4")] * 2
    assert one["black_to_move"].tolist() == [False, False]
    # After f5 d6 (White flips d5): Black e4 e5 f5, White d4 d5 d6; only the first game has 2 plies.
    two = othello.positions(path, empties=58)
    assert two["game"].tolist() == [0]
    assert two["black"].tolist() == [bits("e4", "e5", "f5")]
    assert two["white"].tolist() == [bits("d4", "d5", "d6")]


def test_solver_agrees_with_the_ffo_answers():
    answers = corpus_file("ffo/ffo_1_79_answers.tsv")
    rows = [line.split("\t") for line in answers.read_text().splitlines() if line and not line.startswith(("#", "id"))]
    _, board, side, empties, score, best, _ = rows[0]
    black = sum(1 << i for i, c in enumerate(board) if c == "X")
    white = sum(1 << i for i, c in enumerate(board) if c == "O")
    got_score, got_best = othello.solve((black, white, side == "X"))
    assert got_score == int(score)
    assert got_best[0] in best.split(",")
