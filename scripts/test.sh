#!/usr/bin/env bash
# Install mechbench with its test extras and Ray (and Debian's Chromium, which the report test renders HTML in),
# then run the test suite. Extra arguments go to pytest (-m "not slow" is the fast subset; DEVELOPING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ]; then
        apt-get update -qq && apt-get install -y -qq chromium >/dev/null
    else
        sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null
    fi
fi
pip install -q -e ".[dev,ray]"
summary="$(mktemp)"
trap 'rm -f "$summary"' EXIT
status=0
MECHBENCH_TEST_SUMMARY="$summary" python -m pytest "$@" || status=$?
cat "$summary" 2>/dev/null || true
exit "$status"
