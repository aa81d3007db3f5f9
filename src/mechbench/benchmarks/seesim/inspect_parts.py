"""SeeSim in Inspect: samples, the frame-by-frame video solver, the scorer and the benchmark's metrics."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, Content, ContentImage, ContentText, ContentVideo, get_model
from inspect_ai.scorer import Metric, SampleScore, Score, Target, metric, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver

from mechbench.benchmarks.seesim.dataset import Item
from mechbench.benchmarks.seesim.parse import FALLBACK_RULES, Parser, majority, parse_answer
from mechbench.benchmarks.seesim.protocol import CLUSTER, DOMAINS, PAIRS, QUESTION_TEMPLATE, VALIDATION
from mechbench.benchmarks.seesim.video import extract_frames
from mechbench.harness.reliability import generate_checked, model_generate_checked
from mechbench.harness.replies import budget_exhausted, budget_note, split_reply

FRAMES_KEY = "seesim_frame_answers"


def _question(item: Item) -> str:
    return QUESTION_TEMPLATE.format(question=item.question)


def shortcut_context(item: Item) -> dict[str, Any]:
    """What the built-in shortcut models read (message metadata, never sent to a model): the question's id and the
    report whose lines the media's details box prints."""
    return {"seesim_qid": item.qid, "seesim_domain": item.domain, "seesim_report": item.report}


def frame_message(frame: str | Path, item: Item) -> ChatMessageUser:
    """One frame (inlined as a data URI: messages built in a solver are not materialised by Inspect)
    and the question, as for an image."""
    image = "data:image/jpeg;base64," + base64.b64encode(Path(frame).read_bytes()).decode("ascii")
    content: list[Content] = [ContentImage(image=image), ContentText(text=_question(item))]
    return ChatMessageUser(content=content, metadata=shortcut_context(item))


def to_sample(item: Item, modality: str, video_mode: str, fps: float, max_frames: int | None) -> Sample:
    """The guidelines' prompt: the media, a blank line, the question, a blank line, the instruction."""
    metadata: dict[str, Any] = {
        "benchmark": "seesim",
        **item.model_dump(),
        "modality": modality,
        CLUSTER.key: f"{item.domain}/{item.file}",
    }
    if modality == "text":
        report = Path(item.media).read_text(encoding="utf-8", errors="replace")
        content: list[Content] | str = f"{report}\n\n{_question(item)}"
    elif modality == "image":
        content = [ContentImage(image=item.media), ContentText(text=_question(item))]
    elif video_mode == "native":
        media: Content = (
            ContentVideo(video=item.media, format="mp4")  # type: ignore[arg-type]
            if item.media.endswith(".mp4")
            else ContentImage(image=item.media)  # an animated GIF goes to the model as an image
        )
        content = [media, ContentText(text=_question(item))]
    else:
        frames = [str(p) for p in extract_frames(Path(item.media), fps, max_frames)]
        metadata["frames"] = frames
        content = [ContentImage(image=frames[0]), ContentText(text=_question(item))]
    return Sample(
        id=f"{item.domain}/{item.file}/{item.qid}",
        input=[ChatMessageUser(content=content, metadata=shortcut_context(item))],
        target="True" if item.answer else "False",
        metadata=metadata,
    )


def to_dataset(items: list[Item], modality: str, video_mode: str, fps: float, max_frames: int | None) -> MemoryDataset:
    """One sample per (file, question)."""
    return MemoryDataset([to_sample(i, modality, video_mode, fps, max_frames) for i in items], name="seesim")


