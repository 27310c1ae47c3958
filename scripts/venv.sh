#!/usr/bin/env bash
# The test venv, made once: target/venv with the packages of scripts/requirements-test.txt.
# Sourced by the suites; installs again only when the requirements file changed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/target/venv"
requirements="$root/scripts/requirements-test.txt"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
stamp="$venv/.requirements.sha256"
wanted="$(sha256sum "$requirements" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$wanted" > "$stamp"
fi
export VIRTUAL_ENV="$venv"
export PATH="$venv/bin:$PATH"
