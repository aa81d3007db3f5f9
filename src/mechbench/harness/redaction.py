"""Credentials a request carried never come back in its response.

Some OpenAI-compatible servers echo request headers in their error bodies (401, 400, 429, 500) or even in a
reply; the SDK puts the body into its exception message and Inspect records that message in the sample's
events, its error, its summary and on the console, and a reply's text in the messages and the output. The one
place every such path shares is the HTTP transport: there, before the SDK or Inspect sees a response, each
credential the request sent (an ``Authorization`` bearer or basic value, an ``api-key``-style header, a
``key``/``token`` query parameter) is replaced by ``***`` in the response's headers and body.

:func:`install` patches httpx's sync and async transports once per process (Inspect's OpenAI, Anthropic and
Google providers all speak httpx); it is called when Inspect loads mechbench and by ``mechbench eval``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import AsyncIterator, Iterator
from types import ModuleType
from typing import Any

MASK = b"***"
# Header names whose values are credentials (lower-case).
SECRET_HEADERS = ("authorization", "proxy-authorization", "api-key", "x-api-key", "x-goog-api-key")
_SECRET_PARAMETER = re.compile(r"(?i)^(?:[a-z_]*token|[a-z_]*key|sig|signature)$")
MIN_SECRET_LENGTH = 8  # shorter values are not credentials worth masking (and would mask ordinary text)
# httpx and the forks of it that provider SDKs ship (the OpenAI SDK 3.x uses ``httpx2``).
HTTP_MODULES = ("httpx", "httpx2")
_installed: set[str] = set()


def request_secrets(request: Any) -> list[bytes]:
    """The credential values ``request`` carries, longest first."""
    found: set[bytes] = set()
    for name, value in request.headers.raw:
        if name.decode("latin-1").lower() not in SECRET_HEADERS:
            continue
        found.add(value)
        scheme, _, credential = value.partition(b" ")
        if credential and scheme.lower() in (b"bearer", b"basic", b"token"):
            found.add(credential.strip())
    for name, value in request.url.params.multi_items():
        if _SECRET_PARAMETER.match(name):
            found.add(value.encode())
    return sorted((s for s in found if len(s) >= MIN_SECRET_LENGTH), key=len, reverse=True)


def redact(data: bytes, secrets: list[bytes]) -> bytes:
    """``data`` with every secret replaced by ``***``."""
    for secret in secrets:
        data = data.replace(secret, MASK)
    return data


class _Redactor:
    """Masks secrets in a byte stream; the last (longest secret − 1) bytes wait for the next chunk, so a
    secret split across two chunks is still found."""

    def __init__(self, secrets: list[bytes]):
        self.secrets, self.keep, self.pending = secrets, max(len(s) for s in secrets) - 1, b""

    def feed(self, chunk: bytes) -> bytes:
        self.pending = redact(self.pending + chunk, self.secrets)
        cut = max(len(self.pending) - self.keep, 0)
        out, self.pending = self.pending[:cut], self.pending[cut:]
        return out

    def flush(self) -> bytes:
        out, self.pending = redact(self.pending, self.secrets), b""
        return out


def _headers(response: Any, secrets: list[bytes]) -> list[tuple[bytes, bytes]]:
    # The body's length changes when a secret is masked: drop Content-Length, the stream ends the body.
    return [(k, redact(v, secrets)) for k, v in response.headers.raw if k.lower() != b"content-length"]


def _patch(module: ModuleType) -> None:
    """Patch one httpx-compatible module (httpx itself, or a fork an SDK ships, such as ``httpx2``)."""

    class RedactingStream(module.SyncByteStream):  # type: ignore[name-defined, misc]
        def __init__(self, stream: Any, secrets: list[bytes]):
            self._stream, self._secrets = stream, secrets

        def __iter__(self) -> Iterator[bytes]:
            redactor = _Redactor(self._secrets)
            for chunk in self._stream:
                if out := redactor.feed(chunk):
                    yield out
            if tail := redactor.flush():
                yield tail

        def close(self) -> None:
            self._stream.close()

    class AsyncRedactingStream(module.AsyncByteStream):  # type: ignore[name-defined, misc]
        def __init__(self, stream: Any, secrets: list[bytes]):
            self._stream, self._secrets = stream, secrets

        async def __aiter__(self) -> AsyncIterator[bytes]:
            redactor = _Redactor(self._secrets)
            async for chunk in self._stream:
                if out := redactor.feed(chunk):
                    yield out
            if tail := redactor.flush():
                yield tail

        async def aclose(self) -> None:
            await self._stream.aclose()

    sync_send = module.HTTPTransport.handle_request
    async_send = module.AsyncHTTPTransport.handle_async_request

    def masked(response: Any, stream: Any, secrets: list[bytes]) -> Any:
        return module.Response(
            response.status_code, headers=_headers(response, secrets), stream=stream, extensions=response.extensions
        )

    def handle_request(self: Any, request: Any) -> Any:
        secrets = request_secrets(request)
        if secrets:
            request.headers["accept-encoding"] = "identity"  # compressed bytes would hide an echoed key
        response = sync_send(self, request)
        return masked(response, RedactingStream(response.stream, secrets), secrets) if secrets else response

    async def handle_async_request(self: Any, request: Any) -> Any:
        secrets = request_secrets(request)
        if secrets:
            request.headers["accept-encoding"] = "identity"
        response = await async_send(self, request)
        return masked(response, AsyncRedactingStream(response.stream, secrets), secrets) if secrets else response

    module.HTTPTransport.handle_request = handle_request
    module.AsyncHTTPTransport.handle_async_request = handle_async_request


def install() -> None:
    """Patch httpx's transports (and those of httpx forks that SDKs ship) so that every response is masked
    of its own request's credentials. Idempotent."""
    for name in HTTP_MODULES:
        if name in _installed:
            continue
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        _patch(module)
        _installed.add(name)
