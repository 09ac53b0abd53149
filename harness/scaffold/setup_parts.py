"""The parts of a team's setup beyond ``.claude/``'s definitions, for ``cc-harness init``: plugins, the
permission rules, the results folder's place in ``.gitignore``.

Each part gets a case or a ``no case:`` line with the reason (docs/init.md), so a person reading init's
output sees every part of their setup accounted for.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from harness.errors import HarnessError
from harness.refengine.config import load_project
from harness.refengine.config_model import ProjectConfig, SkillDef
from harness.refengine.plugins import MANIFEST, load_plugin
from harness.refengine.profiles import Profile, profile_for
from harness.scaffold import rules
from harness.scaffold.casefile import Planned, Report, case_file, make_case, notes, slug
from harness.scaffold.definitions import agent_case, quotable_line, skill_case
from harness.suite import RESULTS_DEFAULT

#: Folders never searched for plugins: bulk, and the harness's own.
_SKIP = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", RESULTS_DEFAULT, ".cc-harness"})


def plan(
    root: Path, *, cases: Path, config: ProjectConfig, plugin_dirs: tuple[Path, ...], report: Report, profile: Profile
) -> list[Planned]:
    """The cases of the plugins, and a ``no case:`` line for each part left out."""
    out: list[Planned] = []
    for folder in _plugins(root, cases=cases, named=plugin_dirs, report=report):
        out += _plugin_case(folder, root=root, cases=cases, report=report)
    out += rules.plan(config.permissions, root=root, cases=cases, report=report,
                      hooked=rules.pre_tool_hooked(config.hooks, profile))
    for name in (".env", ".env.local"):
        if (root / name).is_file():
            report.skipped.append(
                f"{name}: secrets stay out of cases; a case that needs a value sets it in its own fixture"
            )
    report.skipped += memory_parts(root, cases=cases)
    return out


#: What a memory file's case would check, for the no-case lines of memory_parts.
_MEMORY_HOW = ("a case checks that a line of it reaches the model with offered: context: include:"
               " (docs/case-format.md)")


def memory_parts(root: Path, *, cases: Path) -> list[str]:
    """``no case:`` lines for what init reads no definition from: memory files (CLAUDE.md, with the files its
    ``@`` lines import), ``.claude/rules/`` and ``.claude/`` folders below the root, which the engine reads only
    when it works in that folder."""
    lines = []
    for name in ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md"):
        if (root / name).is_file():
            text = (root / name).read_text(encoding="utf-8", errors="replace")
            imports = [w[1:] for line in text.splitlines() for w in line.split() if w.startswith("@") and len(w) > 1]
            also = f" (and the files it imports: {', '.join(imports)})" if imports else ""
            lines.append(f"{name}{also}: init writes no case for memory files; {_MEMORY_HOW}")
    if (rules_dir := root / ".claude" / "rules").is_dir():
        found = sorted(p.relative_to(root).as_posix() for p in rules_dir.rglob("*.md"))
        if found:
            lines.append(f".claude/rules ({', '.join(found)}): init writes no case for rule files; {_MEMORY_HOW}")
    for here, dirs, _files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP and Path(here, d).resolve() != cases.resolve())
        if Path(here) != root and ".claude" in dirs:
            nested = (Path(here) / ".claude").relative_to(root).as_posix()
            lines.append(f"{nested}: a .claude/ folder below the repository's root: init reads the root's only;"
                         " a case whose fixture is that folder's package tests its definitions")
        dirs[:] = [d for d in dirs if d != ".claude"]
    return lines


def _plugins(root: Path, *, cases: Path, named: tuple[Path, ...], report: Report) -> Iterator[Path]:
    """Plugin folders: those named (``--plugin-dir``) and every ``.claude-plugin/plugin.json`` of the repository."""
    seen: set[Path] = set()
    for folder in named:
        folder = folder.expanduser().resolve()
        if not (folder / MANIFEST).is_file():
            report.warnings.append(f"--plugin-dir {folder}: no {MANIFEST} there, so it is not a plugin folder")
            continue
        seen.add(folder)
        yield folder
    for here, dirs, _files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP and Path(here, d).resolve() != cases.resolve())
        folder = Path(here).resolve()
        if (folder / MANIFEST).is_file() and folder not in seen:
            seen.add(folder)
            yield folder


def _plugin_case(folder: Path, *, root: Path, cases: Path, report: Report) -> list[Planned]:

    try:
        plugin = load_plugin(folder)
    except (HarnessError, KeyError, ValueError) as exc:
        report.skipped.append(f"plugin {folder}: cannot be read ({exc})")
        return []
    for part, items in (("agents", plugin.agents), ("hooks", plugin.hooks), ("MCP servers", plugin.mcp_servers)):
        if items:
            report.skipped.append(
                f"plugin {plugin.name}: its {part}: init scaffolds a plugin's skills only;"
                " write their cases by hand with run.flags.plugin_dirs (docs/case-format.md)"
            )
    skill = next(iter(plugin.skills), None)
    if skill is None:
        report.skipped.append(f"plugin {plugin.name}: it has no skills (init scaffolds a plugin's skills)")
        return []
    case_folder = cases / slug(f"plugin-{plugin.name}")
    inside = root in folder.parents
    # a plugin outside the repository is copied into the case, as the case's own files over the working copy
    where = folder.relative_to(root).as_posix() if inside else f"plugins/{plugin.name}"
    out = [] if inside else list(_copied(folder, case_folder / where))
    case = _skill_case(skill, plugin_dir=where, outside=None if inside else folder)
    out.append(case_file(case_folder, case, root=root, what=f"plugin {plugin.name}"))
    return out


def _skill_case(skill: SkillDef, *, plugin_dir: str, outside: Path | None) -> dict[str, object]:

    name = skill.name
    loaded: dict[str, object] = {"say": f"The {name} skill is loaded."}
    if line := quotable_line(skill.body):
        loaded = {"offered": {"context": {"include": [line]}}, **loaded}
    call = {
        "name": "Skill",
        "input": {"skill": name},
        "expect": {"result": f"Launching skill: {name}", "is_error": False},
    }
    source = (
        f"a copy of {outside} (outside the repository) kept in this case's {plugin_dir}/"
        if outside
        else (f"{plugin_dir}/ of the repository")
    )
    return make_case(
        f"The {name} plugin skill loads with --plugin-dir and its instructions reach the model",
        {"project": "../..", "run": {"permission_mode": "bypass", "flags": {"plugin_dirs": [plugin_dir]}}},
        f"Use the {name} skill.",
        [{"call": call}, loaded],
        notes=notes(
            f"the engine runs with --plugin-dir {plugin_dir} ({source}); the plugin's skill is named {name}, the"
            f" Skill call answers Launching skill: {name}, and the skill's body reaches the model's next request.",
            "Add the calls the skill leads to after the Skill call, each with an expect: of what it returns."
            + (" Refresh the copy when the plugin changes." if outside else ""),
        ),
    )


def _copied(source: Path, dest: Path) -> Iterator[Planned]:

    for path in sorted(source.rglob("*")):
        if path.is_file() and not _SKIP & set(path.relative_to(source).parts):
            text = path.read_text(encoding="utf-8", errors="replace")
            yield Planned(path=dest / path.relative_to(source), text=text, what="plugin file (a copy)")


def ignore_results(root: Path, results: Path) -> Planned | None:
    """``.gitignore`` with the results folder added, or None when git already ignores it (or it is elsewhere).

    A run's results are not part of the repository: left untracked, a case with ``project: ../..`` would
    copy them into every working copy."""

    try:
        rel = results.resolve().relative_to(root).as_posix()
    except ValueError:
        return None
    ignore = root / ".gitignore"
    text = ignore.read_text(encoding="utf-8") if ignore.is_file() else ""
    if any(line.strip().strip("/") == rel for line in text.splitlines()):
        return None
    added = (text if not text or text.endswith("\n") else text + "\n") + f"{rel}/\n"
    what = f"{rel}/ added: run results stay out of the repository and its copies"
    return Planned(path=ignore, text=added, what=what, update=True)


#: What init takes from a user's ``~/.claude``: definitions only, never credentials, history or caches.
_HOME_PARTS = ("skills", "agents")


def home_cases(claude_home: Path, *, root: Path, cases: Path, version: str, report: Report) -> list[Planned]:
    """A shared HOME layout (``<cases>/home/.claude``) with the user's skills and agents copied, and a case per
    skill and agent that uses it (``home: ../home``); a ``no case:`` line for every other entry of the folder."""
    import tempfile


    claude_home = claude_home.expanduser().resolve()
    if not claude_home.is_dir():
        report.warnings.append(f"--home {claude_home}: not a folder (name your ~/.claude)")
        return []
    shared = cases / "home" / ".claude"
    out: list[Planned] = []
    for entry in sorted(claude_home.iterdir()):
        if entry.name not in _HOME_PARTS:
            report.skipped.append(
                f"~/.claude/{entry.name}: not copied (init takes {' and '.join(_HOME_PARTS)} from a HOME; never"
                " credentials, settings, history or caches)"
            )
            continue
        for path in sorted(entry.rglob("*")):
            if path.is_file() and path.suffix == ".md":
                rel = path.relative_to(claude_home)
                out.append(
                    Planned(
                        path=shared / rel,
                        text=path.read_text(encoding="utf-8", errors="replace"),
                        what="user-level definition (a copy, shared by the home cases)",
                    )
                )
    with tempfile.TemporaryDirectory(prefix="cch-init-home-") as scratch:
        home, empty = Path(scratch) / "home", Path(scratch) / "work"
        (home / ".claude").mkdir(parents=True)
        empty.mkdir()
        for part in _HOME_PARTS:
            if (claude_home / part).is_dir():
                (home / ".claude" / part).symlink_to(claude_home / part)
        config = load_project(workdir=empty, home=home, trusted=True)
    profile = profile_for(version)
    user = (
        "User-level: from your ~/.claude, copied into the shared layout home/ of the folder of cases (home: ../home)."
    )
    for skill in config.skills.values():
        case = skill_case(skill, root=root, profile=profile, report=report)
        if case is not None:
            case["notes"] += "\n" + user
            out.append(
                case_file(
                    cases / slug(f"user-skill-{skill.name}"),
                    {**case, "home": "../home"},
                    root=root,
                    what=f"user skill {skill.name}",
                )
            )
    for agent in config.agents.values():
        if agent.user_level:
            case = agent_case(agent, profile=profile)
            case["notes"] += "\n" + user
            out.append(
                case_file(
                    cases / slug(f"user-agent-{agent.name}"),
                    {**case, "home": "../home"},
                    root=root,
                    what=f"user agent {agent.name}",
                )
            )
    return out
