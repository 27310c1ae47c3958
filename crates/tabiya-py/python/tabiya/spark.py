"""The distributed book build on Spark.

``build_book(spark, paths, out)`` gives the same bytes as ``tabiya book`` run on the
concatenation of ``paths`` in that order:

1. the executors read the PGN shards through this package (``tabiya.book_counts``), each into
   the counts of every (position key, move) of its games: games, the mover's wins, draws and
   losses, and an ``order`` = shard × 2³² + the move's rank among its position's moves;
2. Spark sums the counts of equal (key, move) across the cluster and keeps the least
   ``order``: the order the moves were first played in the concatenated input, which breaks
   ties of weight as ``polyglot make-book`` does;
3. the driver writes the Polyglot book from the summed counts (``tabiya.write_polyglot_counts``),
   with make-book's weights and filters.

A tree (the explorer's) reduces the same rows. The shards must be readable at the same path
on every executor (a shared file system); on a cluster, ``spark-submit`` with the wheel of
this package installed on every node (or ``--py-files``), as the README says.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, Union

import numpy as np

__all__ = ["build_book", "COUNT_SCHEMA"]

#: The rows the executors make and the cluster reduces (Spark has no unsigned integers: the
#: 64-bit key is carried as its signed twin).
COUNT_SCHEMA = "key long, raw_move int, black boolean, games long, wins long, draws long, losses long, order long"

# Rows with these raw_move values carry a shard's summary (key = the shard), not a move.
_SUMMARY_GAMES = -1
_SUMMARY_READING = -2


def _count_batches(batches: Iterable[Any], options: Dict[str, int]) -> Iterable[Any]:
    """Executor side: every (shard, path) row read into count rows (Arrow record batches)."""
    import pyarrow as pa

    import tabiya

    for batch in batches:
        for shard, path in zip(batch.column("shard").to_pylist(), batch.column("path").to_pylist()):
            counts = tabiya.book_counts(path, shard=shard, **options)
            s = counts["summary"]
            summary = np.array(
                [
                    [shard, _SUMMARY_GAMES, s["games_added"], s["games_chess960"], s["games_below_min_elo"], s["games_invalid_start"]],
                    [shard, _SUMMARY_READING, s["moves_added"], s["unreadable"], s["warnings"], 0],
                ],
                dtype=np.int64,
            )
            yield pa.RecordBatch.from_arrays(
                [
                    pa.array(np.concatenate([counts["key"].view(np.int64), summary[:, 0]])),
                    pa.array(np.concatenate([counts["raw_move"].astype(np.int32), summary[:, 1].astype(np.int32)])),
                    pa.array(np.concatenate([counts["black"], np.zeros(2, dtype=bool)])),
                    pa.array(np.concatenate([counts["games"].astype(np.int64), summary[:, 2]])),
                    pa.array(np.concatenate([counts["wins"].astype(np.int64), summary[:, 3]])),
                    pa.array(np.concatenate([counts["draws"].astype(np.int64), summary[:, 4]])),
                    pa.array(np.concatenate([counts["losses"].astype(np.int64), summary[:, 5]])),
                    pa.array(np.concatenate([counts["order"].view(np.int64), np.zeros(2, dtype=np.int64)])),
                ],
                names=["key", "raw_move", "black", "games", "wins", "draws", "losses", "order"],
            )


def build_book(
    spark: Any,
    paths: Iterable[Union[str, "os.PathLike[str]"]],
    out: Union[str, "os.PathLike[str]"],
    *,
    max_ply: int = 1024,
    min_elo: int = 0,
    min_white_elo: int = 0,
    min_black_elo: int = 0,
    min_strong_elo: int = 0,
    min_games: int = 3,
    min_score: float = 0.0,
    only_white: bool = False,
    only_black: bool = False,
    uniform: bool = False,
    force: bool = False,
) -> Dict[str, int]:
    """Builds the Polyglot book of the PGN shards ``paths`` (in this order) on the cluster of
    ``spark`` (a ``SparkSession``) and writes it to ``out`` on the driver; the options are
    ``tabiya book``'s (``--max-ply``, ``--min-elo`` …, ``--min-games``, ``--min-score``,
    ``--only-white``, ``--only-black``, ``--uniform``). An existing ``out`` is replaced only
    with ``force=True``. Returns what the build did: ``games_added``, ``games_chess960``,
    ``games_below_min_elo``, ``games_invalid_start``, ``moves_added``, ``unreadable``,
    ``warnings`` (summed over the shards) and ``entries`` written."""
    from pyspark.sql import functions as F

    import tabiya

    paths = [os.path.abspath(os.fspath(p)) for p in paths]
    if not paths:
        raise ValueError("no shards")
    if only_white and only_black:
        raise ValueError("only_white and only_black exclude each other")
    if os.path.exists(out) and not force:
        raise FileExistsError(f"{os.fspath(out)}: exists; pass force=True to replace it")
    options = dict(
        max_ply=max_ply,
        min_elo=min_elo,
        min_white_elo=min_white_elo,
        min_black_elo=min_black_elo,
        min_strong_elo=min_strong_elo,
    )
    shards = spark.createDataFrame(list(enumerate(paths)), "shard long, path string").repartition(len(paths))
    counted = shards.mapInArrow(lambda batches: _count_batches(batches, options), COUNT_SCHEMA)
    reduced = counted.groupBy("key", "raw_move").agg(
        F.first("black").alias("black"),
        F.sum("games").alias("games"),
        F.sum("wins").alias("wins"),
        F.sum("draws").alias("draws"),
        F.sum("losses").alias("losses"),
        F.min("order").alias("order"),
    )
    table = reduced.toArrow() if hasattr(reduced, "toArrow") else None
    if table is not None:
        columns = {name: table.column(name).to_numpy() for name in table.column_names}
    else:
        frame = reduced.toPandas()
        columns = {name: frame[name].to_numpy() for name in frame.columns}
    raw_move = columns["raw_move"]
    moves = raw_move >= 0
    summary = {
        "games_added": int(columns["games"][raw_move == _SUMMARY_GAMES].sum()),
        "games_chess960": int(columns["wins"][raw_move == _SUMMARY_GAMES].sum()),
        "games_below_min_elo": int(columns["draws"][raw_move == _SUMMARY_GAMES].sum()),
        "games_invalid_start": int(columns["losses"][raw_move == _SUMMARY_GAMES].sum()),
        "moves_added": int(columns["games"][raw_move == _SUMMARY_READING].sum()),
        "unreadable": int(columns["wins"][raw_move == _SUMMARY_READING].sum()),
        "warnings": int(columns["draws"][raw_move == _SUMMARY_READING].sum()),
    }
    only = "white" if only_white else "black" if only_black else None
    summary["entries"] = tabiya.write_polyglot_counts(
        os.fspath(out),
        np.ascontiguousarray(columns["key"][moves].astype(np.int64).view(np.uint64)),
        np.ascontiguousarray(raw_move[moves].astype(np.uint16)),
        np.ascontiguousarray(columns["black"][moves].astype(bool)),
        np.ascontiguousarray(columns["games"][moves].astype(np.uint32)),
        np.ascontiguousarray(columns["wins"][moves].astype(np.uint32)),
        np.ascontiguousarray(columns["losses"][moves].astype(np.uint32)),
        np.ascontiguousarray(columns["order"][moves].astype(np.int64).view(np.uint64)),
        min_games=min_games,
        min_score=min_score,
        only=only,
        uniform=uniform,
        force=force,
    )
    return summary
