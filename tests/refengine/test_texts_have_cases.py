"""No text without a measurement: every user-visible text of the reference engine (messages.py, tool_messages.py,
hook_messages.py) and the cases behind it, each case with a snapshot on every pinned version.

A text's cases are found by its literal fragments (the string constants of its definition, docstrings left
out, cut at newlines and placeholders): a case is behind the text when a fragment is in its case file, its
snapshots or the pinned versions' expectations. A text whose cases hold none of its literal words (a name
list, a text built from its arguments) names its cases in ``NAMED``. A text with neither fails. ``WITHOUT_CASE``
is empty: an entry there would fail as soon as a case holds the text, so the list can only shrink.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

import pytest
import yaml

from harness.refengine import hook_messages, messages, tool_messages

ROOT = Path(__file__).resolve().parents[2]
PINNED = ("2.1.252", "2.1.257", "2.1.278", "2.1.332")
MIN_FRAGMENT = 8

#: Texts with no literal words of their own to find, and the cases that show them.
NAMED: dict[str, tuple[str, ...]] = {
    "UI_COMMANDS": ("engine-skill-non-prompt",),
    "UNDEFINED_BUILTIN_AGENTS": ("subagent-type-not-found-lists-builtins",),
    "SEARCH_TOOL_HINTS": ("subagent-tool-search-allowlist",),
    "prompt_blocked_reason": ("hook-event-userpromptsubmit-block-json",),
    "prompt_blocked": ("hook-prompt-submit-exit2-result",),
    "found_files": ("tool-builtin-glob-grep",),
    "edit_missing_file": ("tool-builtin-input-errors",),
    "SUGGESTED_COMMANDS": ("skill-unknown-suggests-command",),
}

#: Texts no case of the suite holds yet: none. A new text comes with its case on every pinned version, or the
#: reference engine says not-modelled instead.
WITHOUT_CASE: frozenset[str] = frozenset()


def _texts() -> dict[str, list[str]]:
    """Each public text of the message modules and its literal fragments."""
    nodes = [node for module in (messages, tool_messages, hook_messages)
             for node in ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8")).body]
    out: dict[str, list[str]] = {}
    body: list[ast.AST]
    for node in nodes:
        if isinstance(node, ast.FunctionDef):
            name, body = node.name, [s for s in node.body if not _is_docstring(s)]
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name, body = node.targets[0].id, [node.value]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            name, body = node.target.id, [node.value]
        else:
            continue
        if name.startswith("_"):
            continue
        literals = [n.value for stmt in body for n in ast.walk(stmt)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        # debug lines are checked without their level tag (a case's debug_log names the message)
        pieces = {re.sub(r"^\[[A-Z]+\] (Hooks: )?", "", p.strip()).rstrip(": ")
                  for text in literals for p in re.split(r"\n|\$?\{[^}]*\}", text)}
        out[name] = sorted((p for p in pieces if len(p) >= MIN_FRAGMENT), key=len, reverse=True)
    return out


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


@cache
def _evidence() -> dict[str, str]:
    """Per case: its case file, its snapshots and the pinned versions' expectations entries, as one text."""
    expectations: dict[str, str] = {}
    for version in PINNED:
        differences = yaml.safe_load((ROOT / "expectations" / f"claude-{version}.yaml").read_text(encoding="utf-8"))
        for case, entries in (differences.get("differences") or {}).items():
            expectations[case] = expectations.get(case, "") + json.dumps(entries, ensure_ascii=False)
    out = {}
    for case_file in sorted((ROOT / "cases").glob("*/case.yaml")):
        case = case_file.parent.name
        snapshots = [ROOT / "snapshots" / engine / f"{case}.json" for engine in ("reference", *map(_claude, PINNED))]
        text = case_file.read_text(encoding="utf-8") + "".join(p.read_text(encoding="utf-8") for p in snapshots
                                                               if p.is_file())
        out[case] = text + expectations.get(case, "")
    return out


def _claude(version: str) -> str:
    return f"claude-{version}"


def cases_behind(name: str, fragments: list[str]) -> list[str]:
    if name in NAMED:
        return list(NAMED[name])
    evidence = _evidence()
    found = []
    for case, text in evidence.items():
        flat = text.replace("\\n", "\n").replace('\\"', '"')
        if any(f in text or f in flat for f in fragments):
            found.append(case)
    return found


TEXTS = _texts()


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_text_has_a_case_on_every_pinned_version(name: str) -> None:
    behind = cases_behind(name, TEXTS[name])
    if name in WITHOUT_CASE:
        assert not behind, f"{name} now has cases ({', '.join(behind[:3])}): take it off WITHOUT_CASE"
        return
    assert behind, (f"{name} has no case behind it: add one on every pinned version, or make the "
                    "reference engine say not-modelled instead of the text")
    for case in behind[:1]:
        missing = [v for v in PINNED if not (ROOT / "snapshots" / _claude(v) / f"{case}.json").is_file()]
        assert not missing, f"{name}: case {case} has no snapshot on {', '.join(missing)}"


def test_the_texts_found_are_the_module_texts() -> None:
    """The listing is not empty by accident, and every named or unmeasured entry is still a text of the module."""
    assert len(TEXTS) > 50
    assert set(NAMED) <= set(TEXTS) and set(TEXTS) >= WITHOUT_CASE
