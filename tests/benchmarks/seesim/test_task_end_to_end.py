"""SeeSim through Inspect in all three modalities with the baselines, metrics checked independently."""

from __future__ import annotations

import json
import logging
import shutil
import zipfile
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.seesim.inspect_parts import consistency
from mechbench.benchmarks.seesim.protocol import PAIRS, VALIDATION, data_file_name
from mechbench.benchmarks.seesim.video import extract_frames
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import seesim


def _truth(seesim_data: Path) -> dict[tuple[str, str, str], bool]:
    raw = json.loads((seesim_data / "benchmark" / "qa-benchmark-with-qids.json").read_text())
    domains = ("structural", "fluid")
    return {(d, f, q): a for d in domains for f, e in raw[d]["files"].items() for q, a in e["answers"].items()}


def write_mp4(gif: Path, target: Path) -> Path:
    """An MP4 of a GIF's frames (the publishers' fluid videos are MP4), written with PyAV."""
    import av
    from PIL import Image, ImageSequence

    with Image.open(gif) as image:
        frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(image)]
    with av.open(str(target), "w") as container:
        stream = container.add_stream("mpeg4", rate=4)
        stream.width, stream.height = (frames[0].width // 2) * 2, (frames[0].height // 2) * 2
        stream.pix_fmt = "yuv420p"
        for frame in frames:
            cropped = frame.crop((0, 0, stream.width, stream.height))
            container.mux(stream.encode(av.VideoFrame.from_image(cropped)))
        container.mux(stream.encode())
    return target


def _available(seesim_data: Path, truth: dict, modality: str) -> dict:
    folder = {"image": "images", "video": "videos", "text": "text"}[modality]
    have = {(d, p.stem) for d in ("structural", "fluid") for p in (seesim_data / "data" / d / folder).iterdir()}
    return {k: v for k, v in truth.items() if (k[0], data_file_name(k[0], k[1])) in have}


def _metrics(log) -> dict[str, float]:
    return {name: m.value for s in log.results.scores for name, m in s.metrics.items()}


@pytest.mark.slow
@pytest.mark.parametrize("modality", ["image", "text", "video"])
@pytest.mark.parametrize("baseline", ["always-true", "always-false"])
def test_baselines_in_every_modality(seesim_data: Path, tmp_path: Path, modality: str, baseline: str) -> None:
    (log,) = inspect_eval(
        seesim(modality=modality, data=str(seesim_data)),
        model=f"mechbench/{baseline}",
        log_dir=str(tmp_path),
        **QUIET_EVAL,
    )
    assert log.status == "success"
    expected = _available(seesim_data, _truth(seesim_data), modality)
    assert log.results.completed_samples == len(expected) == log.results.total_samples
    said = baseline == "always-true"
    metrics = _metrics(log)
    assert metrics["accuracy"] == pytest.approx(sum(v == said for v in expected.values()) / len(expected))
    for domain in ("structural", "fluid"):
        mine = [v for k, v in expected.items() if k[0] == domain]
        assert metrics[f"accuracy_{domain}"] == pytest.approx(sum(v == said for v in mine) / len(mine))
    answers = {k: (said, v) for k, v in expected.items()}
    good, evaluated = consistency(answers)
    # Independently: a constant answer is consistent exactly where the two truths are equal.
    files = {(k[0], k[1]) for k in expected}
    pairs = [(d, f, a, b) for (d, f) in files for a, b in PAIRS[d] if (d, f, a) in expected and (d, f, b) in expected]
    assert evaluated == len(pairs)
    assert good == sum(expected[(d, f, a)] == expected[(d, f, b)] for d, f, a, b in pairs)
    assert metrics["consistency"] == pytest.approx(good / evaluated)
    validation = [v for (d, _, q), v in expected.items() if q in VALIDATION[d]]
    if validation:
        assert metrics["validation_accuracy"] == pytest.approx(sum(v == said for v in validation) / len(validation))
    else:  # a set that asks no validation question has no such metric (not a 0 or a 1 made up)
        assert "validation_accuracy" not in metrics
    assert metrics["unparsable"] == 0
    if modality == "video":
        sample = log.samples[0]
        frames = sample.scores["seesim_scorer"].metadata["frames"]
        assert len(frames) == len(sample.metadata["frames"]) >= 2
        assert all(f["answer"] is said for f in frames)
    assert log.eval.metadata["modality"] == modality


def test_video_frame_counts_per_file(seesim_data: Path, tmp_path: Path) -> None:
    # The generated GIFs hold frames of 0.25 s each: one sampled at 0, 1, 2, … s.
    from PIL import Image

    gif = seesim_data / "data" / "structural" / "videos" / "File_1.gif"
    with Image.open(gif) as image:
        count = image.n_frames
    assert len(extract_frames(gif, fps=1.0)) == -(-count // 4)
    assert len(extract_frames(gif, fps=4.0, max_frames=5)) == 5
    mp4 = write_mp4(gif, tmp_path / "File_1.mp4")  # the same frames at 4 per second
    assert len(extract_frames(mp4, fps=1.0)) == -(-count // 4) and len(extract_frames(mp4, fps=2.0)) == -(-count // 2)


def test_published_video_frame_counts_per_file(published_seesim: Path) -> None:
    # Durations: GIFs 1.9–2.0 s, fluid MP4s 2.47, 16.5, 5.87, 2.47, 16.5 s → frames at 0, 1, 2, … s.
    expected = {"structural/File_1": 2, "fluid/File_1": 3, "fluid/File_2": 17, "fluid/File_4": 6, "fluid/File_6": 17}
    for key, count in expected.items():
        domain, name = key.split("/")
        video = next((published_seesim / "data" / domain / "videos").glob(f"{name}.*"))
        assert len(extract_frames(video, fps=1.0)) == count, key
        assert len(extract_frames(video, fps=4.0, max_frames=5)) == 5


def test_random_baseline_is_seeded_and_files_filter(seesim_data: Path, tmp_path: Path) -> None:
    logs = [
        inspect_eval(
            seesim(modality="text", domain="fluid", files="File_7,File_9", data=str(seesim_data)),
            model="mechbench/random",
            log_dir=str(tmp_path),
            **QUIET_EVAL,
        )[0]
        for _ in range(2)
    ]
    answers = [[s.scores["seesim_scorer"].answer for s in sorted(log.samples, key=lambda s: s.id)] for log in logs]
    assert answers[0] == answers[1] and set(answers[0]) == {"True", "False"}
    assert {s.metadata["file"] for s in logs[0].samples} == {"File_7", "File_9"}
    assert "fluid_File_7" in _metrics(logs[0])


def test_missing_video_is_skipped_and_recorded(
    seesim_data: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)  # an in-process run before this one may have raised the console's level
    copy = tmp_path / "seesim"
    shutil.copytree(seesim_data, copy)
    (copy / "data" / "fluid" / "videos" / "File_3.gif").unlink()  # fluid data File_3 is question file File_9
    task = seesim(modality="video", domain="fluid", data=str(copy))
    assert task.metadata["skipped_for_missing_media"] == ["fluid/File_9"]
    qa = json.loads((copy / "benchmark" / "qa-benchmark-with-qids.json").read_text())
    asked = {name for name, entry in qa["fluid"]["files"].items() if entry["answers"] and name != "File_9"}
    assert {s.metadata["file"] for s in task.dataset} == asked
    # Said on the console too (Inspect shows warnings), not only in the log.
    assert any("left out (fluid/File_9)" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)


def test_download_archive_from_local_http_server(seesim_data: Path, http_server, tmp_path: Path) -> None:
    root, base = http_server
    with zipfile.ZipFile(root / "SeeSim-main.zip", "w") as zf:
        zf.write(
            seesim_data / "benchmark" / "qa-benchmark-with-qids.json",
            "SeeSim-main/benchmark/qa-benchmark-with-qids.json",
        )
        for path in (seesim_data / "data" / "structural" / "text").glob("*.txt"):
            zf.write(path, f"SeeSim-main/data/structural/text/{path.name}")
    (log,) = inspect_eval(
        seesim(modality="text", domain="structural", data=f"{base}/SeeSim-main.zip"),
        model="mechbench/always-false",
        log_dir=str(tmp_path),
        **QUIET_EVAL,
    )
    structural = [k for k in _truth(seesim_data) if k[0] == "structural"]
    assert log.status == "success" and log.results.completed_samples == len(structural)


def test_native_video_mode_passes_the_video_itself(seesim_data: Path, tmp_path: Path) -> None:
    from inspect_ai.model import ContentImage, ContentVideo

    copy = tmp_path / "seesim"
    shutil.copytree(seesim_data, copy)
    gif = copy / "data" / "fluid" / "videos" / "File_1.gif"
    write_mp4(gif, gif.with_suffix(".mp4"))
    gif.unlink()  # the fluid videos as the publisher ships them: MP4
    task = seesim(modality="video", video_mode="native", data=str(copy), files="File_1,File_7")
    kinds = {}
    for sample in task.dataset:
        media = sample.input[0].content[0]
        kinds[sample.metadata["media"].rsplit(".", 1)[1]] = type(media)
        assert "frames" not in sample.metadata
    assert kinds == {"gif": ContentImage, "mp4": ContentVideo}  # an animated GIF goes as an image
