"""What a claude release knows, read from its bundle: the JavaScript inside the native binary (or ``cli.js``).

Every reader goes by the structure the release itself defines: the array literal that lists the hook
events, the zod object schemas of the hook output, the hook handlers, the skill and agent frontmatter and
the settings file, and the examples the permission-rule validator prints. Minified names change from
release to release, so none is used; where a reader needs a known name to find its structure, the name
it anchors on is given in its comment, and it is one every pinned release has.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

from harness.surface import jsparse
from harness.surface.model import Kind

#: Settings keys that belong to the contract this suite checks: hooks, permissions, skills, agents,
#: plugins and MCP (the rest, e.g. themes or spinners, is user interface).
_SETTINGS_TOPIC = re.compile(r"hook|permission|skill|agent|plugin|marketplace|mcp|sandbox|directories", re.I)


def bundle_text(executable: Path) -> str:
    """The release's printable runs of 6 bytes or more (what ``strings -n 6`` prints), one a line: the
    bundled JavaScript as written, without the machine code around it."""
    if shutil.which("strings"):  # binutils: ten times faster than the same scan in Python
        done = subprocess.run(
            ["strings", "-a", "-n", "6", str(executable)], capture_output=True, check=False, timeout=600
        )
        if done.returncode == 0:
            return done.stdout.decode("latin-1")
    runs = re.findall(rb"[\x20-\x7e\t]{6,}", executable.read_bytes())
    return b"\n".join(runs).decode("ascii")


def _keys(text: str, start: int) -> list[str]:
    return [k for k, _ in jsparse.top_level_keys(text, start)]


def hook_events(text: str) -> set[str]:
    """The largest array literal of event names that holds ``PreToolUse`` (the anchor: the one event
    every release has); the release's own list of hook events, of which every other list is a part."""
    lists = [a for a in jsparse.string_arrays(text) if "PreToolUse" in a and all(_is_event(x) for x in a)]
    return max((set(a) for a in lists), key=len, default=set())


def _is_event(name: str) -> bool:
    return re.fullmatch(r"[A-Z][A-Za-z]+", name) is not None


def _literal(text: str, at: int) -> str | None:
    """The string of a literal schema (``P("Stop")``) that starts at ``at``."""
    m = re.match(r'[\w$]+\("([^"]*)"\)', text[at : at + 200])
    return m.group(1) if m else None


def hook_outputs(text: str) -> set[str]:
    """The JSON a hook prints: the keys of the output schema (the object with ``continue`` and
    ``hookSpecificOutput``: the anchor), and ``Event.key`` for every object schema whose
    ``hookEventName`` is a literal (the per-event ``hookSpecificOutput``)."""
    out: set[str] = set()
    for start in jsparse.objects_with_key(text, "hookSpecificOutput"):
        keys = _keys(text, start)
        if "continue" in keys:
            out.update(keys)
    for start in jsparse.objects_with_key(text, "hookEventName"):
        pairs = jsparse.top_level_keys(text, start)
        event = _literal(text, dict(pairs)["hookEventName"])
        if event is not None and _is_event(event):
            out.update(f"{event}.{k}" for k, _ in pairs if k != "hookEventName")
    return out


def hook_handlers(text: str) -> set[str]:
    """``type.option`` for each hook handler schema: an object whose ``type`` is a literal described as a
    "... hook type" (the anchor: the wording of the handler schemas' descriptions) and which has a
    ``timeout``."""
    out: set[str] = set()
    for start in jsparse.objects_with_key(text, "timeout"):
        pairs = dict(jsparse.top_level_keys(text, start))
        if "type" not in pairs:
            continue
        m = re.match(r'[\w$]+\("([a-z_]+)"\)\.describe\("[^"]*hook type', text[pairs["type"] : pairs["type"] + 200])
        if m:
            out.update(f"{m.group(1)}.{k}" for k in pairs if k != "type")
    return out


def _extensions(text: str, start: int) -> list[str]:
    """Keys an ``X().extend({...})`` adds to the schema defined as ``X=p(()=>u({...}))`` at ``start``."""
    m = re.search(r"([\w$]+)=[\w$]+\(\(\)=>[\w$]+\($", text[max(0, start - 80) : start])
    if not m:
        return []
    keys: list[str] = []
    for ext in re.finditer(re.escape(m.group(1)) + r"\(\)\.extend\(\{", text):
        keys += _keys(text, ext.end() - 1)
    return keys


