"""The words the grammar draws from, each an element of the engine's surface (``docs/surface/claude-V.json``).

The vocabularies are small on purpose (shrinking gives cases a person reads), but together they reach every
area a team's setup touches: permission rule forms at the user, project and local level, the permission
modes, hook events with every output field and exit code, handler options, skill and agent frontmatter keys,
memory files, settings ``env``, and the built-in tools' edge cases (a Read past the end, of a folder, of an
empty file; an Edit after the file changed on disk, with curly quotes, on CRLF; Grep and Glob beside a
``.gitignore`` and in a git work tree). ``reach`` names the surface elements they reach, so the grammar's
reach is read from the code, not written down twice (settings ``env`` and memory files are drawn too,
though the surface does not list them as elements).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from harness.explore.surface_vocabulary import (
    HANDLER_TYPES,
    MORE_TOOL_CALLS,
    SETTING_VALUES,
    SETTINGS_OWN,
    TYPE_OPTION_VALUES,
)
from harness.surface.coverage import read_lists
from harness.surface.model import Kind, Surface, split

#: The committed surfaces of the pinned releases, and the list of elements no offline run reaches.
_SURFACE_ROOT = Path(__file__).resolve().parents[2] / "docs" / "surface"


@cache
def surface(kind: str) -> tuple[str, ...]:
    """The names of ``kind`` (``hook-event``, ``skill-key``, ...) that some pinned release knows, less those
    ``unreachable.yaml`` says no offline run reaches: what the grammar draws beyond its focus vocabularies,
    so a release's new element is drawn as soon as its surface is committed."""
    files = sorted(_SURFACE_ROOT.glob("claude-*.json"))
    if not files:
        raise FileNotFoundError(f"{_SURFACE_ROOT}: no claude-*.json surface (the explorer draws from the repository's)")
    names = set().union(*(Surface.from_file(f).elements.get(Kind(kind), frozenset()) for f in files))
    unreachable = {name for k, name in map(split, read_lists(_SURFACE_ROOT).unreachable) if k.value == kind}
    return tuple(sorted(names - unreachable))

SKILL_NAMES = ("alpha", "beta")
AGENT_NAMES = ("probe", "helper")
LEVELS = ("project", "project", "user", "local")
"""Settings levels: ``user`` is ``~/.claude/settings.json``, ``local`` ``.claude/settings.local.json``."""
#: Print mode's ``default`` and ``bypass`` most of the time, each other mode about one case in fifteen.
MODES = ("default",) * 6 + ("bypass",) * 6 + ("acceptEdits", "plan", "dontAsk")

#: Matchers of every shape the docs and the claims speak of: exact, regex, everything, lists, broken.
MATCHERS = ("Bash", "", "*", "Ba.*", "Bash|Read", "Read", "Bash,Read", "[", "Skill", "Agent", "Edit|Write",
            "Grep|Glob", "WebFetch", "mcp__.*")
TOOL_EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure")
#: Events with a matcher on something other than a tool name (SessionStart: the source; Subagent*: the type).
OTHER_EVENTS = ("UserPromptSubmit", "SessionStart", "Stop", "SubagentStart", "SubagentStop", "SessionEnd")
OTHER_MATCHERS: Mapping[str, tuple[str | None, ...]] = {
    "SessionStart": (None, "startup", "resume"),
    "SubagentStart": (None, "probe", "general-purpose"),
    "SubagentStop": (None, "probe", "general-purpose"),
}

#: How a hook command answers: exit codes, plain stdout, and JSON output fields (``hook_output`` writes them).
#: Beside these, ``field:<name>`` prints one output field of the surface (``field:PostToolUse.updatedToolOutput``,
#: ``field:terminalSequence``) with its value from ``_FIELD_VALUES``: ``output_kinds`` lists them.
HOOK_OUTPUTS = ("marker", "exit2", "exit1", "stdout", "deny", "allow", "ask", "defer", "updated-allow",
                "updated-alone", "context", "block", "continue-false", "suppress", "system-message")
