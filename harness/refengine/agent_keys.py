"""Agent frontmatter keys beyond the tools, skills, hooks and model: what each does, as far as measured.

An agent that is defined and never started changes nothing a run shows with any of ``RUN_KEYS``: the main
thread is offered and answered the same, no memory folder is made, the agent stays defined (agent-key-idle,
agent-key-idle-more and agent-key-idle-mcp against their contrasts, a user's agent in frontmatter-keys-user;
2.1.252 to 2.1.332; ``mcpServers`` as a list of names only: ``idle_problem``). So the configuration accepts these
keys, and ``run_problem`` says, when the agent starts, whether its keys and values are modelled for that run.
Measured and modelled, as a subagent, on every pinned version:

- ``color`` and ``initialPrompt`` change nothing a subagent's run shows; its task arrives alone
  (agent-key-silent-keys, agent-key-quiet-run against agent-key-quiet-run-absent);
- ``autoCompactWindow`` (a number), ``experimental`` (true, or ``cacheTtl`` alone), ``observer`` (an agent's
  name, or true as the explorer writes it), ``observeSubagents``, ``observeToolResults`` (flags) and
  ``observerMessage`` (a text) change nothing a subagent's run shows: no observer context opens in print mode,
  the agent's body and tools are its own (agent-key-silent-keys, agent-key-run-more against its contrast); on an
  agent never started, with ``isolation: worktree`` too, the agent stays defined (agent-key-idle-more);
- ``omitClaudeMd`` leaves CLAUDE.md out of the subagent's context from 2.1.278 (2.1.252 and 2.1.257 do not know
  the key: agent-key-omit-claude-md); without memory files it changes nothing (agent-key-quiet-run), and with
  them a project agent's run is not modelled anyway (agents.subagent);
- ``effort: low`` is the effort the subagent's hook payloads carry (agent-key-effort);
- ``maxTurns: 1`` stops the subagent after its first turn if that turn called tools
  (messages.turn_limit_note);
- ``memory: project`` before the agent's memory folder exists adds Write, Edit and Read to a ``tools:`` list
  and makes no folder while nothing is written (agent-key-memory-empty against its contrast,
  agent-key-memory-inherit).

``isolation: worktree`` refuses the Agent call before the agent starts (agent_isolation.py). Not modelled, so a
run that starts such an agent says not-modelled: ``mcpServers`` (agent-key-mcp-servers), ``background``
(the call is answered with a placeholder and the reply comes later: agent-key-background), ``maxTurns`` but 1,
``memory`` with the folder there (its MEMORY.md goes into the system prompt: agent-key-memory),
``permissionMode``, any other value of ``effort``, and every one of these keys on an agent run as the main
thread (``--agent``: agent-key-initial-prompt puts ``initialPrompt`` before the prompt there) or as a forked
skill's agent.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.refengine.config_model import AgentDef

#: Keys accepted in an agent's frontmatter beyond the ones config.agent_def reads into fields.
RUN_KEYS = frozenset({
    "permissionMode", "maxTurns", "effort", "color", "memory", "background", "initialPrompt", "omitClaudeMd",
    "experimental", "isolation", "autoCompactWindow", "observer", "observeSubagents", "observerMessage",
    "observeToolResults", "mcpServers",
})
#: Values measured to change nothing a subagent's run shows, per key (any string for color and initialPrompt).
_INERT: Mapping[str, tuple[type, ...]] = {
    "color": (str,), "initialPrompt": (str,), "omitClaudeMd": (bool,), "autoCompactWindow": (int,),
    "observer": (str, bool), "observeSubagents": (bool,), "observerMessage": (str,), "observeToolResults": (bool,),
}
#: The file tools an agent with ``memory`` gets for its memory folder, in the order they are added.
_MEMORY_TOOLS = ("Write", "Edit", "Read")
#: maxTurns values measured (agent-key-max-turns, agent-key-max-turns-report, agent-key-max-turns-effects).
_TURN_LIMITS = frozenset({1})
#: effort values measured as a subagent's hook payload effort.
_EFFORTS = frozenset({"low"})


def idle_problem(name: str, meta: Mapping[str, Any]) -> str | None:
    """Why an agent's key is not modelled even while the agent is never started: ``mcpServers`` was measured as
    a list of server names only (agent-key-idle-mcp); an inline server definition may start with the session."""
    servers = meta.get("mcpServers")
    if servers is None or (isinstance(servers, list) and all(isinstance(s, str) for s in servers)):
        return None
    return f"agent {name!r} frontmatter mcpServers: {servers!r} (measured: a list of server names)"


def run_keys(meta: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The ``RUN_KEYS`` an agent's frontmatter sets, with their values."""
    return tuple((key, meta[key]) for key in sorted(RUN_KEYS) if key in meta)


def run_problem(agent: AgentDef, *, context: str, workdir: Path) -> str | None:
    """Why a run that starts ``agent`` as ``context`` (``main`` for --agent, ``subagent``, ``fork`` for a forked
    skill's agent) in ``workdir`` is not modelled, if it is not."""
    keys, name = dict(agent.run_keys), agent.name
    if not keys:
        return None
    if context != "subagent":
        return f"agent {name!r} frontmatter key {', '.join(keys)} on a {context} context (unmeasured)"
    unmodelled = [key for key, value in keys.items() if not _modelled(key, value, agent, workdir)]
    if unmodelled:
        shown = ", ".join(f"{key}: {keys[key]!r}" for key in unmodelled)
        return f"a subagent run of agent {name!r} with frontmatter {shown} (unmodelled agent key)"
    return None


def _modelled(key: str, value: Any, agent: AgentDef, workdir: Path) -> bool:
    if key in _INERT:
        return isinstance(value, _INERT[key])
    if key == "experimental":  # measured true and {cacheTtl: 1h} (its cache lifetime shows in no transcript)
        return value is True or (isinstance(value, dict) and set(value) == {"cacheTtl"}
                                 and isinstance(value["cacheTtl"], str))
    if key == "effort":
        # measured with the inherited model; a haiku agent's payloads carry no effort at all (runtime.py)
        return value in _EFFORTS and "haiku" not in (agent.model or "")
    if key == "maxTurns":
        return type(value) is int and value in _TURN_LIMITS
    if key == "memory":
        # measured before the agent's memory folder exists, without disallowedTools (with a MEMORY.md the
        # system prompt holds it: agent-key-memory; the prompt's text is not modelled)
        return value == "project" and not agent.disallowed_tools \
            and not (workdir / ".claude" / "agent-memory" / agent.name).exists()
    return False


def memory_tools(agent: AgentDef, tools: tuple[str, ...]) -> tuple[str, ...]:
    """An agent with ``memory`` and a ``tools:`` list is offered Write, Edit and Read after its list, each
    once (agent-key-memory-empty: ``tools: Bash`` is offered Bash, Write, Edit, Read); an inherited pool has
    them already (agent-key-memory-inherit)."""
    if dict(agent.run_keys).get("memory") is None:
        return tools
    return tuple(dict.fromkeys((*tools, *_MEMORY_TOOLS)))


def effort(agent: AgentDef) -> str | None:
    """The effort the agent's own key sets (run_problem has checked the value), or None."""
    value = dict(agent.run_keys).get("effort")
    return str(value) if value is not None else None


def turn_limit(agent: AgentDef | None) -> int | None:
    """The agent's ``maxTurns`` (run_problem has checked the value), or None."""
    value = dict(agent.run_keys).get("maxTurns") if agent is not None else None
    return value if isinstance(value, int) else None

