"""Valid random cases from a grammar of what the engine reads, as Hypothesis strategies.

A **scenario** is a whole case: the files of a `.claude/` fixture (skills, agents, settings hooks,
permissions and ``env`` at the user, project or local level, memory files, an MCP server, files for the
tools' edge cases), the run's options (trust, permission mode), one to three prompts, and the scripted
model's turns, including the contexts the turns open (each subagent task, each forked skill). Everything
is drawn from the small vocabularies of ``vocabulary.py``, so that shrinking gives short cases a person can
read, and every name a turn uses is one the fixture may define (or, on purpose, one it does not).

Hypothesis draws and shrinks; the explorer (``explorer.py``) runs each scenario on two engines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from harness.explore.vocabulary import (
    AGENT_EXTRA,
    AGENT_NAMES,
    BASE_FILES,
    CALL_WEIGHTS,
    HANDLER_OPTIONS,
    HOOK_OUTPUTS,
    IGNORE_FILES,
    LEVELS,
    MATCHERS,
    MEMORY,
    MODES,
    OTHER_EVENTS,
    OTHER_MATCHERS,
    RULES,
    SKILL_EXTRA,
    SKILL_NAMES,
    TOOL_CALLS,
    TOOL_EVENTS,
    hook_output,
)

TOOL_LISTS: tuple[tuple[str, ...] | None, ...] = (None, ("Read",), ("Read", "Bash"), ("Bash", "Agent"), ("Skill",))
#: The MCP server a fixture may hold (``srv``, one tool ``ping``), approved by the project's settings.
MCP_SERVER = '''"""srv: a stdio MCP server with one tool, ping, that answers PONG."""
try:  # mcp >= 2
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server

server = Server("srv")


@server.tool()
def ping() -> str:
    """Answer PONG."""
    return "PONG"


if __name__ == "__main__":
    server.run()
'''


@dataclass(frozen=True, kw_only=True)
class Skill:
    name: str
    description: bool
    fork: bool
    agent: str | None
    allowed_tools: str | None
    disallowed_tools: str | None
    disable_model_invocation: bool
    hook: bool
    level: str  # project | user
    extra: tuple[str, ...] = ()
    """Keys of ``SKILL_EXTRA`` the frontmatter also sets."""

    @property
    def body(self) -> str:
        return f"SKILL-{self.name.upper()}-BODY: Call the Bash tool with command: echo {self.name.upper()}"

    def text(self) -> str:
        meta: dict[str, Any] = {"name": self.name}
        if self.description:
            meta["description"] = f"The {self.name} skill. Use when asked for {self.name}."
        if self.fork:
            meta["context"] = "fork"
        if self.agent is not None:
            meta["agent"] = self.agent
        if self.allowed_tools is not None:
            meta["allowed-tools"] = self.allowed_tools
        if self.disallowed_tools is not None:
            meta["disallowed-tools"] = self.disallowed_tools
        if self.disable_model_invocation:
            meta["disable-model-invocation"] = True
        if self.hook:
            meta["hooks"] = _deny_hooks("SKILL-HOOK")
        meta.update({key: SKILL_EXTRA[key] for key in self.extra})
        return _frontmatter(meta) + self.body + "\n"


@dataclass(frozen=True, kw_only=True)
class Agent:
    name: str
    tools: tuple[str, ...] | None
    disallowed_tools: tuple[str, ...] | None
    skills: tuple[str, ...] | None
    hook: bool
    level: str
    extra: tuple[str, ...] = ()
    """Keys of ``AGENT_EXTRA`` the frontmatter also sets."""

    def text(self) -> str:
        meta: dict[str, Any] = {"name": self.name, "description": f"The {self.name} agent. Use for {self.name} work."}
        if self.tools is not None:
            meta["tools"] = ", ".join(self.tools)
        if self.disallowed_tools is not None:
            meta["disallowedTools"] = ", ".join(self.disallowed_tools)
        if self.skills is not None:
            meta["skills"] = list(self.skills)
        if self.hook:
            meta["hooks"] = _deny_hooks("AGENT-HOOK")
        meta.update({key: AGENT_EXTRA[key] for key in self.extra})
        return _frontmatter(meta) + f"You are the {self.name} agent. AGENT-{self.name.upper()}-BODY\n"


@dataclass(frozen=True, kw_only=True)
class Hook:
    event: str
    matcher: str | None
    output: str
    level: str
    index: int
    options: tuple[str, ...] = ()
    """Handler options of ``HANDLER_OPTIONS`` the handler also sets."""

    def rule(self) -> dict[str, Any]:
        handler: dict[str, Any] = {"type": "command", "command": f"bash .claude/hooks/h{self.index}.sh"}
        handler.update({key: HANDLER_OPTIONS[key] for key in self.options})
        rule: dict[str, Any] = {"hooks": [handler]}
        if self.matcher is not None:
            rule["matcher"] = self.matcher
        return rule

    def script(self) -> str:
        """Records the event, then answers as ``output`` says."""
        head = f'cat > /dev/null; echo "{self.event} h{self.index}" >> "$CLAUDE_PROJECT_DIR/hooks.txt"\n'
        return "#!/bin/bash\n" + head + hook_output(self.event, self.output, self.index)


@dataclass(frozen=True, kw_only=True)
class Rule:
    """A permission rule at a settings level, in its ``allow``, ``deny`` or ``ask`` list."""

    text: str
    kind: str  # allow | deny | ask
    level: str


@dataclass(frozen=True, kw_only=True)
class Call:
    tool: str
    input: dict[str, Any]
    context: tuple[str, str] | None = None
    """(context name, opening text) for a call that opens a context: a subagent's task, a fork's body."""


@dataclass(frozen=True, kw_only=True)
class Step:
    session: str
    calls: tuple[Call, ...]


@dataclass(frozen=True, kw_only=True)
class Scenario:
    skills: tuple[Skill, ...]
    agents: tuple[Agent, ...]
    hooks: tuple[Hook, ...]
    rules: tuple[Rule, ...]
    trusted: bool
    mode: str
    steps: tuple[Step, ...]
    subagent_calls_bash: bool = field(default=False)
    env: tuple[str, ...] = ()
    """Levels whose settings set ``env.EXPLORE_VAR`` (to the level's name)."""
    memory: tuple[str, ...] = ()
    """Memory files of ``MEMORY`` the fixture holds."""
    ignore_files: bool = False
    mcp: bool = False

    def files(self) -> dict[str, str]:
        """The case's files, relative to its folder (``home/`` is the user level)."""
        out: dict[str, str] = {}
        for s in self.skills:
            out[_root(s.level) + f".claude/skills/{s.name}/SKILL.md"] = s.text()
        for a in self.agents:
            out[_root(a.level) + f".claude/agents/{a.name}.md"] = a.text()
        for level in ("project", "user", "local"):
            settings = self._settings(level)
            if settings:
                out[_settings_path(level)] = json.dumps(settings, indent=2) + "\n"
        for h in self.hooks:
            out[f".claude/hooks/h{h.index}.sh"] = h.script()
        out.setdefault(".claude/settings.json", "{}\n")  # the project folder always exists
        out.update(BASE_FILES)
        out.update({name: MEMORY[name] for name in self.memory})
        if self.ignore_files:
            out.update(IGNORE_FILES)
        if self.mcp:
            out[".mcp.json"] = json.dumps({"mcpServers": {"srv": {"type": "stdio", "command": "python3",
                                                                  "args": [".claude/mcp/srv.py"]}}}, indent=2)
            out[".claude/mcp/srv.py"] = MCP_SERVER
        return out

    def _settings(self, level: str) -> dict[str, Any]:
        settings: dict[str, Any] = {}
        rules: dict[str, list[dict[str, Any]]] = {}
        for h in self.hooks:
            if h.level == level:
                rules.setdefault(h.event, []).append(h.rule())
        if rules:
            settings["hooks"] = rules
        lists: dict[str, list[str]] = {}
        for r in self.rules:
            if r.level == level:
                lists.setdefault(r.kind, []).append(r.text)
        if lists:
            settings["permissions"] = lists
        if level in self.env:
            settings["env"] = {"EXPLORE_VAR": level.upper()}
        if level == "project" and self.mcp:
            settings["enableAllProjectMcpServers"] = True
        return settings

    def case(self, case_id: str) -> dict[str, Any]:
        """The case.yaml content (without research metadata)."""
        contexts: dict[str, Any] = {}
        steps = []
        for n, step in enumerate(self.steps):
            turns: list[dict[str, Any]] = [{"call": {"name": c.tool, "input": c.input}} for c in step.calls]
            turns.append({"say": f"DONE-{n + 1}"})
            steps.append({"prompt": f"Prompt {n + 1}: do what the turns say.", "session": step.session, "turns": turns})
            for c in step.calls:
                if c.context is not None and c.context[0] not in contexts:
                    sub = (
                        [{"call": {"name": "Bash", "input": {"command": "echo SUB"}}}]
                        if self.subagent_calls_bash
                        else []
                    )
                    contexts[c.context[0]] = {"opens_with": c.context[1], "turns": [*sub, {"say": "SUB-DONE"}]}
        steps[0]["session"] = "new"
        case: dict[str, Any] = {
            "id": case_id,
            "title": "a generated case (cc-harness explore)",
            "run": {"permission_mode": self.mode, "trusted": self.trusted},
            "steps": steps,
        }
        if contexts:
            case["contexts"] = contexts
        if self.hooks:
            case["unordered_files"] = ["hooks.txt"]  # hooks of one event run in parallel (measured)
        if any(name.startswith("home/") for name in self.files()):
            case["home"] = "home"
        return case


def _root(level: str) -> str:
    return "home/" if level == "user" else ""


def _settings_path(level: str) -> str:
    return {"user": "home/.claude/settings.json", "project": ".claude/settings.json",
            "local": ".claude/settings.local.json"}[level]


def _frontmatter(meta: dict[str, Any]) -> str:
    import yaml

    return "---\n" + yaml.safe_dump(meta, sort_keys=False) + "---\n\n"


def _deny_hooks(reason: str) -> dict[str, Any]:
    payload = json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }
    )
    return {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"echo '{payload}'"}]}]}


