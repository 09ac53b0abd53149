"""Path deny rules answered in a file tool's input validation, before PreToolUse hooks and the other rules:
``Read``/``Edit``/``Write`` under a deny rule with a path, and Write or Edit under a Read deny rule. A PreToolUse
hook on every tool does not see the calls they refuse (rule-path-deny-hooks, 2.1.252 to 2.1.332).

What each path form binds is rule_paths.py's; the refusal is listed as a permission denial where the profile's
``read_deny_write_is_listed_denial`` holds (dispatch.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.refengine import edit_rules, messages
from harness.refengine.errors import NotModelled
from harness.refengine.runtime import Runtime
from harness.refengine.tool_model import resolve


def read_denied_write(rt: Runtime, name: str, tool_input: Mapping[str, Any]) -> str | None:
    """A Read deny rule refuses a Write or Edit of a file it binds: "File is covered by a Read deny rule ...".
    Bare ``Read``: every file, before hooks and the allow rules; measured on 2.1.252 to 2.1.332 (cc-harness explore,
    seed 1; permission-read-deny-blocks-write, permission-read-deny-edit). With a path: the files the rule binds as
    it binds a Read, in bypass mode (permission-read-deny-pattern-edit and rule-read-glob-deny for ``*.txt``,
    rule-read-folder-deny-write for ``src/**``; a Write of a file it does not bind is written). NotebookEdit under
    a Read deny rule, and a file an Edit deny rule binds too, are not measured."""
    read_denies = [r for r in rt.rules.deny if r.tool == "Read"]
    if not read_denies or name not in ("Write", "Edit", "NotebookEdit"):
        return None
    if name == "NotebookEdit":
        raise NotModelled("NotebookEdit under a Read deny rule")
    verb = "written" if name == "Write" else "edited"
    if any(r.specifier is None for r in read_denies):
        return messages.write_covered_by_read_deny(verb)
    given = tool_input.get("file_path")
    if not isinstance(given, str):
        return None
    path = resolve(given, workdir=rt.workdir)
    if not edit_rules.binding(read_denies, "Read", path, workdir=rt.workdir):
        return None
    if edit_rules.binding(rt.rules.deny, "Edit", path, workdir=rt.workdir):
        raise NotModelled(f"{name} of a file both a Read and an Edit deny rule with a path bind")
    return messages.write_covered_by_read_deny(verb)


def path_denied(rt: Runtime, name: str, tool_input: Mapping[str, Any]) -> str | None:
    """A path deny rule refuses a Read or Edit (an Edit rule a Write too: edit_rules.py) in its input validation, in
    bypass mode too, listed as a permission denial where the profile lists the bare Read deny's (measured the same
    way on 2.1.252 to 2.1.332: 2.1.278 on). Measured forms: rule_paths.py."""
    if name not in ("Read", "Edit", "Write"):
        return None
    given = tool_input.get("file_path")
    if not isinstance(given, str):
        return None
    # An Edit deny rule refuses a Write the same way (edit_rules.py); a folder rule that cannot bind is skipped.
    hits = edit_rules.binding(rt.rules.deny, "Edit" if name == "Write" else name, resolve(given, workdir=rt.workdir),
                              workdir=rt.workdir)
    return messages.path_denied() if hits else None
