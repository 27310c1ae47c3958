"""The distributed book and tree builds on Spark.

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

``build_tree(spark, paths, out)`` gives the same bytes as ``tabiya tree`` run on ``paths`` in
that order (``tabiya convert a.tree b.tree -o ab.tree`` merges trees by the same rule):

1. the executors count each shard into a tree of its own (``tabiya.tree_counts``) and hand
   over its records as rows, one per (position key, move) with every count, the move's
   best-rated games numbered shard × 2³² + the game's number in the shard, and one row per
   shard carrying its game table;
2. Spark adds up the rows of equal (key, move): sums, the least known first year, the
   greatest last year, the five best games by rating then number;
3. the driver writes the tree (``tabiya.write_tree_counts``): each shard's games numbered
   after the games of the shards before it, the game tables joined in shard order.

The shards must be readable at the same path
on every executor (a shared file system); on a cluster, ``spark-submit`` with the wheel of
this package installed on every node (or ``--py-files``), as the README says.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, Optional, Union

import numpy as np

__all__ = ["build_book", "build_tree", "local_session", "COUNT_SCHEMA", "TREE_SCHEMA"]

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
                    [shard, _SUMMARY_READING, s["moves_added"], s["unreadable"], s["warnings"], s["cut"]],
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


def local_session(cores: int = 2, app: str = "tabiya", driver_memory: str = "4g") -> Any:
    """A ``SparkSession`` on this machine (``local[cores]``, Arrow hand-over on, no web UI, a
    shuffle partition per core × 2, ``driver_memory`` of JVM heap: the driver collects the
    reduced counts, and a full-depth tree of the medium corpus file's 32,000 games does not fit
    Spark's default 1g), its Python workers this interpreter: for trying the builds, the tests
    and the benchmarks. On a cluster, use the cluster's session."""
    import sys

    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    return (
        SparkSession.builder.master(f"local[{cores}]")
        .appName(app)
        .config("spark.sql.shuffle.partitions", str(2 * cores))
        .config("spark.ui.enabled", "false")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.driver.memory", driver_memory)
        .getOrCreate()
    )


def _shards(spark: Any, paths: Iterable[Union[str, "os.PathLike[str]"]], out: Any, force: bool) -> Any:
    """The shards as a DataFrame of (shard, absolute path), a partition each; refuses an
    existing ``out`` without ``force`` before any work."""
    paths = [os.path.abspath(os.fspath(p)) for p in paths]
    if not paths:
        raise ValueError("no shards")
    if os.path.exists(out) and not force:
        raise FileExistsError(f"{os.fspath(out)}: exists; pass force=True to replace it")
    return spark.createDataFrame(list(enumerate(paths)), "shard long, path string").repartition(len(paths))


def _collect(frame: Any) -> Any:
    """A DataFrame on the driver as a pyarrow Table (``toArrow``, PySpark 4; else through pandas)."""
    import pyarrow as pa

    if hasattr(frame, "toArrow"):
        return frame.toArrow()
    return pa.Table.from_pandas(frame.toPandas(), preserve_index=False)


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
    ``warnings``, ``cut`` (games counted up to an illegal move; summed over the shards) and
    ``entries`` written."""
    from pyspark.sql import functions as F

    import tabiya

    if only_white and only_black:
        raise ValueError("only_white and only_black exclude each other")
    shards = _shards(spark, paths, out, force)
    options = dict(
        max_ply=max_ply,
        min_elo=min_elo,
        min_white_elo=min_white_elo,
        min_black_elo=min_black_elo,
        min_strong_elo=min_strong_elo,
    )
    counted = shards.mapInArrow(lambda batches: _count_batches(batches, options), COUNT_SCHEMA)
    reduced = counted.groupBy("key", "raw_move").agg(
        F.first("black").alias("black"),
        F.sum("games").alias("games"),
        F.sum("wins").alias("wins"),
        F.sum("draws").alias("draws"),
        F.sum("losses").alias("losses"),
        F.min("order").alias("order"),
    )
    table = _collect(reduced)
    columns = {name: table.column(name).to_numpy() for name in table.column_names}
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
        "cut": int(columns["losses"][raw_move == _SUMMARY_READING].sum()),
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


#: The tree's sums, as ``tabiya.tree_counts`` names them.
_TREE_SUMS = ["games", "wins", "draws", "losses", "mover_rating_sum", "mover_rated", "opponent_rating_sum", "opponent_rated"]

#: The rows of a tree build: one per (key, move), and one per shard (an empty key, ``code`` the
#: shard) with its game table, record offsets (uint64 little-endian), sources (JSON) and, in
#: the first five sums, what its build did.
TREE_SCHEMA = (
    "key binary, code int, first_played long, "
    + ", ".join(f"{name} long" for name in _TREE_SUMS)
    + ", first_year int, last_year int, top array<struct<neg_rating:int,game:long>>,"
    + " shard_table binary, table_offsets binary, sources string"
)
_TREE_SUMMARY = ["games_added", "games_chess960", "games_invalid_start", "games_unreadable", "moves_added", "games_cut"]


def _tree_batches(batches: Iterable[Any], options: Dict[str, Any]) -> Iterable[Any]:
    """Executor side: every (shard, path) row counted into a tree, handed over as rows."""
    import json

    import pyarrow as pa

    import tabiya

    top_type = pa.list_(pa.struct([("neg_rating", pa.int32()), ("game", pa.int64())]))
    for batch in batches:
        for shard, path in zip(batch.column("shard").to_pylist(), batch.column("path").to_pylist()):
            c = tabiya.tree_counts(path, shard=shard, **options)
            rows = len(c["code"])
            key = pa.FixedSizeBinaryArray.from_buffers(pa.binary(26), rows, [None, pa.py_buffer(np.ascontiguousarray(c["key"]))])
            offsets = np.concatenate([[0], np.cumsum(c["top_len"], dtype=np.int64)]).astype(np.int32)
            top = pa.StructArray.from_arrays(
                [pa.array(-c["top_rating"].astype(np.int32)), pa.array(c["top_game"].view(np.int64))],
                names=["neg_rating", "game"],
            )
            nothing = pa.nulls(rows, pa.binary())
            yield pa.RecordBatch.from_arrays(
                [key.cast(pa.binary()), pa.array(c["code"].astype(np.int32)), pa.array(c["first_played"].view(np.int64))]
                + [pa.array(c[name].view(np.int64)) for name in _TREE_SUMS]
                + [
                    pa.array(c["first_year"].astype(np.int32)),
                    pa.array(c["last_year"].astype(np.int32)),
                    pa.ListArray.from_arrays(pa.array(offsets), top).cast(top_type),
                    nothing,
                    nothing,
                    pa.nulls(rows, pa.string()),
                ],
                names=["key", "code", "first_played", *_TREE_SUMS, "first_year", "last_year", "top", "shard_table", "table_offsets", "sources"],
            )
            summary = [c["summary"][name] for name in _TREE_SUMMARY] + [0] * (len(_TREE_SUMS) - len(_TREE_SUMMARY))
            yield pa.RecordBatch.from_arrays(
                [pa.array([b""], pa.binary()), pa.array([shard], pa.int32()), pa.array([0], pa.int64())]
                + [pa.array([n], pa.int64()) for n in summary]
                + [
                    pa.array([0], pa.int32()),
                    pa.array([0], pa.int32()),
                    pa.array([[]], top_type),
                    pa.array([c["table"]], pa.binary()),
                    pa.array([c["table_offsets"].astype("<u8").tobytes()], pa.binary()),
                    pa.array([json.dumps(c["sources"])], pa.string()),
                ],
                names=["key", "code", "first_played", *_TREE_SUMS, "first_year", "last_year", "top", "shard_table", "table_offsets", "sources"],
            )


def build_tree(
    spark: Any,
    paths: Iterable[Union[str, "os.PathLike[str]"]],
    out: Union[str, "os.PathLike[str]"],
    *,
    max_ply: Optional[int] = None,
    memory: int = 1 << 30,
    force: bool = False,
) -> Dict[str, int]:
    """Builds the explorer's tree of the games of ``paths`` (any chess games sources, in this
    order) on the cluster of ``spark`` and writes it to ``out`` on the driver: the same bytes
    as ``tabiya tree PATHS... -o OUT`` with the paths as absolute paths (a tree names its
    sources). The options are ``tabiya tree``'s: ``max_ply`` (``--max-ply``), ``memory``
    (``--memory`` of each executor's build, in bytes). An existing ``out`` is replaced only
    with ``force=True``. Returns what the build did: ``games_added``, ``games_chess960``,
    ``games_invalid_start``, ``games_unreadable``, ``moves_added``, ``games_cut`` (games
    counted up to an illegal move; summed over the shards) and the ``positions`` written.

    The driver collects every reduced (position, move) row (about 200 bytes each in its JVM):
    give it the memory (``spark.driver.memory``), or build trees of parts with ``max_ply`` or
    fewer shards and merge them with ``tabiya convert a.tree b.tree -o ab.tree``."""
    import json

    import pyarrow.compute as pc
    from pyspark.sql import functions as F

    import tabiya

    shards = _shards(spark, paths, out, force)
    options = dict(max_ply=max_ply, memory=memory)
    counted = shards.mapInArrow(lambda batches: _tree_batches(batches, options), TREE_SCHEMA)
    known_year = F.when(F.col("first_year") > 0, F.col("first_year"))
    reduced = counted.groupBy("key", "code").agg(
        # A position's moves in the order they were first played, over the shards in order.
        F.min("first_played").alias("first_played"),
        *[F.sum(name).alias(name) for name in _TREE_SUMS],
        F.coalesce(F.min(known_year), F.lit(0)).alias("first_year"),
        F.max("last_year").alias("last_year"),
        # Best first: the highest rating, then the lowest number (the shard, then the game).
        F.slice(F.sort_array(F.flatten(F.collect_list("top"))), 1, 5).alias("top"),
        F.first("shard_table", ignorenulls=True).alias("shard_table"),
        F.first("table_offsets", ignorenulls=True).alias("table_offsets"),
        F.first("sources", ignorenulls=True).alias("sources"),
    )
    table = _collect(reduced)
    is_shard = pc.equal(pc.binary_length(table.column("key")), 0)
    shard_rows = table.filter(is_shard).sort_by("code").to_pylist()
    if [row["code"] for row in shard_rows] != list(range(len(shard_rows))):
        raise RuntimeError("a shard's game table is missing from the counts")
    moves = table.filter(pc.invert(is_shard))
    top = moves.column("top").combine_chunks()
    flat = top.flatten()
    summary = {name: sum(row[sum_name] for row in shard_rows) for name, sum_name in zip(_TREE_SUMMARY, _TREE_SUMS)}
    summary["positions"] = tabiya.write_tree_counts(
        os.fspath(out),
        b"".join(moves.column("key").to_pylist()),
        moves.column("code").to_numpy().astype(np.uint16),
        np.ascontiguousarray(moves.column("first_played").to_numpy().view(np.uint64)),
        [np.ascontiguousarray(moves.column(name).to_numpy().view(np.uint64)) for name in _TREE_SUMS],
        moves.column("first_year").to_numpy().astype(np.uint16),
        moves.column("last_year").to_numpy().astype(np.uint16),
        top.value_lengths().to_numpy(zero_copy_only=False).astype(np.uint8),
        (-flat.field("neg_rating").to_numpy()).astype(np.uint16),
        np.ascontiguousarray(flat.field("game").to_numpy().view(np.uint64)),
        [
            (row["shard_table"], np.frombuffer(row["table_offsets"], "<u8").astype(np.uint64), [tuple(s) for s in json.loads(row["sources"])])
            for row in shard_rows
        ],
        force=force,
    )
    return summary
