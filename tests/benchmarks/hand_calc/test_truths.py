"""Every HandCalc truth against a second path: closed forms where the family has one (beams, bars, Euler, Mohr),
an independent method-of-joints solve for trusses, independent statics for simply supported beams, and a beam-column
finite-element buckling solve for the columns."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy.linalg import eigh, null_space

from mechbench.benchmarks.hand_calc.families import FAMILIES
from mechbench.benchmarks.hand_calc.items import Item

SEEDS = range(40)


def _items(family: str, level: int | None = None) -> list[Item]:
    levels, generate = FAMILIES[family]
    out = []
    for seed in SEEDS:
        rng = random.Random(f"test:{family}:{seed}")
        out.append(generate(rng, level or rng.choice(levels), f"hc-{seed:04d}"))
    return out


def _truth(item: Item, key: str) -> float:
    return next(q.truth for q in item.quantities if q.key == key)


def _loads(item: Item) -> tuple[list[tuple[float, float]], list[tuple[float, float, float, float]]]:
    """A horizontal beam's point loads (x, downward kN) and line loads (x0, x1, w0, w1 downward kN/m)."""
    assert item.structure is not None
    xs = {p["id"]: p["x"] for p in item.structure["points"]}
    links = {link["id"]: link for link in item.structure["links"]}
    points, lines = [], []
    for load in item.structure["loads"]:
        assert load["kind"] != "bendingMoment" or True
        if load["kind"] == "pointLoad":
            at = load["at"]
            x = xs[at["id"]] if at["type"] == "point" else xs[links[at["id"]]["a"]] + load["offset"]
            assert load["angleDeg"] == 270
            points.append((x, load["value"]))
        elif load["kind"] == "distributedLoad":
            link = links[load["at"]["id"]]
            a, b = xs[link["a"]], xs[link["b"]]
            lines.append((a + load["fromStart"], b - load["fromEnd"], load["wStart"], load["wEnd"]))
    return points, lines


def _statics(item: Item, x: float) -> tuple[float, float, float]:
    """Pin at 0, roller at L: (R_A, R_B, sagging M at x) by hand, line loads split into rectangles and triangles."""
    span = max(p["x"] for p in item.structure["points"])  # type: ignore[index]
    points, lines = _loads(item)
    forces = list(points)
    for x0, x1, w0, w1 in lines:
        length = x1 - x0
        forces.append((x0 + length / 2, w0 * length))
        forces.append((x0 + 2 * length / 3, (w1 - w0) * length / 2))
    r_b = sum(f * at for at, f in forces) / span
    r_a = sum(f for _, f in forces) - r_b
    moment = r_a * x - sum(f * (x - at) for at, f in points if at < x)
    for x0, x1, w0, w1 in lines:  # the part of each line load left of x
        if x <= x0:
            continue
        end = min(x, x1)
        w_end = w0 + (w1 - w0) * (end - x0) / (x1 - x0)
        length = end - x0
        moment -= w0 * length * (x - x0 - length / 2) + (w_end - w0) * length / 2 * (x - x0 - 2 * length / 3)
    return r_a, r_b, moment


def test_simply_supported_reactions_and_moments_match_independent_statics() -> None:
    checked = 0
    for item in _items("reactions", 1) + _items("moment", 1):
        assert item.structure is not None
        if any(ld["kind"] == "bendingMoment" for ld in item.structure["loads"]):
            continue
        span = max(p["x"] for p in item.structure["points"])
        r_a, r_b, _ = _statics(item, 0.0)
        for q in item.quantities:
            if q.key == "V_P1":
                assert q.truth == pytest.approx(r_a, rel=1e-9)
            elif q.key.startswith("V_"):
                assert q.truth == pytest.approx(r_b, rel=1e-9)
            elif q.key == "M_max":
                sampled = max(abs(_statics(item, x)[2]) for x in np.linspace(0, span, 4001))
                assert sampled - 1e-9 <= q.truth <= sampled * (1 + 1e-3)  # the true peak: never below a sample
            elif q.key == "M_x":
                x = float(q.asks.split("x = ")[1].split(" m")[0])
                assert q.truth == pytest.approx(_statics(item, x)[2], rel=1e-9, abs=1e-9)
            checked += 1
    assert checked >= 40


