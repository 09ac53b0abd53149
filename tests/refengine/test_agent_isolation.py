"""An agent's isolation: worktree (agent_isolation.py): the launch refused outside a git repository, measured by
agent-key-isolation(-hooks) on 2.1.252 to 2.1.332; not modelled in a repository, beside a worktree hook, or
with a run key that is not modelled itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.refengine import agent_isolation, agent_keys
from harness.refengine.config import load_project
from harness.refengine.config_model import AgentDef
from harness.refengine.hooks import parse_hook_rules
from tests.conftest import write_files


def _agent(tmp_path: Path, keys: str) -> tuple[AgentDef, Path]:
    work, home = tmp_path / "work", tmp_path / "home"
    home.mkdir(parents=True)
    write_files(work, {".claude/agents/probe.md": f"---\nname: probe\ndescription: A probe.\n{keys}---\nBody.\n"})
    return load_project(workdir=work, home=home, trusted=True).agents["probe"], work


def _problem(agent: AgentDef, work: Path, hooks: tuple = ()) -> str | None:
    others = agent_keys.run_problem(agent_isolation.without_isolation(agent), context="subagent", workdir=work)
    return agent_isolation.problem(agent, workdir=work, hooks=hooks, other_keys_problem=others)


def test_outside_a_repository_the_launch_is_refused(tmp_path: Path) -> None:
    agent, work = _agent(tmp_path, "isolation: worktree\ncolor: blue\n")
    assert agent_isolation.isolated(agent)
    assert _problem(agent, work) is None
    # the same agent, started, is not modelled past the refusal (agents.subagent)
    assert agent_keys.run_problem(agent, context="subagent", workdir=work) is not None


@pytest.mark.parametrize(("keys", "reason"), [
    ("isolation: remote\n", "measured: worktree"),
    ("isolation: worktree\nbackground: true\n", "background"),
])
def test_unmeasured_isolated_launches_are_not_modelled(tmp_path: Path, keys: str, reason: str) -> None:
    agent, work = _agent(tmp_path, keys)
    assert reason in (_problem(agent, work) or "")


def test_a_git_repository_or_a_worktree_hook_is_not_modelled(tmp_path: Path) -> None:
    agent, work = _agent(tmp_path, "isolation: worktree\n")
    hooks = parse_hook_rules({"WorktreeCreate": [{"hooks": [{"type": "command", "command": "true"}]}]}, origin="x")
    assert "WorktreeCreate" in (_problem(agent, work, hooks) or "")
    (work / ".git").mkdir()
    assert "git repository" in (_problem(agent, work) or "")
