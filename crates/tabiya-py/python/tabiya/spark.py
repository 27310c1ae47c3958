"""The distributed book and tree builds on Spark.

``build_book(spark, paths, out)`` gives the same bytes as ``tabiya book`` run on the
concatenation of ``paths`` in that order:

1. the executors read the PGN shards through this package (``tabiya.book_counts``), each into
   the counts of every (position key, move) of its games: games, the mover's wins, draws and
   losses, and an ``order`` = shard × 2³² + the move's rank among its position's moves;
2. Spark sums the counts of equal (key, move) across the cluster and keeps the least
   ``order``: the order the moves were first played in the concatenated input, which breaks
   ties of weight as ``polyglot make-book`` does;
3. the summed counts are sorted by key (as Polyglot orders them: unsigned) then ``order`` on
   the cluster and come to the driver a partition at a time (``toLocalIterator``), where
   ``tabiya.PolyglotCountsWriter`` writes each position's entries as the next one starts,
   with make-book's weights and filters: the driver holds one partition, whatever the book's
   size.

``build_tree(spark, paths, out)`` gives the same bytes as ``tabiya tree`` run on ``paths`` in
that order (``tabiya convert a.tree b.tree -o ab.tree`` merges trees by the same rule):

1. the executors count each shard into a tree of its own (``tabiya.tree_counts``) and hand
   over its records as rows, one per (position key, move) with every count, the move's
   best-rated games numbered shard × 2³² + the game's number in the shard, and one row per
   shard carrying its game table;
2. Spark adds up the rows of equal (key, move): sums, the least known first year, the
   greatest last year, the five best games by rating then number;
3. the summed rows are sorted by key then first play on the cluster and come to the driver a
   partition at a time, the shards' game tables first (their key is empty), where
   ``tabiya.TreeCountsWriter`` writes each position as the next one starts, each shard's
   games numbered after the games of the shards before it, and the game tables joined in
   shard order at the end: the driver holds one partition and the game tables, whatever the
   tree's size.

The shards must be readable at the same path
on every executor (a shared file system); on a cluster, ``spark-submit`` with the wheel of
this package installed on every node (or ``--py-files``), as the README says.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, Iterator, Optional, Union

import numpy as np

__all__ = ["build_book", "build_tree", "local_session", "COUNT_SCHEMA", "TREE_SCHEMA"]

#: The rows the executors make and the cluster reduces (Spark has no unsigned integers: the
#: 64-bit key is carried as its signed twin).
COUNT_SCHEMA = "key long, raw_move int, black boolean, games long, wins long, draws long, losses long, order long"

# Rows with these raw_move values carry a shard's summary (key = the shard), not a move: the
# first four of _BOOK_SUMMARY in games, wins, draws, losses, and the last four.
_SUMMARY_GAMES = -1
_SUMMARY_READING = -2
_BOOK_SUMMARY = [
    "games_added",
    "games_chess960",
    "games_below_min_elo",
    "games_invalid_start",
    "moves_added",
    "unreadable",
    "warnings",
    "cut",
]


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
                    [shard, _SUMMARY_GAMES, *(s[name] for name in _BOOK_SUMMARY[:4])],
                    [shard, _SUMMARY_READING, *(s[name] for name in _BOOK_SUMMARY[4:])],
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
    shuffle partition per core × 2, ``driver_memory`` of JVM heap: the builds stream their
    counts to the driver a partition at a time, but in local mode the executors' aggregation
    shares that heap, and a second full-depth tree of the medium corpus file in one 1g session
    ran out of it), its Python workers this interpreter: for trying the builds, the tests and
    the benchmarks. On a cluster, use the cluster's session."""
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


def _sorted(frame: Any, paths: Iterable[str], *columns: Any) -> Any:
    """``frame`` sorted by ``columns`` in partitions of about 16 MiB of rows (one a MiB of
    input, at least one a shuffle partition): the most the driver holds at a time. Not
    ``orderBy``, whose partitions adaptive execution merges up to 64 MiB and more, a task
    result the driver's block manager may drop under a 1g heap."""
    parts = int(frame.sparkSession.conf.get("spark.sql.shuffle.partitions"))
    parts = max(parts, sum(os.path.getsize(p) for p in paths) >> 20)
    return frame.repartitionByRange(parts, *columns).sortWithinPartitions(*columns)


def _to_driver(frame: Any) -> Iterator[Any]:
    """The rows of ``frame`` on the driver as pyarrow record batches in the frame's order, a
    partition at a time (``toLocalIterator``): the driver holds one partition, never the
    frame. Each Arrow batch crosses as one row of its IPC bytes, not as a row per row."""
    import pyarrow as pa

    def ipc(batches: Iterable[Any]) -> Iterable[Any]:
        for batch in batches:
            sink = pa.BufferOutputStream()
            with pa.ipc.new_stream(sink, batch.schema) as writer:
                writer.write_batch(batch)
            yield pa.RecordBatch.from_arrays([pa.array([sink.getvalue().to_pybytes()], pa.binary())], names=["ipc"])

    for row in frame.mapInArrow(ipc, "ipc binary").toLocalIterator():
        yield from pa.ipc.open_stream(pa.py_buffer(row.ipc))


