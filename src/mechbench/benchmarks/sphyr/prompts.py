"""SPhyR's prompt, verbatim from the dataset card (the published benchmark's only prompt)."""

from __future__ import annotations

Grid = list[list[str]]

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


def render_grid(grid: Grid) -> str:
    """Rows joined by newlines, cells by one space, tokens as they are."""
    return "\n".join(" ".join(row) for row in grid)


def is_hard(subject: str) -> bool:
    """Hard subjects ask for one-decimal densities, easy ones for 0/1."""
    return subject.endswith("_hard")


def build_prompt(grid: Grid, subject: str) -> str:
    """The published prompt for ``grid`` of ``subject`` (byte for byte)."""
    fill = FILL_HARD if is_hard(subject) else FILL_EASY
    return TEMPLATE.replace("{FILL_INSTRUCTION}", fill).replace("{GRID}", render_grid(grid))


def grid_from_prompt(prompt: str) -> Grid:
    """The input grid embedded in a published prompt (for results files that store only the prompt)."""
    start = prompt.find(GRID_START)
    end = prompt.find(GRID_END, start + len(GRID_START))
    if start < 0 or end < 0:
        raise ValueError("the prompt does not contain SPhyR's input grid section")
    text = prompt[start + len(GRID_START) : end]
    return [line.split() for line in text.splitlines() if line.strip()]
