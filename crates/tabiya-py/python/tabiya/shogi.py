"""Shogi: T-BASE tsume problem sets (``.dia`` with ``.tjn`` and ``.rem``) and KIF, KI2, CSA and
SFEN records, read and written as ``tabiya convert`` does."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any, Dict, List, Sequence, Tuple, Union

from ._tabiya import shogi_convert as _convert

__all__ = ["convert", "problems", "records"]

PathLike = Union[str, "os.PathLike[str]"]


def convert(inputs: Union[PathLike, Sequence[PathLike]], output: PathLike, *, to: str = None, force: bool = False) -> Tuple[List[str], List[Dict[str, Any]], str]:
    """Converts a T-BASE set (alone) or KIF/KI2/CSA/SFEN files to ``output`` (its format from
    ``to`` or its extension: ``.kif``, ``.ki2``, ``.csa``, ``.sfen``, ``.dia``, ``.jsonl``).
    An existing file is replaced only with ``force=True``. Returns the files written, what the
    conversion met (records skipped, fields cut, as diagnostic dicts) and a summary line."""
    paths = [os.fspath(inputs)] if isinstance(inputs, (str, os.PathLike)) else [os.fspath(p) for p in inputs]
    files, diagnostics, summary = _convert(paths, os.fspath(output), to=to, write=True, force=force)
    return [os.fspath(path) for path, _ in files], diagnostics, summary


def _json_lines(inputs: Union[PathLike, Sequence[PathLike]]) -> List[Dict[str, Any]]:
    paths = [os.fspath(inputs)] if isinstance(inputs, (str, os.PathLike)) else [os.fspath(p) for p in inputs]
    # Nothing is written: the JSON Lines are made in memory.
    output = os.path.join(tempfile.gettempdir(), "tabiya-shogi.jsonl")
    files, diagnostics, _ = _convert(paths, output, to="jsonl", write=False)
    out = []
    for _, data in files:
        out.extend(json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip())
    return out


def problems(path: PathLike) -> List[Dict[str, Any]]:
    """The problems of a T-BASE set (the ``.dia``; ``.tjn`` and ``.rem`` found beside it), each
    a dict of every field: the SFEN, the solution in USI and in T-BASE notation, the comment."""
    return _json_lines(path)


def records(paths: Union[PathLike, Sequence[PathLike]]) -> List[Dict[str, Any]]:
    """The records of KIF, KI2, CSA or SFEN files, each a dict (headers, start SFEN, moves)."""
    return _json_lines(paths)
