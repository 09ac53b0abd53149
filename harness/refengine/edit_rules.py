"""Edit rules with a path against Write calls: an ``Edit(...)`` rule governs the other file-writing tools too.

Measured on 2.1.252 to 2.1.332 with ``Edit(src/**)`` and a Write of a new file src/new.txt
(rule-edit-path-write-deny, rule-edit-path-write-allow, rule-edit-path-write-ask):

- in deny it refuses the Write as it refuses an Edit there, in the input validation, in bypass mode too ("File is
  in a directory that is denied by your permission settings.", listed as a denial where the profile lists the
  Edit's: dispatch._path_denied);
- in allow it lets the Write run in default mode;
- in ask, acceptEdits refuses it with the tool's own text ("Claude requested permissions to write to <path>, but
  you haven't granted it yet.").

None of them binds a Write of out.txt, outside src/. Unmeasured, so not modelled: an Edit rule binding a Write beside
a rule for Write itself, a hook's allow or a skill's grant; an ask rule in other modes, an allow rule in plan or
dontAsk mode; NotebookEdit beside Edit rules (permissions._check_modelled).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fnmatch import fnmatchcase
from pathlib import Path

from harness.refengine import messages
from harness.refengine.errors import NotModelled
from harness.refengine.permission_request import ALLOW, Decision, Request
from harness.refengine.permission_rules import Rule
from harness.refengine.rule_paths import undotted_folder
from harness.refengine.tool_model import resolve

#: A folder rule however it is anchored: ``seg/**``, ``/seg/**`` (the settings file's project), ``//abs/**``.
_FOLDER_RULE = re.compile(r"/{0,2}([\w.-]+)(?:/[\w.-]+)*/\*\*")


def cannot_bind(specifier: str, path: Path) -> bool:
    """A folder rule cannot bind a file that lies in no folder named as the rule's first segment, wherever the
    rule is anchored (the anchoring only narrows what it binds): ``Edit(/src/**)`` and ``Edit(src/**)`` leave
    out.txt at the working copy's top alone (rule-edit-path-write-*). A glob without a slash (``out*.txt``)
    cannot bind a file whose name and trailing paths none match it, even with ``*`` crossing folders."""
    m = _FOLDER_RULE.fullmatch(undotted_folder(specifier) or specifier)  # ./secrets/** names the folder secrets
    if m is not None:
        return m.group(1) not in path.parent.parts
    if any(c in specifier for c in "/[{!\\") or specifier.startswith(("~", ".")):  # globs fnmatch may read otherwise
        return False
    return not any(fnmatchcase("/".join(path.parts[i:]), specifier) for i in range(1, len(path.parts)))


def binding(rules: Iterable[Rule], tool: str, path: Path, *, workdir: Path) -> list[Rule]:
    """The ``tool`` rules with a path among ``rules`` that bind ``path``; a rule form whose match is not measured
    raises NotModelled unless it cannot bind at all."""
    return [r for r in rules if r.tool == tool and r.specifier is not None and not cannot_bind(r.specifier, path)
            and r.binds_path(path, workdir=workdir)]


def _write_path(request: Request) -> Path:
    return resolve(str(request.tool_input.get("file_path", "")), workdir=request.workdir)


def write_decision(request: Request) -> Decision | None:
    """What the Edit rules with a path decide about a Write call (deny rules are answered before, in the input
    validation), or None where none binds it."""
    if request.tool != "Write":
        return None
    if any(r.tool == "Edit" and r.specifier is not None for r in request.granted):
        raise NotModelled("a skill's allowed-tools Edit rule with a path beside a Write call")
    path = _write_path(request)
    rules = request.rules
    asks = binding(rules.ask, "Edit", path, workdir=request.workdir)
    allows = binding(rules.allow, "Edit", path, workdir=request.workdir)
    if binding(rules.deny, "Edit", path, workdir=request.workdir):
        return Decision(behaviour="deny", message=messages.path_denied())
    if not asks and not allows:
        return None
    if any(r.tool == "Write" and (r.specifier is None or not cannot_bind(r.specifier, path))
           for r in (*rules.allow, *rules.deny, *rules.ask)) or request.hook_allowed \
            or "Write" in request.withheld:
        raise NotModelled("an Edit rule with a path that binds a Write call beside a Write rule, a hook's allow or "
                          "a skill's disallowed-tools")
    if asks:
        if request.mode != "acceptEdits":
            raise NotModelled(f"an Edit ask rule with a path that binds a Write call in {request.mode} mode "
                              "(measured in acceptEdits)")
        return Decision(behaviour="ask", message=messages.write_not_granted(path))
    if request.mode not in ("default", "bypass", "acceptEdits"):
        raise NotModelled(f"an Edit allow rule with a path that binds a Write call in {request.mode} mode")
    return ALLOW

