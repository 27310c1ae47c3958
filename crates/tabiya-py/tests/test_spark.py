"""The Spark builds (pyspark local[2]) are byte-identical to `tabiya book` and `tabiya tree` on the
same games."""

import pytest

from cli import book, split_pgn, tree
from conftest import corpus_file


@pytest.fixture(scope="module")
def spark():
    from tabiya.spark import local_session

    session = local_session(2, "tabiya-test")
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


def test_spark_tree_equals_the_cli_tree(spark, tmp_path):
    """The first 4,000 games of the medium file (full depth) in 4 shards: the tree Spark
    reduces is the bytes of `tabiya tree` on the same shards (a tree names its sources, so the
    CLI is given the same absolute paths)."""
    from tabiya.spark import build_tree

    medium = corpus_file("pgn/medium-pgnmentor-12players.pgn")
    shards = [p.resolve() for p in split_pgn(medium, 4, tmp_path, games=4000)]
    expected = tmp_path / "cli.tree"
    tree(shards, expected)
    out = tmp_path / "spark.tree"
    summary = build_tree(spark, shards, out)
    assert summary["games_added"] == 4000
    assert summary["moves_added"] > 300_000
    assert out.read_bytes() == expected.read_bytes()
    with pytest.raises(FileExistsError):
        build_tree(spark, shards, out)
