"""A small OpenAI-compatible chat-completions server on 127.0.0.1 that injects API faults on a fixed schedule.

Every conversation (the request's ``messages``, hashed) gets a list of faults from ``schedule`` in the order the
conversations first arrive; its first requests answer with those faults one by one, and every later request gets
the scripted answer. So whatever the concurrency, each conversation is answered after a bounded number of faults,
and the answer depends only on the conversation, never on the faults it went through.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FAULTS = (
    "rate_limit",  # 429 with Retry-After
    "http_500",
    "http_502",
    "http_503",
    "stall",  # no answer until well past the client's attempt timeout
    "drop",  # connection closed without a response
    "truncated",  # 200 with half of the announced body
    "not_json",  # 200 whose body is an HTML error page
    "empty_choice",  # 200 with "choices": []
    # Servers that echo the request's headers (the API key among them) back:
    "echo_401",  # in a 401 error body
    "echo_400",  # in a 400 error body
    "echo_429",  # in a 429 error body (retried)
    "echo_500",  # in a 500 error body (retried)
    "echo_reply",  # in the reply's text (200), after the scripted answer
)

Answer = Callable[[list[dict[str, Any]]], str]


@dataclass
class Served:
    """One request the server saw: which conversation, which attempt at it, and what it got."""

    key: str
    attempt: int
    outcome: str  # a fault name or "answer"
    authorization: str
    text: str  # the text of the last message, to tell which sample asked
    response_format: Any = None  # the request's response_format (structured output), if any


@dataclass
class FaultLog:
    """What the server did, shared between its handler threads."""

    schedule: Sequence[Sequence[str]]
    lock: threading.Lock = field(default_factory=threading.Lock)
    plans: dict[str, list[str]] = field(default_factory=dict)
    attempts: dict[str, int] = field(default_factory=dict)
    served: list[Served] = field(default_factory=list)

    def next_outcome(self, key: str, authorization: str, text: str, response_format: Any = None) -> str:
        with self.lock:
            if key not in self.plans:
                self.plans[key] = list(self.schedule[len(self.plans) % len(self.schedule)]) if self.schedule else []
            attempt = self.attempts[key] = self.attempts.get(key, 0) + 1
            plan = self.plans[key]
            outcome = plan[attempt - 1] if attempt <= len(plan) else "answer"
            self.served.append(Served(key, attempt, outcome, authorization, text, response_format))
            return outcome

    def answered(self) -> dict[str, int]:
        """Conversation key -> how many times it received the scripted answer."""
        with self.lock:
            counts: dict[str, int] = {}
            for s in self.served:
                if s.outcome == "answer":
                    counts[s.key] = counts.get(s.key, 0) + 1
            return counts

    def injected(self) -> list[str]:
        with self.lock:
            return [s.outcome for s in self.served if s.outcome != "answer"]


def conversation_key(messages: list[dict[str, Any]]) -> str:
    """A stable digest of a request's messages."""
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()[:16]


def message_text(message: dict[str, Any]) -> str:
    """The text parts of one chat message."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", "") for part in content or [] if part.get("type") == "text")


def message_images(message: dict[str, Any]) -> list[str]:
    """The image URLs (data URIs) of one chat message."""
    content = message.get("content")
    if isinstance(content, str):
        return []
    return [part["image_url"]["url"] for part in content or [] if part.get("type") == "image_url"]


def completion_body(model: str, text: str, key: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{key}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": len(text) // 4, "total_tokens": 10 + len(text) // 4},
    }


def make_handler(answer: Answer, log: FaultLog, stall_seconds: float, delay_seconds: float) -> type:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None, cut: bool = False) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            try:
                self.wfile.write(body[: len(body) // 2] if cut else body)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (or was killed) first
                return
            if cut:
                self._hang_up()

        def _hang_up(self) -> None:
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)

        def _error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
            kind = "rate_limit_exceeded" if status == 429 else "server_error"
            body = {"error": {"message": message, "type": kind, "code": kind}}
            self._send(status, json.dumps(body).encode(), headers)

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            messages = request.get("messages", [])
            key = conversation_key(messages)
            text = message_text(messages[-1]) if messages else ""
            authorization = self.headers.get("Authorization", "")
            outcome = log.next_outcome(key, authorization, text, request.get("response_format"))
            model = request.get("model", "test")
            echoed = "request headers: " + json.dumps(dict(self.headers.items()))
            if outcome.startswith("echo_") and outcome != "echo_reply":
                status = int(outcome[5:])
                self._error(status, f"bad request; {echoed}", {"Retry-After": "1"} if status == 429 else None)
            elif outcome == "echo_reply":
                self._send(200, json.dumps(completion_body(model, f"{answer(messages)}\n{echoed}", key)).encode())
            elif outcome == "rate_limit":
                self._error(429, "Rate limit reached, slow down", {"Retry-After": "1"})
            elif outcome.startswith("http_"):
                self._error(int(outcome[5:]), f"upstream failure ({outcome})")
            elif outcome == "stall":
                time.sleep(stall_seconds)
                self._hang_up()
            elif outcome == "drop":
                self._hang_up()
            elif outcome == "truncated":
                self._send(200, json.dumps(completion_body(model, answer(messages), key)).encode(), cut=True)
            elif outcome == "not_json":
                self._send(200, b"<html><body>502 Bad Gateway</body></html>")
            elif outcome == "empty_choice":
                body = completion_body(model, "", key)
                body["choices"] = []
                self._send(200, json.dumps(body).encode())
            else:
                if delay_seconds:
                    time.sleep(delay_seconds)
                self._send(200, json.dumps(completion_body(model, answer(messages), key)).encode())

    return Handler


class FaultServer:
    """Run the server in a background thread; ``url`` is the base URL (``.../v1``) for an OpenAI client."""

    def __init__(
        self,
        answer: Answer,
        schedule: Sequence[Sequence[str]] = (),
        stall_seconds: float = 5.0,
        delay_seconds: float = 0.0,
    ) -> None:
        unknown = {f for faults in schedule for f in faults} - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown faults {sorted(unknown)}")
        self.log = FaultLog(schedule)
        handler = make_handler(answer, self.log, stall_seconds, delay_seconds)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FaultServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
