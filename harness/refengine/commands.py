"""Project and user commands (``.claude/commands/<name>.md``, ``~/.claude/commands/<name>.md``) as skills.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (skill-tool-project-command): the engine lists them among the
skills, after the user's and the project's skills and before the bundled ones, ``- <name>: <description>``; a
``Skill {skill: <name>}`` call answers ``Launching skill: <name>`` and injects the body alone, as for a plugin's
command. Their order: by name across both levels (the only reading two measurements share: a project ``hello``
before a user ``plan``, a user ``alpha`` before a project ``mid``).

A project command in a sub-folder, ``.claude/commands/ns/deploy.md``, is the command ``ns:deploy``: listed as
``- ns:deploy: <description>`` and typed as ``/ns:deploy args`` (slash.py); ``/deploy`` does not find it (measured
on 2.1.252 to 2.1.332, case slash-command-namespaced). The same for a user's ``~/.claude/commands/ops/deploy.md``
(slash-user-command-namespaced).

Not modelled, so not-modelled for the whole run: a command without ``description`` (what the listing shows
then), frontmatter other than ``description`` and ``allowed-tools`` (``argument-hint`` and ``model`` may show in
the listing), a command in a sub-folder (namespaced) other than the measured one, the same name at both levels
or beside a skill, and a command with ``allowed-tools`` or in a sub-folder called through the Skill tool.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from harness.refengine.config_model import SkillDef
from harness.refengine.definition_files import skill_def
from harness.refengine.frontmatter import split_frontmatter

_MEASURED_KEYS = frozenset({"description", "allowed-tools"})


def project_commands(roots: Iterable[Path], warnings: list[str], *, taken: set[str]) -> dict[str, SkillDef]:
    """The commands of ``roots`` (the user's, the project's ``commands`` folders, those the run loads) as skills,
    in listing order."""
    roots = list(roots)
    roots_seen = set(roots)  # the folders whose direct sub-folders were measured (project and user)
    files = [p for root in roots if root.is_dir() for p in root.glob("*.md")]
    names = [p.stem for p in files]
    out: dict[str, SkillDef] = {}
    for path in sorted(files, key=lambda p: p.stem):
        skill = skill_def(path, warnings, name=path.stem, command=True)
        meta, _ = split_frontmatter(path.read_text(encoding="utf-8"))
        problems = [*skill.unmodelled, *_problems(path, meta, clash=names.count(path.stem) > 1 or path.stem in taken)]
        out[path.stem] = skill if problems == list(skill.unmodelled) else _with_problems(skill, problems)
    for path in sorted(p for root in roots if root.is_dir() for p in root.glob("*/**/*.md")):
        name = f"{path.parent.name}:{path.stem}"
        skill = skill_def(path, warnings, name=name, command=True)
        meta, _ = split_frontmatter(path.read_text(encoding="utf-8"))
        problems = [*skill.unmodelled, *_problems(path, meta, clash=name in taken or name in out)]
        if path.parent.parent not in roots_seen or len(files) + len(out) > 0:
            # Measured: one command in one sub-folder of the project's or the user's commands folder, no other
            # command beside it (its place among other commands and deeper folders are not).
            problems.append(f"a command in a sub-folder of a commands folder ({path.parent.name}/{path.name}) "
                            "beside other commands or deeper (measured: one project or user command in one "
                            "sub-folder)")
        out[name] = _with_problems(skill, problems)
    return out


def _problems(path: Path, meta: Mapping[str, Any], *, clash: bool) -> list[str]:
    problems = []
    if unknown := sorted(set(meta) - _MEASURED_KEYS):
        problems.append(f"command {path.stem!r} frontmatter {', '.join(unknown)} (how the skill listing shows a "
                        "command with it is not measured)")
    if "description" not in meta:
        problems.append(f"command {path.stem!r} without a description (its skill listing line is not measured)")
    if clash:
        problems.append(f"command {path.stem!r} defined twice or beside a skill of that name (listing unmeasured)")
    return problems


def _with_problems(skill: SkillDef, problems: list[str]) -> SkillDef:
    return replace(skill, unmodelled=tuple(problems))
