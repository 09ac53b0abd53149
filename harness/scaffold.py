"""``cc-harness init``: a starter suite for a repository's existing ``.claude/``.

It reads the project's definitions the way the reference engine reads them (``refengine.config``:
skills, agents, the hooks of ``.claude/settings.json``, approved ``.mcp.json`` servers) and writes a
configuration and one case per skill, agent and settings hook, each checking the one thing that makes
the definition work:

- a skill loads (``Launching skill: NAME``) and its body reaches the model's next request (a forked
  skill: its body opens a context of its own; a skill the model may not invoke: the call is refused);
- an agent is offered exactly the tools its ``tools:`` line names, and its instructions reach it;
- an approved ``.mcp.json`` server starts and a call of its first tool reaches it;
- a hook fires on a tool call its matcher matches, and not on one it does not (a hook on a prompt or
  session event: fires once the event happens).

Hooks are invisible in the conversation, so a hook case needs evidence. The user's hook is never
changed: the case adds a *witness*, a user-level hook (the case's own HOME folder) on the same event
and matcher that appends the payload it receives to ``.cc-harness/hook-payloads.jsonl``. Both engines
dispatch the user's handler and the witness from the same match, so the witness's file holds the
payload the user's hook got on each call that fired it (docs/init.md says why this, and not the
engine's debug log, which the reference engine does not write).

Nothing is ever overwritten: a case folder or a configuration that exists is left as it is, so running
``init`` again writes only what is new in ``.claude/``.
"""

from __future__ import annotations

import asyncio
import fnmatch
import json
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from harness import setup_parts
from harness.engine_name import EngineName
from harness.engines import cache, registry
from harness.errors import HarnessError, UsageError
from harness.refengine.config import AgentDef, McpServerDef, ProjectConfig, SkillDef, load_project
from harness.refengine.hooks import EVENTS_WITHOUT_MATCHER, HookRule, matcher_hits
from harness.refengine.profiles import Profile, profile_for
from harness.refengine.tools import ALIASES
from harness.suite import OWN_FILE, Suite
from harness.versions import newest

CASES = "claude-cases"
#: Where the witness hook writes, inside the working copy.
EVIDENCE = ".cc-harness/hook-payloads.jsonl"
#: What each scaffolded call may run, and with what input: harmless in any repository.
_PROBES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("Bash", {"command": "echo cc-harness-probe"}),
    ("Write", {"file_path": ".cc-harness/probe.txt", "content": "cc-harness probe\n"}),
    ("Read", {"file_path": ".cc-harness/probe.txt"}),
)
#: Events a scaffolded case can make happen, with the subject their matcher is compared with.
_TOOL_EVENTS = ("PreToolUse", "PostToolUse")
_PROMPT_EVENTS = {"UserPromptSubmit": None, "Stop": None, "SessionStart": "startup"}
#: How long an MCP server may take to start and list its tools while init reads it.
_MCP_TIMEOUT = 20.0
#: What an engine answers for a tool it does not have (measured on 2.1.252 to 2.1.332).
_NO_SUCH_TOOL = "No such tool available"


@dataclass(frozen=True, kw_only=True)
class Planned:
    """A file init writes: where, what, and what it is for."""

    path: Path
    text: str
    what: str
    hook_case: bool = False
    """A hook's case file: after it is written, a reference run looks for marks the hook itself leaves."""
    commands: tuple[str, ...] = ()
    """A hook case's own commands: only a file they name is one of its marks."""
    update: bool = False
    """A file of the repository init adds to (``.gitignore``): written whether or not it exists."""


@dataclass(kw_only=True)
class Report:
    written: list[Planned] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)
    """Case folders and files that exist already: left as they are."""
    skipped: list[str] = field(default_factory=list)
    """Definitions without a case, and why."""
    warnings: list[str] = field(default_factory=list)
    suite_file: Path | None = None
    cases: Path | None = None
    pinned: str = ""
    pinned_from: str = ""
    """Where the pinned version came from (``--pinned``, the suite, claude on PATH, the cache, the registry)."""


