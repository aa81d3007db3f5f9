"""Media checked before a model sees them: each file decodes as the image or video it claims to be, within bounds.

A Git LFS pointer is resolved first (:mod:`mechbench.sources.git_lfs`); a file that does not decode, or whose pixels or
frames pass the limits below, is a :class:`~mechbench.sources.DataSourceError` naming the file. Nothing is ever
replaced silently (by a rendered drawing or a blank picture).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from mechbench.core.errors import DataSourceError
from mechbench.sources.git_lfs import GitOrigin, read_pointer, resolve

MediaKind = Literal["image", "video"]
MAX_MEDIA_BYTES = 512 * 1024**2
"""The largest media file read (the published sets' largest video is a few MB)."""
MAX_FRAME_PIXELS = 40_000_000
"""Pixels of one image or video frame (an 8K frame has 33 million); a larger one is refused before decoding."""
MAX_VIDEO_FRAMES = 20_000
"""Frames of one video (over 11 minutes at 30 frames per second); a longer one is refused before decoding."""
VIDEO_SUFFIXES = (".mp4", ".webm", ".mov", ".mkv", ".avi")


def _fail(path: Path, kind: MediaKind, why: object) -> DataSourceError:
    return DataSourceError(f"{path.name} cannot be used as {'an image' if kind == 'image' else 'a video'}: {why}")


def _check_pixels(path: Path, kind: MediaKind, width: int, height: int) -> None:
    if width <= 0 or height <= 0:
        raise _fail(path, kind, f"it has no pixels ({width} × {height})")
    if width * height > MAX_FRAME_PIXELS:
        raise _fail(path, kind, f"{width} × {height} pixels, more than the {MAX_FRAME_PIXELS} a frame may have")


def _check_pillow(path: Path, kind: MediaKind) -> None:
    """Decode the first frame with Pillow after checking its size (and, for an animation, its frame count)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            _check_pixels(path, kind, *image.size)
            frames = getattr(image, "n_frames", 1)
            if frames > MAX_VIDEO_FRAMES:
                raise _fail(path, kind, f"{frames} frames, more than the {MAX_VIDEO_FRAMES} a video may have")
            image.load()
    except DataSourceError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError) as error:
        raise _fail(path, kind, f"not a decodable image ({error})") from None
    except (OSError, SyntaxError, ValueError, EOFError) as error:  # truncated or corrupt data
        raise _fail(path, kind, f"it does not decode ({error})") from None


def _check_video_container(path: Path) -> None:
    """Open a video container with PyAV, check the stream's size and length, decode its first frame."""
    import av  # imported here: slow to import, and only video needs it

    try:
        with av.open(str(path)) as container:
            if not container.streams.video:
                raise _fail(path, "video", "it holds no video stream")
            stream = container.streams.video[0]
            _check_pixels(path, "video", stream.codec_context.width, stream.codec_context.height)
            if (stream.frames or 0) > MAX_VIDEO_FRAMES:
                raise _fail(path, "video", f"{stream.frames} frames, more than the {MAX_VIDEO_FRAMES} a video may have")
            if next(iter(container.decode(stream)), None) is None:
                raise _fail(path, "video", "it has no frames")
    except DataSourceError:
        raise
    except (av.error.FFmpegError, OSError, ValueError, IndexError) as error:
        raise _fail(path, "video", f"it does not decode ({error})") from None


def check_media(path: Path, kind: MediaKind) -> None:
    """Raise a :class:`DataSourceError` unless ``path`` decodes as ``kind`` within mechbench's media limits."""
    try:
        stat = path.stat()
    except OSError as error:
        raise _fail(path, kind, error.strerror or error) from None
    if stat.st_size > MAX_MEDIA_BYTES:
        raise _fail(path, kind, f"{stat.st_size} bytes, more than the {MAX_MEDIA_BYTES} a media file may have")
    _checked(str(path.resolve()), kind, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=4096)
def _checked(path: str, kind: MediaKind, size: int, modified: int) -> None:
    """Decode once per file version and process (a data set is loaded again for every task built on it)."""
    if kind == "video" and Path(path).suffix.lower() in VIDEO_SUFFIXES:
        _check_video_container(Path(path))
    else:  # images, and animated GIFs used as videos
        _check_pillow(Path(path), kind)


def usable_media(path: Path, kind: MediaKind, origin: GitOrigin | None = None) -> Path:
    """The file to show a model for ``path``: the file itself, or the object its Git LFS pointer stands for
    (fetched through ``origin`` and verified), after checking that it decodes as ``kind``."""
    pointer = read_pointer(path)
    if pointer is not None:
        path = resolve(path, pointer, origin)
    check_media(path, kind)
    return path
