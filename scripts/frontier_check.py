"""The headroom check of docs/headroom.md, made repeatable: write what a model is shown for fresh items of each
level (one folder per level: the prompt, and the drawing where it is shown), and later score the answers someone
wrote for them with mechbench's own judge.

    python scripts/frontier_check.py write hand_calc OUT --levels 6-10 --n 8 --seed 700
    python scripts/frontier_check.py score hand_calc OUT          # reads OUT/L<level>/answers/<id>.txt
    python scripts/frontier_check.py adaptive hand_calc OUT [OUT2 …]  # the adaptive rule over the recorded answers

The keys go to ``OUT/keys/`` (never shown to the answerer); ``score`` prints each level's share of quantities right.
StructuralEval: ``write structural_eval`` writes each task's drawing and prompt; ``score`` reads a FrameCalc JSON reply
per task and judges it as a run would (reactions and moments within the published tolerance).
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path


def _levels(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def write_hand_calc(out: Path, levels: list[int], n: int, seed: int) -> None:
    """Items of each level, shown alternately as drawing and as text."""
    from mechbench.benchmarks.hand_calc.drawing import drawing
    from mechbench.benchmarks.hand_calc.generated_set import make_item
    from mechbench.benchmarks.hand_calc.prompts import prompt

    keys = out / "keys"
    keys.mkdir(parents=True, exist_ok=True)
    for level in levels:
        folder = out / f"L{level}"
        (folder / "answers").mkdir(parents=True, exist_ok=True)
        for index in range(n):
            item = make_item(seed + level, index, level)
            shown = "drawing" if index % 2 == 0 else "text"
            (folder / f"{item.id}.txt").write_text(prompt(item, shown) + "\n")
            if shown == "drawing":
                (folder / f"{item.id}.png").write_bytes(drawing(item))
            (keys / f"L{level}-{item.id}.json").write_text(item.model_dump_json(indent=1))


def item_shares(out: Path) -> dict[int, list[float]]:
    """Each recorded item's share of quantities right, per level, in the order the items were written."""
    from mechbench.benchmarks.hand_calc.answers import judge
    from mechbench.benchmarks.hand_calc.items import Item

    shares: dict[int, list[float]] = {}
    for key in sorted((out / "keys").glob("L*-*.json")):
        level = int(key.name.split("-")[0][1:])
        item = Item.model_validate_json(key.read_text())
        answer = out / f"L{level}" / "answers" / f"{item.id}.txt"
        verdicts = judge(answer.read_text() if answer.exists() else "", item.quantities)
        shares.setdefault(level, []).append(sum(v.correct for v in verdicts) / len(verdicts))
    return shares


def replay_adaptive(shares: dict[int, list[float]]) -> list[tuple[int, float, float, float]]:
    """HandCalc's adaptive rule (``-T adaptive=true``) run over recorded answers: each step asks the level nearest the
    ability among the levels with answers left, takes that level's next recorded answer and updates the estimate,
    until the target standard error or the answers run out. Returns (level, share, ability, se) per step."""
    from mechbench.benchmarks.hand_calc.adaptive import next_level, posterior, record
    from mechbench.harness.adaptive import TARGET_SE

    left = {level: list(answers) for level, answers in shares.items()}
    running = posterior()
    found = running.summary()
    trail = []
    while any(left.values()):
        wanted = next_level(found.theta)
        level = min((lv for lv, answers in left.items() if answers), key=lambda lv: (abs(lv - wanted), lv))
        share = left[level].pop(0)
        found = record(running, level, share)
        trail.append((level, share, found.theta, found.se))
        if found.se <= TARGET_SE:
            break
    return trail


def builtin_abilities(items: int = 30, seed: int = 5) -> dict[str, tuple[float, float, float]]:
    """Each HandCalc built-in model run adaptively on fresh items (text): its ability and 95 % interval."""
    from mechbench.benchmarks.hand_calc.adaptive import next_level, posterior, record
    from mechbench.benchmarks.hand_calc.answers import judge
    from mechbench.benchmarks.hand_calc.baselines import BASELINES
    from mechbench.benchmarks.hand_calc.generated_set import make_item
    from mechbench.benchmarks.hand_calc.prompts import prompt

    found_by: dict[str, tuple[float, float, float]] = {}
    for baseline in BASELINES:
        running = posterior()
        found = running.summary()
        for step in range(items):
            level = next_level(found.theta)
            item = make_item(seed, step, level)
            context = {"inputs": item.inputs, "asked": [(q.key, q.unit, q.kind) for q in item.quantities]}
            verdicts = judge(baseline.answer(prompt(item, "text"), seed, context), item.quantities)
            found = record(running, level, sum(v.correct for v in verdicts) / len(verdicts))
        found_by[baseline.name] = (found.theta, found.low, found.high)
    return found_by


