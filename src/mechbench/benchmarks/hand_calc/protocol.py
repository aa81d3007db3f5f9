"""HandCalc's protocol constants, each in one place: tolerance, presentations, answer format, levels."""

from __future__ import annotations

from mechbench.registry import Cluster

BENCHMARK = "hand_calc"
ITEMS_FILE = "items.jsonl"
DRAWINGS = "drawings"
"""Folder of the set holding each item's drawing, ``<id>.png``."""
TOLERANCE = 0.01
"""Relative tolerance of a quantity (the truths are exact to round-off; 1 % allows a careful hand calculation with
rounded intermediate values, and rejects the textbook formula applied to the wrong case)."""
FLOOR_SHARE = 1e-3
"""A quantity's absolute tolerance floor, as a share of the largest truth of the same unit in its item: a quantity
near zero is judged on the item's scale, not on its own."""
ASKED_SHARE = 0.05
"""A quantity is asked only when it is at least this share of the largest of its unit in the item: no near-zero
quantity that always-zero would get right."""
PRESENTATIONS = ("drawing", "text")
"""How an item is shown: its drawing (dimensions and loads labelled) or a text from which it can be solved without
the figure. ``-T presentation=both`` asks each item both ways (paired in the report)."""
LEVELS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
"""Difficulty levels; an item's weight in the weighted accuracy is its level. A set generated without
``--difficulty`` mixes the textbook levels :data:`MIXED_LEVELS` (its items unchanged since they were introduced);
levels 6 to 10 are asked for by name (docs/headroom.md states what each holds)."""
MIXED_LEVELS = (1, 2, 3, 4, 5)
MARK = "Hand calculation"
"""How every HandCalc prompt begins (the built-in models recognise it)."""
ANSWER_FORMAT = (
    "Give your final answer as one line per quantity, in exactly this form, each value with its unit "
    "(any consistent unit is converted):"
)
CLUSTER = Cluster("item", "item (its drawing and its text)")
"""An item asked both ways is one cluster: intervals and the drawing–text comparison are over items."""
READING_BUDGET = 30.0
"""Seconds a reply's reading may take (it takes milliseconds: units are bounded before pint sees them); past it the
reply scores 0 with that reason and the run goes on."""
