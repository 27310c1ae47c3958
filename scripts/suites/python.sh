#!/usr/bin/env bash
# The Python package (crates/tabiya-py): built with maturin into the test venv, then its pytest
# suite, the Spark test included (pyspark local[2] on Java 17, installed from Debian if
# missing). The extension is built with the dev profile, whose dependencies `cargo test`
# already built; benchmarks use a release build (BENCHMARKS.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
if ! command -v java >/dev/null 2>&1 || ! java -version 2>&1 | grep -qE 'version "(1[7-9]|2[0-9])'; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi
# shellcheck source=../venv.sh
source scripts/venv.sh
(cd crates/tabiya-py && maturin develop --quiet --profile dev --features extension-module)
python -m pytest -q crates/tabiya-py/tests "$@"