def test_deflections_match_the_closed_forms() -> None:
    """Simple: PL³/48EI, 5wL⁴/384EI, end slopes PL²/16EI, wL³/24EI; cantilever: PL³/3EI, wL⁴/8EI, PL²/2EI, wL³/6EI;
    propped (fixed–roller): 7PL³/768EI, wL⁴/192EI at midspan, PL²/32EI, wL³/48EI at the roller."""
    closed = {
        1: {"point": (1 / 48, 1 / 16), "line": (5 / 384, 1 / 24)},
        2: {"point": (1 / 3, 1 / 2), "line": (1 / 8, 1 / 6)},
        3: {"point": (7 / 768, 1 / 32), "line": (1 / 192, 1 / 48)},
    }
    for level in (1, 2, 3):
        for item in _items("deflection", level):
            span, ei = item.inputs["span"], item.inputs["ei"]
            line = item.inputs["w"] > 0
            load = item.inputs["w"] if line else item.inputs["p"]
            c_v, c_theta = closed[level]["line" if line else "point"]
            power = 4 if line else 3
            v = next(q for q in item.quantities if q.key.startswith("v_"))
            assert v.truth == pytest.approx(c_v * load * span**power / ei * 1e3, rel=1e-6)
            for q in item.quantities:
                if q.key.startswith("theta_"):
                    assert abs(q.truth) == pytest.approx(
                        math.degrees(c_theta * load * span ** (power - 1) / ei), rel=1e-6
                    )


def _joints(item: Item) -> dict[str, float]:
    """Member forces (tension positive) by the method of joints: two equilibrium equations per joint, solved at once
    for the member forces and the reactions (pin: two, roller: one vertical)."""
    s = item.structure
    assert s is not None
    where = {p["id"]: np.array([p["x"], p["y"]]) for p in s["points"]}
    index = {pid: k for k, pid in enumerate(where)}
    unknowns = [("member", link) for link in s["links"]]
    for support in s["supports"]:
        pid = support["at"]["id"]
        unknowns += [("rx", pid), ("ry", pid)] if support["kind"] == "pin" else [("ry", pid)]
    matrix = np.zeros((2 * len(where), len(unknowns)))
    for col, (kind, what) in enumerate(unknowns):
        if kind == "member":
            a, b = where[what["a"]], where[what["b"]]
            unit = (b - a) / np.linalg.norm(b - a)
            matrix[2 * index[what["a"]] : 2 * index[what["a"]] + 2, col] += unit  # tension pulls joint a towards b
            matrix[2 * index[what["b"]] : 2 * index[what["b"]] + 2, col] -= unit
        else:
            matrix[2 * index[what] + (kind == "ry"), col] = 1.0
    loads = np.zeros(2 * len(where))
    for load in s["loads"]:
        angle = math.radians(load["angleDeg"])
        k = index[load["at"]["id"]]
        loads[2 * k : 2 * k + 2] += load["value"] * np.array([math.cos(angle), math.sin(angle)])
    solution = np.linalg.lstsq(matrix, -loads, rcond=None)[0]
    assert np.allclose(matrix @ solution, -loads, atol=1e-9)
    members = len(s["links"])
    states = null_space(matrix)  # self-stress states: a statically indeterminate truss has some
    if states.shape[1]:
        # Compatibility (equal EA, as the item states): the member elongations N·L do no work on any self-stress
        # state, Σ N_i L_i s_i = 0; it fixes the redundant forces the equations of the joints leave open.
        lengths = np.array([np.linalg.norm(where[m["b"]] - where[m["a"]]) for m in s["links"]])
        flexibility = np.zeros(len(unknowns))
        flexibility[:members] = lengths
        gram = states.T @ (flexibility[:, None] * states)
        solution = solution - states @ np.linalg.solve(gram, states.T @ (flexibility * solution))
        assert "same axial stiffness EA" in item.statement
    return {f"N_{m['a']}_{m['b']}": solution[k] for k, (_, m) in enumerate(unknowns[:members])}


def test_truss_member_forces_match_an_independent_method_of_joints() -> None:
    checked = 0
    for item in _items("truss"):
        forces = _joints(item)
        for q in item.quantities:
            assert q.truth == pytest.approx(forces[q.key], rel=1e-6, abs=1e-6 * q.floor * 1e3)
            checked += 1
    assert checked >= 60


def test_frame_reactions_balance_the_loads_and_do_not_hang_on_axial_stiffness() -> None:
    """Indeterminate frames: a solve with members five times more axially flexible changes no asked reaction by more
    than a fifth of the tolerance (axial deformation neglected, as stated, within the tolerance)."""
    from mechbench.frame import solve

    for item in _items("reactions", 5)[:15]:
        s = item.structure
        assert s is not None
        flexible = {**s, "links": [{**link, "A": link["A"] / 5} for link in s["links"]]}
        again = {
            (r["atId"], r["type"]): r["value"]
            for r in solve(flexible, diagrams=False, exact_supports=True)["reactions"]
        }
        support_at = {sup["at"]["id"]: sup["id"] for sup in s["supports"]}
        for q in item.quantities:
            letter, at = q.key.split("_", 1)
            kind = {"H": "ux", "V": "uy", "M": "rz"}[letter]
            other = again.get((support_at[at], kind), again.get((support_at[at], "normal")))
            assert other == pytest.approx(q.truth, rel=2e-3, abs=q.floor)


