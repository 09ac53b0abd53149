"""Version profiles: which behaviour the reference engine models for a given Claude Code version.

The table ``CHANGES`` is the single place that names the version at which a modelled behaviour
changed. A profile for version V starts from ``BASELINE`` (the oldest behaviour we model) and applies
every change whose ``since`` is at most V, in table order. Evidence says where each row comes from:
"measured" rows were observed on the real binary through the fake API; "notes" rows come from
shared/reference/claude-code-semantics.md (docs and changelog) and are leads, not measurements.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from harness.errors import EngineError

Version = tuple[int, int, int]


@dataclass(frozen=True, kw_only=True)
class Profile:
    """Every version-dependent switch the reference engine reads. Field docs say what True means."""

    version: Version
    agent_tool_name: str
    """The name under which the subagent tool is offered (``Task`` was renamed ``Agent``)."""
    subagent_spawn_depth: int
    """Default nesting cap: a context at this depth gets no Agent tool (main thread is depth 0)."""
    matcher_comma_list: bool
    """A matcher like ``Bash,Read`` is a list of exact names (before: it never matched)."""
    matcher_hyphen_exact: bool
    """A ``-`` keeps a matcher on the exact-name path (before: it made the matcher a regex)."""
    safe_skills_skip_approval: bool
    """A skill whose loaded properties are all on the safe list needs no approval in print mode."""
    skill_disallowed_tools: bool
    """SKILL.md ``disallowed-tools`` is honoured."""
    skill_allowed_tools_pre_approve: bool
    """SKILL.md ``allowed-tools`` pre-approves the listed tools in print mode (S1)."""
    http_hooks: bool
    mcp_tool_hooks: bool
    agent_hooks_on_main_agent: bool
    """Agent-frontmatter hooks also apply when the agent is the main thread (``--agent``)."""
    agent_hooks_need_trust: bool
    """Project agent-frontmatter hooks are dropped unless the folder's trust was accepted."""
    search_tools_hidden_while_bash_available: bool
    """Glob and Grep are offered only while Bash is withheld (the model is told to use find/grep)."""


BASELINE: dict[str, Any] = {
    "agent_tool_name": "Task",
    "subagent_spawn_depth": 1,
    "matcher_comma_list": False,
    "matcher_hyphen_exact": False,
    "safe_skills_skip_approval": False,
    "skill_disallowed_tools": False,
    "skill_allowed_tools_pre_approve": False,
    "http_hooks": False,
    "mcp_tool_hooks": False,
    "agent_hooks_on_main_agent": False,
    "agent_hooks_need_trust": False,
    "search_tools_hidden_while_bash_available": False,
}


@dataclass(frozen=True, kw_only=True)
class Change:
    behaviour: str
    since: Version
    value: Any
    evidence: str


CHANGES: tuple[Change, ...] = (
    Change(behaviour="safe_skills_skip_approval", since=(2, 1, 19), value=True,
           evidence="notes §2.3: skills without extra permissions or hooks run without approval"),
    Change(behaviour="agent_tool_name", since=(2, 1, 63), value="Agent",
           evidence="notes §3.5: Task renamed Agent; Task stays an alias (A4)"),
    Change(behaviour="http_hooks", since=(2, 1, 63), value=True, evidence="notes §1.1 changelog"),
    Change(behaviour="agent_hooks_on_main_agent", since=(2, 1, 116), value=True,
           evidence="notes §5 #30260: fixed in 2.1.116"),
    Change(behaviour="mcp_tool_hooks", since=(2, 1, 118), value=True, evidence="notes §1.1 changelog"),
    Change(behaviour="skill_disallowed_tools", since=(2, 1, 152), value=True, evidence="notes §2.2"),
    Change(behaviour="subagent_spawn_depth", since=(2, 1, 172), value=5, evidence="notes §3.6"),
    Change(behaviour="matcher_comma_list", since=(2, 1, 191), value=True, evidence="notes §1.3"),
    Change(behaviour="matcher_hyphen_exact", since=(2, 1, 195), value=True, evidence="notes §1.3"),
    Change(behaviour="subagent_spawn_depth", since=(2, 1, 217), value=1, evidence="notes §3.6"),
    Change(behaviour="agent_hooks_need_trust", since=(2, 1, 218), value=True,
           evidence="notes §1.10; measured on 2.1.252: applied inside the subagent when trusted, "
                    "dropped when not (this, not the version, separates A6a from A6b)"),
    Change(behaviour="subagent_spawn_depth", since=(2, 1, 219), value=3,
           evidence="notes §3.6; A5; measured on 2.1.252 with the env override 2"),
    Change(behaviour="search_tools_hidden_while_bash_available", since=(2, 1, 252), value=True,
           evidence="measured on 2.1.252 (the earliest version measured, not the first that does it)"),
    Change(behaviour="skill_allowed_tools_pre_approve", since=(2, 1, 332), value=True,
           evidence="measured: 2.1.252, 2.1.257 and 2.1.278 refuse Write, Edit, Bash(touch:*) and "
                    "Bash(python3:*) that allowed-tools lists; 2.1.332 runs them (the switch lies between)"),
)


def parse_version(text: str) -> Version:
    parts = text.strip().split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise EngineError(f"reference engine: version {text!r} is not MAJOR.MINOR.PATCH")
    return int(parts[0]), int(parts[1]), int(parts[2])


def profile_for(version: str) -> Profile:
    """The profile for ``version``: the baseline with every change up to that version applied."""
    wanted = parse_version(version)
    profile = Profile(version=wanted, **BASELINE)
    for change in CHANGES:
        if change.since <= wanted:
            profile = dataclasses.replace(profile, **{change.behaviour: change.value})
    return profile
