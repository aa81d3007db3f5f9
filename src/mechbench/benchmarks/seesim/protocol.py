"""SeeSim's protocol constants: the prompt, the paired questions, the validation questions.

From the benchmark's ``evaluation-guidelines.md`` and ``benchmark-loader.py``.
"""

from __future__ import annotations

from typing import Literal

from mechbench.core.errors import DataSourceError
from mechbench.registry import Cluster

Domain = Literal["structural", "fluid"]
Modality = Literal["image", "video", "text"]
DOMAINS: tuple[Domain, ...] = ("structural", "fluid")
MODALITIES: tuple[Modality, ...] = ("image", "video", "text")

CLUSTER = Cluster("simulation", "simulation")
"""The questions about one simulation (read from the same media) are one cluster: ``domain/file``."""
QUESTION_TEMPLATE = "Question: {question} (True/False)\n\nAnswer with only True or False:"
"""Follows the media after a blank line (for text, the simulation report is the media)."""

# Paired questions for logical consistency (qids), as the benchmark's loader lists them.
PAIRS: dict[str, list[tuple[str, str]]] = {
    "structural": [
        ("b12d8f45e3a670c92178", "n46e2f9ba03e6545205b"),  # elastic vs plastic deformation
        ("a7e94b2c6f1d83052c9e", "r80c6d90f47c0329649f"),  # stress concentration vs factor of safety
        ("l24c0d81f81c4103083f", "e57f1d63c42a0589b63e"),  # thermal stresses vs von Mises criterion
    ],
    "fluid": [
        ("bb0a6b65d47a0320349d", "ee3d9e73a70d3983672a"),  # laminar vs turbulent
        ("ii7b3c37e14b7767016e", "x46c2d01f03c6546905f"),  # buoyancy vs natural convection
        ("v24a0b19d81a4103783d", "hh6a2b01d03a6546905d"),  # fully developed vs flow separation
    ],
}

# Questions testing fundamental physical laws (validation accuracy).
VALIDATION: dict[str, list[str]] = {
    "structural": ["d46c2b17e50f38a4271d", "k13b9c27e70b3982172e"],  # reactions balance; converges
    "fluid": ["cc1b7c01e58b1541450e"],  # mass conservation
}

# Fluid questions are keyed File_7..File_12 while the fluid data files are File_1..File_6, in order.
FLUID_FILE_OFFSET = 6


def data_file_name(domain: str, question_file: str) -> str:
    """The data file name (``File_3``) for a question-file key (``File_9`` in the fluid domain)."""
    number_text = question_file.removeprefix("File_")
    if not (number_text.isascii() and number_text.isdigit()):
        raise DataSourceError(f"question file {question_file!r} is not named File_<number>")
    number = int(number_text)
    return f"File_{number - FLUID_FILE_OFFSET if domain == 'fluid' else number}"


PUBLISHED_BASELINES: dict[str, dict[str, float]] = {
    "text": {"LLaVA": 0.663, "Phi-3": 0.625, "Qwen": 0.546, "Llama": 0.521},
    "video": {"LLaVA": 0.538, "Qwen": 0.529, "BLIP": 0.529, "Kosmos": 0.529},
    "image": {"Qwen": 0.529, "Llama": 0.546, "BLIP": 0.529, "Kosmos": 0.529},
}
"""Overall accuracy per modality and model, from the baseline table of the SeeSim paper (Ezemba, McComb and Tucker,
DESTION 2025) as the publisher's README lists it (github.com/cmudrc/OpenSeeSimE at commit 2e80269a; "-" cells
left out). The paper's open models ran the guidelines' prompt with a 512-token output limit."""
PUBLISHED_BASELINES_SOURCE = "SeeSim paper's baseline table (README of cmudrc/OpenSeeSimE@2e80269a)"
PUBLISHED_ALWAYS_TRUE = (127 / 240, "127/240: the published always-True rate")
"""The published questions' always-True accuracy (127 of the 240 answers are True), as (rate, note)."""
