"""Files that hook handlers running at the same time write, read from a case's files.

The engine runs every handler of one event at once (measured: two PreToolUse handlers appending to one file
leave their lines in either order, cases hook-option-args-events and hook-event-payloads), so the order of
their lines in a shared file is the scheduler's, not the engine's behaviour. A case compares such a file as
``unordered_files`` (its lines sorted), or gives each handler a file of its own. This module finds the files
two handlers of one event may both write while the case compares them in order, so a case that would flake
under load is named before it does.

What a handler writes is read from its text: the inline command (and its ``args``), the fixture script it
names, or for an ``http`` handler the script of the case server its URL names. A file counts as written when
the text names it after a shell redirection (``>> "$CLAUDE_PROJECT_DIR/ran.txt"``) or as a quoted literal
(``open(os.path.join(root, "hooks.txt"), "a")``). Two handlers race only where both can fire for one
trigger: same event, and matchers that both fit one name the case's turns call (a tool, a subagent type), or for
an event without such names, matchers that are equal or match everything. Identical handlers count once, as
the engine runs them once (cases clash-hooks-*: ``SAME-HANDLER`` once). Handlers that never run together are
left out: two definitions of one skill or agent (only one is used, cases clash-agent-*), a settings file with
a matcher that is not a string (the engine skips the whole file, silent-hook-matcher-list), and every handler of
a case whose settings say ``disableAllHooks: true``.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from harness.case.spec import Case, Turn

_FRONTMATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.S)
# A file a shell line writes: the word after a > or >> that follows a space (quotes and the project-dir variable
# taken off); not an arrow or a comparison of a script's code (``-> None:``, ``=>``, ``>=``), nor ``2>``.
_REDIRECT = re.compile(r"""(?:^|(?<=[\s;|&(]))>>?(?!=)\s*(["']?)([^\s"';|&<>()=]+)\1""", re.M)
# A comment line of a shell or Python script: what it says is not run.
_COMMENT = re.compile(r"^\s*#.*$", re.M)
# A file named as a quoted literal in a script (Python, JavaScript): written when the script opens it.
_QUOTED = re.compile(r"""["']([\w.\-/]*[\w\-]\.(?:txt|jsonl|log|out|json))["']""")
_PROJECT_DIR = re.compile(r"^(?:\$\{?CLAUDE_PROJECT_DIR\}?|\$\{?PWD\}?|\.)/")
_PORT = re.compile(r"\{\{port:([\w-]+)\}\}")
#: Events whose matcher is matched against the called tool's name, and those matched against a subagent type.
_TOOL_EVENTS = {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}
_AGENT_EVENTS = {"SubagentStart", "SubagentStop"}
_AGENT_TOOLS = {"Agent", "Task"}


@dataclass(frozen=True)
class Handler:
    event: str
    matcher: str
    identity: str
    """What makes two handlers one for the engine (type, command, args, url, prompt)."""
    text: str
    """The handler's own text and the scripts it runs."""
    origin: str
    """The file that declares it, in the working copy (``~/`` for the HOME folder)."""
    scope: str = ""
    """For a handler in a skill's or agent's frontmatter, that definition's name: of two definitions with one
    name only one is used."""


@dataclass(frozen=True)
class SharedWrite:
    event: str
    file: str
    handlers: tuple[Handler, ...]

    def __str__(self) -> str:
        origins = "; ".join(f"{h.origin}: {h.identity}" for h in self.handlers)
        return f"{self.file}: written by {len(self.handlers)} {self.event} handlers at once ({origins})"


def shared_writes(case: Case) -> list[SharedWrite]:
    """Each file two handlers of one event may write at once that ``case`` compares in order."""
    by_event: dict[str, dict[str, Handler]] = {}
    for handler in _handlers(case):
        by_event.setdefault(handler.event, {}).setdefault(handler.identity, handler)
    unordered = {_relative(name) for name in case.unordered_files}
    names = _trigger_names(case)
    called = names["SubagentStart"]
    background = any(
        t.call is not None and t.call.name in _AGENT_TOOLS and t.call.input.get("run_in_background") is not False
        for t in _turns(case)
    )
    out = []
    for event, found in sorted(by_event.items()):
        writers: dict[str, list[Handler]] = {}
        for handler in found.values():
            if handler.scope.startswith("agent:") and handler.scope[len("agent:") :] not in called:
                continue  # an agent's own hooks run only while that agent runs
            for name in written_files(handler.text):
                writers.setdefault(name, []).append(handler)
        for name, group in sorted(writers.items()):
            if name not in unordered and _together(group, names.get(event), background=background):
                out.append(SharedWrite(event, name, tuple(group)))
    return out


def written_files(text: str) -> set[str]:
    """The working-copy files a handler's text writes (paths relative to the working copy)."""
    text = _COMMENT.sub("", text)
    names = {m.group(2) for m in _REDIRECT.finditer(text)} | {m.group(1) for m in _QUOTED.finditer(text)}
    out = {_relative(n) for n in names if not n.startswith("/dev/")}
    return {n for n in out if "$" not in n and re.search(r"\w", n)}


def _handlers(case: Case) -> Iterator[Handler]:
    """Every hook handler the case's files declare that can run: settings files, plugin ``hooks.json``,
    skill and agent frontmatter, in the working copy and the HOME folder."""
    files = dict(_files(case))
    servers = {s.name: " ".join(s.command) for s in case.servers}
    declared: list[tuple[str, str, Any]] = []  # (file, scope, hooks)
    disable: set[bool] = set()
    for rel, path in files.items():
        if path.suffix == ".json" and (path.name.startswith("settings") or path.name == "hooks.json"):
            data = _json(path)
            data = data if isinstance(data, dict) else {}
            if isinstance(data.get("disableAllHooks"), bool):
                disable.add(data["disableAllHooks"])
            declared.append((rel, "", data.get("hooks")))
        elif path.suffix == ".md" and (path.name == "SKILL.md" or path.parent.name == "agents"):
            declared.append((rel, _scope(rel, path), _frontmatter(path).get("hooks")))
    if disable == {True}:
        return  # which hooks still run depends on each file's rank: no handler counts
    for rel, scope, hooks in declared:
        actions = list(_actions(hooks))
        if any(not isinstance(matcher, str) for _, matcher, _ in actions):
            continue  # the engine skips the whole file (silent-hook-matcher-list, silent-hook-matcher-number)
        for event, matcher, action in actions:
            yield Handler(event, str(matcher), _identity(action), _text(action, files, servers), rel, scope)


def _scope(rel: str, path: Path) -> str:
    """A skill or agent definition's name, with its plugin folder for one of a plugin (``team:greet`` is
    another skill than ``greet``, cases clash-skill-*)."""
    meta = _frontmatter(path)
    skill = path.name == "SKILL.md"
    name = meta.get("name") or (path.parent.name if skill else path.stem)
    folder = rel.split("/skills/" if skill else "/agents/")[0]
    manifest = _json(path.parents[2 if skill else 1] / ".claude-plugin" / "plugin.json")
    plugin = "" if folder in (".claude", "~/.claude") else f"{_plugin_name(manifest, folder)}:"
    return f"{'skill' if skill else 'agent'}:{plugin}{name}"


def _plugin_name(manifest: Any, folder: str) -> str:
    name = manifest.get("name") if isinstance(manifest, dict) else None
    return str(name) if name else folder.rsplit("/", 1)[-1]


def _actions(hooks: Any) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    if not isinstance(hooks, dict):
        return
    for event, groups in hooks.items():
        for group in groups if isinstance(groups, list) else ():
            if not isinstance(group, dict):
                continue
            for action in group.get("hooks") or ():
                if isinstance(action, dict):
                    yield str(event), group.get("matcher") or "", action


def _identity(action: dict[str, Any]) -> str:
    keys = ("type", "command", "args", "url", "prompt")
    return json.dumps({k: action[k] for k in keys if k in action}, sort_keys=True)


def _text(action: dict[str, Any], files: dict[str, Path], servers: dict[str, str]) -> str:
    """The handler's command line, and the text of each fixture file or server script it names."""
    own = " ".join(str(action.get(k, "")) for k in ("command", "url"))
    own += " " + " ".join(str(a) for a in action.get("args") or ())
    for name in _PORT.findall(own):
        own += " " + servers.get(name, "")
    out = [own]
    for word in _words(own):
        script = files.get(_relative(word))
        if script is not None and script.stat().st_size < 200_000:
            out.append(script.read_text(errors="replace"))
    return "\n".join(out)


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _trigger_names(case: Case) -> dict[str, set[str]]:
    """What the matchers of tool and subagent events are matched against in this case's run: the tools its
    turns call and the subagent types its Agent calls name."""
    calls = [t.call for t in _turns(case)]
    tools = {c.name for c in calls if c is not None}
    agents = {str(c.input.get("subagent_type") or "general-purpose") for c in calls if c and c.name in _AGENT_TOOLS}
    return {**{e: tools for e in _TOOL_EVENTS}, **{e: agents for e in _AGENT_EVENTS}}


def _turns(case: Case) -> list[Turn]:
    return [t for s in case.steps for t in s.turns] + [t for c in case.contexts for t in c.turns]


def _together(group: list[Handler], names: set[str] | None, *, background: bool) -> bool:
    """Whether two of the handlers can fire for one trigger."""
    for i, a in enumerate(group):
        for b in group[i + 1 :]:
            if a.scope and a.scope == b.scope and a.origin != b.origin:
                continue  # two definitions of one skill or agent: one of them is used
            agents = a.scope.startswith("agent:") and b.scope.startswith("agent:")
            if agents and a.origin != b.origin and not background:
                continue  # an agent's hooks live while it runs, and the case's agents run one after another
            if a.matcher == b.matcher or _matches_all(a.matcher) or _matches_all(b.matcher):
                return True
            if names is not None and any(_hits(a.matcher, n) and _hits(b.matcher, n) for n in names):
                return True
    return False


def _matches_all(matcher: str) -> bool:
    return matcher in ("", "*")


def _hits(matcher: str, name: str) -> bool:
    """The engine's matcher rule (the reference engine's reading, measured on every pinned version)."""
    from harness.refengine.hooks import matcher_hits
    from harness.refengine.profiles import newest_measured, profile_for

    return matcher_hits(matcher, name, profile=profile_for(newest_measured()), debug=lambda _: None)


def _relative(name: str) -> str:
    return _PROJECT_DIR.sub("", name.strip("\"'"))


def _files(case: Case) -> Iterator[tuple[str, Path]]:
    """The case's files as the run lays them out (a base case's file the case's own replaces left out), by
    their path in the working copy; HOME files under ``~/``."""
    seen: set[str] = set()
    roots = [(d, "") for d in reversed(case.fixture_dirs) if case.project is None or d == case.directory]
    roots += [(d, "~/") for d in reversed(case.home_dirs)]
    for root, prefix in roots:
        excluded = case.own_files_excluded(root) if not prefix else ()
        for path in sorted(root.rglob("*")):
            rel = prefix + path.relative_to(root).as_posix()
            if any(path == x or x in path.parents for x in excluded):
                continue
            if path.is_file() and rel not in seen:
                seen.add(rel)
                yield rel, path


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None  # a fixture may hold broken JSON on purpose: it declares no handler


def _frontmatter(path: Path) -> dict[str, Any]:
    m = _FRONTMATTER.match(path.read_text(errors="replace"))
    try:
        data = yaml.safe_load(m.group(1)) if m else None
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}