#: A value for each output field the surface names (by ``Event.field``, else by the field's own name); a field
#: without one prints the string ``HOOK-<i>-VALUE``. ``{i}`` is the hook's index.
_FIELD_VALUES: Mapping[str, Any] = {
    "continue": False, "stopReason": "HOOK-{i}-STOP", "suppressOutput": True, "systemMessage": "HOOK-{i}-MESSAGE",
    "decision": "block", "reason": "HOOK-{i}-REASON", "terminalSequence": "\u0007",
    "permissionDecision": "defer", "permissionDecisionReason": "HOOK-{i}-REASON",
    "updatedInput": {"command": "echo UPDATED-{i}"}, "additionalContext": "HOOK-{i}-CONTEXT",
    "updatedToolOutput": "HOOK-{i}-OUTPUT", "updatedMCPToolOutput": "HOOK-{i}-OUTPUT",
    "classifierContext": "HOOK-{i}-CLASSIFIER", "sessionTitle": "HOOK-{i}-TITLE",
    "initialUserMessage": "HOOK-{i}-INITIAL", "reloadSkills": True, "suppressOriginalPrompt": True,
    "retry": True, "PermissionRequest.decision": {"behavior": "deny", "message": "HOOK-{i}-REASON"},
    "action": "decline", "content": {}, "displayContent": "HOOK-{i}-DISPLAY", "worktreePath": "wt-{i}",
}
#: Output fields of the surface the grammar does not print, and why: a drawn case must be deterministic.
FIELDS_LEFT_OUT: Mapping[str, str] = {
    "watchPaths": "starts a file watcher: the FileChanged events it sends race the run's end",
}
#: Handler options beside ``type`` and ``command``, with a value each (the surface's ``command.*`` but those
#: in HANDLER_OPTIONS_LEFT_OUT; ``args`` makes the handler the exec form: ``bash`` with the script as its argument).
HANDLER_OPTIONS: Mapping[str, Any] = {
    "timeout": 30, "statusMessage": "Checking", "once": True, "async": True, "if": "Bash(echo *)", "shell": "bash",
    "onFailure": "block", "args": [".claude/hooks/h{i}.sh"],
}
#: Handler options of the surface the grammar does not set, and why.
HANDLER_OPTIONS_LEFT_OUT: Mapping[str, str] = {
    "asyncRewake": "a background hook that wakes the model later: its exit races the run's end",
    "rewakeMessage": "read only with asyncRewake",
    "rewakeSummary": "read only with asyncRewake",
}


def type_options(handler: str) -> tuple[str, ...]:
    """The options of the surface a ``handler`` of HANDLER_TYPES may set beside its own fields (those with a
    value in TYPE_OPTION_VALUES; the others are TYPE_OPTIONS_LEFT_OUT)."""
    own = set(HANDLER_TYPES[handler])
    names = (name.split(".", 1)[1] for name in surface("hook-handler") if name.startswith(f"{handler}."))
    return tuple(name for name in names if name not in own and name in TYPE_OPTION_VALUES)


def output_kinds(event: str) -> tuple[str, ...]:
    """The ``field:`` output kinds a hook on ``event`` may print: the surface's top-level fields and the
    event's own ``hookSpecificOutput`` fields (another event's field on this one is drawn by the named kinds)."""
    return tuple(f"field:{name}" for name in surface("hook-output")
                 if name.split(".")[-1] not in FIELDS_LEFT_OUT and name != "hookSpecificOutput"  # the container
                 and ("." not in name or name.startswith(f"{event}.")))


def _field_value(name: str, index: int) -> Any:
    value = _FIELD_VALUES.get(name, _FIELD_VALUES.get(name.split(".")[-1], "HOOK-{i}-VALUE"))
    return json.loads(json.dumps(value).replace("{i}", str(index)))