def skill_frontmatter(text: str) -> set[str]:
    """The skill frontmatter schema: the object with ``disable-model-invocation`` (the anchor) and the
    most keys, with what its ``.extend(...)`` adds."""
    objects = [(len(_keys(text, s)), s) for s in jsparse.objects_with_key(text, "disable-model-invocation")]
    if not objects:
        return set()
    start = max(objects)[1]
    return set(_keys(text, start)) | set(_extensions(text, start))


def agent_frontmatter(text: str) -> set[str]:
    """The agent frontmatter schema: the object with ``color`` (the anchor: the display colour only an
    agent file carries; the SDK's agent definition has none), ``tools`` and ``permissionMode``."""
    out: set[str] = set()
    for start in jsparse.objects_with_key(text, "color"):
        keys = _keys(text, start)
        if {"tools", "permissionMode", "description"} <= set(keys):
            out.update(keys)
    return out


def settings_keys(text: str) -> set[str]:
    """Keys of the settings schema (the object with ``disableAllHooks`` and ``permissions``: the anchor)
    on hooks, permissions, skills, agents, plugins and MCP, and ``permissions.key`` for the keys of its
    permissions object (the object with ``allow`` and ``defaultMode``)."""
    out: set[str] = set()
    for start in jsparse.objects_with_key(text, "disableAllHooks"):
        keys = _keys(text, start)
        if "permissions" in keys:
            out.update(k for k in keys if _SETTINGS_TOPIC.search(k))
    for start in jsparse.objects_with_key(text, "defaultMode"):
        keys = _keys(text, start)
        if "allow" in keys and "deny" in keys:
            out.update(f"permissions.{k}" for k in keys)
    return out


def rule_forms(text: str) -> set[str]:
    """The permission rule forms the rule validator shows as examples (``examples:[...]``, the anchor: the
    key of its hints), each abstracted to its shape: ``WebFetch(domain:example.com)`` is
    ``WebFetch(domain:<host>)``."""
    out: set[str] = set()
    for m in re.finditer(r"examples:\[", text):
        end = jsparse.end_of(text, m.end() - 1)
        for literal in re.finditer(r'"([^"\n]*)"|`([^`\n]*)`', text[m.end() : end - 1]):
            form = rule_shape(literal.group(1) if literal.group(1) is not None else literal.group(2))
            if form:
                out.add(form)
    return out


def rule_shape(example: str) -> str | None:
    """The shape of one example rule, or None when the string is not a rule."""
    rule = re.sub(r"\$\{[^}]*\}", "<tool>", example.split(" - ")[0].strip())
    if rule.startswith("mcp__"):
        parts = rule.split("__")
        if len(parts) == 2:
            return "mcp__<server>"
        tool = parts[2]
        tool = tool if tool in ("*", "<tool>") else "<prefix>*" if tool.endswith("*") else "<tool>"
        return f"mcp__<server>__{tool}"
    m = re.fullmatch(r"([A-Z][A-Za-z]*|<tool>)(?:\((.*)\))?", rule)
    if not m:
        return None
    tool, content = m.group(1), m.group(2)
    if content is None:
        return tool
    if content.startswith("domain:"):
        shape = "domain:*.<host>" if content.startswith("domain:*.") else "domain:<host>"
    elif content.endswith(":*"):
        shape = "<prefix>:*"
    elif content.endswith(" *"):
        shape = "<prefix> *"
    elif "*" in content or "/" in content:
        shape = "<glob>"
    else:
        shape = "<specifier>"
    return f"{tool}({shape})"


_READERS = {
    Kind.HOOK_EVENT: hook_events,
    Kind.HOOK_OUTPUT: hook_outputs,
    Kind.HOOK_HANDLER: hook_handlers,
    Kind.SKILL_KEY: skill_frontmatter,
    Kind.AGENT_KEY: agent_frontmatter,
    Kind.SETTING: settings_keys,
    Kind.RULE_FORM: rule_forms,
}


def from_bundle(text: str, kinds: Iterable[Kind] = _READERS) -> dict[Kind, set[str]]:
    return {kind: _READERS[kind](text) for kind in kinds}
