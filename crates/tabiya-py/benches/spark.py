"""Where the Spark builds' time goes (BENCHMARKS.md, "Python"): run with a release build
installed and pyspark, on shards of a PGN file.

    python crates/tabiya-py/benches/spark.py book|tree OUT_DIR SHARD...

Prints, in wall seconds: the JVM and session start; the executors' counting done in this
process one shard after another (what the Python workers run, without Spark); the whole
Spark build (workers, the Arrow hand-over, the shuffle, the collect and the driver's write);
and the build again, the JVM and its Python workers warm. The single-process CLI
build of the same shards is timed by the caller (BENCHMARKS.md gives the command).
"""

import os
import sys
import time


def main(what, out_dir, *shards):
    import tabiya
    from tabiya import spark as tabiya_spark

    shards = [os.path.abspath(s) for s in shards]
    start = time.perf_counter()
    session = tabiya_spark.local_session(2, "tabiya-bench")
    session.range(1).count()
    print(f"session start (JVM, first job): {time.perf_counter() - start:.2f} s")

    start = time.perf_counter()
    for shard, path in enumerate(shards):
        if what == "book":
            tabiya.book_counts(path, shard=shard)
        else:
            tabiya.tree_counts(path, shard=shard)
    print(f"counting in this process, shard after shard: {time.perf_counter() - start:.2f} s")

    out = os.path.join(out_dir, f"spark.{'bin' if what == 'book' else 'tree'}")
    build = tabiya_spark.build_book if what == "book" else tabiya_spark.build_tree
    start = time.perf_counter()
    build(session, shards, out, force=True)
    print(f"Spark build, whole: {time.perf_counter() - start:.2f} s")

    start = time.perf_counter()
    build(session, shards, out, force=True)
    print(f"Spark build again (JVM warm, workers reused): {time.perf_counter() - start:.2f} s")
    session.stop()


if __name__ == "__main__":
    main(*sys.argv[1:])