#: Permission rules of every form: bare tools, Bash prefixes (also inside compound commands), path globs
#: (relative, ``//abs``, ``~/``), WebFetch domains, MCP server and tool rules, Skill and Agent specifiers.
RULES = (
    "Bash(echo *)", "Bash", "Read", "Write", "Skill(alpha)", "Bash(echo M1)", "Bash(git add:*)", "Bash(git push:*)",
    "Bash(git *)", "Read(src/**)", "Edit(src/**)", "Edit", "Write(out*.txt)", "Read(*.txt)", "Read(//etc/**)",
    "Read(~/notes.txt)", "Edit(/src/**)", "Grep", "Glob", "WebFetch(domain:example.com)", "WebFetch",
    "mcp__srv", "mcp__srv__ping", "mcp__srv__*", "Agent(probe)", "Agent", "WebFetch(domain:*.example.com)",
    "WebSearch(example)", "mcp__srv__pi*", "NotebookEdit", "TaskStop",
)


def _rule_form(rule: str) -> str:
    """The surface's ``rule-form`` of ``rule``: ``Bash(<prefix> *)``, ``<tool>(<glob>)``, ``mcp__<server>``."""
    if rule.startswith("mcp__"):
        parts = rule.split("__")
        if len(parts) == 2:
            return "mcp__<server>"
        return "mcp__<server>__*" if parts[2] == "*" else "mcp__<server>__<prefix>*" if parts[2].endswith("*") \
            else "mcp__<server>__<tool>"
    if "(" not in rule:
        return "<tool>"
    tool, specifier = rule[:-1].split("(", 1)
    if specifier.startswith("domain:*."):
        return "WebFetch(domain:*.<host>)"
    if specifier.startswith("domain:"):
        return "WebFetch(domain:<host>)"
    if tool == "WebSearch":
        return "WebSearch(<specifier>)"
    if tool == "Bash" and specifier.endswith(":*"):
        return "Bash(<prefix>:*)"
    if tool == "Bash" and specifier.endswith(" *"):
        return "Bash(<prefix> *)"
    return "<tool>(<glob>)" if "*" in specifier or "/" in specifier else "<tool>(<specifier>)"

#: Skill frontmatter the ``Skill`` part writes itself; the other keys of the surface are SKILL_EXTRA.
_SKILL_OWN = frozenset({"name", "description", "context", "agent", "allowed-tools", "disallowed-tools",
                       "disable-model-invocation", "hooks"})
#: A value for the skill keys whose meaning is known; any other key of the surface gets the string ``EXPLORE``.
_SKILL_VALUES: Mapping[str, Any] = {
    "model": "sonnet", "effort": "low", "argument-hint": "[topic]", "user-invocable": False,
    "when_to_use": "When asked for it.", "paths": ["src/**"], "shell": "bash", "version": "1.0.0",
    "license": "MIT", "disallowedTools": "Bash", "arguments": "topic", "metadata": {"team": "explore"},
    "background": True, "experimental": True, "defaultEnabled": False, "keywords": ["explore"],
    "dependencies": [], "agents": [], "mcpServers": {}, "lspServers": {}, "settings": {}, "userConfig": {},
}
#: Skill frontmatter beyond the ``Skill`` part's own keys: every other key of the surface, with a value.
SKILL_EXTRA: Mapping[str, Any] = {key: _SKILL_VALUES.get(key, "EXPLORE") for key in surface("skill-key")
                                  if key not in _SKILL_OWN}
#: Agent frontmatter the ``Agent`` part writes itself.
_AGENT_OWN = frozenset({"name", "description", "tools", "disallowedTools", "skills", "hooks"})
_AGENT_VALUES: Mapping[str, Any] = {
    "model": "sonnet", "permissionMode": "acceptEdits", "maxTurns": 1, "effort": "low", "color": "blue",
    "memory": "project", "background": True, "initialPrompt": "Start.", "omitClaudeMd": True,
    "isolation": "worktree", "mcpServers": ["srv"], "autoCompactWindow": 100000, "experimental": True,
    "observer": True, "observeSubagents": True, "observeToolResults": True,
}
#: Agent frontmatter beyond the ``Agent`` part's own keys: every other key of the surface, with a value.
AGENT_EXTRA: Mapping[str, Any] = {key: _AGENT_VALUES.get(key, "EXPLORE") for key in surface("agent-key")
                                  if key not in _AGENT_OWN}