def init(root: Path, *, pinned: str | None, plugin_dirs: tuple[Path, ...] = (), home: Path | None = None) -> Report:
    """Write the starter suite for the repository at ``root``; what was written, kept and skipped.

    ``plugin_dirs``: plugin folders the team loads with ``--plugin-dir`` (plugins inside the repository are
    found without it)."""
    root = root.resolve()
    if not (root / ".claude").is_dir():
        raise UsageError(f"{root}: no .claude/ folder here: init scaffolds cases for an existing Claude Code setup")
    report = Report()
    suite = _own_suite(root)
    suite_pin = newest(suite.pinned) if suite else None
    if pinned:
        version, report.pinned_from = pinned, "--pinned"
    elif suite_pin:
        version, report.pinned_from = suite_pin, f"the newest pinned version of {suite.describe() if suite else ''}"
    else:
        version, report.pinned_from = default_pinned()
    report.pinned = version
    cases = suite.cases if suite else root / CASES
    planned: list[Planned] = []
    if suite is None:
        planned.append(Planned(path=root / OWN_FILE, text=_config(version), what="suite configuration"))
    config = _read(root, report)
    planned += _cases(config, root=root, cases=cases, profile=profile_for(version), report=report)
    planned += setup_parts.plan(root, cases=cases, config=config, plugin_dirs=plugin_dirs, report=report)
    if home is not None:
        planned += setup_parts.home_cases(home, root=root, cases=cases, version=version, report=report)
    else:
        report.skipped.append("your HOME (~/.claude): not read; --home ~/.claude makes cases of its skills and agents")
    if (ignore := setup_parts.ignore_results(root, suite.results if suite else root / "results")) is not None:
        planned.append(ignore)
    for item in planned:
        # a case folder that exists is the user's: none of its files is written, not even a missing one
        owner = _case_folder(item.path, cases) or item.path
        if item.update or not owner.exists():
            report.written.append(item)
        elif owner not in report.kept:
            report.kept.append(owner)
    for item in report.written:
        item.path.parent.mkdir(parents=True, exist_ok=True)
        item.path.write_text(item.text, encoding="utf-8")
    for item in report.written:
        if item.hook_case:
            _add_own_marks(item.path, version=version, commands=item.commands, root=root)
    report.suite_file = suite.config_file if suite else root / OWN_FILE
    report.cases = cases
    return report


def default_pinned() -> tuple[str, str]:
    """The claude version a team most likely runs, and where it came from: ``claude --version`` on PATH, else
    the newest version in cc-harness's cache, else the newest published release."""
    claude = shutil.which("claude")
    if claude is not None:
        try:
            out = subprocess.run([claude, "--version"], capture_output=True, text=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired):
            out = None
        found = re.search(r"\b(\d+\.\d+\.\d+)\b", out.stdout) if out is not None else None
        if found:
            return found.group(1), f"the version of {claude}"
    cached = newest(i.version for i in cache.installs())
    if cached:
        return cached, "the newest version in the engine cache (no claude on PATH)"
    try:
        return registry.resolve("latest"), "the newest published release (no claude on PATH, none cached)"
    except HarnessError as exc:
        raise UsageError(f"init: name the claude version you run (--pinned 2.1.332): {exc}") from None


def _case_folder(path: Path, cases: Path) -> Path | None:
    """The case folder ``path`` is in (None for a file outside the folder of cases)."""
    try:
        return cases / path.relative_to(cases).parts[0]
    except ValueError:
        return None


def _own_suite(root: Path) -> Suite | None:
    """The suite configured in ``root`` itself (one found in a parent folder belongs to another project)."""
    found = Suite.find(root)
    return found if found is not None and found.root == root else None


def _config(version: str) -> str:
    return (
        "# The cc-harness suite for this repository's Claude Code setup (.claude/, .mcp.json).\n"
        "# Written by cc-harness init; it is yours to edit (init never rewrites it). Keys: docs/your-setup.md.\n"
        f'cases = "{CASES}"\n'
        f'engines = ["reference", "{EngineName.claude(version)}"]\n'
        f'pinned = ["{version}"]\n'
    )


