"""``mechbench eval … --dry-run``: what a run will send and cost before it starts, with no network.

The task is built in this process with every outgoing connection refused (data must be bundled, local or already in
mechbench's cache), then its samples are measured: how many, the most model calls each can make (feedback rounds and
tool budgets included, from the task's ``max_model_calls``), the images they carry, and an estimate of the tokens
of each call. Prices are the user's to multiply.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mechbench.cli.offline_task import NoNetworkError, count_option, no_network, offline_samples, task_arguments
from mechbench.core.errors import UsageError

__all__ = [  # what the dry run offered before the offline task moved out: still importable from here
    "NoNetworkError",
    "estimate",
    "image_tokens",
    "no_network",
    "offline_samples",
    "sample_cost",
    "task_arguments",
]

CHARS_PER_TOKEN = 4
"""English text and JSON average about four characters a token in the common BPE vocabularies."""
IMAGE_BASE_TOKENS, IMAGE_TILE_TOKENS, TILE = 85, 170, 512
"""OpenAI's published rule for a high-detail image: 85 tokens plus 170 per 512-pixel tile, after the image is
fitted in 2048 × 2048 and its short side brought to 768 (other providers count differently, in the same range)."""
UNREADABLE_IMAGE_TOKENS = IMAGE_BASE_TOKENS + 4 * IMAGE_TILE_TOKENS
"""An image whose size cannot be read counts as a square one (four tiles)."""
SAMPLE_RETRIES_FLAG = "--retry-on-error"
DEFAULT_SAMPLE_RETRIES = 3
"""mechbench eval's default: a sample that ends in error is run again up to three times."""


def image_tokens(size: tuple[int, int] | None) -> int:
    """Tokens of one image of ``size`` (width, height) pixels by OpenAI's high-detail rule."""
    if size is None or min(size) <= 0:
        return UNREADABLE_IMAGE_TOKENS
    width, height = size
    scale = min(1.0, 2048 / max(width, height))
    width, height = width * scale, height * scale
    scale = min(1.0, 768 / min(width, height))
    width, height = width * scale, height * scale
    return IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * math.ceil(width / TILE) * math.ceil(height / TILE)


def _image_size(image: str) -> tuple[int, int] | None:
    from PIL import Image

    if image.startswith("data:"):
        import base64
        import io

        try:
            with Image.open(io.BytesIO(base64.b64decode(image.split(",", 1)[1]))) as opened:
                return opened.size
        except (ValueError, OSError, IndexError):
            return None
    try:
        with Image.open(image) as opened:
            return opened.size
    except (OSError, ValueError):
        return None


@dataclass
class SampleCost:
    """What the first call of one sample sends and what a correct answer to it returns."""

    text_chars: int
    images: int
    videos: int
    image_tokens: int
    answer_chars: int


def sample_cost(sample: Any) -> SampleCost:
    """Measure one Inspect sample: its input's text, images and videos, and its target's length."""
    from inspect_ai.model import ContentImage, ContentText, ContentVideo

    messages = [sample.input] if isinstance(sample.input, str) else list(sample.input)
    text, images, videos, tokens = 0, 0, 0, 0
    for message in messages:
        content = message if isinstance(message, str) else message.content
        for part in [content] if isinstance(content, str) else content:
            if isinstance(part, str):
                text += len(part)
            elif isinstance(part, ContentText):
                text += len(part.text)
            elif isinstance(part, ContentImage):
                images += 1
                tokens += image_tokens(_image_size(part.image))
            elif isinstance(part, ContentVideo):
                videos += 1
    target = sample.target if isinstance(sample.target, str) else "\n".join(sample.target)
    return SampleCost(text, images, videos, tokens, len(target))