def _book_rows(shards: Any, paths: Iterable[str], options: Dict[str, int]) -> Any:
    """The book's counts of ``shards`` summed on the cluster, in the order the driver writes
    them: by key (unsigned, as Polyglot orders it: the keys Spark holds as negative longs come
    last), then ``order``."""
    from pyspark.sql import functions as F

    counted = shards.mapInArrow(lambda batches: _count_batches(batches, options), COUNT_SCHEMA)
    reduced = counted.groupBy("key", "raw_move").agg(
        F.first("black").alias("black"),
        F.sum("games").alias("games"),
        F.sum("wins").alias("wins"),
        F.sum("draws").alias("draws"),
        F.sum("losses").alias("losses"),
        F.min("order").alias("order"),
    )
    return _sorted(reduced, paths, F.col("key") < 0, "key", "order")


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
    import tabiya

    if only_white and only_black:
        raise ValueError("only_white and only_black exclude each other")
    paths = list(paths)
    shards = _shards(spark, paths, out, force)
    options = dict(
        max_ply=max_ply,
        min_elo=min_elo,
        min_white_elo=min_white_elo,
        min_black_elo=min_black_elo,
        min_strong_elo=min_strong_elo,
    )
    only = "white" if only_white else "black" if only_black else None
    writer = tabiya.PolyglotCountsWriter(
        os.fspath(out), min_games=min_games, min_score=min_score, only=only, uniform=uniform, force=force
    )
    sums = {name: 0 for name in _BOOK_SUMMARY}
    for batch in _to_driver(_book_rows(shards, paths, options)):
        c = {name: batch.column(name).to_numpy(zero_copy_only=False) for name in batch.schema.names}
        raw_move = c["raw_move"]
        for kind, names in ((_SUMMARY_GAMES, _BOOK_SUMMARY[:4]), (_SUMMARY_READING, _BOOK_SUMMARY[4:])):
            rows = raw_move == kind
            for name, column in zip(names, ("games", "wins", "draws", "losses")):
                sums[name] += int(c[column][rows].sum())
        moves = raw_move >= 0
        writer.add(
            np.ascontiguousarray(c["key"][moves].astype(np.int64).view(np.uint64)),
            np.ascontiguousarray(raw_move[moves].astype(np.uint16)),
            np.ascontiguousarray(c["black"][moves].astype(bool)),
            np.ascontiguousarray(c["games"][moves].astype(np.uint32)),
            np.ascontiguousarray(c["wins"][moves].astype(np.uint32)),
            np.ascontiguousarray(c["losses"][moves].astype(np.uint32)),
        )
    sums["entries"] = writer.finish()
    return sums


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


def _tree_rows(shards: Any, paths: Iterable[str], options: Dict[str, Any]) -> Any:
    """The tree's rows of ``shards`` added up on the cluster, in the order the driver writes
    them: the shards' rows (an empty key) first, in shard order; then the positions in key
    order, each one's moves in the order they were first played."""
    from pyspark.sql import functions as F

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
    return _sorted(reduced, paths, "key", "first_played", "code")


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

    The driver holds one partition of the sorted rows at a time, and the shards' game tables
    (a few dozen bytes a game)."""
    import json

    import pyarrow as pa
    import pyarrow.compute as pc

    import tabiya

    paths = list(paths)
    shards = _shards(spark, paths, out, force)
    options = dict(max_ply=max_ply, memory=memory)
    writer = tabiya.TreeCountsWriter(os.fspath(out), force=force)
    summary = {name: 0 for name in _TREE_SUMMARY}
    for batch in _to_driver(_tree_rows(shards, paths, options)):
        is_shard = pc.equal(pc.binary_length(batch.column("key")), 0)
        for row in batch.filter(is_shard).to_pylist():
            offsets = np.frombuffer(row["table_offsets"], "<u8").astype(np.uint64)
            sources = [tuple(s) for s in json.loads(row["sources"])]
            writer.add_shard(row["code"], row["shard_table"], offsets, sources)
            for name, sum_name in zip(_TREE_SUMMARY, _TREE_SUMS):
                summary[name] += row[sum_name]
        moves = batch.filter(pc.invert(is_shard))
        if moves.num_rows == 0:
            continue
        keys = moves.column("key").cast(pa.binary(26))
        top = moves.column("top")
        flat = top.flatten()
        writer.add(
            keys.buffers()[1].to_pybytes()[26 * keys.offset : 26 * (keys.offset + len(keys))],
            moves.column("code").to_numpy().astype(np.uint16),
            np.ascontiguousarray(moves.column("first_played").to_numpy().view(np.uint64)),
            [np.ascontiguousarray(moves.column(name).to_numpy().view(np.uint64)) for name in _TREE_SUMS],
            moves.column("first_year").to_numpy().astype(np.uint16),
            moves.column("last_year").to_numpy().astype(np.uint16),
            top.value_lengths().to_numpy(zero_copy_only=False).astype(np.uint8),
            (-flat.field("neg_rating").to_numpy()).astype(np.uint16),
            np.ascontiguousarray(flat.field("game").to_numpy().view(np.uint64)),
        )
    summary["positions"] = writer.finish(len(paths))
    return summary