def _read(root: Path, report: Report) -> ProjectConfig:
    """The project's definitions as the reference engine reads them, user level left out (an empty HOME)."""
    with tempfile.TemporaryDirectory(prefix="cch-init-home-") as home:
        config = load_project(workdir=root, home=Path(home), trusted=True)
    report.warnings += list(config.warnings)
    report.warnings += [f"{p.path}: {p.problem}" for p in config.settings_problems]
    return config


def _cases(config: ProjectConfig, *, root: Path, cases: Path, profile: Profile, report: Report) -> Iterator[Planned]:
    taken: set[str] = set()

    def folder(kind: str, name: str) -> Path:
        case_id = _unique(slug(f"{kind}-{name}"), taken)
        return cases / case_id

    for skill in config.skills.values():
        case = skill_case(skill, root=root, profile=profile, report=report)
        if case is not None:
            yield case_file(folder("skill", skill.name), case, root=root, what=f"skill {skill.name}")
    for agent in config.agents.values():
        if not agent.builtin and not agent.user_level:
            case = agent_case(agent, profile=profile)
            yield case_file(folder("agent", agent.name), case, root=root, what=f"agent {agent.name}")
    settings = root / ".claude" / "settings.json"
    local = root / ".claude" / "settings.local.json"
    for rule in config.hooks:
        if Path(rule.origin) not in (settings, local):
            report.skipped.append(f"{rule.event} hook of {rule.origin}: only the repository's settings are read")
            continue
        mine = Path(rule.origin) == local
        hook_folder = folder("hook", f"{'local-' if mine else ''}{rule.event}-{rule.matcher or 'all'}")
        yield from _hook_files(rule, folder=hook_folder, root=root, report=report, profile=profile,
                               local=local if mine else None)
    if local.is_file() and not any(Path(r.origin) == local for r in config.hooks):
        report.skipped.append(
            ".claude/settings.local.json: it sets no hook (init scaffolds its hooks, each case carrying a copy of"
            " the file as a case-local layer); its permissions are listed below"
        )
    for name in _unapproved_servers(root, config):
        # measured on 2.1.252 to 2.1.332 (trusted folder, bypass): the engine starts such a server anyway,
        # the reference engine does not; a case would fail on one of them whatever it says
        report.skipped.append(
            f"MCP server {name}: .mcp.json declares it but no settings approve it (enableAllProjectMcpServers or"
            " enabledMcpjsonServers); approve it to get a case (engines disagree on unapproved servers)"
        )
    for server in config.mcp_servers.values():
        case = _mcp_case(server, root=root, report=report)
        if case is not None:
            yield case_file(folder("mcp", server.name), case, root=root, what=f"MCP server {server.name}")


# -- skills ------------------------------------------------------------------------------------


