"""SPhyR's prompts: the published prompt (verbatim from the dataset card) and the newer harness's variants.

The published prompt is the benchmark's; the variants upstream added later (``physics_enhanced``,
``physics_neutral``, few-shot examples, physics feedback) are written here in mechbench's own words from
their description. ``wording=upstream`` instead reads upstream's exact texts at run time from the pinned
upstream copy (:func:`upstream_wording`), for runs that must compare with upstream's own.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Grid = list[list[str]]
PromptStyle = Literal["default", "physics_enhanced", "physics_neutral"]
PROMPT_STYLES: tuple[PromptStyle, ...] = ("default", "physics_enhanced", "physics_neutral")
WordingName = Literal["mechbench", "upstream"]
WORDINGS: tuple[WordingName, ...] = ("mechbench", "upstream")

TEMPLATE = """You are given a structural material distribution represented as a grid. Each cell can have one of the following states:
- 'L' indicates applied load.
- 'V' indicates void.
- 'S' indicates support.

The goal is to predict the correct material distribution by filling in all {FILL_INSTRUCTION}, based on the surrounding structure and implicit physical reasoning (such as load paths, supports, and forces).

Important: The completed structure should use as little material as possible while remaining stable and plausible for carrying the applied forces. Minimize material usage unless necessary for structural support.

Below is the input grid with masked regions:

{GRID}

Please output the completed grid by replacing all {FILL_INSTRUCTION}.
Maintain the same format as the input: one row per line, cells separated by spaces, and the total number of rows and columns unchanged.
Return only the completed grid without any additional explanation."""  # noqa: E501

FILL_EASY = "'V' cells with either '1' (solid) or '0' (empty)"
FILL_HARD = (
    "'V' cells with a floating point number between 0 and 1, with one decimal place (e.g., 0.0, 0.1, 0.2, ..., 1.0)"
)
GRID_START = "Below is the input grid with masked regions:\n\n"
GRID_END = "\n\nPlease output the completed grid"
_IMPORTANT = "Important:"

# mechbench's wording of the variants (the published template above stays the default, byte for byte).
PHYSICS_ENHANCED_GUIDANCE = """Physics to use:
- Every load must reach a support through connected solid material.
- The stiffest route is usually short and direct, from the load cells to the supports.
- Material that touches no load path and no support carries nothing: leave it out.
- In equilibrium, what the loads push the supports push back, through material.
- Use the least material that still carries the load stiffly."""
PHYSICS_NEUTRAL_TEMPLATE = """You are given a grid of symbols. Each cell holds one of these states:
- 'L' is a special marker.
- 'V' is an empty cell to be filled.
- 'S' is a fixed marker.

The task is to fill in all {FILL_INSTRUCTION}, following general consistency rules.

Rules:
- Filled cells should connect the special markers with the fixed markers.
- No filled cell should stand alone, cut off from the others.
- Use as few filled cells as possible.

Below is the input grid with masked regions:

{GRID}

Please output the completed grid by replacing all {FILL_INSTRUCTION}.
Maintain the same format as the input: one row per line, cells separated by spaces, and the total number of rows and columns unchanged.
Return only the completed grid without any additional explanation."""  # noqa: E501
EXAMPLE_BLOCK = """Solved example - an input grid with masked regions:

{EXAMPLE_GRID}

and its completed grid:

{EXAMPLE_COMPLETED_GRID}"""
FEEDBACK_TEMPLATE = """Your grid was simulated as a linear elastic structure under the applied load. What the simulation found:
{FEEDBACK}

The input grid with masked regions was:

{GRID}

Your previous answer was:

{ANSWER}

