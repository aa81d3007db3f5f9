"""``mechbench solve`` and ``mechbench render``: the frame solver and the drawing on a FrameCalc model."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from mechbench.core.errors import MechbenchError
from mechbench.harness.commands import fail, output_file, read_json


def register(app: typer.Typer) -> None:
    """Add ``solve`` and ``render`` to the command line."""
    app.command()(solve)
    app.command()(render)


def solve(
    model: Annotated[Path, typer.Argument(help="FrameCalc model (JSON).")],
    diagrams: Annotated[bool, typer.Option("--diagrams/--no-diagrams", help="Include N/V/M diagrams.")] = True,
    exact_supports: Annotated[
        bool, typer.Option("--exact-supports", help="Exact restraints instead of FrameCalc's 1e12 springs.")
    ] = False,
) -> None:
    """Solve a FrameCalc model: print reactions and N/V/M diagrams as JSON on stdout."""
    from mechbench.frame import solve as solve_model

    data = read_json(model, "model")
    try:
        result = solve_model(data, diagrams=diagrams, exact_supports=exact_supports)
    except MechbenchError as error:
        fail(f"{model}: {error}")
    sys.stdout.write(result_json(result))
    sys.stdout.write("\n")


def result_json(result: dict) -> str:
    """A solve result as JSON; the diagram list FrameCalc repeats under three keys is encoded once.

    ``json.dump`` to a stream runs the pure-Python encoder (minutes for a model at the size limits); one
    ``json.dumps`` call runs the C encoder.
    """
    shared = result.get("moment")
    if shared is None:
        return json.dumps(result)
    rest = {k: v for k, v in result.items() if k not in ("axial", "shear", "moment")}
    samples = json.dumps(shared)
    return json.dumps(rest)[:-1] + f', "axial": {samples}, "shear": {samples}, "moment": {samples}' + "}"


def render(
    model: Annotated[Path, typer.Argument(help="FrameCalc model (JSON).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="PNG file to write.")],
    title: Annotated[str | None, typer.Option(help="Title above the drawing.")] = None,
    dimensions: Annotated[bool, typer.Option("--dimensions/--no-dimensions", help="Dimension chains.")] = True,
) -> None:
    """Draw a FrameCalc model as a textbook-style PNG."""
    from mechbench.frame.render import render as render_model

    output_file(output, "-o")
    data = read_json(model, "model")
    try:
        render_model(data, output, title=title, dimensions=dimensions)
    except MechbenchError as error:
        fail(f"{model}: {error}")
    except OSError as error:
        fail(f"cannot write {output}: {error.strerror or error}")
    typer.echo(f"wrote {output}")
