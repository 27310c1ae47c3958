#!/usr/bin/env bash
# The web explorer in a real browser: Debian's chromium and chromium-driver (installed when
# missing), `tabiya serve` over the corpus's CTG, Polyglot and SCID files and a Kvetka book
# built from the sample games, driven over WebDriver by scripts/suites/browser_test.py, which
# checks the board and every table against python-chess's counts and the CTG spec's figures,
# then an Othello board over a Wthor file against the file's bytes, and a chess tree's top game
# in the game viewer against python-chess.
# The screenshot and the timings are kept under target/browser/ (never committed).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
if [ -z "${TABIYA_CORPUS:-}" ]; then
    echo "browser suite: TABIYA_CORPUS is not set; the suite needs the corpus" >&2
    exit 1
fi
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
source scripts/venv.sh
cargo build --locked -q -p tabiya-cli
out="$root/target/browser"
mkdir -p "$out"
tabiya="$root/target/debug/tabiya"
"$tabiya" book samples/famous-games.pgn -o "$out/famous.kob" --force --quiet
"$tabiya" tree samples/famous-games.pgn -o "$out/famous.tree" --force --quiet
python scripts/suites/browser_test.py --tabiya "$tabiya" --out "$out" \
    --ctg "$TABIYA_CORPUS/ctg/PowerPlay17-Sicilienne/PowerPlay17-Sicilienne.ctg" \
    --polyglot "$TABIYA_CORPUS/polyglot/performance.bin" \
    --scid "$TABIYA_CORPUS/scid/generated-scid502/fischer_4.si4" \
    --scid-export "$TABIYA_CORPUS/scid/generated-scid502/fischer_4.export.pgn" \
    --kvetka "$out/famous_0.kob" --kvetka-pgn samples/famous-games.pgn \
    --wthor "$TABIYA_CORPUS/wthor/release-2022/WTH_2021.wtb" \
    --tree "$out/famous.tree" --tree-pgn samples/famous-games.pgn