_levels = st.sampled_from(("project", "project", "user"))
_settings_levels = st.sampled_from(LEVELS)


def _some(keys: tuple[str, ...], *, one_in: int = 5) -> st.SearchStrategy[tuple[str, ...]]:
    """None of ``keys`` but about once in ``one_in`` draws, then one or two of them: each drawn case reaches
    a few of the surface's rarer elements, not all at once, so a case that touches one the reference engine
    does not model (it answers not-modelled) does not hide the rest of the grammar."""
    some = st.lists(st.sampled_from(keys), unique=True, min_size=1, max_size=2).map(tuple)
    # sampled_from, not integers: Hypothesis draws an integer range's ends far more often than its middle
    return st.sampled_from((False,) * (one_in - 1) + (True,)).flatmap(lambda hit: some if hit else st.just(()))


@st.composite
def skills(draw: st.DrawFn) -> tuple[Skill, ...]:
    names = draw(st.lists(st.sampled_from(SKILL_NAMES), unique=True, max_size=2))
    return tuple(
        Skill(
            name=name,
            description=draw(st.booleans()),
            fork=draw(st.booleans()),
            agent=draw(st.sampled_from((None, None, "Explore", *AGENT_NAMES, "nosuch"))),
            allowed_tools=draw(st.sampled_from((None, None, "Read", "Bash", "Bash(echo *)", "Edit(src/**)"))),
            disallowed_tools=draw(st.sampled_from((None, None, "Bash"))),
            disable_model_invocation=draw(st.booleans()),
            hook=draw(st.booleans()),
            level=draw(_levels),
            extra=draw(_some(tuple(SKILL_EXTRA), one_in=6)),
        )
        for name in names
    )


