"""Permission decisions: deny > ask > allow rules, the mode, and each tool's own check (E2, S1, S3, S6).

The engine asks here after PreToolUse hooks ran. An ``ask`` cannot be answered in print mode, so the
caller turns it into a refusal whose message is the tool_result (E2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from harness.refengine import messages
from harness.refengine.bash_safety import approval_message
from harness.refengine.errors import NotModelled
from harness.refengine.profiles import BashPathRefusal
from harness.refengine.tools import ALIASES, MODELLED_BUILTINS, READ_ONLY_TOOLS, SPECS, resolve, skill_name

Mode = Literal["default", "bypass", "dontAsk"]
# The hook payload's name for each mode. ``dontAsk`` (hook agents) refuses what would ask, which in
# print mode is what ``default`` does too.
MODE_NAMES: Mapping[Mode, str] = {"default": "default", "bypass": "bypassPermissions", "dontAsk": "dontAsk"}


@dataclass(frozen=True, kw_only=True)
class Rule:
    """``Tool`` or ``Tool(specifier)`` from a settings list or a skill's ``allowed-tools``."""

    tool: str
    specifier: str | None = None

    @classmethod
    def parse(cls, text: str) -> Rule:
        m = re.fullmatch(r"\s*([^(\s]+)\s*(?:\((.*)\))?\s*", text)
        if m is None:
            return cls(tool=text.strip())
        specifier = m.group(2)
        return cls(tool=ALIASES.get(m.group(1), m.group(1)), specifier=None if specifier in (None, "*") else specifier)

    def covers_tool(self, tool: str) -> bool:
        if self.tool == tool:
            return True
        # ``mcp__server`` and ``mcp__server__*`` cover every tool of that server.
        if self.tool.endswith("__*"):
            return tool.startswith(self.tool[:-1])
        if self.tool.startswith("mcp__") and self.tool.count("__") == 1:
            return tool.startswith(self.tool + "__")
        return False

    def matches(self, tool: str, tool_input: Mapping[str, Any], *, workdir: Path) -> bool:
        if not self.covers_tool(tool):
            return False
        if tool.startswith("mcp__"):
            raise NotModelled(f"permission rule {self.text} for the MCP tool {tool} (MCP server and tool rules)")
        if self.specifier is None:
            return True
        if tool == "Bash":
            return bash_pattern_matches(self.specifier, str(tool_input.get("command", "")))
        if tool == "Skill":
            name = skill_name(tool_input)
            return name == self.specifier or (self.specifier.endswith(":*") and name == self.specifier[:-2])
        if tool == "Agent":
            return str(tool_input.get("subagent_type", "general-purpose")) == self.specifier
        # Path rules follow gitignore's globs with //abs, ~/ and settings-relative roots; WebFetch(domain:),
        # Tool(param:value): none is measured, and a wrong match answers allow or deny wrongly.
        raise NotModelled(f"permission rule {self.text} for {tool} (unmodelled permission rule form)")

    @property
    def text(self) -> str:
        return f"{self.tool}({self.specifier})" if self.specifier is not None else self.tool


#: What makes a command compound: the real engine splits it and checks each part against the rules.
_COMPOUND = re.compile(r"[;&|\n`]|\$\(")


def is_compound(command: str) -> bool:
    return _COMPOUND.search(command) is not None


def bash_pattern_matches(pattern: str, command: str) -> bool:
    """``Bash(git:*)`` = ``Bash(git *)``; ``cmd *`` also matches the bare ``cmd`` (word boundary)."""
    if pattern.endswith(":*"):
        pattern = pattern[:-2] + " *"
    if pattern.endswith(" *") and command.strip() == pattern[:-2]:
        return True
    regex = ".*".join(re.escape(piece) for piece in pattern.split("*"))
    return re.fullmatch(regex, command.strip(), re.DOTALL) is not None


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    allow: tuple[Rule, ...] = ()
    deny: tuple[Rule, ...] = ()
    ask: tuple[Rule, ...] = ()

    @classmethod
    def from_lists(cls, *, allow: Iterable[str], deny: Iterable[str], ask: Iterable[str]) -> RuleSet:
        return cls(allow=tuple(map(Rule.parse, allow)), deny=tuple(map(Rule.parse, deny)),
                   ask=tuple(map(Rule.parse, ask)))


@dataclass(frozen=True, kw_only=True)
class Decision:
    behaviour: Literal["allow", "deny", "ask"]
    message: str = ""


ALLOW = Decision(behaviour="allow")


