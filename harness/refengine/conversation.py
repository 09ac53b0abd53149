"""A model context: the main thread, a subagent, a forked skill, or a hook's agent.

Each has its own message list, tool pool and depth, and asks the same model (the engine opens a
new context for every subagent, 000 "model 跟 engine"). The state here lives exactly as long as the
context does; skill grants and withholdings last until the next user message (S1, S3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from harness.refengine.config_model import AgentDef
from harness.refengine.hooks import HookRule
from harness.refengine.permission_request import Mode
from harness.refengine.permission_rules import Rule
from harness.refengine.profiles import Profile
from harness.refengine.tool_model import SEARCH_TOOLS

ContextKind = Literal["main", "subagent", "fork", "hook_agent"]
AGENT = "Agent"


@dataclass(kw_only=True)
class Conversation:
    kind: ContextKind
    system: str
    messages: list[dict[str, Any]]
    pool: tuple[str, ...]
    """Tools this context may be offered, in offering order, before turn-scoped changes. Glob and Grep
    are in it wherever they can be offered; ``callable`` hides them while Bash is offered (agents.py)."""
    explicit_tools: bool = False
    """The pool is an agent's explicit ``tools:`` list: nothing in it is deferred (measured on 2.1.332)."""
    depth: int
    agent: AgentDef | None = None
    agent_id: str | None = None
    scoped_hooks: tuple[HookRule, ...] = ()
    """Agent-frontmatter hooks, active in this context only (A6)."""
    granted: list[Rule] = field(default_factory=list)
    withheld: set[str] = field(default_factory=set)
    search_tools_shown: bool = False
    """A skill withheld Bash here once, and the profile keeps Glob and Grep offered since
    (``search_tools_stay_next_prompt``)."""
    mode: Mode | None = None
    """A permission mode of its own; hook agents run in ``dontAsk`` whatever the session's mode."""
    tools_called: list[str] = field(default_factory=list)
    """Every tool this context asked for, in order, refused or not (``tool_uses`` counts them)."""
    stopped_at_turn_limit: bool = False
    """The agent's ``maxTurns`` ended this context after a turn that called tools (agent_keys.py)."""
    structured_output: Mapping[str, Any] | None = None
    """A hook agent's verdict, once it called StructuredOutput."""
    read_views: dict[Path, str] = field(default_factory=dict)
    """Each file this context last read whole, with its content then (the Read tool's unchanged-file check)."""
    memory_loaded: set[Path] = field(default_factory=set)
    """Folder CLAUDE.md files and scoped rules this context has loaded, each once (memory.py)."""
    known_files: set[Path] = field(default_factory=set)
    """Files this context holds whole: the engine's read-file state (tools.ToolEnvironment.known)."""
    seen_files: dict[Path, str] = field(default_factory=dict)
    """Each file this context read, wrote or edited, with its content then (tools.ToolEnvironment.seen)."""

    @property
    def tool_uses(self) -> int:
        return len(self.tools_called)

    def offered(self, profile: Profile) -> tuple[str, ...]:
        """The names in this request's ``tools``: the callable ones but the deferred (2.1.332: MCP tools
        everywhere, some built-ins in an inherited pool)."""
        deferred = self.deferred(profile)
        return tuple(n for n in self.callable(profile)
                     if n not in deferred and not (profile.mcp_tools_deferred and n.startswith("mcp__")))

    def deferred(self, profile: Profile) -> frozenset[str]:
        """Built-ins callable here but left out of ``tools`` (behind ToolSearch)."""
        return frozenset() if self.explicit_tools else profile.deferred_builtins

    def callable(self, profile: Profile) -> tuple[str, ...]:
        """The tools a call may name. Where the profile hides Glob and Grep, a pool that offers Bash hides
        them too, until a skill withholds Bash (measured on 2.1.252: ``disallowed-tools: Bash`` adds them) in
        the context that invoked it; a forked skill's own context does not get them (measured by cc-harness
        explore on 2.1.252 and 2.1.332: seed 7 x7-0021, seed 1234 x1234-0187). From 2.1.281 they stay after
        the restriction ends (``search_tools_shown``; skill-disallowed-search-tools-stay)."""
        withheld = "Bash" in self.withheld or self.search_tools_shown
        bash_offered = "Bash" in self.pool and (not withheld or self.kind == "fork")
        hide_search = profile.search_tools_hidden_while_bash_available and bash_offered
        names = [n for n in self.pool if not (hide_search and n in SEARCH_TOOLS)]
        return tuple(profile.agent_tool_name if n == AGENT else n for n in names)

    def start_user_turn(self) -> None:
        """A user message clears what skills granted or withheld during the previous turn."""
        self.granted.clear()
        self.withheld.clear()

    @property
    def agent_type(self) -> str | None:
        return self.agent.name if self.agent is not None else None


def text_of(blocks: list[dict[str, Any]]) -> str:
    """The text of an assistant reply: its text blocks joined."""
    return "\n".join(b["text"] for b in blocks if b.get("type") == "text")


def user_text(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def system_note(text: str) -> dict[str, Any]:
    """Context the engine adds between turns; the real engine sends these as ``system`` messages."""
    return {"role": "system", "content": text}
