"""What a fixture may hold for the reference engine to answer at all: the settings keys and frontmatter keys it
has measurements for, and where memory files lie (memory.py reads those it models). Anything else makes the
run ``not-modelled`` (NotModelled names the element), because the real engine reads it and the reference would
otherwise answer as if it were absent.

load_project only collects these (``ProjectConfig.unmodelled``): ``cc-harness init`` reads a repository with
the same loader, and the engine raises when a run starts (session.py).

Each known key below is either read by the reference engine (config.py, web.py) or was measured to change
nothing in the scenario a case of the suite pins (the ``silent-skill-key-*`` cases for skill keys).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from harness.refengine import settings_keys
from harness.refengine.errors import NotModelled

#: Settings keys the engine reads; ``$schema`` only points an editor at the schema. Keys measured to change nothing
#: (or one thing) with some values are settings_keys.py's.
SETTINGS_KEYS = frozenset({
    "$schema", "hooks", "permissions", "disableAllHooks", "enableAllProjectMcpServers", "enabledMcpjsonServers",
    "skipWebFetchPreflight", "disabledMcpjsonServers", "allowedMcpServers", "deniedMcpServers",
    "env",
})
#: Keys of ``permissions`` it reads (``defaultMode``, ``additionalDirectories``, ... are not modelled).
PERMISSIONS_KEYS = frozenset({"allow", "deny", "ask"})

#: Skill frontmatter: read by definition_files.skill_def, or measured ignored by a ``silent-skill-key-*`` case.
SKILL_KEYS = frozenset({
    "name", "description", "when_to_use", "allowed-tools", "allowedTools", "disallowed-tools", "disallowedTools",
    "context", "agent", "hooks", "disable-model-invocation", "paths",
    "argument-hint", "arguments", "compatibility", "effort", "license", "metadata", "model", "shell",
    "user-invocable", "version",
})
#: Agent frontmatter read by definition_files.agent_def (``prompt`` is an ``--agents`` entry's body). Not modelled:
#: permissionMode, mcpServers, memory, maxTurns, isolation, background, effort, initialPrompt, color, ...
AGENT_KEYS = frozenset({"name", "description", "tools", "disallowedTools", "skills", "hooks", "model", "prompt"})

#: Skills that ship with the engine and that it lists to the model (the list in 2.1.332's bundle; update-config is
#: measured in the listing on 2.1.252 to 2.1.332: skill-setting-bundled-enabled). This engine lists none of them, so a
#: check on the model's text that names one is not modelled. Names that are everyday words (commit, debug, loop,
#: pr, verify, batch) are left out: a case's text names them for other reasons.
BUNDLED_SKILLS = frozenset({
    "artifact-diagramming", "claude-code-docs", "code-review", "dataviz", "explain-usage", "fewer-permission-prompts",
    "keybindings-help", "memory-types", "plugin-authoring", "simplify", "update-config", "workflow-authoring",
})

#: File names the real engine loads as memory (instructions in the model's context).
_MEMORY_NAMES = frozenset({"CLAUDE.md", "CLAUDE.local.md"})
#: Folders the walk for memory files skips: never part of a fixture's instructions.
_SKIPPED = frozenset({".git", "node_modules", "__pycache__", ".venv", "venv"})


def _unknown(keys: Iterable[Any], known: frozenset[str]) -> list[str]:
    return sorted(str(k) for k in keys if str(k) not in known)


def settings_problem(path: Path, settings: Mapping[str, Any], level: str) -> str | None:
    """What the ``level`` settings file the run reads holds that the engine does not model, if anything: a key it
    neither reads nor has measured (settings_keys.py), or a measured key with a value or in a file not measured."""
    if unknown := _unknown(settings, SETTINGS_KEYS | settings_keys.INERT.keys()):
        return f"settings key {', '.join(unknown)} in {path.name} (unknown settings key)"
    for key in sorted(settings_keys.INERT.keys() & settings.keys()):
        if problem := settings_keys.problem(level, path.name, key, settings[key]):
            return problem
    perms = settings.get("permissions")
    if not isinstance(perms, Mapping):
        return None
    if unknown := _unknown(perms, PERMISSIONS_KEYS | settings_keys.PERMISSIONS.keys()):
        return f"settings key permissions.{', permissions.'.join(unknown)} in {path.name}"
    for key in sorted(settings_keys.PERMISSIONS.keys() & perms.keys()):
        if problem := settings_keys.problem(level, path.name, key, perms[key], permissions=True):
            return problem
    return None


def frontmatter_problem(kind: str, name: str, meta: Mapping[str, Any], known: frozenset[str]) -> str | None:
    """A key of ``kind`` (skill or agent) ``name``'s frontmatter the engine does not model, if any."""
    if unknown := _unknown(meta, known):
        return f"{kind} {name!r} frontmatter key {', '.join(unknown)} (unknown frontmatter key)"
    return None


def memory_files(workdir: Path, home: Path) -> list[Path]:
    """CLAUDE.md, CLAUDE.local.md and ``.claude/rules/`` in the working copy (any depth) and the user's
    ``~/.claude``: what the real engine may put in the model's context (memory.py says which it models)."""
    found = [p for p in (home / ".claude" / "CLAUDE.md", home / ".claude" / "rules") if p.exists()]
    folders = [workdir]  # a stack, not os.walk: that recurses once per level (a fixture may be 1200 deep)
    while folders:
        root = folders.pop()
        try:
            entries = sorted(os.scandir(root), key=lambda e: e.name)
        except OSError:
            continue
        dirs = [e for e in entries if _is_dir(e) and e.name not in _SKIPPED]  # as os.walk: links to folders too
        found += [root / e.name for e in entries if e.name in _MEMORY_NAMES and not _is_dir(e)]
        if root.name == ".claude" and any(e.name == "rules" for e in dirs):
            found.append(root / "rules")
        folders += [root / e.name for e in reversed(dirs) if not e.is_symlink()]  # never descended into
    return found


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def raise_unmodelled(problems: Iterable[str]) -> None:
    """At the start of a run: the first thing the fixture holds that the engine does not model."""
    for problem in problems:
        raise NotModelled(problem)
