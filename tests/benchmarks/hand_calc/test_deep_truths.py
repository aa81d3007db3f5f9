"""Every truth of HandCalc's levels 6–10 against a second, independent path: the three-moment equation (continuous
beams, settlements included), mechanisms by virtual work (plastic collapse), the frame solver's flexibility of the
drawn frame (shear buildings), a brute-force sweep of train positions (moving loads), joint equilibrium with
compatibility (trusses with inclined supports and redundant members), and equilibrium plus an axially flexible
second solve (frames)."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from scipy.linalg import eigh, null_space

from mechbench.benchmarks.hand_calc.catalogue import LEVELED
from mechbench.benchmarks.hand_calc.items import Item
from mechbench.frame import solve
from mechbench.frame.moving_loads import moment_at

SEEDS = range(12)


def _items(family: str, levels: tuple[int, ...] | None = None) -> list[Item]:
    known, generate = LEVELED[family]
    chosen = [level for level in known if level >= 6 and (levels is None or level in levels)]
    return [generate(random.Random(f"deep:{family}:{level}:{seed}"), level, f"hc-{seed:04d}")
            for level in chosen for seed in SEEDS]  # fmt: skip


def _truth(item: Item, key: str) -> float:
    return next(q.truth for q in item.quantities if q.key == key)


def _span_loads(item: Item) -> tuple[list[float], dict[int, list[tuple[str, float, float]]]]:
    """A continuous beam's support positions and each span's loads: ("udl", w, 0) or ("point", P, distance from the
    span's left support)."""
    s = item.structure
    assert s is not None
    xs = {p["id"]: p["x"] for p in s["points"]}
    supports = sorted(xs[sup["at"]["id"]] for sup in s["supports"])
    links = {link["id"]: link for link in s["links"]}
    loads: dict[int, list[tuple[str, float, float]]] = {}
    for load in s["loads"]:
        link = links[load["at"]["id"]]
        span = supports.index(xs[link["a"]])
        if load["kind"] == "distributedLoad":
            assert load["wStart"] == load["wEnd"] and load["fromStart"] == load["fromEnd"] == 0
            loads.setdefault(span, []).append(("udl", load["wStart"], 0.0))
        else:
            assert load["angleDeg"] == 270
            loads.setdefault(span, []).append(("point", load["value"], load["offset"]))
    return supports, loads


def _three_moments(item: Item) -> tuple[dict[str, float], dict[str, float]]:
    """Support moments (sagging positive) and reactions by Clapeyron's three-moment equation with support
    settlements, EI constant; a fixed left end is an imaginary span of zero length."""
    supports, loads = _span_loads(item)
    s = item.structure
    assert s is not None
    ids = {p["x"]: p["id"] for p in s["points"]}
    fixed = any(sup["kind"] == "fixed" for sup in s["supports"])
    ei = item.inputs["ei"]
    y = [-item.inputs.get(f"settles_{ids[x]}", 0.0) for x in supports]
    lengths = [b - a for a, b in itertools.pairwise(supports)]
    n = len(supports)

    def term(span: int, far_is_left: bool) -> float:  # 6 A x̄ / L measured from the span's far support
        total, length = 0.0, lengths[span]
        for kind, value, a in loads.get(span, []):
            if kind == "udl":
                total += value * length**3 / 4
            else:
                d = a if far_is_left else length - a
                total += value * d * (length**2 - d**2) / length
        return total

    rows, rhs = [], []
    unknown = list(range(n - 1)) if fixed else list(range(1, n - 1))  # the far end rests on a roller
    for i in unknown:
        row = np.zeros(n)
        right = 0.0
        if i > 0:
            row[i - 1] += lengths[i - 1]
            row[i] += 2 * lengths[i - 1]
            right -= term(i - 1, far_is_left=True)
            right += 6 * ei * (y[i - 1] - y[i]) / lengths[i - 1]
        if i < n - 1:
            row[i + 1] += lengths[i]
            row[i] += 2 * lengths[i]
            right -= term(i, far_is_left=False)
            right += 6 * ei * (y[i + 1] - y[i]) / lengths[i]
        rows.append(row[unknown])
        rhs.append(right)
    moments = np.zeros(n)
    moments[unknown] = np.linalg.solve(np.array(rows), np.array(rhs))
    reactions = np.zeros(n)
    for span, length in enumerate(lengths):
        left_ss = right_ss = 0.0
        for kind, value, a in loads.get(span, []):
            force, at = (value * length, length / 2) if kind == "udl" else (value, a)
            right_ss += force * at / length
            left_ss += force * (length - at) / length
        shear = (moments[span] - moments[span + 1]) / length
        reactions[span] += left_ss - shear
        reactions[span + 1] += right_ss + shear
    by_id = {ids[x]: k for k, x in enumerate(supports)}
    return ({f"M_{p}": moments[k] for p, k in by_id.items()}, {f"V_{p}": reactions[k] for p, k in by_id.items()})


def test_continuous_beams_match_the_three_moment_equation() -> None:
    checked = 0
    for item in _items("continuous"):
        moments, reactions = _three_moments(item)
        for q in item.quantities:
            expected = moments.get(q.key, reactions.get(q.key))
            assert q.truth == pytest.approx(expected, rel=1e-6, abs=1e-6 * q.floor * 1e3), (item.level, q.key)
            checked += 1
    assert checked >= 100


def _portal_factor(item: Item) -> float:
    """One-bay portal by virtual work: the least of the beam, sway and combined mechanisms (load at a from the left
    on a beam of span L; the joints' hinges form in the weaker member)."""
    s = item.structure
    assert s is not None
    xs = {p["id"]: (p["x"], p["y"]) for p in s["points"]}
    (h_load,) = [ld for ld in s["loads"] if ld["angleDeg"] == 0]
    (v_load,) = [ld for ld in s["loads"] if ld["angleDeg"] == 270]
    span = max(x for x, _ in xs.values())
    height = max(y for _, y in xs.values())
    a = xs[v_load["at"]["id"]][0]
    title = item.title
    mp_c = float(title.split("columns ")[1].split(" ")[0])
    mp_b = float(title.split("beams ")[1].split(" ")[0])
    joint = min(mp_c, mp_b)
    fixed = s["supports"][0]["kind"] == "fixed"
    base = 2 * mp_c if fixed else 0.0
    h, v = h_load["value"], v_load["value"]
    ratio = span / (span - a)
    beam = (joint + mp_b * ratio + joint * a / (span - a)) / (v * a)
    sway = (base + 2 * joint) / (h * height)
    combined = (base + (mp_b + joint) * ratio) / (h * height + v * a)
    return min(beam, sway, combined)


def _beam_factor(item: Item) -> float:
    """A fixed or propped beam under point loads by virtual work: a sagging hinge at one load, hogging hinges at the
    fixed ends."""
    s = item.structure
    assert s is not None
    span = max(p["x"] for p in s["points"])
    at = {p["id"]: p["x"] for p in s["points"]}
    loads = [(at[ld["at"]["id"]], ld["value"]) for ld in s["loads"]]
    mp = float(item.title.split("= ")[1].split(" ")[0])
    propped = any(sup["kind"] == "roller" for sup in s["supports"])
    best = math.inf
    for x, _ in loads:
        shape = [(xj / x if xj <= x else (span - xj) / (span - x)) for xj, _ in loads]  # unit deflection at x
        internal = mp * (2 / x + 1 / (span - x) + (0 if propped else 1 / (span - x)))
        best = min(best, internal / sum(p * d for (_, p), d in zip(loads, shape, strict=True)))
    return best


def test_collapse_loads_match_the_mechanisms_by_virtual_work() -> None:
    checked = 0
    for item in _items("plastic", (7, 8)):
        (q,) = item.quantities
        s = item.structure
        assert s is not None
        reference = next(ld["value"] for ld in s["loads"] if ld["at"]["id"] == q.key.split("_")[1])
        factor = _beam_factor(item) if item.level == 7 else _portal_factor(item)
        assert q.truth == pytest.approx(factor * reference, rel=1e-7), (item.level, item.title)
        checked += 1
    assert checked == 2 * len(SEEDS)


def test_two_bay_collapse_is_below_every_classic_mechanism_and_equilibrated() -> None:
    """Two bays (nine mechanisms by hand would be long): the static theorem's factor is at most each beam and the
    sway mechanism's, and the structure's moment field at collapse is in equilibrium (the self-stress basis spans the
    six redundants)."""
    from mechbench.frame.determinacy import static_indeterminacy
    from mechbench.frame.model import FrameModel
    from mechbench.frame.plastic import collapse_factor

    for item in _items("plastic", (9,)):
        s = item.structure
        assert s is not None and static_indeterminacy(FrameModel.parse(s)) == 6
        (q,) = item.quantities
        mp_c = float(item.title.split("columns ")[1].split(" ")[0])
        mp_b = float(item.title.split("beams ")[1].split(" ")[0])
        plastic = {link["id"]: (mp_c if link["id"] in ("L1", "L2", "L3") else mp_b) for link in s["links"]}
        factor = collapse_factor(s, plastic).factor
        height = max(p["y"] for p in s["points"])
        h = next(ld["value"] for ld in s["loads"] if ld["angleDeg"] == 0)
        sway = (3 * 2 * mp_c if mp_c <= mp_b else 3 * (mp_c + mp_b)) / (h * height)  # every column hinged twice
        assert factor <= sway + 1e-9
        reference = next(ld["value"] for ld in s["loads"] if ld["at"]["id"] == q.key.split("_")[1])
        assert q.truth == pytest.approx(factor * reference, rel=1e-9)


def test_shear_building_frequencies_match_the_drawn_frames_flexibility() -> None:
    checked = 0
    for item in _items("vibration"):
        s = item.structure
        assert s is not None
        floors = sorted({p["y"] for p in s["points"]} - {0.0})
        left = {p["y"]: p["id"] for p in s["points"] if p["x"] == 0.0}
        flexibility = np.zeros((len(floors), len(floors)))
        for j, y in enumerate(floors):
            unit = {**s, "loads": [{"id": "U", "kind": "pointLoad", "at": {"type": "point", "id": left[y]},
                                    "value": 1.0, "angleDeg": 0.0, "angleMode": "world", "flip": 1}]}  # fmt: skip
            moved = {d["pointId"]: d["ux"] for d in solve(unit, diagrams=False, exact_supports=True)["displacements"]}
            flexibility[:, j] = [moved[left[f]] for f in floors]
        masses = [float(part.split("= ")[1].split(" ")[0]) for part in item.title.split("\n")[0].split(", ")]
        omega2 = eigh(np.linalg.inv(flexibility), np.diag(masses), eigvals_only=True)
        frequencies = np.sqrt(omega2) / (2 * math.pi)
        for q in item.quantities:
            assert q.truth == pytest.approx(frequencies[int(q.key[-1]) - 1], rel=2e-3)
            checked += 1
    assert checked >= 40


def test_moving_load_maxima_match_a_brute_force_sweep() -> None:
    for item in _items("moving_load", (8,)):
        s = item.structure
        assert s is not None
        span = max(p["x"] for p in s["points"])
        section = next(p["x"] for p in s["points"] if p["id"] == "P2")
        parts = item.title.split(": ")[1].split(" – ")
        loads = [float(t.split()[0]) for t in parts[0::2]]
        spacings = [float(t.split()[0]) for t in parts[1::2]]
        o = np.concatenate([[0.0], np.cumsum(spacings)])
        positions = np.linspace(-o[-1] - 0.1, span + 0.1, 6001)
        best_abs = best_at = best_r = 0.0
        for s0 in positions:
            place = s0 + o
            best_at = max(best_at, moment_at(span, section, loads, place))
            best_abs = max([best_abs] + [moment_at(span, x, loads, place) for x in place if 0 <= x <= span])
            best_r = max(
                best_r, sum(p * (span - x) / span for p, x in zip(loads, place, strict=True) if 0 <= x <= span)
            )
        assert _truth(item, "M_abs") == pytest.approx(best_abs, rel=2e-3) and _truth(item, "M_abs") >= best_abs
        # the sweep's grid can only fall short of the exact maxima, and by little
        assert _truth(item, "M_P2") == pytest.approx(best_at, rel=2e-3) and _truth(item, "M_P2") >= best_at - 1e-9
        if item.level >= 9:
            assert _truth(item, "V_P1") == pytest.approx(best_r, rel=2e-3) and _truth(item, "V_P1") >= best_r - 1e-9


def _joint_forces(item: Item) -> dict[str, float]:
    """Member forces (tension positive) from joint equilibrium (two equations per joint; pins two reactions, rollers
    one along their normal, inclined ones too) and, for redundant members, compatibility at equal EA."""
    s = item.structure
    assert s is not None
    where = {p["id"]: np.array([p["x"], p["y"]]) for p in s["points"]}
    index = {pid: k for k, pid in enumerate(where)}
    columns: list[tuple[str, object]] = [("member", link) for link in s["links"]]
    for support in s["supports"]:
        pid = support["at"]["id"]
        if support["kind"] == "pin":
            columns += [("reaction", (pid, np.array([1.0, 0.0]))), ("reaction", (pid, np.array([0.0, 1.0])))]
        else:
            theta = math.radians(support.get("angleDeg", 0.0))
            columns.append(("reaction", (pid, np.array([-math.sin(theta), math.cos(theta)]))))
    matrix = np.zeros((2 * len(where), len(columns)))
    for col, (kind, what) in enumerate(columns):
        if kind == "member":
            a, b = where[what["a"]], where[what["b"]]  # type: ignore[index]
            unit = (b - a) / np.linalg.norm(b - a)
            matrix[2 * index[what["a"]] : 2 * index[what["a"]] + 2, col] += unit  # type: ignore[index]
            matrix[2 * index[what["b"]] : 2 * index[what["b"]] + 2, col] -= unit  # type: ignore[index]
        else:
            pid, direction = what  # type: ignore[misc]
            matrix[2 * index[pid] : 2 * index[pid] + 2, col] = direction
    loads = np.zeros(2 * len(where))
    for load in s["loads"]:
        angle = math.radians(load["angleDeg"])
        k = index[load["at"]["id"]]
        loads[2 * k : 2 * k + 2] += load["value"] * np.array([math.cos(angle), math.sin(angle)])
    solution = np.linalg.lstsq(matrix, -loads, rcond=None)[0]
    members = len(s["links"])
    states = null_space(matrix)
    if states.shape[1]:
        lengths = np.array([np.linalg.norm(where[m["b"]] - where[m["a"]]) for m in s["links"]])
        flexibility = np.zeros(len(columns))
        flexibility[:members] = lengths
        gram = states.T @ (flexibility[:, None] * states)
        solution = solution - states @ np.linalg.solve(gram, states.T @ (flexibility * solution))
        assert "same axial stiffness EA" in item.statement
    return {f"N_{m['a']}_{m['b']}": solution[k] for k, (_, m) in enumerate(columns[:members])}  # type: ignore[index]


def test_deep_truss_forces_match_joint_equilibrium_with_compatibility() -> None:
    checked = 0
    for item in _items("truss"):
        forces = _joint_forces(item)
        for q in item.quantities:
            assert q.truth == pytest.approx(forces[q.key], rel=1e-6, abs=1e-6 * q.floor * 1e3), (item.level, q.key)
            checked += 1
    assert checked >= 80


def test_deep_frame_reactions_balance_and_do_not_hang_on_axial_stiffness() -> None:
    """Frames of levels 6–10: the asked reactions change by less than a fifth of the tolerance when the members are
    five times more axially flexible (axial deformation neglected, as stated), and every solve balances the loads."""
    for item in _items("reactions"):
        s = item.structure
        assert s is not None
        flexible = {**s, "links": [{**link, "A": link["A"] / 5} for link in s["links"]]}
        result = solve(flexible, diagrams=False, exact_supports=True)
        again = {(r["atId"], r["type"]): r["value"] for r in result["reactions"]}
        support_at = {sup["at"]["id"]: sup["id"] for sup in s["supports"]}
        for q in item.quantities:
            letter, at = q.key.split("_", 1)
            kind = {"H": "ux", "V": "uy", "M": "rz"}[letter]
            other = again.get((support_at[at], kind), again.get((support_at[at], "normal")))
            assert other == pytest.approx(q.truth, rel=2e-3, abs=q.floor), (item.level, q.key)


@pytest.mark.parametrize("level", [6, 7, 8, 9, 10])
def test_the_shortcut_panel_earns_nothing_at_the_deep_levels(level: int) -> None:
    """Every shortcut of the panel (zero, the largest load, a textbook formula applied blindly, a random number at
    the load's scale) on 40 fresh items of the level: at most one quantity in 40 right (chance is nil for numbers
    judged within 1 %)."""
    from mechbench.benchmarks.hand_calc.answers import judge
    from mechbench.benchmarks.hand_calc.baselines import BASELINES
    from mechbench.benchmarks.hand_calc.generated_set import make_item
    from mechbench.benchmarks.hand_calc.prompts import prompt

    items = [make_item(11, index, level) for index in range(40)]
    for baseline in BASELINES:
        right = asked = 0
        for item in items:
            context = {"asked": [(q.key, q.unit, q.kind) for q in item.quantities], "inputs": item.inputs}
            verdicts = judge(baseline.answer(prompt(item, "text"), 0, context), item.quantities)
            right, asked = right + sum(v.correct for v in verdicts), asked + len(verdicts)
        assert right <= asked / 40, (baseline.name, right, asked)


def test_the_bundled_set_is_what_its_command_writes() -> None:
    """The bundled items regenerate to the same bytes (GENERATED.md's seed and count): numbers are stored at the
    precision they hold, so no machine's last bits show."""
    from mechbench.benchmarks.hand_calc.generated_set import item_line, make_item
    from mechbench.sources.resolve import bundled

    folder = bundled("hand_calc")
    assert "--n 35 --seed 2026" in (folder / "GENERATED.md").read_text()
    lines = (folder / "items.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines == [item_line(make_item(2026, k).model_dump_json()) for k in range(35)]


@pytest.mark.parametrize("level", [6, 7, 8, 9, 10])
def test_the_text_of_a_deep_item_states_what_its_drawing_shows(level: int) -> None:
    """Every coordinate, load and datum of the drawing's title is in the words, so the text alone can be solved."""
    import re

    from mechbench.benchmarks.hand_calc.generated_set import make_item
    from mechbench.benchmarks.hand_calc.prompts import prompt
    from mechbench.benchmarks.hand_calc.statement import number

    for index in range(24):
        item = make_item(5, index, level)
        text = prompt(item, "text")
        assert item.structure is not None
        if item.family in ("reactions", "truss", "moment", "continuous", "plastic"):
            for point in item.structure["points"]:
                assert f"{point['id']} ({number(point['x'])}, {number(point['y'])})" in text, (item.id, point)
            for load in item.structure["loads"]:
                assert f"{number(load.get('value', load.get('wStart')))} kN" in text, (item.id, load)
        for datum in re.findall(r"(\d+(?:\.\d+)?) (?:kN·m²|kN·m|t|kN|mm|m)\b", item.title):
            assert datum in text, (item.id, item.family, datum)


def _fe_critical(item: Item, elements: int = 12) -> float:
    """The critical factor by a refined finite-element buckling analysis (cubic beam elements with the consistent
    geometric stiffness, axial rigidity by a stiff penalty): K v = λ K_G v, the smallest λ."""
    from scipy.linalg import eigh as generalized

    s = item.structure
    assert s is not None
    points = {p["id"]: (p["x"], p["y"]) for p in s["points"]}
    title = item.title
    ei_column = float(title.split("columns ")[1].split(" ")[0])
    ei_beam = float(title.split("beam ")[1].split(" ")[0])
    multiples = {}
    for part in title.split("column tops: ")[1].split(";")[0].split(", "):
        factor, point = part.split(" at ")
        multiples[point] = float(factor[:-1]) if factor != "P" else 1.0
    dof: dict[object, int] = {}

    def index(key: object) -> int:
        return dof.setdefault(key, len(dof))

    blocks = []
    for link in s["links"]:
        (x1, y1), (x2, y2) = points[link["a"]], points[link["b"]]
        vertical = abs(x1 - x2) < 1e-9
        ei = ei_column if vertical else ei_beam
        top = link["b"] if y2 > y1 else link["a"]
        force = multiples.get(top, 0.0) if vertical else 0.0
        length = math.hypot(x2 - x1, y2 - y1) / elements
        c, sn = (x2 - x1) / (length * elements), (y2 - y1) / (length * elements)
        for e in range(elements):
            ends = []
            for t in (e, e + 1):
                node = link["a"] if t == 0 else link["b"] if t == elements else (link["id"], t)
                hinged = (t == 0 and link.get("endA") == "hinge") or (t == elements and link.get("endB") == "hinge")
                rotation = (link["id"], t, "r") if hinged else (node, "r")
                ends += [index((node, "x")), index((node, "y")), index(rotation)]
            blocks.append((ends, length, c, sn, ei, force))
    size = len(dof)
    k_e, k_g = np.zeros((size, size)), np.zeros((size, size))
    for ends, length, c, sn, ei, force in blocks:
        local = np.zeros((6, 6))
        axial = 1e7 * ei / length**2
        local[np.ix_([0, 3], [0, 3])] = axial * np.array([[1, -1], [-1, 1]])
        bend = ei / length**3 * np.array([[12, 6 * length, -12, 6 * length], [6 * length, 4 * length**2, -6 * length,
                 2 * length**2], [-12, -6 * length, 12, -6 * length], [6 * length, 2 * length**2, -6 * length,
                 4 * length**2]])  # fmt: skip
        local[np.ix_([1, 2, 4, 5], [1, 2, 4, 5])] = bend
        geometric = np.zeros((6, 6))
        geometric[np.ix_([1, 2, 4, 5], [1, 2, 4, 5])] = force / (30 * length) * np.array([
            [36, 3 * length, -36, 3 * length], [3 * length, 4 * length**2, -3 * length, -(length**2)],
            [-36, -3 * length, 36, -3 * length], [3 * length, -(length**2), -3 * length, 4 * length**2]])  # fmt: skip
        turn = np.zeros((6, 6))
        for b0 in (0, 3):
            turn[b0 : b0 + 2, b0 : b0 + 2] = [[c, sn], [-sn, c]]
            turn[b0 + 2, b0 + 2] = 1.0
        k_e[np.ix_(ends, ends)] += turn.T @ local @ turn
        k_g[np.ix_(ends, ends)] += turn.T @ geometric @ turn
    held = set()
    for support in s["supports"]:
        pid = support["at"]["id"]
        held |= {dof[(pid, "x")], dof[(pid, "y")]}
        if support["kind"] == "fixed":
            held.add(dof[(pid, "r")])
    free = [d for d in range(size) if d not in held]
    mu = generalized(k_g[np.ix_(free, free)], k_e[np.ix_(free, free)], eigvals_only=True)
    return 1.0 / mu.max()


def test_frame_critical_loads_match_a_refined_finite_element_buckling_analysis() -> None:
    for item in _items("stability"):
        (q,) = item.quantities
        assert q.truth == pytest.approx(_fe_critical(item), rel=2e-4), (item.level, item.title)


def test_continuous_beam_train_extremes_match_the_frame_solver_swept() -> None:
    """Trains on continuous beams: each extreme against the frame solver's own solves of the beam with the train
    placed at a sweep of positions (a load standing on a support, the section or a fine grid), which can only fall
    short of the exact extreme, and by little."""
    from mechbench.frame import solve_many
    from mechbench.frame.generate import ModelBuilder

    for item in _items("moving_load", (9, 10))[::4]:
        s = item.structure
        assert s is not None
        xs = {p["id"]: p["x"] for p in s["points"]}
        supports = sorted(xs[sup["at"]["id"]] for sup in s["supports"])
        parts = item.title.split(": ")[1].split(" – ")
        loads = [float(t.split()[0]) for t in parts[0::2]]
        o = np.concatenate([[0.0], np.cumsum([float(t.split()[0]) for t in parts[1::2]])])
        positions = np.unique(np.concatenate([np.linspace(-o[-1], supports[-1], 300),
                                              [x - ok for x in xs.values() for ok in o]]))  # fmt: skip
        models = []
        for start in positions:
            places = [start + ok for ok in o if 0 <= start + ok <= supports[-1]]
            b = ModelBuilder()
            ids = {x: b.point(float(x), 0.0) for x in sorted({*xs.values(), *places})}
            ordered = sorted(ids)
            for a, c in itertools.pairwise(ordered):
                b.link(ids[a], ids[c])
            b.support(ids[supports[0]], "pin")
            for x in supports[1:]:
                b.support(ids[x], "roller")
            for p, ok in zip(loads, o, strict=True):
                if 0 <= start + ok <= supports[-1]:
                    b.force_at_point(ids[start + ok], p, 270.0)
            model = b.model()
            for link in model["links"]:
                link.update(E=2.1e8, Iz=1e-4, A=1.0)
            models.append(model)
        results = solve_many(models, diagrams=True, exact_supports=True, errors="raise")
        for q in item.quantities:
            letter, pid = q.key.split("_")
            x = xs[pid]
            seen = []
            for model, result in zip(models, results, strict=True):
                at = next(p["id"] for p in model["points"] if p["x"] == x)
                if letter == "V":
                    support = next(sup["id"] for sup in model["supports"] if sup["at"]["id"] == at)
                    seen.append(next(r["value"] for r in result["reactions"] if r["atId"] == support))
                else:
                    link = next(lk["id"] for lk in model["links"] if lk["a"] == at)
                    seen.append(-next(d["samples"][0]["m"] for d in result["moment"] if d["linkId"] == link))
            extreme = min(seen) if q.truth < 0 else max(seen)
            assert q.truth == pytest.approx(extreme, rel=2e-3), (item.level, q.key)
            assert abs(q.truth) >= abs(extreme) - 1e-6 * abs(extreme)
