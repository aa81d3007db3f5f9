#!/usr/bin/env bash
# Install mechbench with its test extras and Ray (and Debian's Chromium, which the report test renders HTML in),
# then run the test suite: the main tier, or `long` (the tests of 15 s or more) or `all` as the first argument. Extra
# arguments go to pytest (DEVELOPING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ]; then
        apt-get update -qq && apt-get install -y -qq chromium >/dev/null
    else
        sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null
    fi
fi
# One Python holds one editable mechbench. Installing this checkout over another's would make that checkout's tests
# import this one (two clones tested on one machine broke each other): stop, naming it, unless told to replace it.
other="$(python scripts/other_checkout.py)"
if [ -n "$other" ] && [ -z "${MECHBENCH_TEST_REPLACE_INSTALL:-}" ]; then
    echo "error: $(command -v python) has mechbench installed from another checkout, $other; run the tests in a virtual environment of this one (python -m venv .venv && . .venv/bin/activate), or set MECHBENCH_TEST_REPLACE_INSTALL=1 to install this checkout over it" >&2
    exit 2
fi
pip install -q -e ".[dev,ray]"
# LiteLLM's proxy, the real third-party OpenAI-compatible server the provider-failure tests run through, in a virtual
# environment of its own (its pins conflict with Inspect's); built once per pinned version.
tools="${MECHBENCH_TEST_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/mechbench-test-tools}"
proxy_env="$tools/litellm-$(sha256sum tests/litellm-proxy.txt | cut -c1-12)"
if [ ! -x "$proxy_env/bin/litellm" ]; then
    python -m venv "$proxy_env"
    "$proxy_env/bin/pip" install -q --disable-pip-version-check -r tests/litellm-proxy.txt
fi
export MECHBENCH_LITELLM="$proxy_env/bin/litellm"
# The suite starts Python a few hundred times: where the environment turns byte-code caches off, every start would
# compile mechbench's modules again (0.2-0.4 s of CPU each; docs/speed.md). They go to the checkout's ignored
# __pycache__ folders.
unset PYTHONDONTWRITEBYTECODE
summary="$(mktemp)"
trap 'rm -f "$summary"' EXIT
status=0
# The tier: the main suite by default; `long` the tests of 15 s or more, `all` both (DEVELOPING.md).
tier=(-m "not long")
case "${1:-}" in
    long) tier=(-m long); shift ;;
    all) tier=(); shift ;;
esac
# Three workers on two cores: whole files go to a worker (their module fixtures are built once), the longest first
# (tests/durations.json); the third keeps a core busy while a test waits on a server, a retry back-off or a child
# process. MECHBENCH_TEST_WORKERS=0 runs in one process.
MECHBENCH_TEST_SUMMARY="$summary" python -m pytest -n "${MECHBENCH_TEST_WORKERS:-3}" --dist loadfile --no-loadscope-reorder ${tier[@]+"${tier[@]}"} "$@" || status=$?
cat "$summary" 2>/dev/null || true
exit "$status"
