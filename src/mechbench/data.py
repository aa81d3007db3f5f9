"""Where benchmark data lives: a local folder, an archive URL, or a Hugging Face dataset id.

Downloads go once into the cache (``~/.cache/mechbench``; the ``cache`` argument overrides it) and
are reused afterwards. Archives are extracted with every member checked to stay inside the target
folder. The published StructuralEval data is CC BY-NC: mechbench never ships it, it fetches it from
its publishers at run time or reads a local copy the user points to.

Kept as one module (~500 lines): every source (folders, archives, hub files, snapshots) goes through one
download, cache and verification policy, which is safer reviewed in one place.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
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

from mechbench.errors import DataSourceError
from mechbench.paths import default_cache

HUB_ENDPOINT = "https://huggingface.co"
DOWNLOAD_TIMEOUT_S = 60  # per read
# Overall: a server that trickles a byte every few seconds never trips the per-read timeout.
DOWNLOAD_DEADLINE_S = 1800
# Refuse absurd downloads: the largest published benchmark archive is a few hundred MB.
MAX_DOWNLOAD_BYTES = 2 * 1024**3
MAX_LISTING_BYTES = 50 * 1024**2
# Extraction caps (the download cap bounds the archive, not what it expands to: 8 GiB of zeros zip to 8 MB).
MAX_EXTRACTED_BYTES = 4 * 1024**3
MAX_ARCHIVE_MEMBERS = 100_000
# The largest published data file (SPhyR v2-20, one subject) is under 2 MB; JSON and text files beyond this
# are refused instead of being read whole into memory.
MAX_DATA_FILE_BYTES = 256 * 1024**2
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
HUB_TOKEN_VARIABLES = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")
"""Environment variables whose token is sent (as a bearer header, never in a URL) to the hub for gated datasets."""
# Repetitions are bounded so that matching stays linear on any text (unbounded ones backtrack quadratically
# on long runs of letters: 124 s on 100,000 characters).
# Not anchored at ? or &: whatever precedes a "…token=" / "…key=" / "sig=" pair, its value is masked (a masker
# errs on the side of masking).
_SECRET_QUERY = re.compile(r"(?i)((?:token|key|sig|signature|x-amz-[a-z-]{1,40})=)[^&#\s]*")
_URL_CREDENTIALS = re.compile(r"(?i)([a-z][a-z0-9+.-]{0,30}://)[^/@\s]{0,512}@")


BUNDLED = Path(__file__).resolve().parent / "bundled"
"""mechbench's own generated offline set (see ``bundled/GENERATED.md``)."""


def bundled(name: str) -> Path:
    """Folder of the bundled set of benchmark ``name`` (``structural_eval`` or ``sphyr``)."""
    path = BUNDLED / name
    if not path.is_dir():
        raise DataSourceError(f"no bundled data for {name}")
    return path


def resolve_or_official(source: str | Path | None, default: str, name: str, **kwargs: object) -> Path:
    """``source`` resolved; ``bundled`` means mechbench's bundled set; with no source, the official ``default``.

    Never a silent substitution: when the official data cannot be fetched, the error says so and names
    ``-T data=bundled`` as the offline choice (a run on other data than the user believes is worse than none).
    """
    if source == "bundled":
        return bundled(name)
    if source is not None:
        return resolve_source(source, **kwargs)  # type: ignore[arg-type]
    try:
        return resolve_source(default, **kwargs)  # type: ignore[arg-type]
    except DataSourceError as error:
        raise DataSourceError(
            f"the official {name} data could not be fetched ({error}); for mechbench's own generated set, "
            "offline, use -T data=bundled"
        ) from None


def is_url(source: str) -> bool:
    """True for http(s) and file URLs."""
    return source.startswith(("http://", "https://", "file://"))


def is_hub_id(source: str) -> bool:
    """True for an ``owner/name`` Hugging Face dataset id that is not also an existing local path."""
    return bool(_HUB_ID.match(source)) and not Path(source).exists()


