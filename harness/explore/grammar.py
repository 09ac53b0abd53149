"""Valid random cases from a grammar of what the engine reads, as Hypothesis strategies.

A **scenario** is a whole case: the files of a `.claude/` fixture (skills, agents, settings hooks and
permissions, at the project or the user level), the run's options (trust, permission mode), one to
three prompts, and the scripted model's turns, including the contexts the turns open (each subagent
task, each forked skill). Everything is drawn from small vocabularies, so that shrinking gives short
cases a person can read, and every name a turn uses is one the fixture may define (or, on purpose,
one it does not).

Hypothesis draws and shrinks; the explorer (``explorer.py``) runs each scenario on two engines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

SKILL_NAMES = ("alpha", "beta")
AGENT_NAMES = ("probe", "helper")
#: Matchers of every shape the docs and the claims speak of: exact, regex, everything, lists, broken.
MATCHERS = ("Bash", "", "*", "Ba.*", "Bash|Read", "Read", "Bash,Read", "[", "Skill", "Agent")
TOOL_EVENTS = ("PreToolUse", "PostToolUse")
OTHER_EVENTS = ("UserPromptSubmit", "SessionStart", "Stop")
HOOK_OUTPUTS = ("marker", "exit2", "deny", "context")
RULES = ("Bash(echo *)", "Bash", "Read", "Write", "Skill(alpha)", "Bash(echo M1)")
TOOL_LISTS: tuple[tuple[str, ...] | None, ...] = (None, ("Read",), ("Read", "Bash"), ("Bash", "Agent"), ("Skill",))


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
        return _frontmatter(meta) + self.body + "\n"


@dataclass(frozen=True, kw_only=True)
class Agent:
    name: str
    tools: tuple[str, ...] | None
    disallowed_tools: tuple[str, ...] | None
    skills: tuple[str, ...] | None
    hook: bool
    level: str

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
        return _frontmatter(meta) + f"You are the {self.name} agent. AGENT-{self.name.upper()}-BODY\n"


@dataclass(frozen=True, kw_only=True)
class Hook:
    event: str
    matcher: str | None
    output: str
    level: str
    index: int

    def rule(self) -> dict[str, Any]:
        rule: dict[str, Any] = {"hooks": [{"type": "command", "command": f"bash .claude/hooks/h{self.index}.sh"}]}
        if self.matcher is not None:
            rule["matcher"] = self.matcher
        return rule

    def script(self) -> str:
        """Records the event and its payload's tool or prompt, then answers as ``output`` says."""
        head = f'cat > /dev/null; echo "{self.event} h{self.index}" >> "$CLAUDE_PROJECT_DIR/hooks.txt"\n'
        reason = f"HOOK-{self.index}-DENIED"
        answers = {
            "marker": "",
            "exit2": f'echo "{reason}" >&2; exit 2\n',
            "deny": "echo '"
            + json.dumps(
                {
                    "hookSpecificOutput": {
                        "hookEventName": self.event,
                        "permissionDecision": "deny",
                        "permissionDecisionReason": reason,
                    }
                }
            )
            + "'\n",
            "context": "echo '"
            + json.dumps(
                {"hookSpecificOutput": {"hookEventName": self.event, "additionalContext": f"HOOK-{self.index}-CONTEXT"}}
            )
            + "'\n",
        }
        return "#!/bin/bash\n" + head + answers[self.output]


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
    allow: tuple[str, ...]
    deny: tuple[str, ...]
    trusted: bool
    bypass: bool
    steps: tuple[Step, ...]
    subagent_calls_bash: bool = field(default=False)

    def files(self) -> dict[str, str]:
        """The case's files, relative to its folder (``home/`` is the user level)."""
        out: dict[str, str] = {}
        for s in self.skills:
            out[_root(s.level) + f".claude/skills/{s.name}/SKILL.md"] = s.text()
        for a in self.agents:
            out[_root(a.level) + f".claude/agents/{a.name}.md"] = a.text()
        for level in ("project", "user"):
            settings = self._settings(level)
            if settings:
                out[_root(level) + ".claude/settings.json"] = json.dumps(settings, indent=2) + "\n"
        for h in self.hooks:
            out[f".claude/hooks/h{h.index}.sh"] = h.script()
        out.setdefault(".claude/settings.json", "{}\n")  # the project folder always exists
        out["notes.txt"] = "NOTES-CONTENT\n"
        return out

    def _settings(self, level: str) -> dict[str, Any]:
        settings: dict[str, Any] = {}
        rules: dict[str, list[dict[str, Any]]] = {}
        for h in self.hooks:
            if h.level == level:
                rules.setdefault(h.event, []).append(h.rule())
        if rules:
            settings["hooks"] = rules
        if level == "project" and (self.allow or self.deny):
            settings["permissions"] = {k: list(v) for k, v in (("allow", self.allow), ("deny", self.deny)) if v}
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
            "run": {"permission_mode": "bypass" if self.bypass else "default", "trusted": self.trusted},
            "steps": steps,
        }
        if contexts:
            case["contexts"] = contexts
        if self.hooks:
            case["unordered_files"] = ["hooks.txt"]  # hooks of one event run in parallel (measured)
        if any(level == "user" for level in self._levels()):
            case["home"] = "home"
        return case

    def _levels(self) -> list[str]:
        return [*(s.level for s in self.skills), *(a.level for a in self.agents), *(h.level for h in self.hooks)]