@solver
def seesim_solver(parser: Parser = "published") -> Solver:
    """Ask once; for video as frames, ask once per frame (each frame as an image) and keep every answer."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        frames = state.metadata.get("frames")
        if not frames:
            return await generate_checked(state, generate)
        item = Item.model_validate({k: state.metadata[k] for k in Item.model_fields})
        model = get_model()
        answers = []
        for frame in frames:
            output = await model_generate_checked(model, [frame_message(frame, item)])
            reply = split_reply(output.completion)
            parsed = parse_answer(reply.answer, parser)
            exhausted = budget_exhausted(output, reply)
            answers.append(
                {
                    "frame": Path(frame).name,
                    "reply": output.completion,
                    "answer": None if exhausted else parsed.answer,
                    "rule": None if exhausted else parsed.rule,
                    "budget_exhausted": exhausted,
                }
            )
            state.output = output
        state.store.set(FRAMES_KEY, answers)
        return state

    return solve


def _answers(scores: list[SampleScore]) -> dict[tuple[str, str, str], tuple[bool | None, bool]]:
    out = {}
    for s in scores:
        meta = s.score.metadata or {}
        out[(meta["domain"], meta["file"], meta["qid"])] = (meta["answer"], meta["truth"])
    return out


def consistency(answers: dict[tuple[str, str, str], tuple[bool | None, bool]]) -> tuple[int, int]:
    """(consistent, evaluated) pairs.

    A pair is consistent when the model answered both questions and its two answers stand in the same
    relation (equal or opposite) as the ground-truth answers for that file. Pairs whose two questions
    were not both asked are not evaluated.
    """
    consistent = evaluated = 0
    files = {(d, f) for d, f, _ in answers}
    for domain, file in files:
        for q1, q2 in PAIRS[domain]:
            if (domain, file, q1) not in answers or (domain, file, q2) not in answers:
                continue
            (a1, t1), (a2, t2) = answers[(domain, file, q1)], answers[(domain, file, q2)]
            evaluated += 1
            consistent += a1 is not None and a2 is not None and (a1 == a2) == (t1 == t2)
    return consistent, evaluated


@metric
def seesim_metrics() -> Metric:
    """Accuracy overall, by domain and by file; logical consistency; validation accuracy; unparsable count."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        if not scores:
            return {}
        answers = _answers(scores)
        correct = {key: a is not None and a == t for key, (a, t) in answers.items()}
        out: dict[str, float] = {"accuracy": sum(correct.values()) / len(correct)}
        for domain in DOMAINS:
            mine = [c for (d, _, _), c in correct.items() if d == domain]
            if mine:
                out[f"accuracy_{domain}"] = sum(mine) / len(mine)
        for domain, file in sorted({(d, f) for d, f, _ in correct}, key=lambda x: (x[0], int(x[1].split("_")[1]))):
            mine = [c for (d, f, _), c in correct.items() if (d, f) == (domain, file)]
            out[f"{domain}_{file}"] = sum(mine) / len(mine)
        good, evaluated = consistency(answers)
        if evaluated:
            out["consistency"] = good / evaluated
        validation = [c for (d, _, q), c in correct.items() if q in VALIDATION[d]]
        if validation:
            out["validation_accuracy"] = sum(validation) / len(validation)
        exhausted = sum(bool((s.score.metadata or {}).get("budget_exhausted")) for s in scores)
        out["unparsable"] = float(sum(a is None for a, _ in answers.values()) - exhausted)
        out["budget_exhausted"] = float(exhausted)
        out["fallback"] = sum(bool((s.score.metadata or {}).get("repaired")) for s in scores) / len(scores)
        return out

    return compute


@scorer(metrics=[seesim_metrics(), stderr(cluster=CLUSTER.key)])
def seesim_scorer(parser: Parser = "published") -> Any:
    """Right or wrong by the published parsing rules (or, ``strict``, only an explicit True or False); video frames
    decided by majority vote. Each score records the rule that decided it and whether it was a fallback."""

    async def score(state: TaskState, target: Target) -> Score:
        truth = state.metadata["answer"]
        frames = state.store.get(FRAMES_KEY)
        if frames:
            answer = majority([f["answer"] for f in frames])
            exhausted = answer is None and all(f.get("budget_exhausted") for f in frames)
            how = f"majority of {len(frames)} frames" + (" (tie: no answer)" if answer is None else "")
            rule = None
            fallback = any(f.get("rule") in FALLBACK_RULES for f in frames)
        else:
            # The answer is read after any inline reasoning (the log keeps the whole reply).
            reply = split_reply(state.output.completion)
            exhausted = budget_exhausted(state.output, reply)
            parsed = parse_answer(reply.answer, parser)
            answer, rule = (None, None) if exhausted else (parsed.answer, parsed.rule)
            fallback = not exhausted and parsed.fallback
            if parser == "strict":
                how = "named it" if answer is not None else "strict parser: the reply names neither True nor False"
            else:
                how = f"rule {rule}" + (", a fallback: the reply names neither" if fallback else "")
                how = how if rule else "exact tie between 't' and 'f': no answer"
        if exhausted:
            how = f"the output limit ran out before an answer {budget_note(state.output)}"
        label = {True: "True", False: "False", None: "budget exhausted" if exhausted else "unparsable"}[answer]
        return Score(
            value=1.0 if answer is not None and answer == truth else 0.0,
            answer=label,
            explanation=f"answered {label} ({how}); the truth is {truth}",
            metadata={
                "domain": state.metadata["domain"],
                "file": state.metadata["file"],
                "qid": state.metadata["qid"],
                "answer": answer,
                "truth": truth,
                "rule": rule,
                "parser": parser,
                "repaired": fallback,
                "unreadable": answer is None and not exhausted,
                "budget_exhausted": exhausted,
                "frames": frames,
            },
        )

    return score