def skill_case(skill: SkillDef, *, root: Path, profile: Profile, report: Report) -> dict[str, Any] | None:
    name = skill.name
    line = quotable_line(skill.body)
    base: dict[str, Any] = {"project": "../..", "run": {"permission_mode": "bypass"}}
    launch: dict[str, Any] = {"name": "Skill", "input": {"skill": name}}
    turns: list[dict[str, Any]]
    if skill.disable_model_invocation:
        call = {**launch, "expect": {"result": {"lacks": "Launching skill"}, "is_error": True}}
        turns = [{"call": call}, {"say": f"The {name} skill cannot be invoked by the model."}]
        return make_case(
            f"The {name} skill cannot be invoked by the model (disable-model-invocation)", base,
            f"Use the {name} skill.", turns,
            notes=notes(
                f"(.claude/skills/{name}/SKILL.md) it has disable-model-invocation: true, so a Skill call the model"
                " makes is refused with an error and the skill is not loaded.",
                "If the skill should be usable by the model, remove that key and re-run cc-harness init in a fresh"
                " case folder; the case then checks that it loads.",
            ),
        )
    first: list[dict[str, Any]] = []
    if skill.paths:
        target = _matching_file(root, skill.paths)
        if target is None:
            report.skipped.append(
                f"skill {name}: it is conditional (paths: {', '.join(skill.paths)}) and no file of the repository"
                " matches; write its case by hand (docs/init.md)"
            )
            return None
        first.append({"call": {"name": "Read", "input": {"file_path": target}}})
    if skill.fork:
        done = f"CC-HARNESS: the {name} skill ran in its own context."
        call = {**launch, "expect": {"result": {"contains": done}}}
        if line is None:
            report.skipped.append(f"skill {name}: its body has no line a context can be matched by")
            return None
        back: dict[str, Any] = {
            "offered": {"context": {"exclude": [line]}},
            "say": f"The {name} skill ran forked and reported back.",
        }
        turns = [*first, {"call": call}, back]
        contexts = {"fork": {"opens_with": line, "turns": [{"say": done}]}}
        return make_case(
            f"The {name} skill runs forked: its body opens a context of its own, and only its result comes back",
            base, f"Use the {name} skill.", turns, contexts=contexts,
            notes=notes(
                f"(.claude/skills/{name}/SKILL.md, context: fork) the Skill call opens a new model context whose"
                " opening message holds the skill's body (matched by its first line), the call's result is that"
                " context's final answer, and the body never reaches the main thread.",
                "Script what the forked context does under contexts.fork.turns (calls with expect:), and check its"
                " result in the Skill call's expect.",
            ),
        )
    loaded: dict[str, Any] = {"say": f"The {name} skill is loaded."}
    if line:
        loaded = {"offered": {"context": {"include": [line]}}, **loaded}
    call = {**launch, "expect": {"result": f"Launching skill: {name}", "is_error": False}}
    extra = " It is conditional: reading a file its paths: match makes it available first." if skill.paths else ""
    return make_case(
        f"The {name} skill loads and its instructions reach the model", base, f"Use the {name} skill.",
        [*first, {"call": call}, loaded],
        notes=notes(
            f"(.claude/skills/{name}/SKILL.md) the model calls the Skill tool with {name}, the engine answers"
            f" Launching skill: {name}, and the model's next request holds the first line of the skill's body.{extra}",
            "Add the calls the skill's instructions lead to as turns after the Skill call, each with an expect: of"
            " what it must return; skill frontmatter hooks then fire on them.",
        ),
    )


def quotable_line(body: str) -> str | None:
    """A line of a body that reaches the model verbatim: no argument or shell substitution in it."""
    for raw in body.splitlines():
        line = raw.strip()
        if line and "$" not in line and "!`" not in line and not line.startswith("@"):
            return line[:120]
    return None


def _matching_file(root: Path, globs: tuple[str, ...]) -> str | None:
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        mine = path.is_file() and not rel.startswith((".git/", CASES + "/"))
        if mine and any(fnmatch.fnmatch(rel, g) or rel.startswith(g.rstrip("/") + "/") for g in globs):
            return rel
    return None


# -- agents ------------------------------------------------------------------------------------


def agent_case(agent: AgentDef, *, profile: Profile) -> dict[str, Any]:
    name = agent.name
    ready = f"CC-HARNESS: the {name} agent is ready."
    task = f"CC-HARNESS PROBE for the {name} agent: reply in one line that you are ready."
    call = {
        "name": profile.agent_tool_name,
        "input": {"description": f"Probe the {name} agent", "prompt": task, "subagent_type": name,
                  "run_in_background": False},
        "expect": {"result": {"contains": ready}},
    }
    offered: dict[str, Any] = {}
    tools = _tool_names(agent.tools) if agent.tools is not None else None
    if tools is not None:
        offered["tools"] = {"exactly": tools}
    line = quotable_line(agent.body)
    if line:
        offered["context"] = {"include": [line]}
    first: dict[str, Any] = {"offered": offered, "say": ready} if offered else {"say": ready}
    what = (
        f"is offered exactly the tools its tools: line names ({', '.join(tools)})"
        if tools is not None
        else "inherits the main thread's tools (it has no tools: line)"
    )
    return make_case(
        f"The {name} agent starts, {what.split(' (')[0]}, and reads its own instructions",
        {"project": "../..", "run": {"permission_mode": "bypass"}},
        f"Ask the {name} agent whether it is ready.",
        [{"call": call}, {"say": f"The {name} agent answered."}],
        contexts={name: {"opens_with": task.split(":")[0], "turns": [first]}},
        notes=notes(
            f"(.claude/agents, name: {name}) the main thread starts the agent with run_in_background: false (so its"
            f" answer comes back in the same turn); the agent {what}, and its instructions are in its context.",
            f"Script the agent's work under contexts.{name}.turns: calls of its tools with expect: of their"
            " results; to check it cannot use a tool, call it and expect an error.",
        ),
    )


