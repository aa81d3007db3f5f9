"""What makes a model distinct in the report, and how it is named.

A run's model is its provider/model name with the model arguments it was given (``-M``, ``log.eval.model_args``):
``mechbench/replay -M file=a.jsonl`` and ``-M file=b.jsonl`` are two recorded models, ``mechbench/random -M seed=1``
and ``-M seed=2`` two draws, and runs that differ in their model arguments are never pooled into one row. Only
arguments about how a request travels (retries, timeouts, connections, credentials) are left out of what a model is,
and credentials are never shown.

A model is named by its name alone where every run of it on a benchmark was given the same arguments; otherwise by
what sets its arguments apart from those of its other runs there (``mechbench/replay (a.jsonl)``,
``mechbench/random (seed=2)``), or by the ``-M name=`` each was given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from mechbench.harness.shown import shown

TRANSPORT_ARGS = frozenset(
    {"max_retries", "timeout", "attempt_timeout", "max_connections", "api_key", "base_url", "organization"}
)
"""Model arguments about how a request travels, not which model answers it: ``mechbench eval`` adds
``max_retries=0`` where plain ``inspect eval`` adds nothing, and the same model through another key is the same
model."""
NAME_ARG = "name"
"""The model argument a user names a model by (``-M name=gpt-4o-2024-08-06`` beside a replay file)."""
FILE_ARG = "file"
"""The model argument naming a file of recorded replies (``mechbench/replay``, ``mechbench/tool-demo``): shown as the
file alone."""
SECRET_WORDS = ("key", "token", "secret", "password", "credential", "auth")
"""Argument names taken for credentials: left out of what a model is, and never shown."""


def _secret(name: str) -> bool:
    return any(word in name.lower() for word in SECRET_WORDS)


def identity_args(args: Mapping[str, Any] | None) -> dict[str, Any]:
    """The model arguments that make a model distinct (those about transport and credentials left out), values fit
    for a report (text cleaned and bounded)."""
    return {
        str(shown(k)): shown(v)
        for k, v in sorted((args or {}).items(), key=lambda item: str(item[0]))
        if str(k) not in TRANSPORT_ARGS and not _secret(str(k))
    }


def model_identity(model: str, args: Mapping[str, Any]) -> str:
    """One text per distinct model: the name, and the identifying arguments where it has any."""
    return model if not args else f"{model} {json.dumps(args, sort_keys=True, default=str, ensure_ascii=False)}"


def _paths(values: set[str]) -> dict[str, str]:
    """Each path by the fewest trailing parts that tell it from the others (``a.jsonl``, ``run2/a.jsonl``)."""
    parts = {v: PurePosixPath(v.replace("\\", "/")).parts or (v,) for v in values}
    out = {}
    for value, own in parts.items():
        for count in range(1, len(own) + 1):
            tail = own[-count:]
            if all(other[-count:] != tail for v, other in parts.items() if v != value):
                out[value] = "/".join(tail)
                break
        else:
            out[value] = value
    return out


def _value(key: str, value: Any, paths: dict[str, str]) -> str:
    if isinstance(value, str) and value in paths:
        return paths[value] if key == FILE_ARG else f"{key}={paths[value]}"
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
    return f"{key}={text}"


def model_labels(models: Mapping[str, tuple[str, dict[str, Any]]]) -> dict[str, str]:
    """identity -> how the model is named in every table, figure and comparison, for ``models`` (identity ->
    (model name, identifying arguments)): the name alone where it ran with one set of arguments, else the name with
    what sets its arguments apart (the ``-M name=`` where each set gives a different one). Never two alike."""
    by_model: dict[str, list[str]] = {}
    for identity, (model, _) in models.items():
        by_model.setdefault(model, []).append(identity)
    labels: dict[str, str] = {}
    for model, identities in by_model.items():
        sets = {identity: models[identity][1] for identity in identities}
        names = [str(args.get(NAME_ARG)) for args in sets.values() if NAME_ARG in args]
        if len(identities) == 1:
            (identity,) = identities
            named = sets[identity].get(NAME_ARG)
            labels[identity] = model if named is None else f"{model} ({named})"
            continue
        if len(names) == len(identities) and len(set(names)) == len(names):
            labels.update({identity: f"{model} ({args[NAME_ARG]})" for identity, args in sets.items()})
            continue
        keys = sorted({k for args in sets.values() for k in args})
        differing = [k for k in keys if len({json.dumps(a.get(k, None), default=str) for a in sets.values()}) > 1]
        texts = {
            v for args in sets.values() for k, v in args.items() if isinstance(v, str) and ("/" in v or k == FILE_ARG)
        }
        paths = _paths(texts)
        for identity, args in sets.items():
            apart = [_value(k, args[k], paths) if k in args else f"{k} unset" for k in differing]
            labels[identity] = f"{model} ({', '.join(apart)})"
    return _unique(labels)


def _unique(labels: dict[str, str]) -> dict[str, str]:
    """Labels made distinct where two identities would read alike (values cut to the shown length, a label that is
    also another model's name): numbered in order."""
    seen: dict[str, list[str]] = {}
    for identity in sorted(labels):
        seen.setdefault(labels[identity], []).append(identity)
    for label, identities in seen.items():
        if len(identities) > 1:
            for k, identity in enumerate(identities, start=1):
                labels[identity] = f"{label} #{k}"
    return labels