def score_hand_calc(out: Path) -> dict[int, tuple[int, int]]:
    """(right, asked) quantities per level, judged by HandCalc's scorer."""
    from mechbench.benchmarks.hand_calc.answers import judge
    from mechbench.benchmarks.hand_calc.items import Item

    totals: dict[int, tuple[int, int]] = {}
    for key in sorted((out / "keys").glob("L*-*.json")):
        level = int(key.name.split("-")[0][1:])
        item = Item.model_validate_json(key.read_text())
        answer = out / f"L{level}" / "answers" / f"{item.id}.txt"
        reply = answer.read_text() if answer.exists() else ""
        verdicts = judge(reply, item.quantities)
        right, asked = totals.get(level, (0, 0))
        totals[level] = (right + sum(v.correct for v in verdicts), asked + len(verdicts))
        for v in verdicts:
            print(f"L{level} {item.id} {item.family:12} {v.key:10} {'ok ' if v.correct else 'NO '} {v.reason}")
    return totals


def write_structural(out: Path, levels: list[int], n: int, seed: int) -> None:
    """Tasks of each level in the official layout, and beside them what the model is shown (drawing, prompt)."""
    from mechbench.benchmarks.structural_eval.generated_set import write_structural as write
    from mechbench.benchmarks.structural_eval.prompts import task_prompt

    for level in levels:
        data = out / "keys" / f"L{level}"
        write(data, n, seed + level, level, diagrams=False, executor="local", workers=1)
        folder = out / f"L{level}"
        (folder / "answers").mkdir(parents=True, exist_ok=True)
        for image in sorted((data / "data" / "images").glob("*.png")):
            shutil.copy(image, folder / image.name)
            (folder / f"{image.stem}.txt").write_text(task_prompt("standard") + "\n")


def score_structural(out: Path) -> dict[int, tuple[int, int]]:
    """(full marks, tasks) per level, judged by StructuralEval's checker."""
    from mechbench.benchmarks.structural_eval.check import check_reply
    from mechbench.benchmarks.structural_eval.scoring import solve_response
    from mechbench.frame import FrameModel

    totals: dict[int, tuple[int, int]] = {}
    for folder in sorted((out / "keys").glob("L*")):
        level = int(folder.name[1:])
        for truth in sorted((folder / "data" / "raw_models").glob("*.json")):
            answer = out / folder.name / "answers" / f"{truth.stem}.txt"
            reply = answer.read_text() if answer.exists() else ""
            model = FrameModel.parse(json.loads(truth.read_text()))
            verdict = check_reply(reply, model, solve_response(model), tolerance=0.05, scoring="strict")
            right, asked = totals.get(level, (0, 0))
            totals[level] = (right + (verdict.ratio >= 1.0), asked + 1)
            print(f"L{level} {truth.stem:12} ratio {verdict.ratio:.2f} {verdict.explanation[:150]}")
    return totals


def main() -> None:
    """The command line (module docs)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["write", "score", "adaptive"])
    parser.add_argument("benchmark", choices=["hand_calc", "structural_eval"])
    parser.add_argument("out", type=Path, nargs="+")
    parser.add_argument("--levels", default="6-10")
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--seed", type=int, default=700)
    args = parser.parse_args()
    if args.action == "write":
        writer = write_hand_calc if args.benchmark == "hand_calc" else write_structural
        writer(args.out[0], _levels(args.levels), args.n, args.seed)
        return
    if args.action == "adaptive":
        if args.benchmark != "hand_calc":
            parser.error("the adaptive replay is HandCalc's (-T adaptive=true)")
        shares: dict[int, list[float]] = {}
        for out in args.out:
            for level, found in item_shares(out).items():
                shares.setdefault(level, []).extend(found)
        for level, found in sorted(shares.items()):
            print(f"recorded level {level}: {len(found)} items, mean share right {sum(found) / len(found):.2f}")
        trail = replay_adaptive(shares)
        for step, (level, share, theta, se) in enumerate(trail):
            print(f"step {step:2}: level {level:2} share {share:.2f} -> ability {theta:.2f} (se {se:.2f})")
        from mechbench.benchmarks.hand_calc.adaptive import estimate

        found = estimate([(level, share) for level, share, _, _ in trail])
        interval = f"95 % interval [{found.low:.2f}, {found.high:.2f}]"
        print(f"replayed ability {found.theta:.2f}, {interval}, {found.items} items")
        for name, (theta, low, high) in builtin_abilities().items():
            print(f"mechbench/{name}: ability {theta:.2f}, 95 % interval [{low:.2f}, {high:.2f}] (30 fresh items)")
        return
    totals = (score_hand_calc if args.benchmark == "hand_calc" else score_structural)(args.out[0])
    for level, (right, asked) in sorted(totals.items()):
        print(f"level {level}: {right}/{asked} = {right / asked:.2f}")


if __name__ == "__main__":
    main()
