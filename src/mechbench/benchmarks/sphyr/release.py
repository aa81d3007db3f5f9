"""Monthly SPhyR releases: a set named by its month, the same bytes on every machine, checked unseen, and written
for other harnesses too (``mechbench generate sphyr --like v2 --release 2026-12``).

Imported by the SPhyR task (for :func:`data_label`), so the generator is imported only where it is used.

The seed comes from the release's name, so everyone who generates ``2026-12`` gets the same files; ``release.json``
holds their SHA-256 digests, what the set was drawn like, and which published items it was kept away from. The
``hf/`` folder is the same set as a Hugging Face datasets folder (a parquet shard per subject and a dataset card), so
``datasets.load_dataset("parquet", data_dir=…)`` or a hub upload serves lmms-eval or VLMEvalKit unchanged.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from mechbench.core.errors import UsageError
from mechbench.sources.files import read_data_text

LIKE = ("v2", "v2-20")
"""The published sets a release can be drawn like."""
RELEASE_ITEMS = 100
"""Items per subject of a release, as in the published v2 and v2-20 sets."""
_RELEASE = re.compile(r"^(20[2-9]\d)-(0[1-9]|1[0-2])$")
MANIFEST = "release.json"
SHARD = "test-00000-of-00001.parquet"


def release_seed(like: str, release: str) -> int:
    """The seed of release ``release`` (``YYYY-MM``) of a set drawn like ``like``: a hash of both names."""
    if not _RELEASE.match(release):
        raise UsageError(f"--release must name a month as YYYY-MM (e.g. 2026-12), got {release!r}")
    if like not in LIKE:
        raise UsageError(f"--like must be one of {', '.join(LIKE)}, got {like!r}")
    digest = hashlib.sha256(f"mechbench/sphyr/{like}/{release}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def published_items(paths: list[Path]) -> list[dict]:
    """The published samples of easy subject files (each layout once), as the rejection rule sees them."""
    from mechbench.benchmarks.sphyr.generate_v2 import published_item
    seen: dict[str, dict] = {}
    for path in paths:
        for line in read_data_text(path).splitlines():
            if line.strip():
                truth = json.loads(line)["ground_truth"]
                seen.setdefault(json.dumps(truth), published_item(truth))
    return list(seen.values())


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest(
    out: Path, like: str, release: str | None, seed: int, n: int, against: dict[str, Any] | None
) -> dict[str, Any]:
    """``release.json``: what the set is, its files' digests and one digest of the whole set."""
    from mechbench.benchmarks.sphyr.generate import subject_kinds
    from mechbench.benchmarks.sphyr.generate_v2 import LAYOUT_DISTANCE, SOLUTION_DISTANCE
    files = {f"{subject}.jsonl": file_digest(out / f"{subject}.jsonl") for subject, _, _ in subject_kinds()}
    whole = hashlib.sha256("".join(f"{name} {digest}\n" for name, digest in files.items()).encode()).hexdigest()
    manifest = {
        "benchmark": "sphyr",
        "like": like,
        "release": release,
        "seed": seed,
        "items_per_subject": n,
        "unseen": against,
        "rejection_rule": f"boundary layouts at least {LAYOUT_DISTANCE} cells apart and easy solutions at least "
        f"{SOLUTION_DISTANCE} (upstream's own rule between its samples)",
        "files": files,
        "sha256": whole,
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def write_hf_folder(out: Path, manifest: dict[str, Any], equivalence: str | None = None) -> Path:
    """``out/hf``: a parquet shard per subject (one config each) and a dataset card naming the seed, the licence
    and the equivalence figures when given."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from mechbench.benchmarks.sphyr.generate import subject_kinds

    folder = out / "hf"
    configs = []
    for subject, _, _ in subject_kinds():
        rows = [json.loads(line) for line in (out / f"{subject}.jsonl").read_text().splitlines() if line.strip()]
        table = pa.Table.from_pylist(
            [
                {
                    "index": r["index"],
                    "input_grid": r["input_grid"],
                    "ground_truth": r["ground_truth"],
                    "load_direction": r.get("load_direction"),
                }
                for r in rows
            ]
        )
        (folder / subject).mkdir(parents=True, exist_ok=True)
        pq.write_table(table, folder / subject / SHARD)
        configs.append(f"- config_name: {subject}\n  data_files:\n  - split: test\n    path: {subject}/{SHARD}")
    name = f"mechbench SPhyR {manifest['like']} release {manifest['release']}"
    card = [
        "---",
        "license: mit",
        "task_categories:\n- text-generation",
        "configs:",
        *configs,
        "---",
        "",
        f"# {name}",
        "",
        f"Fresh SPhyR topology-optimisation tasks drawn like the published {manifest['like']} set by "
        f"`mechbench generate sphyr --like {manifest['like']} --release {manifest['release']}` "
        f"(seed {manifest['seed']}, "
        f"{manifest['items_per_subject']} items per subject, SHA-256 {manifest['sha256']}).",
        "",
        "Each record: `input_grid` (V marks a cell to fill), `ground_truth` and `load_direction` (row, col), in the "
        "published record format. Unseen: " + _unseen_text(manifest["unseen"]) + ".",
        "",
        "## Equivalence with the published set",
        "",
        equivalence or "Not measured for this folder: run `mechbench calibrate sphyr` on it.",
        "",
    ]
    (folder / "README.md").write_text("\n".join(card))
    return folder


def _unseen_text(against: dict[str, Any] | None) -> str:
    if not against:
        return "not checked against a published set (none was at hand)"
    return f"no item near any of the {against['items']} published items of {against['source']}"


def data_label(data: str | None, paths: dict[str, Path]) -> str:
    """What set a run read, as the report names it: the published data, the bundled set, a release (checked
    against its ``release.json``) or a folder."""
    if data is None:
        return "published data"
    if data == "bundled":
        return "bundled set"
    folders = {path.parent for path in paths.values()}
    manifest_path = next((f / MANIFEST for f in folders if (f / MANIFEST).is_file()), None)
    if manifest_path is None:
        return f"data {Path(str(data)).name or data}"
    try:
        manifest = json.loads(read_data_text(manifest_path))
        name = f"release {manifest['like']} {manifest['release'] or 'seed ' + str(manifest['seed'])}"
        files = manifest["files"]
    except (ValueError, KeyError, TypeError):
        return f"data {Path(str(data)).name} (unreadable {MANIFEST})"
    changed = [p.name for p in paths.values() if files.get(p.name) != file_digest(p)]
    return f"{name} (changed: {', '.join(changed)})" if changed else name
