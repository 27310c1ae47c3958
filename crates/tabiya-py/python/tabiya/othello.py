"""Othello: Wthor game files as NumPy arrays, positions as bitboard pairs, the exact solver.

Squares are numbered a1 = 0, b1 = 1 … h8 = 63 (bit ``8 * row + column`` of a bitboard).
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Tuple, Union

from ._tabiya import solve as _solve
from ._tabiya import wthor_games as _wthor_games
from ._tabiya import wthor_positions as _wthor_positions

__all__ = ["read_wthor", "positions", "solve", "square_name"]

PathLike = Union[str, "os.PathLike[str]"]


def read_wthor(path: PathLike, *, names: Optional[PathLike] = None) -> Dict[str, Any]:
    """The games of a Wthor ``.wtb`` file as NumPy arrays, one row per game: ``moves`` (uint8,
    games × 60, squares, 255 after the last move; passes are not stored), ``black``, ``white``
    (uint16 indices into ``players``), ``tournament`` (into ``tournaments``), ``real_score``
    and ``theoretical_score`` (uint8, Black's discs), ``year``; ``players`` and
    ``tournaments`` are the names of WTHOR.JOU and WTHOR.TRN beside the file (or in
    ``names``), empty when there are none; ``header`` the file's header fields."""
    return _wthor_games(os.fspath(path), names=None if names is None else os.fspath(names))


def positions(path: PathLike, *, plies: Optional[int] = None, empties: Optional[int] = None) -> Dict[str, Any]:
    """The position of every game after ``plies`` moves or with ``empties`` empty squares (one
    of the two): ``black``, ``white`` (uint64 bitboards), ``black_to_move`` (bool, the side
    that must move after a forced pass), ``game`` (the game's index in the file)."""
    return _wthor_positions(os.fspath(path), plies=plies, empties=empties)


def solve(position: Any, white: Optional[int] = None, black_to_move: bool = True) -> Tuple[int, List[str]]:
    """Solves a position exactly: ``solve((black, white, black_to_move))`` or
    ``solve(black, white, black_to_move)`` with bitboards. Returns ``(score, best_moves)``:
    the final disc difference for the side to move under perfect play (empties to the winner)
    and its best moves (``["b1"]``; empty when it must pass or the game is over)."""
    if white is None:
        black, white, black_to_move = position
    else:
        black = position
    return _solve(int(black), int(white), bool(black_to_move))


def square_name(square: int) -> str:
    """``0`` → ``"a1"`` … ``63`` → ``"h8"``."""
    return "abcdefgh"[square % 8] + str(square // 8 + 1)
