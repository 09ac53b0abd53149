"""One case per definition of the project: a skill, an agent, a settings hook, an approved MCP server, each
checking the one thing that makes the definition work (harness/scaffold/__init__.py says which)."""

from __future__ import annotations

import asyncio
import fnmatch
import json
import os
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from harness.refengine.config_model import AgentDef, McpServerDef, ProjectConfig, SkillDef
from harness.refengine.hooks import EVENTS_WITHOUT_MATCHER, HookRule, matcher_hits
from harness.refengine.profiles import Profile
from harness.refengine.tool_model import ALIASES
from harness.scaffold.casefile import CASES, EVIDENCE, Planned, Report, case_file, make_case, notes

#: What each scaffolded call may run, and with what input: harmless in any repository.
_PROBES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("Bash", {"command": "echo cc-harness-probe"}),
    ("Write", {"file_path": ".cc-harness/probe.txt", "content": "cc-harness probe\n"}),
    ("Read", {"file_path": ".cc-harness/probe.txt"}),
)


#: Events a scaffolded case can make happen, with the subject their matcher is compared with.
_TOOL_EVENTS = ("PreToolUse", "PostToolUse")


_PROMPT_EVENTS = {"UserPromptSubmit": None, "Stop": None, "SessionStart": "startup"}


#: How long an MCP server may take to start and list its tools while init reads it: a Python server's first
#: import of the SDK took over 20 s on a loaded machine (a monorepo's server was left out with "TimeoutError").
_MCP_TIMEOUT = 90.0


#: What an engine answers for a tool it does not have (measured on 2.1.252 to 2.1.332).
_NO_SUCH_TOOL = "No such tool available"


def skill_case(skill: SkillDef, *, root: Path, profile: Profile, report: Report) -> dict[str, Any] | None:
    name = skill.name
    for event in sorted({rule.event for rule in skill.hooks}):
        # the skill's case loads it; what its own hooks do once loaded is the team's to script (S4)
        report.skipped.append(
            f"skill {name}: its frontmatter {event} hook: the skill's case loads the skill, not the hook; a case"
            " invokes the skill, then makes a call the hook's matcher matches and checks what the hook does"
            " (docs/case-format.md)"
        )
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


def model_line(name: str, model: str) -> str:
    """The ``no case:`` line of an agent's ``model:`` key: the request's model id is checked only where the case
    asks (``offered.model``), and the reference engine does not model model ids, so the agent's case leaves it out
    to pass on every engine."""
    return (f"agent {name}: its model: {model}: the agent's case does not check it (the reference engine does not"
            f" model model ids); add offered: {{model: {{contains: {model}}}}} to its context's turn to check it on"
            " claude (docs/case-format.md, 'The model a request names')")


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


def hook_files(
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


def unapproved_servers(root: Path, config: ProjectConfig) -> list[str]:
    try:
        declared = json.loads((root / ".mcp.json").read_text(encoding="utf-8")).get("mcpServers") or {}
    except (OSError, ValueError, AttributeError):
        return []
    return [name for name in declared if name not in config.mcp_servers]


def mcp_case(server: McpServerDef, *, root: Path, report: Report) -> dict[str, Any] | None:
    """A call of the server's first tool, with an input its schema accepts; the server is started to list them."""
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        try:
            tools = asyncio.run(asyncio.wait_for(_list_tools(server, root, errlog), _MCP_TIMEOUT))
        except Exception as exc:  # any failure to start or list: no case, and the reason, with the server's own
            why = f"no answer within {_MCP_TIMEOUT:.0f} s" if isinstance(exc, TimeoutError) else (
                f"{type(exc).__name__}: {exc}")
            errlog.seek(0)
            said = [line.strip() for line in errlog.read().splitlines() if line.strip()]
            stderr = f"; its stderr ends: {said[-1]}" if said else ""
            report.skipped.append(
                f"MCP server {server.name}: could not list its tools ({why}{stderr}); init started"
                f" {server.command} {' '.join(server.args)} in the repository"
            )
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


async def _list_tools(server: McpServerDef, root: Path, errlog: TextIO) -> list[tuple[str, dict[str, Any]]]:
    params = StdioServerParameters(
        command=server.command, args=list(server.args), env={**os.environ, **server.env}, cwd=str(root)
    )
    async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
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
