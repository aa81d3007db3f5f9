"""mechbench's own StructuralEval prompts (three styles) and the feedback sent after a wrong attempt."""

from __future__ import annotations

from typing import Literal

from mechbench.frame.model import DEFAULT_A, DEFAULT_E, DEFAULT_IZ

PromptStyle = Literal["standard", "reasoning", "strict"]
PROMPT_STYLES: tuple[PromptStyle, ...] = ("standard", "reasoning", "strict")

SCHEMA = f"""Describe the structure in the drawing as a FrameCalc model: one JSON object with four arrays.

Units: lengths and coordinates in m, forces in kN, distributed loads in kN/m, moments in kN·m.
Axes: x to the right, y up. Angles in degrees, counter-clockwise from +x. Moments positive counter-clockwise.

"points": [{{"id": "P1", "x": 0, "y": 0}}, ...]
  Every point must be an end of at least one link.
"links": [{{"id": "L1", "a": "P1", "b": "P2", "E": {DEFAULT_E:.0f}, "A": {DEFAULT_A:.8f}, "Iz": {DEFAULT_IZ:.6e},
           "endA": "rigid", "endB": "rigid"}}, ...]
  A straight member from point a to point b. Use the section values above unless the drawing says otherwise.
  Members meeting at a point are connected there, rigidly unless the drawing shows a hinge. A hinge (internal
  pin, drawn as a small open circle at the joint) is written as "endA": "hinge" or "endB": "hinge" on the link
  end(s) released at that point, never as a support; a truss member pinned at both ends has both ends hinged.
  Do not hinge both ends of every link at a joint that carries a point moment.
"supports": [{{"id": "S1", "at": {{"type": "point", "id": "P1"}}, "kind": "pin", "angleDeg": 0}}, ...]
  kind is one of: "fixed" (no movement, no rotation), "pin" (no movement, free rotation), "roller"
  (holds the point only perpendicular to its rolling surface; angleDeg 0 = resting on horizontal ground),
  "slider" (a guided support: holds movement along the direction angleDeg and the rotation; angleDeg 0 =
  slides vertically).
"loads": a list of
  {{"id": "LD1", "kind": "pointLoad", "at": {{"type": "point", "id": "P2"}}, "value": 10, "angleDeg": 270,
    "angleMode": "world", "flip": 1}}
  {{"id": "LD2", "kind": "pointLoad", "at": {{"type": "link", "id": "L1"}}, "value": 10, "angleDeg": 270,
    "angleMode": "world", "flip": 1, "offsetMode": "m", "offset": 2.0, "refEnd": "A"}}
  {{"id": "LD3", "kind": "distributedLoad", "at": {{"type": "link", "id": "L1"}}, "wStart": 5, "wEnd": 5,
    "fromStart": 0, "fromEnd": 0, "angleDeg": 270, "angleMode": "world", "flip": 1}}
  {{"id": "LD4", "kind": "bendingMoment", "at": {{"type": "point", "id": "P3"}}, "value": 20, "flip": -1}}
  A force points along angleDeg ("world": from +x; "relative": from the link's direction a→b); 270 world is
  straight down. flip is 1 or -1 and multiplies the load. A point load on a link sits offset metres from end
  refEnd ("offsetMode": "percent" with "offsetPercent" also works). A distributed load covers the link from
  fromStart (m from end a) to fromEnd (m before end b), varying linearly from wStart to wEnd.
  A bendingMoment with flip 1 turns counter-clockwise, with flip -1 clockwise."""

_ENDINGS = {
    "standard": "Read every dimension, support, hinge and load from the drawing. Write the model between <json> and "
    "</json> tags.",
    "reasoning": "First reason step by step: list the points with their coordinates, the members, the supports, "
    "the hinges and the loads you see, with every number read from the drawing. Then write the final model between "
    "<json> and </json> tags.",
    "strict": "Reply with the JSON object only: no explanation, no code fence, nothing before or after it.",
}


def task_prompt(style: PromptStyle) -> str:
    """The instruction sent with the drawing."""
    if style not in PROMPT_STYLES:
        raise ValueError(f"prompt must be one of {', '.join(PROMPT_STYLES)}, got {style!r}")
    return f"{SCHEMA}\n\n{_ENDINGS[style]}"


FEEDBACK = {
    "unparsable": "Your reply did not contain a readable JSON model: {detail}.",
    "invalid_model": "The JSON model is not valid: {detail}.",
    "unstable": "The solver rejected the structure: {detail}.",
    "budget_exhausted": "Your reply was cut off by the output limit before it gave a model ({detail}); keep the "
    "reasoning short.",
    "wrong": "The model solves, but its support reactions do not match the structure in the drawing. Diagnosis: "
    "{detail}.",
}


def feedback(kind: str, detail: str) -> str:
    """The single correction request sent after a failed attempt."""
    return (
        FEEDBACK[kind].format(detail=detail)
        + " Look at the drawing again and reply with the complete corrected model in the same format."
    )
