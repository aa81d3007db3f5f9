"""Reading HandCalc answers: the stated format, units parsed and converted by pint, nothing guessed, every failure
a zero with its reason, hostile text refused without work."""

from __future__ import annotations

import pytest

from mechbench.benchmarks.hand_calc.answers import judge
from mechbench.benchmarks.hand_calc.items import quantity, with_floors

Q = with_floors(
    [
        quantity("M_max", "largest |M|", "kN*m", 45.0, "moment"),
        quantity("V_P1", "vertical reaction", "kN", -12.5, "force"),
        quantity("v_P2", "deflection", "mm", 3.2, "deflection"),
        quantity("theta_P3", "rotation", "degree", 0.25, "angle"),
    ]
)


def _verdicts(reply: str) -> dict[str, tuple[bool, str]]:
    return {v.key: (v.correct, v.reason) for v in judge(reply, Q)}


def test_the_stated_format_in_any_consistent_unit_is_right() -> None:
    reply = "Working…\nM_max = 45000 N*m\nV_P1 = -12.5 kN\nv_P2 = 0.32 cm\ntheta_P3 = 0.0043633 rad\n"
    assert all(ok for ok, _ in _verdicts(reply).values()), _verdicts(reply)
    spelled = "**M_max** = 45.2 kN·m\nV_P1: −12.4 kN\nv_P2 = 3.2e0 mm.\ntheta_P3 = 0.25°"
    assert all(ok for ok, _ in _verdicts(spelled).values()), _verdicts(spelled)
    assert _verdicts("M_max = 45 kN m")["M_max"][0]  # a space is a product, as engineers write it
    assert _verdicts("M_max = 33.19 kip*ft")["M_max"][0]  # US customary: 33.19 kip·ft = 45.0 kN·m


def test_outside_the_tolerance_the_sign_or_the_unit_is_wrong_with_its_reason() -> None:
    v = _verdicts("M_max = 45.5 kN*m\nV_P1 = 12.5 kN\nv_P2 = 3.2\ntheta_P3 = 0.25 kN")
    assert v["M_max"] == (False, "45.5 against 45")  # 1.1 % off
    assert not v["V_P1"][0]  # the sign is part of the answer
    assert v["v_P2"] == (False, "no unit")
    assert not v["theta_P3"][0] and "wrong dimension" in v["theta_P3"][1]
    assert _verdicts("nothing here")["M_max"] == (False, "no line 'M_max = <number> <unit>'")


def test_the_last_line_of_a_key_counts_and_reasoning_blocks_are_not_the_answer() -> None:
    assert _verdicts("M_max = 10 kN*m\n…on reflection\nM_max = 45 kN*m")["M_max"][0]
    assert not _verdicts("<think>M_max = 45 kN*m</think>\nI cannot tell.")["M_max"][0]


def test_a_quantity_near_zero_is_judged_on_its_items_scale() -> None:
    small = with_floors(
        [quantity("V_A", "reaction", "kN", 100.0, "force"), quantity("V_B", "reaction", "kN", 0.05, "force")]
    )
    verdicts = {v.key: v.correct for v in judge("V_A = 100 kN\nV_B = 0.1 kN", small)}
    assert verdicts == {"V_A": True, "V_B": True}  # 0.05 off, within 0.1 % of 100 kN
    assert not next(v for v in judge("V_B = 0.3 kN", small) if v.key == "V_B").correct


@pytest.mark.parametrize(
    "hostile",
    [
        "M_max = 1e999 kN*m",
        "M_max = 2**10**10 kN*m",
        "M_max = 45 " + "kN*" * 200 + "m",
        "M_max = 45 __import__('os')",
        "M_max = 45 kN*m**99999999",
        "M_max = " + "9" * 5000 + " kN*m",
    ],
)
def test_hostile_answers_score_zero_with_a_reason(hostile: str) -> None:
    (verdict,) = judge(hostile, Q[:1])  # refused by the format or the unit check: nothing is evaluated
    assert not verdict.correct and verdict.reason


@pytest.mark.parametrize(
    "unit",
    ["MPa^9^9^9", "MPa²²²²²²", "MPa**9**9**9", "MPa³³³³", "MPa^3^99999999", "MPa/m^9^9^9", "MPa^7", "MPa**-9"],
)
def test_a_unit_is_bounded_before_pint_sees_it(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from mechbench.benchmarks.hand_calc import answers

    def no_pint() -> None:
        raise AssertionError("pint was asked to read a unit with chained or large exponents")

    monkeypatch.setattr(answers, "registry", no_pint)
    (verdict,) = judge(f"M_max = 45 {unit}", Q[:1])
    assert not verdict.correct and verdict.reason == f"unit {unit!r} not recognised"


def test_units_engineers_write_still_read() -> None:
    stress = with_floors([quantity("s", "stress", "MPa", 90.0, "stress")])
    for written in ["90 N/mm²", "0.09 kN/mm^2", "90 N/mm**2", "90 N.mm^-2", "90e6 N m^-2", "13.05 ksi", "90 MN/m²"]:
        (verdict,) = judge(f"s = {written}", stress)
        assert verdict.correct, (written, verdict.reason)


@pytest.mark.parametrize("number", ["1.5 × 10^999", "1e999", "-2x10^500"])
def test_a_number_out_of_float_range_scores_zero_with_that_reason(number: str) -> None:
    (verdict,) = judge(f"M_max = {number} kN*m", Q[:1])  # 10 ** 999 is never formed: no OverflowError
    assert (verdict.correct, verdict.reason) == (False, f"number {number!r} is out of float range")
    (converted,) = judge("M_max = 1e308 GN*m", Q[:1])
    assert not converted.correct and "out of float range once converted" in converted.reason
