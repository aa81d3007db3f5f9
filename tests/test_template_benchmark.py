"""A new benchmark is one folder: the template benchmark (``examples/benchmark_template/beam_deflection``), copied
into a copy of the repository with no other edit and committed as a contributor's first commit, is run, reported,
demonstrated, generated, checked and layered by every part of mechbench; the suite's benchmark-generic tests pass
with it; and ``mechbench check`` names the fix of each mistake a contributor makes.

Beside it, a contributor's own benchmark made from the template as docs/contributing.md says: copied under a new name
(``propped_cantilever``), its names replaced, and only its items and physics changed (``items.py``'s structure and
support). It passes the same checks, its demo runs its shortcut panel as one run, and its built-in ``textbook`` model
answers from each item's metadata."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mechbench.cli.listing import GENERATED
from tests import forked_command as forked
from tests.generic import GENERIC_TESTS

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
TEMPLATE = REPO / "examples" / "benchmark_template" / "beam_deflection"
FOLDER = "src/mechbench/benchmarks/beam_deflection"
OWN = "propped_cantilever"
OWN_FOLDER = f"src/mechbench/benchmarks/{OWN}"


def _repository_files() -> list[str]:
    """The files of the working tree as git sees them (tracked, and untracked but not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return [name for name in listed.stdout.splitlines() if (REPO / name).is_file()]


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` but Python's byte-code caches (an import writes them; they are no edit)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.relative_to(root).parts
    }


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = forked.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (
        f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
    )
    return done.stdout + done.stderr


def _own_benchmark(folder: Path) -> None:
    """The template under a new name with its own physics: every name replaced, then ``items.py``'s structure (how
    the prompt opens) and left support changed: a propped cantilever, fixed at the left end."""
    shutil.copytree(TEMPLATE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    for path in (p for p in folder.rglob("*") if p.is_file()):
        text = path.read_text().replace("beam_deflection", OWN).replace("BeamDeflection", "ProppedCantilever")
        path.write_text(text)
    items = folder / "items.py"
    text = items.read_text()
    physics = {
        'STRUCTURE = "A simply supported beam (pin at the left end, roller at the right end)"': (
            'STRUCTURE = "A propped cantilever (fixed at the left end, roller at the right end)"'
        ),
        'LEFT_SUPPORT = "pin"': 'LEFT_SUPPORT = "fixed"',
    }
    for old, new in physics.items():
        assert old in text, f"the template's items.py no longer holds {old!r}"
        text = text.replace(old, new)
    items.write_text(text)


def _commit(copy: Path, message: str) -> None:
    git = ["git", "-c", "user.name=contributor", "-c", "user.email=c@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "add", "-A"], cwd=copy, check=True, capture_output=True)
    subprocess.run([*git, "commit", "-q", "-m", message], cwd=copy, check=True, capture_output=True)


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git checkout of the repository as it is, then the template copied in and committed: no other edit."""
    copy = tmp_path_factory.mktemp("template") / "mechbench"
    for name in _repository_files():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, copy / name)
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)
    _commit(copy, "mechbench as it is")
    before = _tree(copy)
    shutil.copytree(TEMPLATE, copy / FOLDER, ignore=shutil.ignore_patterns("__pycache__"))
    _own_benchmark(copy / OWN_FOLDER)
    # The one step outside the folder that docs/architecture.md asks for: the generated lists of the docs.
    in_copy = {**os.environ, "PYTHONPATH": str(copy / "src")}
    subprocess.run([sys.executable, "scripts/sync_docs.py"], cwd=copy, env=in_copy, check=True, capture_output=True)
    after = _tree(copy)
    changed = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    outside = {name for name in changed if not name.startswith((FOLDER + "/", OWN_FOLDER + "/"))}
    assert changed - outside and outside == {"README.md", "docs/reference.md", "docs/validity.md"}
    for page in outside:  # only their generated lists: no other edit outside the folder
        unlisted = [GENERATED.sub("", text.decode()) for text in (before[page], after[page])]
        assert unlisted[0] == unlisted[1], page
    _commit(copy, "A new benchmark: beam_deflection")
    return copy


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    environment = {
        **os.environ,
        "MECHBENCH_CACHE": str(tmp_path_factory.mktemp("cache")),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    environment.pop("PYTHONPATH", None)
    yield environment
    forked.close_others()  # the virtual environment's zygote, done with


@pytest.mark.long
def test_a_benchmark_copied_in_as_one_folder_is_picked_up_everywhere(
    copy: Path, env: dict[str, str], tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python, mechbench = venv / "bin" / "python", venv / "bin" / "mechbench"
    if sys.prefix != sys.base_prefix:  # run from a virtual environment: its packages, not the base's, are the deps
        (site_dir,) = (venv / "lib").glob("python*/site-packages")
        added = "; ".join(f"site.addsitedir({folder!r})" for folder in site.getsitepackages())
        (site_dir / "mechbench-test-deps.pth").write_text(f"import site; {added}\n")
    # The wheel a user of the copy gets (built here without build isolation: the dev extras hold setuptools and
    # wheel), installed into a fresh environment that sees mechbench's dependencies but not its checkout.
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", "dist", str(copy)]
    _run(build, tmp_path, env)
    (wheel,) = (tmp_path / "dist").glob("mechbench-*.whl")
    _run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], tmp_path, env)
    work = tmp_path / "work"
    work.mkdir()

    listed = _run([str(mechbench), "list"], work, env)
    assert "mechbench/beam_deflection: BeamDeflection" in listed and f"mechbench/{OWN}: ProppedCantilever" in listed
    _run([str(mechbench), "eval", "beam_deflection", "--model", "mechbench/random", "--log-dir", "logs"], work, env)
    inspect = [str(python), "-m", "inspect_ai", "eval", "mechbench/beam_deflection", "-T", "oracle=true"]
    _run([*inspect, "--model", "mockllm/model", "--log-dir", "logs", "--display", "none"], work, env)
    _run([str(mechbench), "report", "logs", "-o", "report"], work, env)
    report = (work / "report" / "report.md").read_text()
    assert "BeamDeflection" in report and "mechbench/random" in report and "oracle" in report
    demo = _run([str(mechbench), "demo", "--only", f"beam_deflection,{OWN}", "-o", "demo"], work, env)
    assert "BeamDeflection" in demo and "ProppedCantilever" in demo
    assert (work / "demo" / "report" / "report.html").is_file()
    _the_panel_ran_as_one_and_textbook_read_the_metadata(work / "demo" / "logs", copy / OWN_FOLDER)
    _run([str(mechbench), "generate", "beam_deflection", "-o", "beams", "--n", "5", "--seed", "3"], work, env)
    _run([str(mechbench), "eval", "beam_deflection", "-T", "data=beams", "--model", "mechbench/zero"], work, env)
    for name in ("beam_deflection", OWN):
        checked = _run([str(mechbench), "check", name], work, env)
        assert "FAIL" not in checked and checked.count("ok ") == 8, checked

    # The layers hold with the new benchmark in them (the contracts are the copy's own pyproject, unedited).
    lint = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    linted = _run([str(python), "-c", lint], copy, env)
    assert "Contracts: 3 kept, 0 broken" in linted


def _the_panel_ran_as_one_and_textbook_read_the_metadata(logs: Path, folder: Path) -> None:
    """The copy's demo ran its three shortcut models in one run, and ``textbook`` answered every item with the
    cantilever formula evaluated on that item's own numbers (its metadata: it parses no words)."""
    from inspect_ai.log import read_eval_log

    from mechbench.harness.panel import PANEL_KEY, member_views

    runs = [read_eval_log(str(path)) for path in logs.glob("*.eval")]
    panels = [log for log in runs if log.eval.task.endswith(OWN) and PANEL_KEY in (log.eval.metadata or {})]
    assert len(panels) == 1, [(log.eval.task, log.eval.model) for log in runs]
    views = {view.eval.model: view for view in member_views(panels[0])}
    assert set(views) == {"mechbench/random", "mechbench/zero", "mechbench/textbook"}
    items = {
        line["id"]: line for line in map(json.loads, (folder / "bundled" / "items.jsonl").read_text().splitlines())
    }
    answered = {s.id: float(next(iter(s.scores.values())).answer) for s in views["mechbench/textbook"].samples or []}
    assert set(answered) == set(items)
    for key, item in items.items():
        span, ei, value = item["span"], item["ei"], item["value"]
        metres = value * span**3 / (3 * ei) if item["load"] == "point" else value * span**4 / (8 * ei)
        assert answered[key] == pytest.approx(metres * 1000, rel=1e-3), key


@pytest.mark.long
def test_the_suites_generic_tests_pass_and_check_names_each_mistakes_fix(copy: Path, env: dict[str, str]) -> None:
    """The copy's own tests, run from its checkout: the benchmark-generic ones on the new benchmark, and the mistakes a
    contributor makes, each failing ``mechbench check`` with the fix in its message."""
    in_copy = {**env, "PYTHONPATH": str(copy / "src")}  # the copy's source, a git checkout, before the installed one
    selected = [*GENERIC_TESTS, "tests/template_copy/check_mistakes.py"]
    chosen = f"beam_deflection or {OWN} or mistakes"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", chosen]
    printed = _run([*command, *selected], copy, in_copy)
    passed = int(printed.rsplit(" passed", 1)[0].rsplit("\n", 1)[-1].split()[-1])
    assert passed >= 2 * len(GENERIC_TESTS) + 6 and " failed" not in printed and "error" not in printed.lower(), printed
