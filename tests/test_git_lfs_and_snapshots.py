"""Official data as users receive it: Git LFS pointers in repository archives and clones, Hugging Face cache
snapshots whose files are links into the cache, media that do not decode. Served by local stand-in publishers."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import zipfile
from pathlib import Path

import pytest

from mechbench.benchmarks.seesim.dataset import load_items
from mechbench.benchmarks.structural_eval.dataset import OFFICIAL_REPOSITORY, OFFICIAL_REVISION, load_tasks
from mechbench.core.errors import DataSourceError
from mechbench.sources.git_lfs import GitLfsPointerError, read_pointer
from mechbench.sources.resolve import bundled
from mechbench.tasks import structural_eval
from tests import forked_command as forked

PREFIX = f"structural-eval-benchmark-{OFFICIAL_REVISION}"


def pointer_text(data: bytes) -> bytes:
    """The Git LFS pointer git stores in place of ``data``."""
    oid = hashlib.sha256(data).hexdigest()
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize {len(data)}\n".encode()


def _copy_with_pointers(target: Path, tasks: int = 3) -> list[str]:
    """A StructuralEval copy (mechbench's bundled set, ``tasks`` beams) whose images are Git LFS pointers."""
    source = bundled("structural_eval") / "data"
    names = sorted(p.stem for p in (source / "raw_models").glob("beam_*.json"))[:tasks]
    for folder, suffix in (("raw_models", ".json"), ("ground_truth_meta", ".json"), ("images", ".png")):
        (target / "data" / folder).mkdir(parents=True, exist_ok=True)
        for name in names:
            data = (source / folder / f"{name}{suffix}").read_bytes()
            (target / "data" / folder / f"{name}{suffix}").write_bytes(
                pointer_text(data) if folder == "images" else data
            )
    return names


def _archive(copy: Path, archive: Path) -> None:
    archive.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(copy.rglob("*")):
            if path.is_file():
                zf.write(path, f"{PREFIX}/{path.relative_to(copy)}")


@pytest.fixture
def publisher(http_server, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Path, list[str]]:
    """The maintainers' archive at the pinned commit, with LFS pointers in place of the images (as GitHub serves
    it), on a local server; its LFS media endpoint is not served until a test puts the objects there."""
    root, base = http_server
    monkeypatch.setenv("MECHBENCH_GITHUB", base)
    monkeypatch.setenv("MECHBENCH_GITHUB_MEDIA", f"{base}/media")
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    names = _copy_with_pointers(tmp_path / "copy")
    _archive(tmp_path / "copy", root / OFFICIAL_REPOSITORY / "archive" / f"{OFFICIAL_REVISION}.zip")
    return root, names


def _serve_objects(root: Path, names: list[str], tamper: str | None = None) -> None:
    media = root / "media" / OFFICIAL_REPOSITORY / OFFICIAL_REVISION / "data" / "images"
    media.mkdir(parents=True)
    for name in names:
        data = (bundled("structural_eval") / "data" / "images" / f"{name}.png").read_bytes()
        (media / f"{name}.png").write_bytes(data[:-1] + b"\0" if name == tamper else data)


def test_lfs_pointers_in_the_official_archive_are_resolved_and_verified(publisher: tuple[Path, list[str]]) -> None:
    root, names = publisher
    _serve_objects(root, names)
    tasks = load_tasks(None)
    assert [t.id for t in tasks] == names
    for task in tasks:
        image = Path(task.image)
        expected = (bundled("structural_eval") / "data" / "images" / f"{task.id}.png").read_bytes()
        assert task.image_source == "official" and image.read_bytes() == expected  # the object, never the pointer
        assert hashlib.sha256(image.read_bytes()).hexdigest() in image.name
    shutil.rmtree(root / "media")  # resolved once: a later run needs no LFS endpoint
    assert [Path(t.image).read_bytes()[:4] for t in load_tasks(None)] == [b"\x89PNG"] * len(names)


def test_an_lfs_object_with_the_wrong_sha256_is_refused(publisher: tuple[Path, list[str]]) -> None:
    root, names = publisher
    _serve_objects(root, names, tamper=names[1])
    with pytest.raises(GitLfsPointerError, match=rf"{names[1]}\.png is a Git LFS pointer .*SHA-256"):
        load_tasks(None)
    assert not list((Path(os.environ["MECHBENCH_CACHE"]) / "lfs").rglob(f"*{names[1]}*"))


@pytest.mark.slow
def test_lfs_pointers_without_an_lfs_endpoint_stop_the_run_in_one_line(
    publisher: tuple[Path, list[str]], tmp_path: Path
) -> None:
    inspect = str(Path(sys.executable).parent / "inspect")
    done = forked.run(
        [inspect, "eval", "mechbench/structural_eval", "--model", "mockllm/model", "--log-dir", str(tmp_path / "l")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: beam_001.png is a Git LFS pointer"), lines
    assert "git lfs pull" in lines[0] and "HTTP 404" in lines[0]
    assert not (tmp_path / "l").exists() or not list((tmp_path / "l").glob("*.eval"))  # nothing was sent


def test_a_clone_without_git_lfs_names_the_fix(tmp_path: Path) -> None:
    _copy_with_pointers(tmp_path / "clone")
    with pytest.raises(GitLfsPointerError, match=r"beam_001\.png is a Git LFS pointer.*`git lfs pull`"):
        load_tasks(str(tmp_path / "clone"))
    pointer = read_pointer(tmp_path / "clone" / "data" / "images" / "beam_001.png")
    assert pointer is not None and pointer.size > 1000


def _hub_snapshot(cache: Path, source: Path, revision: str = "a" * 40) -> Path:
    """A Hugging Face cache entry as huggingface-cli leaves it: snapshot files linking into ``blobs/``."""
    repository = cache / "datasets--superhatk--structural-eval-benchmark"
    snapshot = repository / "snapshots" / revision
    for path in sorted(source.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        blob = repository / "blobs" / hashlib.sha256(data).hexdigest()
        blob.parent.mkdir(parents=True, exist_ok=True)
        blob.write_bytes(data)
        link = snapshot / path.relative_to(source)
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(os.path.relpath(blob, link.parent))
    return snapshot


def test_a_hub_cache_snapshot_runs_and_the_log_names_it(tmp_path: Path) -> None:
    snapshot = _hub_snapshot(tmp_path / "hub", bundled("structural_eval"))
    task = structural_eval(data=str(snapshot), filter="frame_00", debug=True)
    assert len(task.dataset) == 9
    source = task.metadata["data_source"]
    assert source.startswith(f"superhatk/structural-eval-benchmark@{'a' * 40} (Hugging Face cache snapshot")
    assert str(snapshot) in source
    assert all(s.metadata["image_source"] == "official" for s in task.dataset)


def test_a_snapshot_link_leaving_the_cache_is_refused(tmp_path: Path) -> None:
    snapshot = _hub_snapshot(tmp_path / "hub", bundled("structural_eval"))
    outside = tmp_path / "elsewhere.json"
    outside.write_text((snapshot / "data" / "raw_models" / "beam_001.json").read_text())
    link = snapshot / "data" / "raw_models" / "beam_001.json"
    link.unlink()
    link.symlink_to(outside)
    with pytest.raises(DataSourceError, match="link leading outside the hub cache's repository folder"):
        load_tasks(str(snapshot))


def test_media_that_do_not_decode_are_refused_with_the_file_named(tmp_path: Path) -> None:
    copy = tmp_path / "seesim"
    shutil.copytree(bundled("seesim"), copy)
    (copy / "data" / "structural" / "images" / "File_2.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    with pytest.raises(DataSourceError, match=r"File_2\.png cannot be used as an image"):
        load_items(str(copy), "image", "structural")
    gif = copy / "data" / "fluid" / "videos" / "File_1.gif"
    gif.write_bytes(gif.read_bytes()[:200])  # a truncated animation
    with pytest.raises(DataSourceError, match=r"File_1\.gif cannot be used as a video"):
        load_items(str(copy), "video", "fluid")
    data = (bundled("seesim") / "data" / "fluid" / "videos" / "File_1.gif").read_bytes()
    gif.write_bytes(pointer_text(data))  # a clone of a repository that keeps its videos in Git LFS
    with pytest.raises(GitLfsPointerError, match=r"File_1\.gif is a Git LFS pointer"):
        load_items(str(copy), "video", "fluid")