SECRET_URLS_VARIABLE = "MECHBENCH_SECRET_URLS"
"""Set by ``mechbench eval`` for the Inspect process it starts: a JSON object from each masked data URL it
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


def redact_url(url: str) -> str:
    """``url`` fit for messages: credentials in the authority and secret-looking query values masked."""
    url = _URL_CREDENTIALS.sub(r"\1***@", url)
    return _SECRET_QUERY.sub(r"\1***", url)


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


_OPENER = urllib.request.build_opener(_NoCredentialsAcrossHosts)


def _hub_headers() -> dict[str, str]:
    token = next((os.environ[v] for v in HUB_TOKEN_VARIABLES if os.environ.get(v)), None)
    return {"User-Agent": "mechbench", **({"Authorization": f"Bearer {token}"} if token else {})}


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
            _OPENER.open(request, timeout=DOWNLOAD_TIMEOUT_S) as response,
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


def _safe_member(name: str) -> bool:
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
        if not _safe_member(name):
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


_HUB_CACHE_REPOSITORY = re.compile(r"^(datasets|models|spaces)--(.+)$")


def hub_snapshot(path: Path) -> tuple[Path, str, str] | None:
    """(the hub cache's repository folder, repository id, revision) when ``path`` lies in a snapshot of a Hugging
    Face cache (``…/datasets--owner--name/snapshots/<revision>/…``, as ``huggingface-cli download`` leaves it)."""
    parts = path.absolute().parts
    for i in range(len(parts) - 2, 0, -1):
        match = _HUB_CACHE_REPOSITORY.match(parts[i - 1])
        if parts[i] == "snapshots" and match:
            return Path(*parts[:i]), match.group(2).replace("--", "/"), parts[i + 1]
    return None


def within(root: Path, path: Path) -> Path:
    """``path`` resolved; a :class:`DataSourceError` if a symbolic link takes it outside the dataset.

    The dataset is ``root``, or, for a snapshot in a Hugging Face cache, the cache's repository folder: its
    snapshot files are links into the same repository's ``blobs/``, which is where the data really is.
    """
    snapshot = hub_snapshot(root)
    boundary = snapshot[0] if snapshot else root
    resolved, base = path.resolve(), boundary.resolve()
    if not resolved.is_relative_to(base):
        try:
            shown = path.relative_to(root)
        except ValueError:
            shown = path
        place = "the hub cache's repository folder" if snapshot else "the dataset folder"
        raise DataSourceError(f"{shown} in {root} is a link leading outside {place}; refused")
    return resolved


def describe_source(source: str | Path) -> str:
    """How a run names a data source given by the user: URLs without their secrets, a hub-cache snapshot as the
    repository and revision it holds (and where it lies), other paths as given."""
    text = str(source)
    if is_url(text):
        return redact_url(text)
    path = Path(text).expanduser()
    snapshot = hub_snapshot(path) if path.exists() else None
    if snapshot:
        _, repository, revision = snapshot
        return f"{repository}@{revision} (Hugging Face cache snapshot {text})"
    return text


def read_data_text(path: Path, limit: int | None = None) -> str:
    """A data file's text (UTF-8), refusing one larger than ``limit`` (default the data-file cap) unread."""
    limit = MAX_DATA_FILE_BYTES if limit is None else limit
    try:
        size = path.stat().st_size
    except OSError as error:
        raise DataSourceError(f"cannot read {path}: {error.strerror or error}") from None
    if size > limit:
        raise DataSourceError(f"{path.name} is {size} bytes, more than the {limit} a data file may have; refused")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DataSourceError(f"cannot read {path}: {error}") from None


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


def list_hub_files(
    dataset_id: str, *, prefix: str = "", revision: str = "main", endpoint: str = HUB_ENDPOINT
) -> list[str]:
    """Paths of the files in a hub dataset repository (the hub's tree API), optionally under ``prefix``."""
    url = f"{endpoint.rstrip('/')}/api/datasets/{dataset_id}/tree/{revision}?recursive=1"
    try:
        with _OPENER.open(urllib.request.Request(url, headers=_hub_headers()), timeout=DOWNLOAD_TIMEOUT_S) as response:
            entries = json.loads(response.read(MAX_LISTING_BYTES))
    except urllib.error.HTTPError as error:
        raise DataSourceError(f"listing of {dataset_id} failed: HTTP {error.code} {error.reason}") from None
    except (urllib.error.URLError, TimeoutError, OSError, ValueError) as error:
        raise DataSourceError(f"listing of {dataset_id} failed: {getattr(error, 'reason', error)}") from None
    if not isinstance(entries, list):
        raise DataSourceError(f"listing of {dataset_id}: unexpected answer from the hub")
    return sorted(
        e["path"]
        for e in entries
        if isinstance(e, dict) and e.get("type") == "file" and str(e.get("path", "")).startswith(prefix)
    )


def fetch_hub_files(
    dataset_id: str,
    paths: list[str],
    *,
    revision: str = "main",
    endpoint: str = HUB_ENDPOINT,
    cache: Path | None = None,
) -> Path:
    """Download files of a Hugging Face dataset repository once; returns the local repository folder."""
    cache = cache or default_cache()
    folder = cache / "hub" / dataset_id.replace("/", "--") / revision
    for path in paths:
        if not _safe_member(path):
            raise DataSourceError(f"unsafe path in dataset {dataset_id}: {path!r}")
        target = folder / path
        if not target.exists():
            download(f"{endpoint.rstrip('/')}/datasets/{dataset_id}/resolve/{revision}/{path}", target, _hub_headers())
    return folder


GITHUB_ENDPOINT = "https://github.com"
GITHUB_VARIABLE = "MECHBENCH_GITHUB"
"""Environment variable naming another host for repository archives (a mirror, or a local test server)."""


def github_archive(repository: str, revision: str) -> str:
    """The zip archive URL of ``owner/name`` at ``revision`` (``$MECHBENCH_GITHUB`` or GitHub)."""
    base = (os.environ.get(GITHUB_VARIABLE) or GITHUB_ENDPOINT).rstrip("/")
    return f"{base}/{repository}/archive/{revision}.zip"


GITHUB_RAW_ENDPOINT = "https://raw.githubusercontent.com"
GITHUB_RAW_VARIABLE = "MECHBENCH_GITHUB_RAW"
"""Environment variable naming another host for raw repository files (a mirror, or a local test server)."""


def github_raw_endpoint() -> str:
    """Where raw files of GitHub repositories are fetched from (``$MECHBENCH_GITHUB_RAW`` or GitHub's own)."""
    return os.environ.get(GITHUB_RAW_VARIABLE) or GITHUB_RAW_ENDPOINT


def fetch_repository_files(
    repository: str, paths: list[str], *, revision: str, endpoint: str | None = None, cache: Path | None = None
) -> Path:
    """Download files of a GitHub repository at ``revision`` once; returns the local repository folder.

    A pinned commit never changes, so a cached file is reused without asking the network again.
    """
    if not _HUB_ID.match(repository):
        raise DataSourceError(f"{repository!r} is not an owner/name repository")
    if not re.fullmatch(r"[\w.-]{1,100}", revision):
        raise DataSourceError(f"{revision!r} is not a commit, tag or branch name")
    base = (endpoint or github_raw_endpoint()).rstrip("/")
    folder = (cache or default_cache()) / "github" / repository.replace("/", "--") / revision
    for path in paths:
        if not _safe_member(path):
            raise DataSourceError(f"unsafe path in repository {repository}: {path!r}")
        target = folder / path
        if not target.exists():
            download(f"{base}/{repository}/{revision}/{path}", target)
    return folder


def files_sha256(paths: list[Path]) -> str:
    """One SHA-256 over the given files (names and bytes, in the order given): what a run actually read."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0")
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def resolve_source(
    source: str | Path,
    *,
    hub_paths: list[str] | None,
    hub_prefix: str = "",
    endpoint: str = HUB_ENDPOINT,
    cache: Path | None = None,
) -> Path:
    """A local folder for ``source``: the folder itself, a downloaded archive, or hub files.

    ``hub_paths`` names the files to fetch from a hub dataset; ``None`` fetches every file under
    ``hub_prefix`` (listed through the hub's API).
    """
    text = str(source)
    path = Path(text).expanduser()
    if path.is_dir():
        return path
    if path.exists():
        raise DataSourceError(f"{path} is a file; give the folder that holds the benchmark data")
    if is_url(text):
        return fetch_url(text, cache)
    if is_hub_id(text):
        if hub_paths is None:
            # The listing is cached with the files, so a later run works offline.
            listing = (
                (cache or default_cache()) / "hub" / text.replace("/", "--") / f"listing-{hub_prefix.strip('/')}.json"
            )
            if listing.exists():
                hub_paths = json.loads(listing.read_text())
            else:
                hub_paths = list_hub_files(text, prefix=hub_prefix, endpoint=endpoint)
                listing.parent.mkdir(parents=True, exist_ok=True)
                listing.write_text(json.dumps(hub_paths))
            if not hub_paths:
                raise DataSourceError(f"hub dataset {text} has no files under {hub_prefix or '/'}")
        return fetch_hub_files(text, hub_paths, endpoint=endpoint, cache=cache)
    raise DataSourceError(f"{text!r} is neither an existing folder, an archive URL, nor a Hugging Face dataset id")


def find_file(root: Path, name: str) -> Path:
    """The file called ``name`` under ``root`` (at any depth, shallowest first)."""
    if not _safe_member(name):
        raise DataSourceError(f"unsafe file name {name!r}")
    matches = sorted(root.rglob(name), key=lambda p: (len(p.parts), str(p)))
    matches = [m for m in matches if m.is_file()]
    if not matches:
        raise DataSourceError(f"no {name} under {root}")
    return matches[0]
