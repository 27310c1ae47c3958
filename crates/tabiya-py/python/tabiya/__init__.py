"""tabiya from Python: chess games, opening books and positions, Othello and shogi.

Chess
    ``read_games(path_or_file)`` streams the games of PGN (plain or gzip/bzip2/xz/zstd),
    SCID 3/4/5 or JSON Lines, read on all cores; ``write_games(path, games)`` writes PGN,
    JSON Lines or SCID 4/5; ``open_book(path)`` opens a Polyglot, CTG or Kvetka book whose
    ``find_all(board_or_fen)`` gives entries shaped like ``chess.polyglot.Entry``;
    ``positions(path)`` yields batches of NumPy arrays (or Arrow record batches) of positions.
Othello and shogi
    ``tabiya.othello`` (Wthor games, positions, the solver), ``tabiya.shogi`` (T-BASE, KIF,
    KI2, CSA, SFEN).
Spark
    ``tabiya.spark.build_book(spark, paths, out)``, ``tabiya.spark.build_tree(spark, paths, out)``.

Text: tag values and comments are kept as the file's bytes. ``Game.tags``, ``Game.tag(name)``
and ``Game.tree()`` give ``str`` decoded as the file's text (UTF-8, or Latin-1 where the
bytes are not UTF-8: PGN's two encodings);
``Game.raw_tags``, ``Game.tag(name, raw=True)`` and ``Game.tree(raw=True)`` give ``bytes``.

Errors: a file or game that cannot be read raises ``TabiyaError`` with ``file``, ``offset``,
``number``, ``unit`` and ``code`` (a stable dotted name such as ``pgn.illegal_move``).
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Union

from ._tabiya import (
    Game,
    GameReader,
    PolyglotCountsWriter,
    PositionReader,
    TabiyaError,
    TreeCountsWriter,
    book_counts,
    read_games,
    tree_counts,
    write_games,
)
from ._tabiya import Book as _Book
from ._tabiya import positions as _positions

__all__ = [
    "Book",
    "BookEntry",
    "Game",
    "GameReader",
    "PolyglotCountsWriter",
    "PositionReader",
    "TabiyaError",
    "TreeCountsWriter",
    "book_counts",
    "open_book",
    "positions",
    "read_games",
    "to_python_chess",
    "tree_counts",
    "write_games",
]


class BookEntry(NamedTuple):
    """A book move, shaped like ``chess.polyglot.Entry`` (``key``, ``raw_move``, ``weight``,
    ``learn``, ``move``) plus the statistics the format keeps.

    ``move`` is a ``chess.Move`` when python-chess is installed, else the UCI text. ``key`` and
    ``raw_move`` are Polyglot's (``raw_move`` is None for CTG and Kvetka, which store moves
    otherwise); ``learn`` is 0 where the format has none. ``games``, ``wins``, ``draws`` and
    ``losses`` are from the mover's point of view, None where the format keeps no counts;
    ``annotation`` is ``!``, ``?``… where the book has one; ``extra`` holds the format's raw
    fields.
    """

    key: int
    raw_move: Optional[int]
    weight: int
    learn: int
    move: Any
    uci: str
    san: str
    games: Optional[int]
    wins: Optional[int]
    draws: Optional[int]
    losses: Optional[int]
    annotation: Optional[str]
    extra: Dict[str, Any]


def _fen(board_or_fen: Any) -> str:
    if isinstance(board_or_fen, str):
        return board_or_fen
    fen = getattr(board_or_fen, "fen", None)
    if callable(fen):
        return fen()
    raise TypeError("expected a FEN or a chess.Board")


def _chess_move(uci: str) -> Any:
    try:
        import chess
    except ImportError:
        return uci
    return chess.Move.from_uci(uci)


class Book:
    """An opening book: Polyglot ``.bin``, ChessBase CTG (``.ctg`` with ``.cto``/``.ctb``) or
    Kvetka (``book_0.kob`` …). Open with :func:`open_book`."""

    def __init__(self, path: Union[str, os.PathLike]) -> None:
        self._book = _Book(os.fspath(path))

    @property
    def format(self) -> str:
        """``polyglot``, ``ctg`` or ``kvetka``."""
        return self._book.format

    def probe(self, board_or_fen: Any) -> Dict[str, Any]:
        """The ``tabiya probe --json`` answer: ``found``, ``position`` (the format's statistics
        of the position), ``moves`` (in the book's order), ``problems``."""
        return json.loads(self._book.probe_json(_fen(board_or_fen)))

    def find_all(self, board_or_fen: Any) -> Iterator[BookEntry]:
        """The book's moves for a position (a ``chess.Board`` or a FEN), as python-chess's
        ``MemoryMappedReader.find_all`` gives them: heaviest first (equal weights in the
        book's order)."""
        report = self.probe(board_or_fen)
        key = int(report["position"].get("key", "0"), 16) if isinstance(report["position"].get("key"), str) else 0
        entries = []
        for m in report["moves"]:
            known = {"uci", "san", "weight", "games", "wins", "draws", "losses", "annotation"}
            extra = {k: v for k, v in m.items() if k not in known}
            raw = extra.get("raw_move")
            entries.append(
                BookEntry(
                    key=key,
                    raw_move=int(raw, 16) if isinstance(raw, str) else None,
                    weight=m["weight"],
                    learn=extra.get("learn", 0),
                    move=_chess_move(m["uci"]),
                    uci=m["uci"],
                    san=m["san"],
                    games=m.get("games"),
                    wins=m.get("wins"),
                    draws=m.get("draws"),
                    losses=m.get("losses"),
                    annotation=m.get("annotation"),
                    extra=extra,
                )
            )
        entries.sort(key=lambda e: -e.weight)
        return iter(entries)

    def find(self, board_or_fen: Any) -> BookEntry:
        """The heaviest move; ``IndexError`` when the position is not in the book (as
        python-chess)."""
        for entry in self.find_all(board_or_fen):
            return entry
        raise IndexError("position not in the book")

    def info(self) -> Dict[str, Any]:
        """The ``tabiya info --json`` answer."""
        return json.loads(self._book.info_json())

    def verify(self) -> Dict[str, Any]:
        """The ``tabiya verify --json`` answer (``ok``, ``checked``, ``problems``)."""
        return json.loads(self._book.verify_json())

    def close(self) -> None:
        """Nothing to release early (kept for python-chess's reader interface)."""

    def __enter__(self) -> "Book":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def open_book(path: Union[str, os.PathLike]) -> Book:
    """Opens a Polyglot, CTG or Kvetka book (the format found from the file), the way
    ``chess.polyglot.open_reader`` opens a Polyglot one."""
    return Book(path)


def positions(
    source: Any,
    *,
    layout: str = "bitboards",
    batch_size: int = 65536,
    max_ply: Optional[int] = None,
    on_error: str = "raise",
    arrow: bool = False,
    tree_keys: bool = False,
) -> Iterator[Any]:
    """Every main-line position of every game of ``source`` (a path or file object, as
    :func:`read_games` takes), with the move played from it, in batches of about
    ``batch_size`` rows, parsed and replayed in Rust on all cores.

    Each batch is a dict of NumPy arrays (or, with ``arrow=True``, a ``pyarrow.RecordBatch``
    of the same columns):

    - ``bitboards`` uint64 (n, 12): White's pawns, knights, bishops, rooks, queens, king, then
      Black's (bit 0 = a1, bit 63 = h8); or with ``layout="planes"``, ``planes`` uint8
      (n, 12, 64), 1 where the piece stands;
    - ``turn`` uint8 (0 White, 1 Black to move); ``castling`` uint8 (1 White O-O, 2 White
      O-O-O, 4 Black O-O, 8 Black O-O-O); ``en_passant`` int8 (the square when an en-passant
      capture is legal, else -1);
    - ``move`` uint16: from + 64 × to + 4096 × promotion (0 none, 2 knight, 3 bishop, 4 rook,
      5 queen), castling as the king's move (``e1g1``);
    - ``result`` int8 (1 White won, 0 draw, -1 Black won, 2 unknown: ``*``, or a game cut at an
      illegal move, as :func:`read_games` reads it), ``white_elo`` and
      ``black_elo`` uint16 (0 when absent), ``ply`` uint16 (from 0), ``game`` uint64 (the
      game's index in the source, from 0, counting games that could not be read);
    - with ``tree_keys=True``, ``tree_key`` uint8 (n, 26): the position's key in ``tabiya
      tree`` files and in the Parquet moves table's ``tree_key`` (the normalised position, no
      hash; zeros for a position of more than 32 pieces, which no tree holds).

    Positions stop at ``max_ply`` moves and at a null move. A game that cannot be read raises
    ``TabiyaError`` unless ``on_error="skip"``.
    """
    reader = _positions(
        source, layout=layout, batch_size=batch_size, max_ply=max_ply, on_error=on_error, tree_keys=tree_keys
    )
    if not arrow:
        return reader
    return (_arrow_batch(batch) for batch in reader)


def _arrow_batch(batch: Dict[str, Any]) -> Any:
    import pyarrow as pa

    arrays, names = [], []
    for name, column in batch.items():
        if column.ndim == 1:
            arrays.append(pa.array(column))
        else:
            width = int(column[0].size) if len(column) else int(column.shape[1] * (column.shape[2] if column.ndim == 3 else 1))
            arrays.append(pa.FixedSizeListArray.from_arrays(pa.array(column.reshape(-1)), width))
        names.append(name)
    return pa.RecordBatch.from_arrays(arrays, names=names)


def to_python_chess(game: Game) -> Any:
    """The game as a ``chess.pgn.Game`` (needs python-chess): every tag, the start position,
    moves, comments, NAGs and variations."""
    import chess
    import chess.pgn

    out = chess.pgn.Game()
    out.headers.clear()
    for name, value in game.tags.items():
        out.headers[name] = value
    if game.start_fen is not None:
        board = chess.Board(game.start_fen, chess960=game.chess960)
        out.setup(board)
    elif game.chess960:
        out.board().chess960 = True
    tree = game.tree()
    out.comment = " ".join(tree["comments"])

    def add(parent: Any, line: Dict[str, Any]) -> None:
        node = parent
        for m in line["moves"]:
            before = node
            child = before.add_variation(chess.Move.from_uci(m["uci"]))
            child.comment = " ".join(m["comments"])
            child.nags.update(m["nags"])
            for variation in m["variations"]:
                if variation["moves"]:
                    first = variation["moves"][0]
                    branch = before.add_variation(chess.Move.from_uci(first["uci"]))
                    branch.starting_comment = " ".join(variation["comments"])
                    branch.comment = " ".join(first["comments"])
                    branch.nags.update(first["nags"])
                    for sub in first["variations"]:
                        add(before, sub)
                    add(branch, {"comments": [], "moves": variation["moves"][1:]})
            node = child

    add(out, tree)
    return out