def _root(level: str) -> str:
    return "home/" if level == "user" else ""


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


@st.composite
def skills(draw: st.DrawFn) -> tuple[Skill, ...]:
    names = draw(st.lists(st.sampled_from(SKILL_NAMES), unique=True, max_size=2))
    return tuple(
        Skill(
            name=name,
            description=draw(st.booleans()),
            fork=draw(st.booleans()),
            agent=draw(st.sampled_from((None, None, "Explore", *AGENT_NAMES, "nosuch"))),
            allowed_tools=draw(st.sampled_from((None, None, "Read", "Bash"))),
            disallowed_tools=draw(st.sampled_from((None, None, "Bash"))),
            disable_model_invocation=draw(st.booleans()),
            hook=draw(st.booleans()),
            level=draw(_levels),
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
        )
        for name in names
    )


@st.composite
def hooks(draw: st.DrawFn) -> tuple[Hook, ...]:
    count = draw(st.integers(min_value=0, max_value=3))
    out = []
    for index in range(count):
        event = draw(st.sampled_from((*TOOL_EVENTS, *TOOL_EVENTS, *OTHER_EVENTS)))
        matcher = draw(st.sampled_from(MATCHERS)) if event in TOOL_EVENTS else None
        out.append(
            Hook(
                event=event,
                matcher=matcher,
                output=draw(st.sampled_from(HOOK_OUTPUTS)),
                level=draw(_levels),
                index=index,
            )
        )
    return tuple(out)


def _call(draw: st.DrawFn, n: int) -> Call:
    kind = draw(st.sampled_from(("Bash", "Bash", "Skill", "Agent", "Read", "Write", "Nope")))
    if kind == "Bash":
        return Call(tool="Bash", input={"command": f"echo M{n}"})
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
    if kind == "Read":
        return Call(tool="Read", input={"file_path": "notes.txt"})
    if kind == "Write":
        return Call(tool="Write", input={"file_path": f"out{n}.txt", "content": f"W{n}"})
    return Call(tool="Nope", input={})


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
        allow=tuple(draw(st.lists(st.sampled_from(RULES), unique=True, max_size=2))),
        deny=tuple(draw(st.lists(st.sampled_from(RULES), unique=True, max_size=1))),
        trusted=draw(st.booleans()),
        bypass=draw(st.booleans()),
        steps=draw(steps()),
        subagent_calls_bash=draw(st.booleans()),
    )
