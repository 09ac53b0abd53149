"""What a PermissionRequest hook's answer changes beyond its one call: ``updatedPermissions`` with an allow, and
``interrupt`` with a deny (the answers themselves: permission_request_hooks.py).

Measured on 2.1.278 and 2.1.332 (2.1.252 and 2.1.257 run no PermissionRequest hook in print mode, so nothing here
applies there), on main-thread Bash calls that default mode asks about:

- ``{type: addRules, rules: [{toolName: Bash, ruleContent: C}], behavior: allow, destination: session}`` adds the
  allow rule ``Bash(C)`` for the rest of the session: the same command later runs unasked and fires no hook, another
  command still asks (hook-output-permissionrequest-session-rule, hook-output-permissionrequest-updated-permissions);
- ``{type: setMode, mode: acceptEdits, destination: session}`` switches the session to acceptEdits: later writes in
  the working folder run unasked, and what acceptEdits still asks about fires the hook with ``permission_mode:
  acceptEdits`` (hook-output-permissionrequest-updated-permissions);
- a deny with a message and ``interrupt: true`` refuses the call, lists it, and ends the prompt: the model is not
  asked again and print mode's result is empty, an error (hook-output-permissionrequest-session-rule).

Not measured, so not-modelled: any other entry type, rule behaviour, destination, tool or mode, an entry without a
rule's content, several entries, updates or an interrupt in a subagent's call, and a prompt after an interrupted one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.permission_rules import Rule
from harness.refengine.runtime import Runtime

_EVENT = "PermissionRequest"
#: The entries measured, by their keys.
_ADD_RULES_KEYS = frozenset({"type", "rules", "behavior", "destination"})
_SET_MODE_KEYS = frozenset({"type", "mode", "destination"})


@dataclasses.dataclass(frozen=True, kw_only=True)
class HookAnswer:
    allowed: bool
    updated_input: Mapping[str, Any] | None = None
    """With allow: the hook's ``updatedInput``, the input the call runs with."""
    updated_permissions: tuple[Mapping[str, Any], ...] = ()
    """With allow: the hook's ``updatedPermissions`` (applied here)."""
    message: str = ""
    """With deny: the tool result."""
    interrupt: bool = False
    """With deny: ``interrupt: true``, which ends the prompt (here)."""


def measured_updates(entries: Any) -> tuple[Mapping[str, Any], ...]:
    """``updatedPermissions`` as measured, else NotModelled naming the entry."""
    if not isinstance(entries, Sequence) or isinstance(entries, str) or len(entries) != 1:
        raise NotModelled(f"a {_EVENT} updatedPermissions {entries!r} (measured: one entry)")
    for entry in entries:
        if not _measured(entry):
            raise NotModelled(f"the {_EVENT} updatedPermissions entry {entry!r} (measured: addRules of one Bash "
                              "rule with its content, behavior allow, destination session; setMode acceptEdits, "
                              "destination session)")
    return tuple(entries)


def _measured(entry: Any) -> bool:
    if not isinstance(entry, Mapping) or entry.get("destination") != "session":
        return False
    if entry.get("type") == "setMode":
        return set(entry) == _SET_MODE_KEYS and entry.get("mode") == "acceptEdits"
    rules = entry.get("rules")
    return (entry.get("type") == "addRules" and set(entry) == _ADD_RULES_KEYS and entry.get("behavior") == "allow"
            and isinstance(rules, list) and len(rules) == 1 and isinstance(rules[0], Mapping)
            and set(rules[0]) == {"toolName", "ruleContent"} and rules[0].get("toolName") == "Bash"
            and isinstance(rules[0].get("ruleContent"), str) and rules[0]["ruleContent"].strip() != "")


def apply(rt: Runtime, conversation: Conversation, answer: HookAnswer) -> None:
    """Apply an allow's ``updatedPermissions`` to the session."""
    entries = answer.updated_permissions
    if not entries:
        return
    if conversation.kind != "main":
        raise NotModelled(f"a {_EVENT} updatedPermissions for a {conversation.kind}'s call (measured: the main "
                          "thread's)")
    for entry in entries:
        if entry["type"] == "setMode":
            rt.mode = "acceptEdits"
            continue
        rule = entry["rules"][0]
        added = Rule.parse(f"{rule['toolName']}({rule['ruleContent']})", allows=True)
        rt.rules = dataclasses.replace(rt.rules, allow=(*rt.rules.allow, added))


def interrupts(rt: Runtime, conversation: Conversation, answer: HookAnswer) -> bool:
    """Whether a deny ends the prompt (``interrupt: true``; session.py prints its result as an error)."""
    if not answer.interrupt:
        return False
    if conversation.kind != "main":
        raise NotModelled(f"a {_EVENT} deny with interrupt for a {conversation.kind}'s call (measured: the main "
                          "thread's)")
    rt.session.interrupted = True
    return True