#: Memory files: what each says and where it lies (``home/`` is the user level).
MEMORY = {
    "CLAUDE.md": "Project memory: MEMORY-PROJECT.\n",
    "CLAUDE.local.md": "Local memory: MEMORY-LOCAL.\n",
    ".claude/rules/style.md": "Rule file: MEMORY-RULE.\n",
    "src/CLAUDE.md": "Nested memory: MEMORY-NESTED.\n",
    "home/.claude/CLAUDE.md": "User memory: MEMORY-USER.\n",
}

#: Files every fixture holds, for the tools' edge cases.
BASE_FILES = {
    "notes.txt": "NOTES-CONTENT\n",
    "empty.txt": "",
    "crlf.txt": "line one\r\nline two\r\n",
    "quotes.txt": "It\u2019s \u201cquoted\u201d.\n",
    "src/code.py": "print('CODE')\n",
}
#: A ``.gitignore`` and the file it hides (drawn; a Bash ``git init`` turns the folder into a work tree).
IGNORE_FILES = {".gitignore": "ignored.txt\n", "ignored.txt": "NOTES-CONTENT hidden\n"}

#: The built-in calls, with what each reaches: kind -> (tool, input). ``{n}`` is the call's number.
TOOL_CALLS: Mapping[str, tuple[str, dict[str, Any]]] = {
    "bash-echo": ("Bash", {"command": "echo M{n}"}),
    "bash-compound": ("Bash", {"command": "git add notes.txt && git push"}),
    "bash-git-status": ("Bash", {"command": "git status --short"}),
    "bash-git-init": ("Bash", {"command": "git init -q && echo INIT"}),
    "bash-env": ("Bash", {"command": "echo VAR=$EXPLORE_VAR"}),
    "bash-touch-notes": ("Bash", {"command": "echo CHANGED >> notes.txt"}),
    "read-notes": ("Read", {"file_path": "notes.txt"}),
    "read-past-end": ("Read", {"file_path": "notes.txt", "offset": 50}),
    "read-folder": ("Read", {"file_path": "src"}),
    "read-empty": ("Read", {"file_path": "empty.txt"}),
    "read-crlf": ("Read", {"file_path": "crlf.txt"}),
    "read-abs": ("Read", {"file_path": "/etc/hostname"}),
    "read-code": ("Read", {"file_path": "src/code.py"}),
    "write-out": ("Write", {"file_path": "out{n}.txt", "content": "W{n}"}),
    "write-src": ("Write", {"file_path": "src/new{n}.txt", "content": "S{n}"}),
    "edit-notes": ("Edit", {"file_path": "notes.txt", "old_string": "NOTES-CONTENT", "new_string": "EDITED-{n}"}),
    "edit-quotes": ("Edit", {"file_path": "quotes.txt", "old_string": "It's \"quoted\"", "new_string": "Plain"}),
    "edit-crlf": ("Edit", {"file_path": "crlf.txt", "old_string": "line two", "new_string": "line 2"}),
    "edit-code": ("Edit", {"file_path": "src/code.py", "old_string": "CODE", "new_string": "EDITED"}),
    "grep": ("Grep", {"pattern": "NOTES", "output_mode": "files_with_matches"}),
    "glob": ("Glob", {"pattern": "**/*.txt"}),
    "webfetch": ("WebFetch", {"url": "https://example.com/", "prompt": "Summarise."}),
    "mcp": ("mcp__srv__ping", {}),
    "nope": ("Nope", {}),
    **MORE_TOOL_CALLS,
}
#: How often each kind is drawn, relative to the others (Skill and Agent calls are drawn apart).
CALL_WEIGHTS: Mapping[str, int] = {"bash-echo": 4, "read-notes": 2, "write-out": 2, "edit-notes": 2}


