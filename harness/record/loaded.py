"""What a recorded session loaded from outside the repository, carried into its case so that it replays.

A session transcript names the skills and agents the model called, not where they came from. A skill
called ``<plugin>:<skill>`` came from a plugin: the plugin folder (named with ``record --plugin-dir``, else
found in the repository by its manifest's name) becomes ``run.flags.plugin_dirs``; a folder from outside
the repository is copied into the case (``plugins/<name>/``). A plain skill or an agent the repository does
not define, but the session's HOME does (``~/.claude/skills/<name>/``, ``~/.claude/agents/<name>.md``), is
copied into the case's own HOME layout (``home/.claude/...``, ``home: home``), that one skill or agent
only: never settings, credentials or history. Anything it cannot find is a note of the case, with what to
pass. Without this a plugin's skill replays as ``Unknown skill: fleet-ops:incident-note``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

from harness.errors import UsageError
from harness.record.model import RecordedCall, Recording
from harness.refengine.plugins import MANIFEST
from harness.suite import RESULTS_DEFAULT

#: Folders never searched for a plugin of the repository (what a copy of it leaves out, and noise).
_SKIP = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", RESULTS_DEFAULT})


@dataclasses.dataclass(frozen=True, kw_only=True)
class Copy:
    """A folder or file the case needs, copied to ``to`` (relative to the case folder)."""

    source: Path
    to: str


def carry(
    rec: Recording, *, project: Path | None, plugin_dirs: Sequence[Path], user: Path | None
) -> tuple[Recording, list[Copy]]:
    """``rec`` with the plugin dirs and HOME layout its case needs, and the files to copy into the case;
    ``user``: the session's ``~/.claude`` (the folder whose ``projects/`` holds the session file)."""
    calls = list(_calls(rec))
    copies: list[Copy] = []
    notes: list[str] = []
    flags: list[str] = []
    named = {_plugin_name(p): p.resolve() for p in plugin_dirs}
    used: set[str] = set()
    for plugin in sorted({str(c.input["skill"]).split(":", 1)[0] for c in calls if _skill(c) and ":" in _skill(c)}):
        folder = named.get(plugin) or _in_repository(plugin, project)
        if folder is None:
            notes.append(f"the session called a skill of the plugin {plugin}, which no --plugin-dir names and the"
                         f" repository does not hold: record again with --plugin-dir DIR, or the case replays as"
                         f" 'Unknown skill: {plugin}:...'")
            continue
        used.add(plugin)
        flags.append(_plugin_flag(plugin, folder, project=project, copies=copies, notes=notes))
    for plugin in sorted(set(named) - used):
        # named but none of its skills called: its hooks or agents may still have been at work in the session
        flags.append(_plugin_flag(plugin, named[plugin], project=project, copies=copies, notes=notes))
    copies += _user_files(calls, user=user, project=project, notes=notes)
    uses_home = any(c.to.startswith("home/") for c in copies)
    return dataclasses.replace(rec, plugin_dirs=tuple(flags), uses_home=uses_home, notes=(*rec.notes, *notes)), copies


def _plugin_flag(plugin: str, folder: Path, *, project: Path | None, copies: list[Copy], notes: list[str]) -> str:
    """The ``run.flags.plugin_dirs`` entry of a plugin: where the working copy has it, else a copy in the case."""
    if project is not None and folder.is_relative_to(project.resolve()):
        return folder.relative_to(project.resolve()).as_posix()
    copies.append(Copy(source=folder, to=f"plugins/{plugin}"))
    notes.append(f"the plugin {plugin} ({folder}) is copied into the case (plugins/{plugin}) and loaded with"
                 " run.flags.plugin_dirs")
    return f"plugins/{plugin}"


def place(copies: Sequence[Copy], *, case_folder: Path) -> None:
    """Copy each file or folder into the case (links are copied as links, never followed out)."""
    for copy in copies:
        target = case_folder / copy.to
        target.parent.mkdir(parents=True, exist_ok=True)
        if copy.source.is_dir():
            shutil.copytree(copy.source, target, symlinks=True, dirs_exist_ok=True)
        else:
            shutil.copy2(copy.source, target, follow_symlinks=False)


def _calls(rec: Recording) -> Iterator[RecordedCall]:
    for turns in [s.turns for s in rec.steps] + [c.turns for c in rec.contexts]:
        yield from (t.call for t in turns if t.call is not None)


def _skill(call: RecordedCall) -> str:
    return str(call.input.get("skill", "")) if call.name == "Skill" else ""


def _plugin_name(folder: Path) -> str:
    try:
        name = json.loads((folder / MANIFEST).read_text(encoding="utf-8")).get("name")
    except (OSError, ValueError, AttributeError):
        raise UsageError(f"--plugin-dir {folder}: no readable {MANIFEST} there, so it is not a plugin folder") from None
    if not isinstance(name, str) or not name:
        raise UsageError(f"--plugin-dir {folder}: {MANIFEST} has no name")
    return name


def _in_repository(plugin: str, project: Path | None) -> Path | None:
    if project is None:
        return None
    for here, dirs, _files in os.walk(project):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP)
        folder = Path(here)
        if (folder / MANIFEST).is_file():
            try:
                if _plugin_name(folder) == plugin:
                    return folder.resolve()
            except UsageError:
                continue
    return None


def _user_files(calls: list[RecordedCall], *, user: Path | None, project: Path | None, notes: list[str]) -> list[Copy]:
    """The session HOME's skills and agents the session called that the repository does not define."""
    ours = project / ".claude" if project is not None else None
    out: list[Copy] = []
    skills = sorted({_skill(c) for c in calls if _skill(c) and ":" not in _skill(c)})
    agents = sorted({str(c.input.get("subagent_type")) for c in calls
                     if c.name in ("Agent", "Task") and c.input.get("subagent_type")})
    for kind, names, where in (("skill", skills, "skills/{}"), ("agent", agents, "agents/{}.md")):
        for name in names:
            relative = where.format(name)
            if ours is not None and (ours / relative).exists():
                continue  # the repository's own: the working copy has it
            if user is not None and (user / relative).exists():
                out.append(Copy(source=user / relative, to=f"home/.claude/{relative}"))
                notes.append(f"the user's {kind} {name} (~/.claude/{relative}) is copied into the case's HOME layout"
                             f" (home/.claude/{relative})")
            elif kind == "skill" and user is not None:
                notes.append(f"the session called the skill {name}, which neither the repository nor the session's"
                             f" HOME ({user}) defines: a built-in skill, or one the case cannot load")
    return out