@st.composite
def agents(draw: st.DrawFn) -> tuple[Agent, ...]:
    names = draw(st.lists(st.sampled_from(AGENT_NAMES), unique=True, max_size=2))
    return tuple(
        Agent(
            name=name,
            tools=draw(st.sampled_from(TOOL_LISTS)),
            disallowed_tools=draw(st.sampled_from((None, None, ("Bash",)))),
            skills=draw(st.sampled_from((None, None, ("alpha",)))),
            hook=draw(st.booleans()),
            level=draw(_levels),
            extra=draw(_some(tuple(AGENT_EXTRA), one_in=6)),
        )
        for name in names
    )


@st.composite
def hooks(draw: st.DrawFn) -> tuple[Hook, ...]:
    count = draw(st.integers(min_value=0, max_value=3))
    out = []
    for index in range(count):
        event = draw(st.sampled_from((*TOOL_EVENTS[:2], *TOOL_EVENTS, *OTHER_EVENTS)))
        matcher: str | None
        if event in TOOL_EVENTS:
            matcher = draw(st.sampled_from(MATCHERS))
        else:
            matcher = draw(st.sampled_from(OTHER_MATCHERS.get(event, (None,))))
        out.append(
            Hook(
                event=event,
                matcher=matcher,
                output=draw(st.sampled_from(HOOK_OUTPUTS)),
                level=draw(_settings_levels),
                index=index,
                options=draw(_some(tuple(HANDLER_OPTIONS))),
            )
        )
    return tuple(out)