@dataclass(frozen=True, kw_only=True)
class Request:
    """One tool call as the permission check sees it."""

    tool: str
    tool_input: Mapping[str, Any]
    mode: Mode
    workdir: Path
    rules: RuleSet
    granted: tuple[Rule, ...] = ()
    """Pre-approvals of skills invoked this turn (``allowed-tools``, S1)."""
    withheld: frozenset[str] = frozenset()
    """Tools denied by skills invoked this turn (``disallowed-tools``, S3)."""
    hook_allowed: bool = False
    skill_needs_approval: bool = False
    skill_refusal_names_allow_rule: bool = False
    """The profile's ``skill_approval_names_allow_rule``: how the Skill tool's ask is worded."""
    bash_path_refusal: BashPathRefusal = "blocked"
    """The profile's ``bash_path_refusal``: how a redirection's or a path program's refusal is worded."""


def removed_by_deny(rules: RuleSet) -> frozenset[str]:
    """Built-ins a bare deny rule takes out of every context (measured for ``deny: [Bash]`` on 2.1.252 to
    2.1.332: Bash is not offered and a call gets "Bash is disabled for this session, in subagents as well as
    here."); a rule with a specifier refuses matching calls instead (``decide``)."""
    return frozenset(r.tool for r in rules.deny if r.specifier is None and r.tool in MODELLED_BUILTINS)


def decide(request: Request) -> Decision:
    tool, tool_input = request.tool, request.tool_input

    def any_match(rules: Iterable[Rule]) -> bool:
        return any(r.matches(tool, tool_input, workdir=request.workdir) for r in rules)

    _check_modelled(request)
    # A skill's disallowed-tools holds even in bypass mode (S3).
    if tool in request.withheld:
        return Decision(behaviour="deny", message=messages.permission_denied(tool))
    for rule in request.rules.deny:
        if rule.matches(tool, tool_input, workdir=request.workdir):
            text = messages.bash_denied_by_rule(str(tool_input.get("command", ""))) if tool == "Bash" \
                and rule.specifier else messages.permission_denied(tool)
            return Decision(behaviour="deny", message=text)
    # Explicit ask rules are never auto-approved, not even in bypass mode (notes §4.1).
    if any_match(request.rules.ask):
        return Decision(behaviour="ask", message=messages.permission_not_granted(tool))
    if request.hook_allowed or request.mode == "bypass":
        return ALLOW
    allow_rules = (*request.rules.allow, *request.granted)
    if any_match(allow_rules):
        return ALLOW
    return _tool_default(request, allow_rules)


def _check_modelled(request: Request) -> None:
    """Rule evaluations with no measurement behind them: a compound Bash command against a Bash rule with a
    specifier (the engine checks each part; measured only for allow rules through bash_safety's split), and a
    PreToolUse hook's ``allow`` against a matching deny or ask rule."""
    tool, tool_input, workdir = request.tool, request.tool_input, request.workdir
    if tool == "Bash" and is_compound(str(tool_input.get("command", ""))):
        rules = (*request.rules.deny, *request.rules.ask)
        if any(r.covers_tool("Bash") and r.specifier is not None for r in rules):
            raise NotModelled("a compound Bash command against a Bash deny or ask rule with a specifier")
        if any(r.specifier is not None and r.matches(tool, tool_input, workdir=workdir)
               for r in (*request.rules.allow, *request.granted)):
            raise NotModelled("a compound Bash command that a Bash allow rule matches as a whole")
    if request.hook_allowed and any(r.matches(tool, tool_input, workdir=workdir)
                                    for r in (*request.rules.deny, *request.rules.ask)):
        raise NotModelled("a PreToolUse hook's allow against a matching deny or ask rule")


def _tool_default(request: Request, allow_rules: tuple[Rule, ...]) -> Decision:
    """What the tool itself says in default mode when no rule decided."""
    tool = request.tool
    if tool in READ_ONLY_TOOLS or tool in ("Agent", "StructuredOutput"):
        return ALLOW
    if tool == "Bash":
        def allowed(part: str) -> bool:
            return any(r.matches("Bash", {"command": part}, workdir=request.workdir) for r in allow_rules)

        message = approval_message(str(request.tool_input["command"]), workdir=request.workdir, allowed=allowed,
                                   path_refusal=request.bash_path_refusal)
        return ALLOW if message is None else Decision(behaviour="ask", message=message)
    if tool in ("Write", "Edit", "NotebookEdit"):
        # Measured for NotebookEdit too: "Claude requested permissions to write to <absolute path> ...".
        path_param = SPECS[tool].path_param or "file_path"
        path = resolve(str(request.tool_input[path_param]), workdir=request.workdir)
        return Decision(behaviour="ask", message=messages.write_not_granted(path))
    if tool == "Skill":
        if not request.skill_needs_approval:
            return ALLOW
        name = skill_name(request.tool_input)
        return Decision(behaviour="ask", message=messages.execute_skill(
            name, names_allow_rule=request.skill_refusal_names_allow_rule))
    return Decision(behaviour="ask", message=messages.permission_not_granted(tool))
