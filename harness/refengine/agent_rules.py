"""Permission rules that name one agent, ``Agent(x)``, against the Agent tool's calls.

Measured on 2.1.252 to 2.1.332 in default mode (subagent-type-not-found-before-rules): an ask rule
``Agent(x)`` binds no call. With x a defined agent the subagent runs; with x naming no agent the call
is answered ``Agent type 'x' not found ...`` (the PreToolUse hook has run first, no permission denial is
listed). The other modes are not measured with such a rule, nor the bare ``Agent`` ask rule (left to
the permission check as it was).
"""

from __future__ import annotations

import dataclasses

from harness.refengine.errors import NotModelled
from harness.refengine.permission_rules import RuleSet


def effective(rules: RuleSet, tool: str, mode: str) -> RuleSet:
    """``rules`` as they bind a call of ``tool`` in ``mode``: without the ask rules naming one agent."""
    if tool != "Agent":
        return rules
    naming = tuple(r for r in rules.ask if r.covers_tool("Agent") and r.specifier is not None)
    if not naming:
        return rules
    if mode != "default":
        raise NotModelled(f"an ask rule {naming[0].text} against an Agent call in {mode} mode (measured in "
                          "default mode only, where it binds no call)")
    return dataclasses.replace(rules, ask=tuple(r for r in rules.ask if r not in naming))