def hook_output(event: str, kind: str, index: int) -> str:
    """The shell lines after a hook has recorded itself: how it answers ``kind`` on ``event``."""
    reason = f"HOOK-{index}-REASON"
    specific: dict[str, Any] = {"hookEventName": event}
    if kind == "marker":
        return ""
    if kind in ("exit2", "exit1"):
        return f'echo "{reason}" >&2; exit {kind[-1]}\n'
    if kind == "stdout":
        return f"echo HOOK-{index}-STDOUT\n"
    if kind.startswith("field:"):
        name = kind.removeprefix("field:")
        if "." in name:
            field = {"hookSpecificOutput": {**specific, name.split(".")[-1]: _field_value(name, index)}}
        else:
            field = {name: _field_value(name, index)}
        return "echo '" + json.dumps(field) + "'\n"
    if kind in ("deny", "allow", "ask", "defer"):
        payload: dict[str, Any] = {"hookSpecificOutput": {**specific, "permissionDecision": kind,
                                                          "permissionDecisionReason": reason}}
    elif kind.startswith("updated"):
        specific["updatedInput"] = {"command": f"echo UPDATED-{index}"}
        if kind == "updated-allow":
            specific["permissionDecision"] = "allow"
        payload = {"hookSpecificOutput": specific}
    elif kind == "context":
        payload = {"hookSpecificOutput": {**specific, "additionalContext": f"HOOK-{index}-CONTEXT"}}
    elif kind == "block":
        payload = {"decision": "block", "reason": reason}
    elif kind == "continue-false":
        payload = {"continue": False, "stopReason": f"HOOK-{index}-STOP"}
    elif kind == "suppress":
        payload = {"suppressOutput": True}
    else:
        payload = {"systemMessage": f"HOOK-{index}-MESSAGE"}
    return "echo '" + json.dumps(payload) + "'\n"


def _surface_names(event: str, kind: str) -> set[str]:
    """The surface's ``hook-output`` elements a hook answering ``kind`` on ``event`` uses."""
    fields = {
        "deny": {"hookSpecificOutput", f"{event}.permissionDecision", f"{event}.permissionDecisionReason"},
        "defer": {"hookSpecificOutput", f"{event}.permissionDecision", f"{event}.permissionDecisionReason"},
        "allow": {"hookSpecificOutput", f"{event}.permissionDecision", f"{event}.permissionDecisionReason"},
        "ask": {"hookSpecificOutput", f"{event}.permissionDecision", f"{event}.permissionDecisionReason"},
        "updated-allow": {"hookSpecificOutput", f"{event}.updatedInput", f"{event}.permissionDecision"},
        "updated-alone": {"hookSpecificOutput", f"{event}.updatedInput"},
        "context": {"hookSpecificOutput", f"{event}.additionalContext"},
        "block": {"decision", "reason"},
        "continue-false": {"continue", "stopReason"},
        "suppress": {"suppressOutput"},
        "system-message": {"systemMessage"},
    }
    if kind.startswith("field:"):
        name = kind.removeprefix("field:")
        return {"hookSpecificOutput", name} if "." in name else {name}
    return fields.get(kind, set())


def reach() -> dict[str, set[str]]:
    """The surface elements (kinds as in ``docs/surface/claude-V.json``) the grammar can draw."""
    events = {*TOOL_EVENTS, *OTHER_EVENTS, *surface("hook-event")}
    return {
        "hook-event": events,
        "hook-output": {name for e in events for k in (*HOOK_OUTPUTS, *output_kinds(e))
                        for name in _surface_names(e, k)},
        "hook-handler": {"command.command", *(f"command.{o}" for o in HANDLER_OPTIONS),
                         *(f"{t}.{o}" for t in HANDLER_TYPES for o in (*HANDLER_TYPES[t], *type_options(t)))},
        "skill-key": {*_SKILL_OWN, *SKILL_EXTRA},
        "agent-key": {*_AGENT_OWN, *AGENT_EXTRA},
        "tool": {tool for tool, _ in TOOL_CALLS.values()} | {"Skill", "Agent"},
        "rule-form": {_rule_form(rule) for rule in RULES},
        "setting": {*SETTINGS_OWN, *SETTING_VALUES},
    }
