"""What a drawn scenario is: the fixture's parts (skills, agents, hooks, permission rules), the steps and
their calls, and the case they make (``Scenario.files``, ``Scenario.case``). grammar.py draws them."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from harness.explore.surface_vocabulary import HANDLER_TYPES, SETTING_VALUES, TYPE_OPTION_VALUES
from harness.explore.vocabulary import (
    AGENT_EXTRA,
    BASE_FILES,
    HANDLER_OPTIONS,
    IGNORE_FILES,
    MEMORY,
    SKILL_EXTRA,
    hook_output,
)

#: The MCP server a fixture may hold (``srv``, one tool ``ping``), approved by the project's settings.
_MCP_SERVER = '''"""srv: a stdio MCP server with one tool, ping, that answers PONG."""
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
    """Handler options the handler also sets (``HANDLER_OPTIONS`` for a command, ``TYPE_OPTION_VALUES``)."""
    handler: str = "command"
    """``command`` (the script ``h<i>.sh``), or a type of ``HANDLER_TYPES``."""

    def rule(self) -> dict[str, Any]:
        if self.handler == "command":
            handler: dict[str, Any] = {"type": "command", "command": f"bash .claude/hooks/h{self.index}.sh"}
            handler.update({key: self._filled(HANDLER_OPTIONS[key]) for key in self.options})
            if "args" in self.options:  # the exec form: the command is the executable, the script its argument
                handler["command"] = "bash"
        else:
            handler = {"type": self.handler, **self._filled(HANDLER_TYPES[self.handler])}
            handler.update({key: self._filled(TYPE_OPTION_VALUES[key]) for key in self.options})
        rule: dict[str, Any] = {"hooks": [handler]}
        if self.matcher is not None:
            rule["matcher"] = self.matcher
        return rule

    def _filled(self, value: Any) -> Any:
        return json.loads(json.dumps(value).replace("{i}", str(self.index)))

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
    settings: tuple[str, ...] = ()
    """Settings keys of ``SETTING_VALUES`` the fixture sets, each as ``level:key``."""

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
            if h.handler == "command":
                out[f".claude/hooks/h{h.index}.sh"] = h.script()
        out.setdefault(".claude/settings.json", "{}\n")  # the project folder always exists
        out.update(BASE_FILES)
        out.update({name: MEMORY[name] for name in self.memory})
        if self.ignore_files:
            out.update(IGNORE_FILES)
        if self.mcp:
            out[".mcp.json"] = json.dumps({"mcpServers": {"srv": {"type": "stdio", "command": "python3",
                                                                  "args": [".claude/mcp/srv.py"]}}}, indent=2)
            out[".claude/mcp/srv.py"] = _MCP_SERVER
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
        for key in (k for lv, k in (item.split(":", 1) for item in self.settings) if lv == level):
            if key.startswith("permissions."):
                settings.setdefault("permissions", {})[key.removeprefix("permissions.")] = SETTING_VALUES[key]
            else:
                settings[key] = SETTING_VALUES[key]
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


#: The parts a scenario's JSON nests, by field name (every other list is a tuple of plain values).
_PARTS: dict[str, type] = {"skills": Skill, "agents": Agent, "hooks": Hook, "rules": Rule, "steps": Step, "calls": Call}


def scenario_json(scenario: Scenario) -> str:
    """``scenario`` as JSON, stored beside the case it made (``scenario_from_json`` reads it back)."""
    return json.dumps(dataclasses.asdict(scenario), indent=1, sort_keys=True) + "\n"


def scenario_from_json(text: str) -> Scenario:
    """The scenario ``scenario_json`` wrote. A key today's parts do not have is left out and a field it
    lacks takes its default: the stored case folder, not this, is what a re-judge runs, so a scenario
    stored by an earlier grammar need only be read, not drawn again."""
    built = _part(Scenario, json.loads(text))
    assert isinstance(built, Scenario)
    return built


def _part(cls: type, data: dict[str, Any]) -> Any:
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: _value(k, v) for k, v in data.items() if k in names})


def _value(name: str, value: Any) -> Any:
    if name in _PARTS and isinstance(value, list) and all(isinstance(item, dict) for item in value):
        # (an agent's ``skills`` is a list of names, not of parts)
        return tuple(_part(_PARTS[name], item) for item in value)
    if isinstance(value, list):  # a tuple field (tools, extra, options, a call's context); a call's input stays
        return tuple(_value("", item) for item in value)
    return value


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
