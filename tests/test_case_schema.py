"""The case format has one set of defaults: the dataclasses of harness/case/spec.py.

The JSON Schema (harness/case/case.schema.json) names the same properties and, where it states a default,
the same default; the loader leaves an absent key out of the dataclass call, so it cannot disagree.
"""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from typing import Any

import pytest

from harness.case import matchers, spec

#: Each object of the schema and the dataclass it loads into.
SHAPES: dict[str, type[Any]] = {
    "run": spec.RunOptions,
    "flags": spec.Flags,
    "step": spec.Step,
    "context": spec.Context,
    "turn": spec.Turn,
    "call": spec.Call,
    "expect": spec.Expect,
    "names": spec.NameChecks,
    "text_checks": spec.TextChecks,
    "offered": spec.Offered,
    "effect": spec.Effect,
    "message_check": matchers.MessageCheck,
}
#: Fields the loader derives rather than reads from a key of the same name.
DERIVED = {
    "run": {"trust_parent"},  # from trusted: parent
    "context": {"name"},  # the key of contexts:
    "case": {"base_home", "case_file", "directory"},  # where the case file is
}

#: Keys the loader reads before building the case rather than into a field.
READ_BEFORE = {"case": {"format"}}  # the file format, upgraded from (harness/formats.py)


def _schema() -> dict[str, Any]:
    text = resources.files("harness.case").joinpath("case.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _objects() -> list[tuple[str, dict[str, Any], type[Any]]]:
    schema = _schema()
    return [("case", schema, spec.Case), *((name, schema["$defs"][name], cls) for name, cls in SHAPES.items())]


@pytest.mark.parametrize(("name", "node", "cls"), _objects(), ids=lambda v: v if isinstance(v, str) else "")
def test_the_schema_and_the_dataclass_name_the_same_fields(name: str, node: dict[str, Any], cls: type[Any]) -> None:
    fields = {f.name for f in dataclasses.fields(cls)} - DERIVED.get(name, set())
    assert set(node["properties"]) - READ_BEFORE.get(name, set()) == fields


@pytest.mark.parametrize(("name", "node", "cls"), _objects(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_default_the_schema_states_is_the_dataclass_default(name: str, node: dict[str, Any], cls: type[Any]) -> None:
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key, prop in node["properties"].items():
        if "default" in prop:
            field = fields[key]
            assert field.default is not dataclasses.MISSING, f"{name}.{key}: the schema has a default, the class none"
            said = f"{name}.{key}: the schema says {prop['default']!r}, the class {field.default!r}"
            assert field.default == prop["default"], said


def test_the_schema_states_the_defaults_that_matter_to_a_case_author() -> None:
    """The check above must have something to compare: the run options' and a thread's end."""
    schema = _schema()["$defs"]
    stated = {(n, k) for n in ("run", "step", "context") for k, p in schema[n]["properties"].items() if "default" in p}
    assert {("run", "timeout"), ("run", "permission_mode"), ("run", "trusted"), ("step", "then")} <= stated