Revise it to carry the load with less material. Replace all {FILL_INSTRUCTION}.
Maintain the same format as the input: one row per line, cells separated by spaces, and the total number of rows and columns unchanged.
Return only the completed grid without any additional explanation."""  # noqa: E501


@dataclass(frozen=True)
class Wording:
    """The texts a prompt is built from: one template per style, the example block, the feedback template.

    A template holds ``{FILL_INSTRUCTION}`` and ``{GRID}``; where ``{FEW_SHOT_EXAMPLES}`` is absent the examples
    go before the paragraph that starts with "Important:" (or before the grid section).
    """

    name: str
    styles: dict[str, str]
    example_block: str = EXAMPLE_BLOCK
    feedback: str = FEEDBACK_TEMPLATE
    sources: dict[str, str] = field(default_factory=dict)


def _enhanced(template: str) -> str:
    head, rest = template.split(_IMPORTANT, 1)
    return head + PHYSICS_ENHANCED_GUIDANCE + rest[rest.index("\n\n") :]


MECHBENCH_WORDING = Wording(
    name="mechbench",
    styles={"default": TEMPLATE, "physics_enhanced": _enhanced(TEMPLATE), "physics_neutral": PHYSICS_NEUTRAL_TEMPLATE},
)

# Upstream's names for the texts (src/sphyr/prompt_templates.py at the pinned commit).
UPSTREAM_NAMES = {
    "default": "PROMPT_TEMPLATE",
    "physics_enhanced": "PHYSICS_ENHANCED_PROMPT_TEMPLATE",
    "physics_neutral": "PHYSICS_NEUTRAL_PROMPT_TEMPLATE",
    "few_shot": "FEW_SHOT_PROMPT_TEMPLATE",
    "example_block": "FEW_SHOT_EXAMPLES",
    "feedback": "FEEDBACK_PROMPT_TEMPLATE",
}


def string_constants(path: Path) -> dict[str, str]:
    """Module-level ``NAME = "text"`` assignments of a Python file, read without running it."""
    from mechbench.core.errors import DataSourceError
    from mechbench.sources.files import read_data_text

    try:
        tree = ast.parse(read_data_text(path))
    except SyntaxError as error:
        raise DataSourceError(f"{path.name} is not readable Python: {error.msg}") from None
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value.value
    return out


def upstream_wording(path: Path) -> Wording:
    """Upstream's own texts from its ``prompt_templates.py`` (a clear error naming what is missing)."""
    from mechbench.core.errors import DataSourceError

    found = string_constants(path)
    missing = [n for k, n in UPSTREAM_NAMES.items() if n not in found and k != "feedback"]
    if missing:
        raise DataSourceError(f"{path.name} lacks {', '.join(missing)}; is it upstream's prompt_templates.py?")
    styles = {style: found[UPSTREAM_NAMES[style]] for style in PROMPT_STYLES}
    styles["default_few_shot"] = found[UPSTREAM_NAMES["few_shot"]]
    return Wording(
        name="upstream",
        styles=styles,
        example_block=found[UPSTREAM_NAMES["example_block"]],
        feedback=found.get(UPSTREAM_NAMES["feedback"], FEEDBACK_TEMPLATE),
        sources={"prompt_templates": str(path)},
    )


def render_grid(grid: Grid) -> str:
    """Rows joined by newlines, cells by one space, tokens as they are."""
    return "\n".join(" ".join(row) for row in grid)


def is_hard(subject: str) -> bool:
    """Hard subjects ask for one-decimal densities, easy ones for 0/1."""
    return subject.endswith("_hard")


def fill_instruction(subject: str) -> str:
    """What the prompt asks to write into the V cells of ``subject``."""
    return FILL_HARD if is_hard(subject) else FILL_EASY


def _fill(template: str, subject: str, grid: Grid, examples: str = "") -> str:
    text = template.replace("{FILL_INSTRUCTION}", fill_instruction(subject)).replace("{GRID}", render_grid(grid))
    return text.replace("{FEW_SHOT_EXAMPLES}", examples)


def build_prompt(
    grid: Grid,
    subject: str,
    style: str = "default",
    examples: list[tuple[Grid, Grid]] | None = None,
    wording: Wording = MECHBENCH_WORDING,
) -> str:
    """The prompt for ``grid`` of ``subject``: the published one (byte for byte) unless a variant is asked.

    ``examples`` are (input, completed) pairs shown before the guidance paragraph, as upstream's few-shot does.
    """
    if style not in PROMPT_STYLES:
        raise ValueError(f"prompt style must be one of {', '.join(PROMPT_STYLES)}, got {style!r}")
    template = wording.styles[style]
    if not examples:
        return _fill(template, subject, grid)
    blocks = "\n\n".join(
        wording.example_block.replace("{EXAMPLE_GRID}", render_grid(i)).replace(
            "{EXAMPLE_COMPLETED_GRID}", render_grid(t)
        )
        for i, t in examples
    )
    if style == "default" and "default_few_shot" in wording.styles:
        template = wording.styles["default_few_shot"]
    if "{FEW_SHOT_EXAMPLES}" in template:
        return _fill(template, subject, grid, blocks)
    cut = template.find(_IMPORTANT)
    if cut < 0:
        cut = template.find(GRID_START)
    return _fill(template[:cut] + blocks + "\n\n" + template[cut:], subject, grid)


def feedback_prompt(
    feedback_lines: list[str], grid: Grid, answer: str, subject: str, wording: Wording = MECHBENCH_WORDING
) -> str:
    """The next round's prompt: what the simulation found, the masked grid again and the previous answer."""
    text = wording.feedback.replace("{FEEDBACK}", "\n".join(feedback_lines)).replace("{ANSWER}", answer.strip())
    text = text.replace("{PREVIOUS_ANSWER}", answer.strip())
    return _fill(text, subject, grid)


def grid_from_prompt(prompt: str) -> Grid:
    """The input grid embedded in a prompt (for results files that store only the prompt).

    The published section ("Below is the input grid …" up to "Please output …"); in another wording, the
    last block of grid lines that holds a masked cell, as upstream's replay reads it.
    """
    start = prompt.rfind(GRID_START)
    end = prompt.find(GRID_END, start + len(GRID_START)) if start >= 0 else -1
    if start >= 0 and end >= 0:
        text = prompt[start + len(GRID_START) : end]
        return [line.split() for line in text.splitlines() if line.strip()]
    from mechbench.benchmarks.sphyr.parse import grid_blocks

    masked = [block for block in grid_blocks(prompt) if any("V" in row for row in block)]
    if not masked:
        raise ValueError("the prompt does not contain SPhyR's input grid section")
    return masked[-1]
