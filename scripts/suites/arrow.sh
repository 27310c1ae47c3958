#!/usr/bin/env bash
# Parquet tables read without tabiya: pyarrow and DuckDB read what `tabiya convert` writes, and
# python-chess is the oracle for the moves, SAN, FEN and Polyglot keys (scripts/suites/arrow/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
source scripts/venv.sh
cargo build --quiet --locked -p tabiya-cli
export TABIYA="$root/target/debug/tabiya"
python -m pytest -q scripts/suites/arrow/test_parquet.py
