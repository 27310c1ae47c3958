#!/usr/bin/env bash
# The position tree against python-chess: counts of every move of the first 6 plies of the
# corpus's medium PGN, and a probe of 1.e4 c5 (scripts/suites/tree_counts.py). Needs the
# corpus: without it the suite fails (a skip is not a pass).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ -z "${TABIYA_CORPUS:-}" ]; then
    echo "tree suite: TABIYA_CORPUS is not set: NOT RUN (counts as a failure)" >&2
    exit 1
fi
source "$root/scripts/venv.sh"
cd "$root"
cargo build --locked --quiet -p tabiya-cli
python "$root/scripts/suites/tree_counts.py" "$root/target/debug/tabiya" \
    "$TABIYA_CORPUS/pgn/medium-pgnmentor-12players.pgn" 6 "$root/target/tree-suite"
