#!/usr/bin/env bash
# Positions (--fen, --material), opening names (--add-eco) and info statistics against
# python-chess: scripts/suites/positions.py, over the corpus medium PGN.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
: "${TABIYA_CORPUS:?TABIYA_CORPUS must name the corpus directory}"
source scripts/venv.sh
cargo build --quiet --locked -p tabiya-cli --bins
cargo build --quiet --locked -p tabiya-chess --example position_search
TABIYA_BIN="$root/target/debug/tabiya" POSITION_SEARCH_BIN="$root/target/debug/examples/position_search" \
    python scripts/suites/positions.py
