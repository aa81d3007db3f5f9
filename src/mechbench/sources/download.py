"""Downloads into the cache, whole or not at all, and archives extracted with every member checked.

Downloads go once into the cache (``~/.cache/mechbench``; the ``cache`` argument overrides it) and are reused
afterwards. A body cut short, longer than announced or with the wrong hash is an error, never a cached file;
archives are extracted with every member checked to stay inside the target folder and within the size caps.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import shutil
import tarfile
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import Any

from mechbench.core.errors import DataSourceError
from mechbench.core.paths import default_cache
from mechbench.core.text import redact_url

DOWNLOAD_TIMEOUT_S = 60  # per read


# Overall: a server that trickles a byte every few seconds never trips the per-read timeout.
DOWNLOAD_DEADLINE_S = 1800


# Refuse absurd downloads: the largest published benchmark archive is a few hundred MB.
MAX_DOWNLOAD_BYTES = 2 * 1024**3
MAX_LISTING_BYTES = 50 * 1024**2


# Extraction caps (the download cap bounds the archive, not what it expands to: 8 GiB of zeros zip to 8 MB).
MAX_EXTRACTED_BYTES = 4 * 1024**3
MAX_ARCHIVE_MEMBERS = 100_000
_ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")


class _NoCredentialsAcrossHosts(urllib.request.HTTPRedirectHandler):
    """Follows redirects, but drops the Authorization header when one leads to another host (hubs redirect
    downloads to storage hosts, which must never see the user's token)."""

    def redirect_request(
        self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> urllib.request.Request | None:
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and urllib.parse.urlsplit(newurl).netloc != urllib.parse.urlsplit(req.full_url).netloc:
            new.remove_header("Authorization")
        return new


OPENER = urllib.request.build_opener(_NoCredentialsAcrossHosts)


def download(
    url: str,
    target: Path,
    headers: dict[str, str] | None = None,
    *,
    size: int | None = None,
    sha256: str | None = None,
) -> None:
    """Fetch ``url`` into ``target``; nothing is written there unless the whole body arrived.

    The body must be as long as the server's Content-Length (and ``size``, when given) and, with ``sha256``, hash
    to it: a download cut short or altered is an error, never a cached file.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=".part-")
    tmp = Path(tmp_name)
    request = urllib.request.Request(url, headers=headers or {"User-Agent": "mechbench"})
    shown = redact_url(url)
    digest = hashlib.sha256()
    try:
        with (
            os.fdopen(fd, "wb") as out,
            OPENER.open(request, timeout=DOWNLOAD_TIMEOUT_S) as response,
        ):
            received = 0
            announced = response.headers.get("Content-Length")
            deadline = time.monotonic() + DOWNLOAD_DEADLINE_S
            # read1: whatever has arrived (at most 1 MiB), so the deadline is checked as data trickles in.
            while chunk := response.read1(1 << 20):
                received += len(chunk)
                if received > MAX_DOWNLOAD_BYTES or (size is not None and received > size):
                    limit = MAX_DOWNLOAD_BYTES if size is None else size
                    raise DataSourceError(f"{shown}: larger than {limit} bytes, refused")
                if time.monotonic() > deadline:
                    raise DataSourceError(
                        f"download of {shown} failed: not finished after {DOWNLOAD_DEADLINE_S} s ({received} bytes)"
                    )
                digest.update(chunk)
                out.write(chunk)
        expected = size if size is not None else int(announced) if announced and announced.isdigit() else None
        if expected is not None and received != expected:
            raise DataSourceError(f"download of {shown} failed: cut short at {received} of {expected} bytes")
        if sha256 is not None and digest.hexdigest() != sha256.lower():
            raise DataSourceError(
                f"download of {shown} failed: its SHA-256 is {digest.hexdigest()[:12]}…, expected {sha256[:12]}…"
            )
        os.replace(tmp, target)  # atomic: a half-written file is never taken for a download
    except urllib.error.HTTPError as error:
        raise DataSourceError(f"download of {shown} failed: HTTP {error.code} {error.reason}") from None
    except http.client.IncompleteRead as error:  # a chunked body that ended before its last chunk
        raise DataSourceError(f"download of {shown} failed: cut short after {len(error.partial)} bytes") from None
    except (urllib.error.URLError, http.client.HTTPException, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise DataSourceError(f"download of {shown} failed: {reason or type(error).__name__}") from None
    finally:
        tmp.unlink(missing_ok=True)


def safe_member(name: str) -> bool:
    path = PurePosixPath(name)
    return not path.is_absolute() and ".." not in path.parts and not name.startswith(("/", "\\"))


def _check_members(archive: str, entries: list[tuple[str, int, bool]]) -> None:
    """Refuse unsafe paths, too many members, too many bytes, and a name that is both a file and a folder."""
    if len(entries) > MAX_ARCHIVE_MEMBERS:
        raise DataSourceError(f"{archive}: {len(entries)} members, more than {MAX_ARCHIVE_MEMBERS}; refused")
    total = sum(size for _, size, _ in entries)
    if total > MAX_EXTRACTED_BYTES:
        raise DataSourceError(f"{archive}: expands to {total} bytes, more than {MAX_EXTRACTED_BYTES}; refused")
    files, folders = set(), set()
    for name, _, is_folder in entries:
        if not safe_member(name):
            raise DataSourceError(f"{archive}: refusing unsafe member path {name!r}")
        parts = PurePosixPath(name).parts
        folders.update("/".join(parts[:i]) for i in range(1, len(parts)))
        (folders if is_folder else files).add("/".join(parts))
    clash = sorted(files & folders)
    if clash:
        raise DataSourceError(f"{archive}: {clash[0]!r} is both a file and a folder; refused")


_UNREADABLE_ARCHIVE = (
    zipfile.BadZipFile,
    tarfile.TarError,
    EOFError,
    zlib.error,
    NotImplementedError,
    UnicodeDecodeError,
)


def _extract(archive: Path, target: Path) -> None:
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=".extract-"))
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                infos = zf.infolist()
                encrypted = [i.filename for i in infos if i.flag_bits & 0x1]
                if encrypted:
                    raise DataSourceError(f"{archive.name}: member {encrypted[0]!r} is encrypted; refused")
                _check_members(archive.name, [(i.filename, i.file_size, i.is_dir()) for i in infos])
                zf.extractall(tmp)  # zipfile stops each member at its declared size, which was checked
        else:
            with tarfile.open(archive) as tf:
                members = tf.getmembers()
                for member in members:
                    if not (member.isfile() or member.isdir()):
                        raise DataSourceError(f"{archive.name}: refusing unsafe member {member.name!r}")
                _check_members(archive.name, [(m.name, m.size, m.isdir()) for m in members])
                tf.extractall(tmp, filter="data")
        os.replace(tmp, target)
    except _UNREADABLE_ARCHIVE as error:
        # NotImplementedError: a zip member claiming an unknown version or compression method;
        # UnicodeDecodeError: a member name flagged UTF-8 that is not.
        raise DataSourceError(f"{archive.name} is not a readable archive: {error}") from None
    except OSError as error:
        raise DataSourceError(f"cannot extract {archive.name}: {error.strerror or error}") from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


SECRET_URLS_VARIABLE = "MECHBENCH_SECRET_URLS"
"""Set by ``mechbench eval`` for the Inspect run it starts: a JSON object from each masked data URL it
passed as a task argument to the real URL, so the token reaches the download but never the log."""


def unmask_url(url: str) -> str:
    """The real URL behind a masked one that ``mechbench eval`` passed on, else ``url`` itself."""
    mapping = os.environ.get(SECRET_URLS_VARIABLE)
    if not mapping or "***" not in url:
        return url
    try:
        return str(json.loads(mapping).get(url, url))
    except (ValueError, AttributeError):
        return url


def _download_folder(url: str, cache: Path | None) -> Path:
    # Keyed by the URL without its secrets: a token never shapes a path on disk.
    return (cache or default_cache()) / "downloads" / hashlib.sha256(redact_url(url).encode()).hexdigest()[:16]


def cached_url(url: str, cache: Path | None = None) -> Path | None:
    """The content folder of ``url`` if it was downloaded before; never touches the network."""
    content = _download_folder(url, cache) / "content"
    return content if content.exists() else None


def fetch_url(url: str, cache: Path | None = None) -> Path:
    """Download ``url`` once; archives are extracted. Returns the folder holding the content."""
    url = unmask_url(url)
    folder = _download_folder(url, cache)
    content = folder / "content"
    if content.exists():
        return content
    name = PurePosixPath(url.split("?")[0]).name or "download"
    file = folder / name
    if not file.exists():
        download(url, file)
    if name.endswith(_ARCHIVE_SUFFIXES):
        _extract(file, content)
    else:
        content.mkdir(parents=True, exist_ok=True)
        shutil.copy2(file, content / name)
    return content