def _tool_names(tools: tuple[str, ...]) -> list[str]:
    """A tools: line as offered tool names: a rule's parentheses dropped, old aliases renamed."""
    names = [ALIASES.get(t.split("(")[0].strip(), t.split("(")[0].strip()) for t in tools]
    return list(dict.fromkeys(n for n in names if n))


# -- hooks -------------------------------------------------------------------------------------


def _hook_files(
    rule: HookRule, *, folder: Path, root: Path, report: Report, profile: Profile, local: Path | None
) -> Iterator[Planned]:
    """A hook's case and its witness; ``local``: the hook is in that settings.local.json, which git ignores, so
    the case carries a copy of it (laid over the working copy as the case's own file)."""
    label = f"{rule.event} hook" + (f" on {rule.matcher!r}" if rule.matcher else "")
    commands = [a.command for a in rule.actions if a.type == "command"]
    shown = "; ".join(commands) or ", ".join(a.type for a in rule.actions)
    if rule.event in _TOOL_EVENTS:
        case = _tool_hook_case(rule, shown=shown, profile=profile)
    elif rule.event in _PROMPT_EVENTS:
        case = _prompt_hook_case(rule, shown=shown, profile=profile)
    else:
        report.skipped.append(f"{label}: init scaffolds hooks on {', '.join([*_TOOL_EVENTS, *_PROMPT_EVENTS])}")
        return
    if case is None:
        report.skipped.append(
            f"{label}: no harmless probe call ({', '.join(p for p, _ in _PROBES)}) matches it; write its case by hand"
        )
        return
    if local is not None:
        case["notes"] += "\n" + textwrap.fill(
            "Case-local layer: the hook is in .claude/settings.local.json, which git ignores and a project copy"
            " leaves out, so this case carries its own copy of that file (.claude/settings.local.json in this"
            " folder, laid over the working copy). Copy yours here again when it changes.",
            width=100, break_long_words=False, break_on_hyphens=False,
        )
        yield Planned(path=folder / ".claude" / "settings.local.json", text=local.read_text(encoding="utf-8"),
                      what=f"case-local copy of .claude/settings.local.json for the {label}")
    planned = case_file(folder, case, root=root, what=label, hook_case=True)
    yield Planned(path=planned.path, text=planned.text, what=planned.what, hook_case=True, commands=tuple(commands))
    witness = {"hooks": {rule.event: [{**({"matcher": rule.matcher} if rule.matcher is not None else {}),
                                       "hooks": [{"type": "command", "command": _witness_command()}]}]}}
    yield Planned(
        path=folder / "home" / ".claude" / "settings.json",
        text=json.dumps(witness, indent=2) + "\n",
        what=f"witness hook for the {label}",
    )


def _witness_command() -> str:
    target = f'"$CLAUDE_PROJECT_DIR/{EVIDENCE}"'
    return f'mkdir -p "$CLAUDE_PROJECT_DIR/{Path(EVIDENCE).parent}" && {{ cat; echo; }} >> {target}'


def _hits(rule: HookRule, subject: str, profile: Profile) -> bool:
    return matcher_hits(rule.matcher, subject, profile=profile, debug=lambda _line: None)


