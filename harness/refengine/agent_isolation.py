"""An agent's ``isolation: worktree``: the Agent call that starts it, as far as measured.

Outside a git repository and with no WorktreeCreate hook, the call is refused before the subagent starts: no
context opens, no ``.claude/worktrees`` folder is made, and the model reads the refusal as the call's error
(agent-key-isolation, the same text on 2.1.252, 2.1.257, 2.1.278 and 2.1.332). The binary throws it where the
agent is launched, as it throws ``Agent type ... not found``, so the call ends as that one does: PreToolUse and
PostToolUseFailure hooks on Agent fire, PostToolUse, SubagentStart and SubagentStop hooks do not
(agent-key-isolation-hooks, every pinned version).

Not modelled: a working copy inside a git repository (a worktree is made and the agent runs there), a
WorktreeCreate or WorktreeRemove hook (the engine makes the worktree through it), ``isolation`` with any other
value, and an agent whose other run keys are not modelled themselves (``background`` may launch it another way).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harness.refengine.config_model import AgentDef
    from harness.refengine.hooks import HookRule

#: The refusal the model reads, measured on every pinned version.
REFUSAL = ("Cannot create agent worktree: not in a git repository and no WorktreeCreate hooks are configured. "
           "Configure WorktreeCreate/WorktreeRemove hooks in settings.json to use worktree isolation with other VCS "
           "systems.")
#: Events whose hooks may fire around a worktree launch: their order against the refusal is not measured.
_NEAR_EVENTS = frozenset({"WorktreeCreate", "WorktreeRemove"})


def _in_git(workdir: Path) -> bool:
    return any((folder / ".git").exists() for folder in (workdir, *workdir.parents))


def isolated(agent: AgentDef) -> bool:
    return "isolation" in dict(agent.run_keys)


def without_isolation(agent: AgentDef) -> AgentDef:
    """The agent as if it had no ``isolation`` key: to ask whether its other run keys are modelled."""
    return replace(agent, run_keys=tuple((k, v) for k, v in agent.run_keys if k != "isolation"))


def problem(agent: AgentDef, *, workdir: Path, hooks: Iterable[HookRule], other_keys_problem: str | None) -> str | None:
    """Why the refusal of starting ``agent`` (which has an ``isolation`` key) is not modelled, if it is not."""
    value = dict(agent.run_keys)["isolation"]
    if value != "worktree":
        return f"agent {agent.name!r} frontmatter isolation: {value!r} (measured: worktree)"
    if other_keys_problem:
        return other_keys_problem
    if _in_git(workdir):
        return f"agent {agent.name!r} isolation: worktree in a git repository (a worktree is made: unmeasured)"
    if near := sorted({rule.event for rule in hooks if rule.event in _NEAR_EVENTS}):
        return f"agent {agent.name!r} isolation: worktree with a hook on {', '.join(near)} (unmeasured)"
    return None
