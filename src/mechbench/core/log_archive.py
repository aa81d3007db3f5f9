"""How much an Inspect ``.eval`` log really inflates to, measured with a hard cap before Inspect reads it.

A ``.eval`` log is a zip archive of JSON members, usually zstd-compressed. Its directory declares each member's
inflated size, but nothing holds a member to it: Inspect's zstd reader ignores the length it is asked for, so a
319 KB log whose header declared a few KB inflated to 6 GB in the report. Here each member is inflated as a stream,
a chunk at a time, and the measurement stops at the first byte past what the member declared or past the cap:
memory stays at one chunk, time at the cap's worth of inflation.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

CHUNK = 1024**2
"""Bytes inflated at a time."""
_LOCAL_HEADER = struct.Struct("<4s5H3I2H")
_LOCAL_MAGIC = b"PK\x03\x04"
STORED, DEFLATED, ZSTD = 0, 8, 93
"""The compression methods Inspect writes (zstd) and reads (all three)."""


class _RawMember(io.RawIOBase):
    """A member's compressed bytes, read from the archive file in place."""

    def __init__(self, file: io.BufferedReader, start: int, size: int):
        self.file, self.position, self.left = file, start, size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self.left <= 0:
            return 0
        self.file.seek(self.position)
        data = self.file.read(min(len(buffer), self.left))
        buffer[: len(data)] = data
        self.position += len(data)
        self.left -= len(data)
        return len(data)


def _chunks(raw: _RawMember, method: int) -> Iterator[bytes]:
    """The member inflated, at most :data:`CHUNK` bytes at a time."""
    if method == STORED:
        while chunk := raw.read(CHUNK):
            yield chunk
    elif method == DEFLATED:
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        while data := raw.read(CHUNK):
            while data:
                yield inflater.decompress(data, CHUNK)
                data = inflater.unconsumed_tail
        yield inflater.flush(CHUNK)
    elif method == ZSTD:
        import zstandard

        reader = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
        while chunk := reader.read(CHUNK):
            yield chunk
    else:
        raise ValueError(f"compression method {method}, which Inspect does not write")


def _data_start(file: io.BufferedReader, info: zipfile.ZipInfo) -> int:
    file.seek(info.header_offset)
    fields = _LOCAL_HEADER.unpack(file.read(_LOCAL_HEADER.size))
    if fields[0] != _LOCAL_MAGIC:
        raise ValueError(f"member {info.filename!r} has no local header where the directory says")
    name_length, extra_length = fields[-2], fields[-1]
    return info.header_offset + _LOCAL_HEADER.size + name_length + extra_length


def inflation_problem(path: str | Path, cap: int, members: Iterable[str] | None = None) -> str | None:
    """Why the ``.eval`` log at ``path`` may not be read (None when it may): a member that inflates past the size
    its directory declares, members (all, or those named in ``members``) that inflate past ``cap`` bytes together,
    or an archive that is not one. Each member is inflated as a stream and the count stops at the first byte over."""
    try:
        with zipfile.ZipFile(path) as archive, open(path, "rb") as file:
            infos = archive.infolist()
            if members is not None:
                wanted = set(members)
                infos = [info for info in infos if info.filename in wanted]
            declared = sum(info.file_size for info in infos)
            if declared > cap:
                return f"it declares {declared} bytes once inflated, more than the {cap} read from one log"
            total = 0
            for info in infos:
                size = 0
                raw = _RawMember(file, _data_start(file, info), info.compress_size)
                for chunk in _chunks(raw, info.compress_type):
                    size += len(chunk)
                    if size > info.file_size:
                        return (
                            f"its member {info.filename!r} inflates past the {info.file_size} bytes its directory "
                            "declares (a decompression bomb)"
                        )
                total += size
                if total > cap:
                    return f"it inflates past the {cap} bytes read from one log"
    except Exception as error:  # zip, zlib and zstd errors alike: the log cannot be read as one
        return f"cannot be read ({type(error).__name__}: {error})"
    return None
