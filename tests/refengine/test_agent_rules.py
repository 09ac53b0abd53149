"""A deny rule ``Agent(x)`` and the agents the model is told of (rule-agent-deny-unlisted, rule-agent-deny-wording)."""

from __future__ import annotations

import pytest

from harness.refengine import agent_rules
from harness.refengine.errors import NotModelled
from harness.refengine.permission_rules import RuleSet

BUILTINS = ("claude", "Explore", "general-purpose", "Plan", "statusline-setup")


def _rules(*deny: str, level: str = "project") -> RuleSet:
    return RuleSet.from_lists(allow=(), deny=deny, ask=(), origins=[(t, level) for t in deny])


def test_denied_defined_agents_are_unlisted() -> None:
    rules = _rules("Agent(probe)", "Agent(scout)", "Bash(git push:*)", "Agent")
    assert agent_rules.unlisted(rules, builtins=BUILTINS, mode="bypass") == {"probe", "scout"}


def test_an_ask_rule_unlists_nothing() -> None:
    rules = RuleSet.from_lists(allow=(), deny=(), ask=("Agent(probe)",))
    assert agent_rules.unlisted(rules, builtins=BUILTINS, mode="default") == frozenset()


@pytest.mark.parametrize(("deny", "mode", "level", "why"), [
    ("Agent(Explore)", "default", "project", "built-in agent"),
    ("Agent(probe)", "acceptEdits", "project", "acceptEdits mode"),
    ("Agent(probe)", "default", "flag", "from the flag settings"),
])
def test_unmeasured_rules_are_not_modelled(deny: str, mode: str, level: str, why: str) -> None:
    with pytest.raises(NotModelled, match=why):
        agent_rules.unlisted(_rules(deny, level=level), builtins=BUILTINS, mode=mode)