def _tool_hook_case(rule: HookRule, *, shown: str, profile: Profile) -> dict[str, Any] | None:
    names = [n for n, _ in _PROBES]
    hit = next((n for n in names if _hits(rule, n, profile)), None)
    if hit is None:
        return None
    miss = next((n for n in names if not _hits(rule, n, profile)), None)
    # the Write probe creates the file the Read probe reads: it goes first whenever Read is used
    chosen = [hit] if miss is None else [hit, miss]
    if "Read" in chosen and "Write" not in chosen:
        chosen.insert(0, "Write")
    inputs = dict(_PROBES)
    turns: list[dict[str, Any]] = [{"call": {"name": n, "input": inputs[n]}} for n in chosen]
    turns.append({"say": "Done."})
    effects = [{"path": EVIDENCE, "content": {"contains": f'"tool_name": "{hit}"'}}]
    checks = f"fires on the {hit} call (its payload, tool_name {hit}, is in {EVIDENCE})"
    if miss is not None:
        effects.append({"path": EVIDENCE, "content": {"lacks": f'"tool_name": "{miss}"'}})
        checks += f" and not on the {miss} call"
    event_check = {"path": EVIDENCE, "content": {"contains": f'"hook_event_name": "{rule.event}"'}}
    matcher = f" matcher {rule.matcher!r}" if rule.matcher else " (no matcher: every tool)"
    return make_case(
        f"The {rule.event} hook{' on ' + repr(rule.matcher) if rule.matcher else ''} fires on {hit}"
        + (f" and not on {miss}" if miss else ""),
        {"project": "../..", "home": "home", "run": {"permission_mode": "bypass"}},
        "Run the probe calls.",
        turns,
        effects=[event_check, *effects],
        notes=notes(
            f"(.claude/settings.json) {rule.event}{matcher} runs {shown}. The hook itself is not changed: the"
            " case's HOME folder (home/.claude/settings.json) adds a witness hook on the same event and matcher that"
            f" appends each payload it gets to {EVIDENCE}, the payload your hook gets too. The hook {checks}.",
            "Add expect: to the calls for what your hook does to them (a deny: the reason as the result,"
            " is_error: true), effects: for files it writes, and calls it must refuse or let through.",
        ),
    )


def _prompt_hook_case(rule: HookRule, *, shown: str, profile: Profile) -> dict[str, Any] | None:
    subject = _PROMPT_EVENTS[rule.event]
    if rule.event not in EVENTS_WITHOUT_MATCHER and subject is not None and not _hits(rule, subject, profile):
        return None
    return make_case(
        f"The {rule.event} hook fires",
        {"project": "../..", "home": "home", "run": {"permission_mode": "bypass"}},
        "Say hello.",
        [{"say": "Hello."}],
        effects=[{"path": EVIDENCE, "content": {"contains": f'"hook_event_name": "{rule.event}"'}}],
        notes=notes(
            f"(.claude/settings.json) {rule.event} runs {shown}. The hook itself is not changed: the case's"
            " HOME folder adds a witness hook on the same event that appends each payload it gets to"
            f" {EVIDENCE}, the payload your hook gets too. One prompt makes the event happen.",
            "Add effects: for what your hook leaves (a file it writes), or turns whose offered: context: include: the"
            " text your hook adds to the conversation.",
        ),
    )


def _add_own_marks(case_file: Path, *, version: str, commands: tuple[str, ...], root: Path) -> None:
    """Add to a hook's case the files its own commands write, as a reference run of the case shows them.

    The witness proves the engine matched the hook's event and matcher; a file the user's command writes
    proves a command of theirs ran, and keeps failing the case if their entry is later changed or broken.
    Every hook of the repository fires in the run, so a file counts only when this hook's command, or a
    script of the repository it runs, names it (a SessionStart case must not check what the Stop hook
    writes). A name that looks made of a date or an id is left out: it would differ on the next run."""
    from harness.case import load_case
    from harness.engines import make_engine
    from harness.expectations import Expectations
    from harness.runner import run_case

    with tempfile.TemporaryDirectory(prefix="cch-init-") as nowhere:
        record = run_case(load_case(case_file.parent), make_engine(EngineName("reference", version)),
                          expectations=Expectations(root=Path(nowhere)))
    if record.status.value != "pass" or record.transcript is None:
        return
    own = [
        name for name, value in record.transcript["files"].items()
        if not name.startswith(".cc-harness/") and value != {"removed": True} and not _VOLATILE_NAME.search(name)
        and Path(name).name in _command_text(commands, root)
    ]
    if not own:
        return
    data = yaml.safe_load(case_file.read_text(encoding="utf-8"))
    data["effects"] = [*data.get("effects", []), *({"path": name, "exists": True} for name in own)]
    data["notes"] += "\n" + textwrap.fill(
        f"Marks of the hooks' own commands: a reference run of this case when init wrote it left {', '.join(own)},"
        " which no probe call writes (a hook command did), so effects: checks that it exists.",
        width=100, break_long_words=False, break_on_hyphens=False,
    )
    notes = data.pop("notes")
    case_file.write_text(_dump({**data, "notes": notes}), encoding="utf-8")


