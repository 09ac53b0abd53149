"""Permission rules that name one agent, ``Agent(x)``, against the Agent tool's calls.

Measured on 2.1.252 to 2.1.332 in default mode (subagent-type-not-found-before-rules): an ask rule
``Agent(x)`` binds no call. With x a defined agent the subagent runs; with x naming no agent the call
is answered ``Agent type 'x' not found ...`` (the PreToolUse hook has run first, no permission denial is
listed). The other modes are not measured with such a rule, nor the bare ``Agent`` ask rule (left to
the permission check as it was).

A deny rule ``Agent(x)`` does not refuse the call in the permission check either: the Agent tool refuses a
defined agent x itself, "Agent type 'x' has been denied by permission rule 'Agent(x)' from projectSettings."
(``localSettings``, ``userSettings``), after PreToolUse hooks ran, and no permission denial is listed. Measured
on 2.1.252 to 2.1.332 in default mode (rule-agent-deny-wording, where scout, which no rule names, runs) and in
bypass mode with a PreToolUse hook on Agent (rule-agent-deny-bypass-hook). Other modes, the ``--settings`` file,
one rule in several files, and an x naming no agent are not measured.

Such a deny rule also takes agent x out of what the model is told: the agent listing and the list of the
"Agent type 'y' not found" error leave x out (measured on 2.1.252 to 2.1.332 for rules from the project's,
the local and the user's settings, in bypass mode, rule-agent-deny-unlisted with its contrast, and in default
mode, rule-agent-deny-wording). A rule naming a built-in agent, or from another source, is not measured.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence

from harness.refengine.errors import NotModelled
from harness.refengine.permission_rules import Rule, RuleSet

#: The name each settings level has in the refusal (measured: project, local and user).
_SOURCES = {"project": "projectSettings", "local": "localSettings", "user": "userSettings"}
#: Modes the refusal is measured in (a PreToolUse hook runs before it: rule-agent-deny-bypass-hook).
_MODES = frozenset({"default", "bypass"})


def effective(rules: RuleSet, tool: str, mode: str) -> RuleSet:
    """``rules`` as they bind a call of ``tool`` in ``mode``: without the ask and deny rules naming one agent
    (the Agent tool answers a deny rule itself: ``denial``)."""
    if tool != "Agent":
        return rules
    rules = dataclasses.replace(rules, deny=tuple(r for r in rules.deny if r not in _naming(rules.deny)))
    naming = _naming(rules.ask)
    if not naming:
        return rules
    if mode != "default":
        raise NotModelled(f"an ask rule {naming[0].text} against an Agent call in {mode} mode (measured in "
                          "default mode only, where it binds no call)")
    return dataclasses.replace(rules, ask=tuple(r for r in rules.ask if r not in naming))


def denial(rules: RuleSet, wanted: str, *, mode: str) -> str | None:
    """The Agent tool's refusal of a call of the defined agent ``wanted`` that a deny rule names, if any."""
    naming = [r for r in _naming(rules.deny) if r.specifier == wanted]
    if not naming:
        return None
    rule = naming[0]
    if mode not in _MODES:
        raise NotModelled(f"a deny rule {rule.text} against an Agent call in {mode} mode (measured: default and "
                          "bypass)")
    if len(naming) > 1 or len(rule.levels) != 1 or (level := next(iter(rule.levels))) not in _SOURCES:
        raise NotModelled(f"a deny rule {rule.text} from the {'/'.join(sorted(rule.levels))} settings (its "
                          "refusal names one file: measured for the project's, the local and the user's)")
    return f"Agent type '{wanted}' has been denied by permission rule '{rule.text}' from {_SOURCES[level]}."


def unlisted(rules: RuleSet, *, builtins: Collection[str], mode: str) -> frozenset[str]:
    """The agents a deny rule takes out of the listing and of the 'not found' error's list."""
    naming = _naming(rules.deny)
    for rule in naming:
        if mode not in _MODES:
            raise NotModelled(f"a deny rule {rule.text} and the agents offered in {mode} mode (measured: default "
                              "and bypass)")
        if rule.specifier in builtins:
            raise NotModelled(f"a deny rule {rule.text} naming a built-in agent (measured for defined agents)")
        if not rule.levels <= _SOURCES.keys():
            raise NotModelled(f"a deny rule {rule.text} from the {'/'.join(sorted(rule.levels))} settings and the "
                              "agents offered (measured for the project's, the local and the user's)")
    return frozenset(str(r.specifier) for r in naming)


def _naming(rules: Sequence[Rule]) -> tuple[Rule, ...]:
    return tuple(r for r in rules if r.covers_tool("Agent") and r.specifier is not None)
