"""The Spark build (pyspark local[2]) is byte-identical to `tabiya book` on the concatenation."""

import os
import sys

import pytest

from cli import book, split_pgn
from conftest import corpus_file


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("tabiya-test")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    yield session
    session.stop()


def test_spark_book_equals_the_cli_book(spark, tmp_path):
    from tabiya.spark import build_book

    medium = corpus_file("pgn/medium-pgnmentor-12players.pgn")
    shards = split_pgn(medium, 4, tmp_path)
    assert b"".join(p.read_bytes() for p in shards) == medium.read_bytes()
    expected = tmp_path / "cli.bin"
    book([medium], expected, "--max-ply", "30")
    out = tmp_path / "spark.bin"
    summary = build_book(spark, shards, out, max_ply=30)
    assert summary["games_added"] > 30000
    assert summary["entries"] * 16 == out.stat().st_size
    assert out.read_bytes() == expected.read_bytes()
    with pytest.raises(FileExistsError):
        build_book(spark, shards, out, max_ply=30)