def test_axial_bars_match_the_closed_forms_and_the_frame_solver() -> None:
    from mechbench.frame import solve

    for level in (2, 3, 4):
        for item in _items("axial", level):
            d = item.inputs
            if level == 4:  # compatibility: the bar's total length change is zero, equilibrium: one force
                s1, s2 = _truth(item, "sigma_1"), _truth(item, "sigma_2")
                assert s1 * d["a1"] == pytest.approx(s2 * d["a2"], rel=1e-9)
                free = (d["alpha1"] * d["l1"] + d["alpha2"] * d["l2"]) * d["rise"]
                elastic = s1 * d["l1"] / (d["e1"] * 1e3) + s2 * d["l2"] / (d["e2"] * 1e3)
                assert free + elastic == pytest.approx(0.0, abs=1e-12)
                continue
            s = item.structure
            assert s is not None
            stiff = {**s, "links": [{**link, "E": d["e1"] * 1e6, "A": d["a1" if k == 0 else "a2"] * 1e-6, "Iz": 1e-6}
                                    for k, link in enumerate(s["links"])]}  # fmt: skip
            result = solve(stiff, diagrams=True, exact_supports=True)
            tension = [-diagram["samples"][0]["n"] for diagram in result["axial"]]
            if level == 2:
                end = next(p for p in result["displacements"] if p["pointId"] == s["points"][-1]["id"])
                assert _truth(item, "delta") == pytest.approx(end["ux"] * 1e3, rel=1e-6)
                assert _truth(item, "sigma_1") == pytest.approx(tension[0] / d["a1"] * 1e3, rel=1e-6)
            else:
                left = next(r for r in result["reactions"] if r["atId"] == s["supports"][0]["id"] and r["type"] == "ux")
                assert _truth(item, "H_left") == pytest.approx(left["value"], rel=1e-6)
                assert _truth(item, "sigma_right") == pytest.approx(tension[1] / d["a2"] * 1e3, rel=1e-6)
                # and the textbook closed form: the walls share P in inverse proportion to the parts' lengths
                assert _truth(item, "H_left") == pytest.approx(-d["p"] * d["l2"] / (d["l1"] + d["l2"]), rel=1e-12)


def _fe_buckling(length: float, ei: float, base: str, top: str, elements: int = 24) -> float:
    """The lowest critical load of a beam-column (Hermite elements, consistent geometric stiffness)."""
    h = length / elements
    k = ei / h**3 * np.array([[12, 6 * h, -12, 6 * h], [6 * h, 4 * h * h, -6 * h, 2 * h * h],
                              [-12, -6 * h, 12, -6 * h], [6 * h, 2 * h * h, -6 * h, 4 * h * h]])  # fmt: skip
    g = 1 / (30 * h) * np.array([[36, 3 * h, -36, 3 * h], [3 * h, 4 * h * h, -3 * h, -h * h],
                                 [-36, -3 * h, 36, -3 * h], [3 * h, -h * h, -3 * h, 4 * h * h]])  # fmt: skip
    n = 2 * (elements + 1)
    stiffness, geometric = np.zeros((n, n)), np.zeros((n, n))
    for e in range(elements):
        dofs = slice(2 * e, 2 * e + 4)
        stiffness[dofs, dofs] += k
        geometric[dofs, dofs] += g
    held = {"pin": [0], "fixed": [0, 1]}[base] + {None: [], "roller_top": [n - 2], "slider_top": [n - 2, n - 1]}[top]
    free = [i for i in range(n) if i not in held]
    return float(eigh(stiffness[np.ix_(free, free)], geometric[np.ix_(free, free)], eigvals_only=True)[0])


def test_euler_loads_match_a_finite_element_buckling_solve() -> None:
    from mechbench.benchmarks.hand_calc.families import END_CONDITIONS

    supports = {kl: ends for kl, ends in END_CONDITIONS.values()}
    for item in _items("buckling"):
        base, top = supports[item.inputs["kl"]]
        fe = _fe_buckling(item.inputs["span"], item.inputs["ei"], base, top)
        assert _truth(item, "P_cr") == pytest.approx(fe, rel=2e-3)
        assert _truth(item, "P_cr") / item.inputs["area"] * 1e3 <= 200.0  # elastic: Euler is the column's load


def test_principal_stresses_match_the_eigenvalues_of_the_stress_tensor() -> None:
    for item in _items("stress"):
        sx, sy, txy = item.inputs["sx"], item.inputs["sy"], item.inputs["txy"]
        values, vectors = np.linalg.eigh(np.array([[sx, txy], [txy, sy]]))
        assert _truth(item, "sigma_1") == pytest.approx(values[1], abs=1e-9)
        assert _truth(item, "sigma_2") == pytest.approx(values[0], abs=1e-9)
        if any(q.key == "theta_p" for q in item.quantities):
            direction = vectors[:, 1]
            angle = math.degrees(math.atan2(direction[1], direction[0]))
            angle = (angle + 90) % 180 - 90  # a direction, not a sense: within (−90, 90]
            assert _truth(item, "theta_p") == pytest.approx(angle, abs=1e-7) or abs(angle) == pytest.approx(90)
