#!/usr/bin/env bash
# Installs, when missing, the Debian packages the tests call: the compression tools whose files
# the readers are checked against. Idempotent: nothing is installed when every command is there.
set -euo pipefail
missing=()
for pair in gzip:gzip bzip2:bzip2 xz:xz-utils zstd:zstd pzstd:zstd zip:zip; do
    command -v "${pair%%:*}" > /dev/null || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq
    $sudo_ apt-get install -y -qq $(printf '%s\n' "${missing[@]}" | sort -u)
fi
