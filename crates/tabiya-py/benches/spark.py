"""Where the Spark builds' time goes (BENCHMARKS.md, "Spark"): run with a release build
installed and pyspark, on shards of a PGN file.

    python crates/tabiya-py/benches/spark.py book|tree OUT_DIR TABIYA SHARD...

TABIYA is the `tabiya` binary: the single-process build of the same shards, timed and compared
byte for byte with Spark's. Prints, in wall seconds (and the CPU seconds of this process and
its children where they are its own):

- the single-process `tabiya book|tree SHARDS`;
- the JVM and session start (the first job);
- the executors' counting done in this process, shard after shard (what the Python workers
  run, without Spark);
- the cluster's side alone: counting in the Python workers, the Arrow hand-over, the shuffle,
  the sum and the sort, written nowhere (Spark's `noop` sink);
- the whole Spark build: the same, then the sorted rows brought to the driver a partition at
  a time and written there;
- the whole build again, the JVM and its Python workers warm.

Run in `local_session`'s session (a 4g heap: in local mode the executors' aggregation runs in
the driver's JVM; the driver's own side streams, see `tabiya.spark`).
"""

import filecmp
import os
import resource
import subprocess
import sys
import time


def timed(what, run):
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    print(f"{what}: {time.perf_counter() - wall:.2f} s wall, {time.process_time() - cpu:.2f} s CPU in this process")
    return result


def main(what, out_dir, cli, *shards):
    import tabiya
    from tabiya import spark as tabiya_spark

    shards = [os.path.abspath(s) for s in shards]
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    suffix = "bin" if what == "book" else "tree"
    single = os.path.join(out_dir, f"cli.{suffix}")
    command = [cli, "-q", what, *shards, "-o", single, "--force"] + (["--min-games", "3"] if what == "book" else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    timed(f"single process `tabiya {what}`", lambda: subprocess.run(command, check=True))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cli_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(f"  its CPU: {cli_cpu:.2f} s, {after.ru_maxrss // 1024} MB peak")

    session = timed("session start (JVM, first job)", lambda: tabiya_spark.local_session(2, "tabiya-bench"))
    session.range(1).count()

    def count_here():
        for shard, path in enumerate(shards):
            (tabiya.book_counts if what == "book" else tabiya.tree_counts)(path, shard=shard)

    timed("counting in this process, shard after shard", count_here)

    out = os.path.join(out_dir, f"spark.{suffix}")
    frame = tabiya_spark._shards(session, shards, out, True)
    rows = (tabiya_spark._book_rows if what == "book" else tabiya_spark._tree_rows)(frame, shards, {})
    timed("the cluster's side alone (counted, summed, sorted; noop sink)", lambda: rows.write.format("noop").mode("overwrite").save())

    build = tabiya_spark.build_book if what == "book" else tabiya_spark.build_tree
    timed("Spark build, whole", lambda: build(session, shards, out, force=True))
    print(f"  identical to the single process's: {filecmp.cmp(out, single, shallow=False)}")
    timed("Spark build again (JVM warm, workers reused)", lambda: build(session, shards, out, force=True))
    print(f"  identical: {filecmp.cmp(out, single, shallow=False)}")
    print(f"driver's Python peak: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    session.stop()


if __name__ == "__main__":
    main(*sys.argv[1:])
