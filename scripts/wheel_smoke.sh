#!/usr/bin/env bash
# What a user of `pip install mechbench` gets: build the wheel, install it into a fresh virtual environment
# (no editable install, nothing from this checkout on the path), check that it carries its data, and run the
# offline main job from it.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Built from a copy of the tracked files, as from a clean clone: .ci/run runs this beside the test suite, whose runs
# write caches and outputs into the checkout.
source_tree=.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    source_tree="$work/source"
    mkdir -p "$source_tree"
    git ls-files -z --cached | while IFS= read -r -d '' file; do
        if [ -f "$file" ]; then printf '%s\0' "$file"; fi  # not a tracked file deleted from the working tree
    done | xargs -0 cp --parents -t "$source_tree"
fi
python -m pip wheel -q --no-deps -w "$work/dist" "$source_tree"
python -m venv "$work/venv"
# --no-compile: byte-compiling the ~100 dependencies' files at install is not what this checks, and it was a fifth
# of this script's CPU (17 s); the demo's first process writes the byte code of what it imports instead, so the
# processes it starts after it read it (where PYTHONDONTWRITEBYTECODE is set, each would compile it again).
"$work/venv/bin/python" -m pip install -q --no-compile "$work"/dist/mechbench-*.whl
unset PYTHONDONTWRITEBYTECODE
cd "$work"  # away from the checkout: only the installed package can be imported
"$work/venv/bin/python" - <<'PY'
import mechbench, pathlib
root = pathlib.Path(mechbench.__file__).parent
assert "site-packages" in str(root), root
for needed in ("benchmarks/sphyr/bundled/GENERATED.md", "benchmarks/sphyr/bundled/full_easy.jsonl",
               "examples/portal_frame.json", "benchmarks/structural_eval/bundled/data/raw_models/beam_001.json",
               "benchmarks/seesim/bundled/generated.json", "py.typed",
               "benchmarks/sphyr/eval.yaml", "benchmarks/seesim/eval.yaml", "benchmarks/structural_eval/eval.yaml"):
    assert (root / needed).is_file(), f"the wheel lacks {needed}"
print(f"wheel install OK: {root}")
PY
MECHBENCH_CACHE="$work/cache" "$work/venv/bin/mechbench" demo -o "$work/demo"
test -s "$work/demo/report/report.html"
echo "demo from the wheel: OK"
