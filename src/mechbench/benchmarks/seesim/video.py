"""Video as sampled frames: decode a GIF or MP4 (PyAV) and keep one frame per 1/fps seconds."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mechbench.core.errors import DataSourceError
from mechbench.core.paths import default_cache

# Bound the work on a hostile or enormous file: frames decoded per video.
MAX_DECODED_FRAMES = 100_000
# Frames are stored as JPEG no larger than this (pixels, longest side): every frame of every question
# is inlined into the request and the log, so full-size PNGs make logs of hundreds of MB.
MAX_FRAME_SIDE = 1024


def _cache(video: Path, tag: str) -> tuple[Path, list[Path] | None]:
    """The cache folder of one frame selection of ``video``, and its frames when already extracted."""
    key = hashlib.sha256(f"{video.resolve()}:{video.stat().st_size}:{tag}".encode()).hexdigest()[:16]
    folder = default_cache() / "frames" / f"{video.stem}-{key}"
    done = folder / "frames.txt"
    if done.exists():
        return folder, [folder / name for name in done.read_text().split()]
    folder.mkdir(parents=True, exist_ok=True)
    return folder, None


def _decoded(video: Path) -> Iterator[Any]:
    """The video's frames in order (at most :data:`MAX_DECODED_FRAMES`); a decoding failure names the file."""
    import av  # imported here: Inspect loads mechbench's tasks at every start-up, and PyAV is slow to import

    try:
        with av.open(str(video)) as container:
            for number, frame in enumerate(container.decode(container.streams.video[0])):
                if number >= MAX_DECODED_FRAMES:
                    return
                yield frame
    except (av.error.FFmpegError, IndexError, OSError) as error:
        raise DataSourceError(f"cannot decode video {video.name}: {error}") from None


def _save(frame: Any, path: Path) -> Path:
    image = frame.to_image().convert("RGB")
    image.thumbnail((MAX_FRAME_SIDE, MAX_FRAME_SIDE))
    image.save(path, quality=90)
    return path


def _finish(video: Path, folder: Path, paths: list[Path]) -> list[Path]:
    if not paths:
        raise DataSourceError(f"video {video.name} has no frames")
    (folder / "frames.txt").write_text("\n".join(p.name for p in paths))
    return paths


def extract_frames(video: Path, fps: float = 1.0, max_frames: int | None = None) -> list[Path]:
    """JPEG files of frames sampled at 0, 1/fps, 2/fps, … (cached), in time order.

    With ``max_frames``, at most that many, spread evenly over the sampled ones.
    """
    if fps <= 0:
        raise ValueError(f"fps must be positive, got {fps}")
    folder, cached = _cache(video, f"{fps}:{max_frames}")
    if cached is not None:
        return cached
    paths: list[Path] = []
    next_time = 0.0
    for frame in _decoded(video):  # streamed: keep the first frame shown at or after each 1/fps mark
        if float(frame.time or 0.0) >= next_time - 1e-9:
            paths.append(_save(frame, folder / f"frame_{len(paths):04d}.jpg"))
            next_time += 1.0 / fps
    if max_frames is not None and len(paths) > max_frames:
        step = len(paths) / max_frames
        paths = [paths[int(i * step)] for i in range(max_frames)]
    return _finish(video, folder, paths)


def centred_frames(video: Path, count: int = 8) -> list[Path]:
    """JPEG files of ``count`` consecutive frames centred on the video's middle frame (cached), in time order.

    Two passes (count, then keep the window), so memory holds one frame at a time whatever the video's length.
    """
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    folder, cached = _cache(video, f"centred:{count}")
    if cached is not None:
        return cached
    total = sum(1 for _ in _decoded(video))
    start = max(0, min(total // 2 - count // 2, total - count))
    paths = [
        _save(frame, folder / f"frame_{number:04d}.jpg")
        for number, frame in enumerate(_decoded(video))
        if start <= number < start + count
    ]
    return _finish(video, folder, paths)