def estimate(task_name: str, args: list[str], models: list[str], logs: Path | None = None) -> list[str]:
    """The dry run's lines for ``mechbench eval task_name args`` on ``models``: nothing is sent anywhere. The power
    lines take the spread from earlier runs in ``logs`` when it holds some on the same data."""
    from mechbench import registry
    from mechbench.cli.plan import DEFAULT_DETECT, plan_lines, spread_from

    spec = registry.spec(task_name)
    if spec is None:
        raise UsageError(f"--dry-run estimates mechbench's own tasks; {task_name!r} is not one")
    task, samples = offline_samples(spec, args)
    epochs = count_option(args, "--epochs", None) or (task.epochs or 1)
    costs = [sample_cost(s) for s in samples]
    meta = task.metadata or {}
    calls = int(meta.get("max_model_calls", 1))
    max_tokens = task.config.max_tokens
    runs = len(samples) * epochs * max(len(models), 1)
    retries = count_option(args, SAMPLE_RETRIES_FLAG, DEFAULT_SAMPLE_RETRIES) or 0
    n = max(len(costs), 1)
    text_in = sum(c.text_chars for c in costs) / n / CHARS_PER_TOKEN
    image_in = sum(c.image_tokens for c in costs) / n
    answer_out = sum(max(1.0, c.answer_chars / CHARS_PER_TOKEN) for c in costs) / n  # a reply is a token at least
    images = sum(c.images for c in costs) * epochs * max(len(models), 1)
    videos = sum(c.videos for c in costs) * epochs * max(len(models), 1)
    how = f"{meta.get('setting', 'single answer')}"
    if meta.get("tool_budget") is not None:
        how += f", budget {meta['tool_budget']} tool calls"
    first_in = text_in + image_in
    later_in = first_in + (calls - 1) * (answer_out + text_in / 4)
    lines = [
        f"dry run of {task_name} on {', '.join(models) or 'no model'} — nothing was sent, no network used",
        f"  data: {meta.get('data_source')} (sha256 {str(meta.get('data_sha256'))[:12]})",
        f"  samples: {len(samples)} × {epochs} epoch{'s' if epochs != 1 else ''} × {max(len(models), 1)} "
        f"model{'s' if len(models) != 1 else ''} = {runs} sample runs",
        f"  model calls: at most {calls} per sample ({how}) → at most {runs * calls}; a sample that ends in error "
        f"runs again up to {retries} times ({SAMPLE_RETRIES_FLAG}): {runs * calls * (retries + 1)} in the worst case",
        f"  media sent with the first call: {images} images, {videos} videos in all; every later call of a sample "
        f"resends its conversation, images included (at most {images * calls} images)",
        f"  tokens per call (estimate): input ~{_round(first_in)} on the first call ({_round(text_in)} text, "
        f"{_round(image_in)} images), up to ~{_round(later_in)} on the last; output ~{_round(answer_out)} for a "
        f"correct answer, at most {max_tokens or 0:,} (a reasoning model's thinking comes on top, up to that cap)",
        f"  tokens in all, at most: input ~{_round(runs * calls * later_in)}, output "
        f"{runs * calls * (max_tokens or 0):,} (the cap); expected with one call a sample: input "
        f"~{_round(runs * first_in)}, output ~{_round(runs * answer_out)}",
        f"  (text at {CHARS_PER_TOKEN} characters a token; images by OpenAI's high-detail tile rule; other providers "
        "count differently. Multiply by your provider's prices.)",
    ]
    key, unit = (spec.cluster.key, spec.cluster.unit.split(" (")[0]) if spec.cluster else (None, "sample")
    spread = spread_from(logs, task_name, meta.get("data_sha256"))
    lines += plan_lines(task_name, samples, key, unit, spread, DEFAULT_DETECT)
    lines.append(f"  (mechbench plan {task_name} … --detect D --from LOGDIR: another difference, another spread)")
    return lines


def _round(value: float) -> str:
    """A token estimate at the precision it has (two significant figures, at least whole tokens)."""
    return f"{float(f'{value:.2g}'):,.0f}"