def _command_text(commands: tuple[str, ...], root: Path) -> str:
    """A hook's commands and the text of every repository file they name (the scripts they run)."""
    parts = list(commands)
    for word in " ".join(commands).split():
        name = word.strip("\"'").replace("$CLAUDE_PROJECT_DIR/", "").replace("${CLAUDE_PROJECT_DIR}/", "")
        path = (root / name).resolve()
        if root in path.parents and path.is_file() and path.stat().st_size < 1_000_000:
            parts.append(path.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


#: A file name with a date, a long number or a hex id in it: not the same on the next run.
_VOLATILE_NAME = re.compile(r"\d{4,}|[0-9a-f]{8,}|\d{2}[-_:]\d{2}")


# -- MCP servers -------------------------------------------------------------------------------


def _unapproved_servers(root: Path, config: ProjectConfig) -> list[str]:
    try:
        declared = json.loads((root / ".mcp.json").read_text(encoding="utf-8")).get("mcpServers") or {}
    except (OSError, ValueError, AttributeError):
        return []
    return [name for name in declared if name not in config.mcp_servers]


def _mcp_case(server: McpServerDef, *, root: Path, report: Report) -> dict[str, Any] | None:
    """A call of the server's first tool, with an input its schema accepts; the server is started to list them."""
    try:
        tools = asyncio.run(asyncio.wait_for(_list_tools(server, root), _MCP_TIMEOUT))
    except Exception as exc:  # any failure to start or list: no case, and the reason
        report.skipped.append(f"MCP server {server.name}: could not list its tools ({type(exc).__name__}: {exc})")
        return None
    if not tools:
        report.skipped.append(f"MCP server {server.name}: it lists no tools")
        return None
    tool, schema = tools[0]
    name = f"mcp__{server.name}__{tool}"
    call = {"name": name, "input": _sample_input(schema), "expect": {"result": {"lacks": _NO_SUCH_TOOL}}}
    return make_case(
        f"The {server.name} MCP server starts and the model can call {name}",
        {"project": "../..", "run": {"permission_mode": "bypass"}},
        f"Call the {server.name} server's {tool} tool.",
        [{"call": call}, {"say": f"The {server.name} server answered."}],
        notes=notes(
            f"(.mcp.json, approved in settings) the engine starts {server.command} {' '.join(server.args)} and"
            f" offers its tools as mcp__{server.name}__<tool>: a call of {name} reaches the server instead of"
            f" being answered '{_NO_SUCH_TOOL}'. The input is made up from the tool's schema.",
            "Give the call a real input and expect: the answer your server gives for it (result: {contains: ...},"
            " is_error: false); add a call of each tool the team relies on.",
        ),
    )


async def _list_tools(server: McpServerDef, root: Path) -> list[tuple[str, dict[str, Any]]]:
    params = StdioServerParameters(
        command=server.command, args=list(server.args), env={**os.environ, **server.env}, cwd=str(root)
    )
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
    # mcp 2 names the field input_schema, mcp 1 inputSchema
    return [(t.name, dict(getattr(t, "input_schema", None) or getattr(t, "inputSchema", None) or {}))
            for t in listed.tools]


def _sample_input(schema: dict[str, Any]) -> dict[str, Any]:
    """A value for each required property, of its type: enough for the call to reach the server."""
    samples: dict[str, Any] = {"string": "cc-harness", "integer": 1, "number": 1, "boolean": False, "array": [],
                               "object": {}}
    properties = schema.get("properties") or {}
    out: dict[str, Any] = {}
    for key in schema.get("required") or []:
        spec = properties.get(key) or {}
        if spec.get("enum"):
            out[key] = spec["enum"][0]
        else:
            kind = spec.get("type")
            out[key] = samples.get(kind[0] if isinstance(kind, list) else str(kind), "cc-harness")
    return out


# -- writing -----------------------------------------------------------------------------------


def make_case(
    title: str,
    base: dict[str, Any],
    prompt: str,
    turns: list[dict[str, Any]],
    *,
    notes: str,
    contexts: dict[str, Any] | None = None,
    effects: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A case's content, in the order a reader expects (``id`` is set when its folder is known)."""
    out: dict[str, Any] = {"title": title, **base, "steps": [{"prompt": prompt, "turns": turns}]}
    if contexts:
        out["contexts"] = contexts
    if effects:
        out["effects"] = effects
    out["notes"] = notes
    return out


def notes(checks: str, extend: str) -> str:
    paragraphs = [f"Written by cc-harness init. What it checks: {checks}", f"How to extend it: {extend}"]
    return "\n".join(textwrap.fill(p, width=100, break_long_words=False, break_on_hyphens=False) for p in paragraphs)


def case_file(folder: Path, case: dict[str, Any], *, root: Path, what: str, hook_case: bool = False) -> Planned:
    data = {"id": folder.name, **case}
    # the repository holding .claude/: ../.. from <root>/claude-cases/<id>, further up from deeper cases
    data["project"] = os.path.relpath(root, folder)
    return Planned(path=folder / "case.yaml", text=_dump(data), what=f"case for the {what}", hook_case=hook_case)


def _dump(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, width=110, allow_unicode=True)


class _Dumper(yaml.SafeDumper):
    """Notes as literal blocks; short mappings and lists of plain values in flow style, as hand-written
    cases have them (``input: {skill: x}``); anything longer in block style."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


def _short(value: Any) -> bool:
    items = value.values() if isinstance(value, dict) else value
    plain = all(isinstance(v, str | bool | int | float) and "\n" not in str(v) for v in items)
    return plain and len(json.dumps(value)) <= _FLOW_CHARS


def _dict(dumper: yaml.SafeDumper, value: dict[str, Any]) -> yaml.MappingNode:
    return dumper.represent_mapping("tag:yaml.org,2002:map", value, flow_style=_short(value))


def _list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=_short(value))


_Dumper.add_representer(str, _str)
_Dumper.add_representer(dict, _dict)
_Dumper.add_representer(list, _list)
#: Longer mappings and lists are written in block style.
_FLOW_CHARS = 70


def slug(text: str) -> str:
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", text.lower())).strip("-")[:60] or "case"


def _unique(case_id: str, taken: set[str]) -> str:
    n, candidate = 1, case_id
    while candidate in taken:
        n += 1
        candidate = f"{case_id}-{n}"
    taken.add(candidate)
    return candidate


# -- snapshots ---------------------------------------------------------------------------------


def record_snapshots(report: Report, *, jobs: int = 2) -> list[str]:
    """Run each case init wrote on the suite's engines and record its snapshot, so ``pytest`` is green right
    after init; one line per run that recorded nothing, with its status and reason (a case of a hook that is
    broken fails here, as it would under pytest: init does not hide it)."""
    from concurrent.futures import ThreadPoolExecutor

    from harness import snapshots
    from harness.case import load_or_broken
    from harness.engines import expand
    from harness.expectations import Expectations
    from harness.outcome import Status
    from harness.runner import run_named

    assert report.suite_file is not None
    suite = Suite.from_file(report.suite_file)
    folders = sorted({item.path.parent for item in report.written if item.path.name == "case.yaml"})
    engines = expand(list(suite.engines), pinned=suite.pinned)
    expectations = Expectations(root=suite.expectations)
    default = newest(suite.pinned)

    def one(job: tuple[Path, EngineName]) -> str | None:
        folder, engine = job
        found = load_or_broken(folder, catalogue=suite.catalogue)
        record = run_named(found, engine, expectations=expectations, default_version=default)
        path = snapshots.path_for(suite.snapshots, engine.text(), found.id)
        if record.status in (Status.PASS, Status.KNOWN) and record.transcript is not None:
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(snapshots.dump(record.transcript), encoding="utf-8")
            return None
        if record.status is Status.NOT_MODELLED:
            return f"{found.id} on {engine}: not-modelled, pytest skips it ({record.reason()})"
        return f"{found.id} on {engine}: {record.status.value}, no snapshot recorded ({record.reason()})"

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        lines = list(pool.map(one, [(f, e) for f in folders for e in engines]))
    return [line for line in lines if line]
