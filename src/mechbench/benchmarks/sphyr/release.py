"""Monthly SPhyR releases: a set named by its month, the same bytes on every machine, checked unseen, and written
for other harnesses too (``mechbench generate sphyr --like v2 --release 2026-12``).

Imported by the SPhyR task (for :func:`data_label`), so the generator is imported only where it is used.

The seed comes from the release's name, so everyone who generates ``2026-12`` with the same library stack (recorded
in ``release.json``) against the same published items gets the same files; ``release.json`` holds their SHA-256
digests, what the set was drawn like, and which published items it was kept away from. The ``hf/`` folder is the
same set as a Hugging Face datasets folder (a parquet shard and a config per subject, and a dataset card), derived
from the files and not covered by the digests: ``datasets.load_dataset("<set>/hf", "full_easy")`` or a hub upload
serves lmms-eval or VLMEvalKit unchanged.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from mechbench.core.errors import DataSourceError, UsageError
from mechbench.harness.releases import library_stack, month_seed
from mechbench.sources.files import read_data_text

LIKE = ("v2", "v2-20")
"""The published sets a release can be drawn like."""
RELEASE_ITEMS = 100
"""Items per subject of a release, as in the published v2 and v2-20 sets."""
MANIFEST = "release.json"
KNOWN_RELEASES: dict[tuple[str, str], str] = {}
"""(drawn like, release) → SHA-256 of the set as cut and published in docs/releases.md; a set whose release.json names
a release not listed here, or with another digest, is labelled unverified."""
SHARD = "test-00000-of-00001.parquet"


def release_seed(like: str, release: str) -> int:
    """The seed of release ``release`` (``YYYY-MM``) of a set drawn like ``like``: a hash of both names."""
    if like not in LIKE:
        raise UsageError(f"--like must be one of {', '.join(LIKE)}, got {like!r}")
    return month_seed("sphyr", like, release)


def published_items(paths: list[Path]) -> list[dict]:
    """The published samples of easy subject files (each layout once), as the rejection rule sees them."""
    from mechbench.benchmarks.sphyr.generate_v2 import published_item

    seen: dict[str, dict] = {}
    for path in paths:
        for number, line in enumerate(read_data_text(path).splitlines(), 1):
            if not line.strip():
                continue
            try:
                truth = json.loads(line)["ground_truth"]
                if not isinstance(truth, list) or not all(isinstance(row, list) for row in truth):
                    raise TypeError
            except (ValueError, KeyError, TypeError):
                raise DataSourceError(f"{path}: line {number}: not a record with a ground_truth grid") from None
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
        "stack": library_stack(),
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def write_hf_folder(out: Path, manifest: dict[str, Any], equivalence: str | None = None) -> Path:
    """``out/hf``: a parquet shard per subject (one config each) and a dataset card naming the seed, the licence
    and the comparison with the published set when given."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from mechbench.benchmarks.sphyr.generate import subject_kinds

    folder = out / "hf"
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
    (folder / "README.md").write_text(card_text(manifest, equivalence))
    return folder


def card_text(manifest: dict[str, Any], equivalence: str | None = None) -> str:
    """The dataset card of a set: its configs, how it was made, what it was kept away from, its figures."""
    from mechbench.benchmarks.sphyr.generate import subject_kinds

    like, release, seed = manifest["like"], manifest["release"], manifest["seed"]
    made = f"--release {release}" if release else f"--seed {seed}"
    name = f"mechbench SPhyR {like} release {release}" if release else f"mechbench SPhyR {like}-like set, seed {seed}"
    configs = [
        f"- config_name: {subject}\n  data_files:\n  - split: test\n    path: {subject}/{SHARD}"
        for subject, _, _ in subject_kinds()
    ]
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
        f"Fresh SPhyR topology-optimisation tasks drawn like the published {like} set by "
        f"`mechbench generate sphyr --like {like} {made}` (seed {seed}, {manifest['items_per_subject']} items per "
        f"subject, SHA-256 {manifest['sha256']}). Load one subject with "
        '`datasets.load_dataset("<this folder>", "full_easy")`.',
        "",
        "Each record: `input_grid` (V marks a cell to fill), `ground_truth` and `load_direction` (row, col), in the "
        "published record format. Unseen: " + _unseen_text(manifest["unseen"]) + ".",
        "",
        "## Comparison with the published set",
        "",
        equivalence or "Not measured for this folder: run `mechbench calibrate sphyr --update-card` on it.",
        "",
    ]
    return "\n".join(card)


def update_card(out: Path, report: str) -> None:
    """Put a calibration report into the set's dataset card, after checking every file against ``release.json``
    (the card of a set changed since it was written is not updated)."""
    manifest_path = out / MANIFEST
    if not manifest_path.is_file():
        raise DataSourceError(f"{out}: no {MANIFEST}: --update-card updates the card of a set generated with --like")
    try:
        manifest = json.loads(read_data_text(manifest_path))
        files = manifest["files"]
    except (ValueError, KeyError, TypeError):
        raise DataSourceError(f"{manifest_path}: not a release.json mechbench wrote") from None
    changed = [
        name for name, digest in files.items() if not (out / name).is_file() or file_digest(out / name) != digest
    ]
    if changed:
        raise DataSourceError(f"{out}: {', '.join(changed)} changed since {MANIFEST} was written; card not updated")
    (out / "hf").mkdir(exist_ok=True)
    (out / "hf" / "README.md").write_text(card_text(manifest, report))


def _unseen_text(against: dict[str, Any] | None) -> str:
    if not against:
        return "not checked against a published set"
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
        like, release, whole, files = manifest["like"], manifest["release"], str(manifest["sha256"]), manifest["files"]
        name = f"release {like} {release}" if release else f"{like}-like set, seed {manifest['seed']}"
    except (ValueError, KeyError, TypeError):
        return f"data {Path(str(data)).name} (unreadable {MANIFEST})"
    changed = [p.name for p in paths.values() if files.get(p.name) != file_digest(p)]
    if changed:
        return f"{name} {whole[:12]} (changed: {', '.join(changed)})"
    if release and KNOWN_RELEASES.get((like, release)) != whole:
        return f"{name} {whole[:12]} (unverified)"
    return f"{name} {whole[:12]}"


def drawn_like(paths: dict[str, Path]) -> str | None:
    """The published set a folder's ``release.json`` says it was drawn like (None without a readable one)."""
    for folder in {path.parent for path in paths.values()}:
        if (folder / MANIFEST).is_file():
            try:
                like = json.loads(read_data_text(folder / MANIFEST)).get("like")
            except (ValueError, AttributeError):
                return None
            return like if like in LIKE else None
    return None
