"""A cluster's unit in the plural, as the report and ``plan`` print it ("12 trusses", never "12 trusss")."""

import pytest

from mechbench.core.text import plural


@pytest.mark.parametrize(
    ("unit", "units"),
    [
        ("drawing", "drawings"),
        ("truss", "trusses"),
        ("box", "boxes"),
        ("study", "studies"),
        ("day", "days"),
        ("item (its drawing and its text)", "items (its drawing and its text)"),
    ],
)
def test_units_take_their_english_plural(unit: str, units: str) -> None:
    assert plural(unit) == units
