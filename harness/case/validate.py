"""A case file against the JSON Schema (case.schema.json): the first complaint, named by its field path, with a
"did you mean" for a misspelt key."""

from __future__ import annotations

import difflib
import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema


@cache
def _validator() -> jsonschema.protocols.Validator:
    schema = json.loads(resources.files("harness.case").joinpath("case.schema.json").read_text("utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def _field_path(parts: Any) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def _message(error: jsonschema.ValidationError) -> str:
    """The schema's message, with a "did you mean" for a misspelt key."""
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return error.message
    known = list(error.schema.get("properties", {})) if isinstance(error.schema, dict) else []
    hints = []
    for key in error.instance:
        if key not in known and (close := difflib.get_close_matches(str(key), known, n=1)):
            hints.append(f"did you mean {close[0]!r} for {key!r}?")
    return error.message + (f" ({'; '.join(hints)})" if hints else "")


def _deepest(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For oneOf/anyOf failures, the sub-error that got furthest names the field best."""
    best = error
    for sub in error.context or ():
        cand = _deepest(sub)
        if len(cand.absolute_path) > len(best.absolute_path):
            best = cand
    return best


def first_error(raw: Any) -> tuple[str, str] | None:
    """The field path and message of the schema's first complaint about ``raw``, or None when it is valid."""
    errors = sorted(_validator().iter_errors(raw), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    err = _deepest(errors[0])
    return _field_path(err.absolute_path), _message(err)
