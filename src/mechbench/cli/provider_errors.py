"""A provider's error in one line: its status and message, which model and address, and what to check.

Inspect reports a failed model call with the whole request it sent (hundreds of lines of prompt for one sample, again
at every retry), so the cause — ``401 …``, ``Invalid model name``, a closed connection — is buried. These helpers
read the cause out of such a message; :class:`ShortSampleErrors` shows each distinct cause once on the console
while Inspect's log keeps everything.
"""

from __future__ import annotations

import logging
import os
import re

MAX_CAUSE_CHARS = 300
SAMPLE_ERROR = re.compile(r"^Sample error \(id: (?P<id>.*?), epoch: (?P<epoch>\d+)\): (?P<body>.*)$", re.S)
_REQUEST = re.compile(r"Request:\s*\{.*\n\}\s*", re.S)
_STATUS = re.compile(r"(?:Error code|status(?: code)?)[:= ]+(\d{3})", re.I)
_WRAPPED = re.compile(r"[A-Za-z_]*(?:Error|Exception)\((['\"])(.*)\1\)", re.S)
_KEYS = re.compile(r"\b(sk|key|hf|ghp|xox[bp])[-_][A-Za-z0-9_\-]{6,}")


def cause(text: str) -> str:
    """The cause of a failed model call from its error text: the request dump dropped, wrappers and escapes undone,
    whitespace collapsed, anything that looks like a key masked, at most :data:`MAX_CAUSE_CHARS` characters."""
    text = text or ""
    if "\\nRequest:" in text:  # the repr of an error whose message holds the request: undo its escapes
        text = text.replace("\\n", "\n").replace("\\'", "'").replace('\\"', '"')
    text = re.sub(r"\. Sample will be \w+\.\s*$", "", text).rstrip()  # Inspect's own tail
    if "Request:" in text:
        text = text[text.rindex("Request:") :]
        end = text.rfind("\n}")
        text = text[end + 2 :] if end >= 0 else text
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    found = " ".join((paragraphs[-1] if paragraphs else "no message").split())
    while (inner := _WRAPPED.search(found)) is not None:  # BadRequestError('…') inside ModelGenerateError('…') → …
        found = inner.group(2).strip()
    found = found.strip()
    if len(found) > 1 and found[0] == found[-1] and found[0] in "'\"":  # a quoted message: the quotes only
        found = found[1:-1]
    found = found or "no message"
    found = re.sub(r"^(?:\w*(?:Error|Exception): )+(?=Error code)", "", found)  # "InternalServerError: Error code…"
    found = _KEYS.sub(lambda m: f"{m.group(1)}-***", found)
    return found if len(found) <= MAX_CAUSE_CHARS else found[: MAX_CAUSE_CHARS - 1] + "…"


_RAISED = re.compile(r"^(?:[\w.]+\.)?(\w*(?:Error|Exception)): (.+)$", re.M)
_OPAQUE = ("RetryError(", "<Future")


def error_text(message: str, traceback: str = "") -> str:
    """The text a failed sample's cause is read from: its message, or, when the message only says that retries ran
    out (``RetryError(<Future … raised InternalServerError>)``), the last exception its traceback names."""
    if message.strip().startswith(_OPAQUE) or not message.strip():
        raised = [(n, t) for n, t in _RAISED.findall(traceback or "") if n != "RetryError" and "<Future" not in t]
        if raised:
            name, text = raised[-1]
            return f"{name}: {text}"
    return message


def status(text: str) -> int | None:
    """The HTTP status a provider's error names, if any."""
    match = _STATUS.search(text or "")
    return int(match.group(1)) if match else None


def what_to_check(text: str, key_variable: str | None, url: str | None) -> str:
    """What the user should check for an error whose text is ``text``."""
    code, lowered = status(text), (text or "").lower()
    key = key_variable or "the API key variable"
    if code in (401, 403) or "api key" in lowered or "authentication" in lowered or "no connected db" in lowered:
        return f"check the key in {key} (the server refused it)"
    unknown_model = "model" in lowered and any(word in lowered for word in ("invalid", "not found", "no such"))
    if code == 404 or unknown_model:
        where = f" ({url.rstrip('/')}/models lists them)" if url else ""
        return f"check the model name: the server does not serve it{where}"
    if code == 429:
        return "the provider is rate-limiting: lower --max-connections, or resume later with eval-retry"
    if any(word in lowered for word in ("connection", "disconnected", "closed", "timed out", "timeout", "eof")):
        return f"check that the server{f' at {url}' if url else ''} is up and answers whole replies"
    return "check the key, the model name and the server"


def key_variable(model: str) -> str | None:
    """The environment variable Inspect reads ``model``'s API key from."""
    provider, _, rest = model.partition("/")
    if provider == "openai-api" and rest:
        return f"{rest.split('/', 1)[0].upper().replace('-', '_')}_API_KEY"
    known = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "google": "GOOGLE_API_KEY"}
    return known.get(provider, f"{provider.upper().replace('-', '_')}_API_KEY" if provider else None)


def base_url(model: str) -> str | None:
    """The address ``model`` is called at, where an environment variable sets it."""
    provider, _, rest = model.partition("/")
    name = rest.split("/", 1)[0] if provider == "openai-api" else provider
    return os.environ.get(f"{name.upper().replace('-', '_')}_BASE_URL") if name else None


def one_line(model: str, text: str, url: str | None = None) -> str:
    """The whole story of a failed call in one line."""
    url = url or base_url(model)
    code = status(text)
    where = f" at {url}" if url else ""
    head = f"{code} " if code is not None and not cause(text).startswith(("Error code", str(code))) else ""
    if model.startswith("mechbench/"):  # a built-in model: no key, no server; its message says what is wrong
        return f"{model}: {cause(text)}"
    return f"{model}{where}: {head}{cause(text)} — {what_to_check(text, key_variable(model), url)}"


class ShortSampleErrors(logging.Filter):
    """Show each distinct cause of Inspect's "Sample error" warnings once, in one line; the log keeps them all."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        match = SAMPLE_ERROR.match(record.getMessage())
        if match is None:
            return True
        found = cause(match.group("body"))
        retried = " (retried)" if "will be retried" in match.group("body") else ""
        if found in self.seen:
            return False
        self.seen.add(found)
        record.msg = f"sample {match.group('id')} failed{retried}: {found} (shown once; the log has every occurrence)"
        record.args = ()
        return True
