"""OpenSeeSimE in Inspect: samples (image, or 8 frames centred on the video's middle), the scorer, its metrics."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, Content, ContentImage, ContentText
from inspect_ai.scorer import Metric, SampleScore, Score, Target, metric, scorer, stderr
from inspect_ai.solver import TaskState

from mechbench.benchmarks.openseesime.dataset import Question
from mechbench.benchmarks.openseesime.protocol import CLUSTER, VIDEO_FRAMES, letter, parse_choice, prompt
from mechbench.benchmarks.seesim.video import centred_frames
from mechbench.harness.replies import budget_exhausted, budget_note, split_reply


def to_sample(question: Question, domain: str) -> Sample:
    """The media, then the question with its lettered choices; the target is the correct letter."""
    if question.media_type == "video":
        media: list[Content] = [ContentImage(image=str(p)) for p in centred_frames(Path(question.media), VIDEO_FRAMES)]
    else:
        media = [ContentImage(image=question.media)]
    return Sample(
        id=f"{domain}/{question.file_name or question.source_file}/{question.question_id}",
        input=[ChatMessageUser(content=[*media, ContentText(text=prompt(question.question, question.answer_choices))])],
        target=letter(question.correct_choice_idx),
        metadata={
            "benchmark": "openseesime",
            "domain": domain,
            **question.model_dump(exclude={"media"}),
            CLUSTER.key: f"{domain}/{question.source_file or question.file_name}",
        },
    )


def to_dataset(questions: list[Question], domain: str) -> MemoryDataset:
    """The questions as one dataset; a repeated (file, question) id keeps its position as a suffix."""
    samples, seen = [], defaultdict(int)
    for question in questions:
        sample = to_sample(question, domain)
        seen[str(sample.id)] += 1
        if seen[str(sample.id)] > 1:
            sample.id = f"{sample.id}#{seen[str(sample.id)]}"
        samples.append(sample)
    return MemoryDataset(samples, name=f"openseesime-{domain}")


@metric
def openseesime_metrics() -> Metric:
    """Accuracy overall and per question type; the shares of replies with no choice and cut off by the limit."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        if not scores:
            return {}
        by_type: dict[str, list[float]] = defaultdict(list)
        for s in scores:
            by_type[str((s.score.metadata or {}).get("question_type"))].append(s.score.as_float())
        out = {"accuracy": sum(s.score.as_float() for s in scores) / len(scores)}
        for kind, values in sorted(by_type.items()):
            out[f"accuracy_{kind}"] = sum(values) / len(values)
        outcomes = [(s.score.metadata or {}).get("outcome") for s in scores]
        out["no_answer"] = outcomes.count("no_answer") / len(scores)
        out["budget_exhausted"] = outcomes.count("budget_exhausted") / len(scores)
        return out

    return compute


@scorer(metrics=[openseesime_metrics(), stderr(cluster=CLUSTER.key)])
def openseesime_scorer():
    """Right when the first line names the correct choice."""

    async def score(state: TaskState, target: Target) -> Score:
        meta = state.metadata
        reply = split_reply(state.output.completion)
        choice = parse_choice(reply.answer, meta["answer_choices"])
        exhausted = choice.index is None and budget_exhausted(state.output, reply)
        outcome = "budget_exhausted" if exhausted else "no_answer" if choice.index is None else "answered"
        answer = letter(choice.index) if choice.index is not None else None
        if exhausted:
            explanation = f"budget exhausted before an answer {budget_note(state.output)}"
        elif answer is None:
            explanation = f"no choice on the first line ({choice.line[:80]!r})"
        else:
            explanation = f"answered {answer}; correct {target.text}"
        return Score(
            value=1.0 if answer == target.text else 0.0,
            answer=answer,
            explanation=explanation,
            metadata={
                "question_type": meta["question_type"],
                "choices": len(meta["answer_choices"]),
                "outcome": outcome,
                "unreadable": outcome == "no_answer",
                "repaired": False,  # a letter or a choice's exact text: nothing is guessed
                "first_line": choice.line[:200],
            },
        )

    return score
