"""Hostile archives, slow servers, links and oversized files: each ends in a DataSourceError, bounded."""

from __future__ import annotations

import io
import shutil
import tarfile
import threading
import time
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from mechbench.benchmarks.seesim.dataset import load_items
from mechbench.benchmarks.sphyr.dataset import read_records
from mechbench.benchmarks.structural_eval.dataset import load_tasks
from mechbench.core.errors import DataSourceError
from mechbench.sources import download, files
from mechbench.sources.download import fetch_url


def _zip(path: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in members.items():
            zf.writestr(name, content)


def test_a_name_that_is_both_file_and_folder_is_refused(http_server, tmp_path: Path) -> None:
    root, base = http_server
    _zip(root / "clash.zip", {"data/a": b"file", "data/a/b.json": b"{}"})
    with pytest.raises(DataSourceError, match="'data/a' is both a file and a folder"):
        fetch_url(f"{base}/clash.zip", cache=tmp_path / "cache")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tf:
        for name, content in (("x/a", b"1"), ("x/a/b", b"2")):
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tf.addfile(info, io.BytesIO(content))
    (root / "clash.tar.gz").write_bytes(buffer.getvalue())
    with pytest.raises(DataSourceError, match="both a file and a folder"):
        fetch_url(f"{base}/clash.tar.gz", cache=tmp_path / "cache")


def test_a_zip_bomb_is_refused_before_it_expands(http_server, tmp_path: Path, monkeypatch) -> None:
    root, base = http_server
    monkeypatch.setattr(download, "MAX_EXTRACTED_BYTES", 4 * 1024**2)
    _zip(root / "bomb.zip", {"zeros.bin": bytes(8 * 1024**2)})  # 8 MiB of zeros: a few kB zipped
    assert (root / "bomb.zip").stat().st_size < 100_000
    with pytest.raises(DataSourceError, match="expands to 8388608 bytes"):
        fetch_url(f"{base}/bomb.zip", cache=tmp_path / "cache")
    assert not list((tmp_path / "cache").rglob("zeros.bin"))  # nothing was written
    monkeypatch.setattr(download, "MAX_ARCHIVE_MEMBERS", 10)
    _zip(root / "many.zip", {f"f{i}": b"" for i in range(11)})
    with pytest.raises(DataSourceError, match="11 members, more than 10"):
        fetch_url(f"{base}/many.zip", cache=tmp_path / "cache")


def test_a_trickling_server_meets_the_overall_deadline(tmp_path: Path, monkeypatch) -> None:
    class Trickle(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            for _ in range(600):  # one byte every 0.1 s for a minute: each read is quick, the whole is far too slow
                try:
                    self.wfile.write(b"x")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.1)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Trickle)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setattr(download, "DOWNLOAD_DEADLINE_S", 1.0)
    try:
        start = time.monotonic()
        with pytest.raises(DataSourceError, match=r"not finished after 1\.0 s"):
            fetch_url(f"http://127.0.0.1:{server.server_address[1]}/slow.json", cache=tmp_path / "cache")
        # The deadline (1 s) ended it, not the server (60 s): a margin no busy or slow machine uses up.
        assert time.monotonic() - start < 30.0
    finally:
        server.shutdown()
        server.server_close()


def test_links_leaving_a_local_dataset_are_refused(structural_data: Path, seesim_data: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "beam_001.png").write_bytes(b"secret")
    dataset = tmp_path / "structural" / "data"
    shutil.copytree(structural_data / "raw_models", dataset / "raw_models")
    (dataset / "images").symlink_to(outside, target_is_directory=True)  # the whole folder is a link
    with pytest.raises(DataSourceError, match="link leading outside the dataset folder"):
        load_tasks(tmp_path / "structural", filter="beam_001")
    copy = tmp_path / "seesim"
    shutil.copytree(seesim_data, copy, symlinks=True)
    text = copy / "data" / "structural" / "text"
    shutil.rmtree(text)
    text.symlink_to(outside, target_is_directory=True)
    (outside / "File_1.txt").write_text("not the simulation report")
    with pytest.raises(DataSourceError, match="link leading outside"):
        load_items(copy, "text", "structural")


def test_an_oversized_data_file_is_refused_unread(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(files, "MAX_DATA_FILE_BYTES", 1000)
    path = tmp_path / "full_easy.jsonl"
    path.write_text('{"index": 0, "input_grid": [["V"]], "ground_truth": [["1"]]}\n' * 40)
    with pytest.raises(DataSourceError, match="more than the 1000 bytes"):
        read_records(path)


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_download_cut_short_is_a_clear_error_and_never_cached(framing: str, tmp_path: Path) -> None:
    served: list[int] = []

    class CutShort(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            served.append(1)
            self.send_response(200)
            if framing == "chunked":
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                self.wfile.write(b"400\r\n" + b"x" * 100)  # a 1024-byte chunk announced, 100 bytes sent
            else:
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b"x" * 10)
            self.wfile.flush()
            self.close_connection = True

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), CutShort)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/full_easy.jsonl"
    try:
        for _ in range(2):  # asked twice: the first, broken download was not kept
            with pytest.raises(DataSourceError, match="cut short"):
                fetch_url(url, cache=tmp_path / "cache")
        assert len(served) == 2 and not list((tmp_path / "cache").rglob("full_easy.jsonl"))
    finally:
        server.shutdown()
        server.server_close()
