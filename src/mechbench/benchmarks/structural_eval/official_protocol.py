"""StructuralEval's official protocol, read at run time from the official copy (``-T protocol=official``).

The leaderboard rows were produced by the maintainers' runner (``run_eval.py``) with the prompts of
``src/prompts.py``. To compare a new model with those rows, mechbench sends exactly those texts — and copies
none of them: both files are parsed as data (Python's ``ast``, never executed) from the copy mechbench
downloaded or the folder the user pointed to:

- ``src/prompts.py``: ``PROMPT_REGISTRY``, a dict from style name to a prompt (a module-level string constant
  or a literal), sent as the **system** message;
- ``run_eval.py``: the user instruction sent with the image (the ``{"type": "text", "text": ...}`` part), the
  feedback assigned to ``error_feedback`` (no JSON, solver error, unstable structure, syntax error, a wrong
  result with its diagnosis), the four diagnostic findings that ``diagnose_failure`` returns with their
  partial scores (0, 0.25, 0.5, 0.75), and the retry message that wraps the feedback (``Error: … Fix the
  JSON.``), and the runner's own temperatures for the record.

A copy that lacks any of them is a :class:`DataSourceError` naming what is missing.
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from mechbench.benchmarks.structural_eval.scoring import LADDER
from mechbench.core.errors import DataSourceError
from mechbench.core.limits import MAX_SOURCE_TEXT_BYTES
from mechbench.sources.files import read_data_text

PROMPTS_FILE = "src/prompts.py"
RUNNER_FILE = "run_eval.py"
# The diagnostic findings by the partial score diagnose_failure returns with them (mechbench's ladder steps).
FINDING_BY_SCORE = {credit: step for step, credit in LADDER.items() if step != "correct"}
# error_feedback assignments: f-strings are told apart by the name they interpolate, plain strings by order.
FORMATTED_FEEDBACK = {"solver_error": "solver_error", "diag_feedback": "diagnosis", "e": "syntax_error"}
PLAIN_FEEDBACK = ("no_json", "unstable", "wrong_without_truth")


@dataclass(frozen=True)
class OfficialProtocol:
    """The official texts, as format templates (``{error}``, ``{diagnosis}``, ``{feedback}``)."""

    system_prompts: dict[str, str]
    user_text: str
    feedback: dict[str, str]
    findings: dict[str, str]
    retry: str
    runner_temperatures: tuple[float, float] | None
    sources: dict[str, str] = field(default_factory=dict)
    """File → sha256 of the text the protocol was read from (recorded in the log)."""

    def system_prompt(self, style: str) -> str:
        if style not in self.system_prompts:
            raise DataSourceError(
                f"the official prompts have no style {style!r}; they have {', '.join(sorted(self.system_prompts))}"
            )
        return self.system_prompts[style]

    def retry_message(self, outcome: str, detail: str, step: str | None) -> str:
        """The user message after a failed attempt, as the official runner words it."""
        if outcome == "wrong":
            text = self.feedback["diagnosis"].format(diagnosis=self.findings.get(step or "", detail))
        elif outcome == "unstable":
            text = self.feedback["unstable"]
        elif outcome == "invalid_model":
            text = self.feedback["solver_error"].format(error=detail)
        elif "no JSON object" in detail or "empty" in detail:
            text = self.feedback["no_json"]
        else:
            text = self.feedback["syntax_error"].format(error=detail)
        return self.retry.format(feedback=text)


def _template(node: ast.JoinedStr) -> tuple[str, list[str]]:
    """An f-string as a str.format template with one field name per interpolated name."""
    parts, names = [], []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value.replace("{", "{{").replace("}", "}}"))
        elif isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name):
            names.append(value.value.id)
            parts.append("{" + value.value.id + "}")
        else:
            raise DataSourceError(f"{RUNNER_FILE}: an f-string part mechbench cannot read as data")
    return "".join(parts), names


def _parse(root: Path, name: str) -> tuple[ast.Module, str]:
    path = root / name
    if not path.is_file():
        raise DataSourceError(f"the official copy at {root} has no {name}: protocol=official reads its texts from it")
    text = read_data_text(path, limit=MAX_SOURCE_TEXT_BYTES)  # read as data, never run: a source file is small
    try:
        return ast.parse(text, filename=name), hashlib.sha256(text.encode()).hexdigest()
    except (SyntaxError, ValueError) as error:
        raise DataSourceError(f"{name} in {root} cannot be parsed: {error}") from None
    except (RecursionError, MemoryError):
        raise DataSourceError(f"{name} in {root} cannot be parsed: it nests too deeply") from None


def _system_prompts(module: ast.Module) -> dict[str, str]:
    constants: dict[str, str] = {}
    registry: ast.Dict | None = None
    for node in module.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target, value = node.targets[0].id, node.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                constants[target] = value.value
            elif target == "PROMPT_REGISTRY" and isinstance(value, ast.Dict):
                registry = value
    if registry is None:
        raise DataSourceError(f"{PROMPTS_FILE} defines no PROMPT_REGISTRY dict")
    prompts = {}
    for key, value in zip(registry.keys, registry.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            continue
        if isinstance(value, ast.Name) and value.id in constants:
            prompts[key.value] = constants[value.id]
        elif isinstance(value, ast.Constant) and isinstance(value.value, str):
            prompts[key.value] = value.value
    if not prompts:
        raise DataSourceError(f"{PROMPTS_FILE}: PROMPT_REGISTRY holds no prompt mechbench can read as data")
    return prompts


def _runner_texts(module: ast.Module) -> dict[str, object]:
    found: dict[str, object] = {"feedback": {}, "findings": {}}
    plain: list[str] = []
    for node in ast.walk(module):
        if isinstance(node, ast.Dict):
            items = {k.value: v for k, v in zip(node.keys, node.values, strict=True) if isinstance(k, ast.Constant)}
            text, kind, role, content = items.get("text"), items.get("type"), items.get("role"), items.get("content")
            if isinstance(kind, ast.Constant) and kind.value == "text" and isinstance(text, ast.Constant):
                found.setdefault("user_text", text.value)
            if isinstance(role, ast.Constant) and role.value == "user" and isinstance(content, ast.JoinedStr):
                template, names = _template(content)
                if names == ["error_feedback"]:
                    found["retry"] = template.replace("{error_feedback}", "{feedback}")
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "error_feedback" for t in node.targets
        ):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) and node.value.value:
                plain.append(node.value.value)
            elif isinstance(node.value, ast.JoinedStr):
                template, names = _template(node.value)
                if len(names) == 1 and names[0] in FORMATTED_FEEDBACK:
                    key = FORMATTED_FEEDBACK[names[0]]
                    field_name = "diagnosis" if key == "diagnosis" else "error"
                    found["feedback"][key] = template.replace("{" + names[0] + "}", "{" + field_name + "}")  # type: ignore[index]
        elif isinstance(node, ast.FunctionDef) and node.name == "diagnose_failure":
            for ret in ast.walk(node):
                value = ret.value if isinstance(ret, ast.Return) else None
                if isinstance(value, ast.Tuple) and len(value.elts) == 2:
                    score, text = value.elts
                    if isinstance(score, ast.Constant) and isinstance(text, ast.Constant):
                        step = FINDING_BY_SCORE.get(float(score.value))
                        if step:
                            found["findings"][step] = text.value  # type: ignore[index]
        elif isinstance(node, ast.IfExp) and all(
            isinstance(x, ast.Constant) and isinstance(x.value, float) for x in (node.body, node.orelse)
        ):
            found.setdefault("runner_temperatures", (node.body.value, node.orelse.value))  # type: ignore[attr-defined]
    found["feedback"].update(zip(PLAIN_FEEDBACK, plain, strict=False))  # type: ignore[attr-defined]
    return found


def read_protocol(root: str | Path) -> OfficialProtocol:
    """The official protocol from the official copy at ``root`` (the folder holding ``run_eval.py``)."""
    root = Path(root)
    prompts_module, prompts_hash = _parse(root, PROMPTS_FILE)
    runner_module, runner_hash = _parse(root, RUNNER_FILE)
    try:
        texts = _runner_texts(runner_module)
    except (RecursionError, MemoryError):
        raise DataSourceError(f"{RUNNER_FILE} in {root} cannot be read: it nests too deeply") from None
    feedback, findings = texts["feedback"], texts["findings"]
    missing = [f"{RUNNER_FILE}: {what}" for what in ("user_text", "retry") if what not in texts]
    missing += [f"{RUNNER_FILE}: feedback {k}" for k in (*FORMATTED_FEEDBACK.values(), *PLAIN_FEEDBACK[:2])
                if k not in feedback]  # type: ignore[operator]  # fmt: skip
    missing += [f"{RUNNER_FILE}: diagnostic finding {s}" for s in FINDING_BY_SCORE.values() if s not in findings]  # type: ignore[operator]
    if missing:
        raise DataSourceError(f"the official copy at {root} lacks what protocol=official needs: {'; '.join(missing)}")
    return OfficialProtocol(
        system_prompts=_system_prompts(prompts_module),
        user_text=str(texts["user_text"]),
        feedback=dict(feedback),  # type: ignore[arg-type]
        findings=dict(findings),  # type: ignore[arg-type]
        retry=str(texts["retry"]),
        runner_temperatures=texts.get("runner_temperatures"),  # type: ignore[arg-type]
        sources={PROMPTS_FILE: prompts_hash, RUNNER_FILE: runner_hash},
    )
