"""Fixture problems an engine passes over without a word, named so that a failing case says why.

An engine skips a settings file that is not JSON, runs with no project setup when ``.claude/`` is
missing, and reports a hook script without its exec bit only as a failed hook. A case that tests
exactly such a silent fail must keep working, so these are notes, not errors: a failing or erroring
record shows them next to its findings.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_SETTINGS = (".claude/settings.json", ".claude/settings.local.json", ".mcp.json")


def fixture_notes(workdir: Path) -> tuple[str, ...]:
    """What is wrong with the working copy's ``.claude/`` setup, each as one sentence."""
    notes: list[str] = []
    if not (workdir / ".claude").is_dir():
        notes.append("the fixture has no .claude/ folder: the engine runs without project settings, skills or agents")
    for name in _SETTINGS:
        path = workdir / name
        if not path.is_file():
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            notes.append(f"{name} is not valid JSON ({exc}): the engine skips the whole file")
            continue
        notes += _missing_scripts(data, name, workdir)
    return tuple(dict.fromkeys(notes))


def _commands(settings: Any) -> Iterator[str]:
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    for groups in (hooks or {}).values() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            for action in group.get("hooks", ()) if isinstance(group, dict) else ():
                if isinstance(action, dict) and isinstance(action.get("command"), str):
                    yield action["command"]


def _script(command: str, workdir: Path) -> Path | None:
    """The file a hook command runs directly (its first word, when that is a path), if any."""
    try:
        first = shlex.split(command)[0] if command.strip() else ""
    except ValueError:
        return None
    first = first.replace("${CLAUDE_PROJECT_DIR}", str(workdir)).replace("$CLAUDE_PROJECT_DIR", str(workdir))
    if "/" not in first:
        return None  # a program on PATH (bash, python3, ...): the script is its argument
    return Path(first) if Path(first).is_absolute() else workdir / first


def _missing_scripts(settings: Any, name: str, workdir: Path) -> list[str]:
    out = []
    for command in _commands(settings):
        script = _script(command, workdir)
        if script is None:
            continue
        shown = os.path.relpath(script, workdir) if workdir in script.parents else str(script)
        if not script.exists():
            out.append(f"{name}: the hook command {command!r} runs {shown}, which does not exist")
        elif not os.access(script, os.X_OK):
            out.append(f"{name}: the hook command {command!r} runs {shown}, which is not executable (no exec bit)")
    return out