@st.composite
def rules(draw: st.DrawFn) -> tuple[Rule, ...]:
    drawn = draw(st.lists(st.tuples(st.sampled_from(RULES), st.sampled_from(("allow", "allow", "deny", "ask")),
                                    _settings_levels), max_size=3, unique_by=lambda r: r[0]))
    return tuple(Rule(text=text, kind=kind, level=level) for text, kind, level in drawn)


_KINDS = tuple(kind for kind in TOOL_CALLS for _ in range(CALL_WEIGHTS.get(kind, 1)))


def _call(draw: st.DrawFn, n: int) -> Call:
    kind = draw(st.sampled_from(("builtin", "builtin", "builtin", "Skill", "Agent")))
    if kind == "Skill":
        name = draw(st.sampled_from((*SKILL_NAMES, "nosuch")))
        body = f"SKILL-{name.upper()}-BODY"
        return Call(tool="Skill", input={"skill": name}, context=(f"fork-{name}", body))
    if kind == "Agent":
        agent = draw(st.sampled_from((*AGENT_NAMES, "general-purpose", "nosuch")))
        task = f"TASK-{n}: run echo SUB and report."
        return Call(
            tool="Agent",
            input={"description": f"task {n}", "prompt": task, "subagent_type": agent, "run_in_background": False},
            context=(f"task-{n}", f"TASK-{n}:"),
        )
    tool, template = TOOL_CALLS[draw(st.sampled_from(_KINDS))]
    return Call(tool=tool, input={k: v.format(n=n) if isinstance(v, str) else v for k, v in template.items()})


@st.composite
def steps(draw: st.DrawFn) -> tuple[Step, ...]:
    count = draw(st.integers(min_value=1, max_value=3))
    out = []
    n = 0
    for i in range(count):
        calls = []
        for _ in range(draw(st.integers(min_value=0, max_value=3))):
            n += 1
            calls.append(_call(draw, n))
        session = "new" if i == 0 else draw(st.sampled_from(("same", "resume", "new")))
        out.append(Step(session=session, calls=tuple(calls)))
    return tuple(out)


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    return Scenario(
        skills=draw(skills()),
        agents=draw(agents()),
        hooks=draw(hooks()),
        rules=draw(rules()),
        trusted=draw(st.booleans()),
        mode=draw(st.sampled_from(MODES)),
        steps=draw(steps()),
        subagent_calls_bash=draw(st.booleans()),
        env=draw(_some(("user", "project", "local"), one_in=8)),
        memory=draw(_some(tuple(MEMORY), one_in=8)),
        ignore_files=draw(st.booleans()),
        mcp=draw(st.sampled_from((False, False, False, True))),
    )
