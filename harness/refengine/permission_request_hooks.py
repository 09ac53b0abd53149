"""PermissionRequest hooks in print mode: a hook's answer for a call the permission check asks about.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (hook-event-permissionrequest-refused, approval-prompt-none,
approval-permissionrequest-hook-allow, -deny, -payload, -and-prompt, -after-user, -before-user and
hook-output-permissionrequest-outputs, hook-event-permissionrequest-accept-edits). From 2.1.268
(``Profile.permission_request_hooks``), when default mode (or acceptEdits, for what it still asks about) asks about a
main-thread call (the tool's own check: a Bash command that writes a file in the working folder, holds
a variable or redirects output, a Write), print mode runs the PermissionRequest hooks of the settings files before
it refuses. The payload holds ``tool_name``, ``tool_input`` and ``permission_suggestions`` (what an interactive
prompt would offer: measured per kind of ask, ``_SUGGESTIONS``). What the hook answers:

- nothing, plain text, exit 1 or exit 2 (its stderr unread): the call is refused as without the hook;
- ``decision: {behavior: allow}``: the call runs, unlisted in ``permission_denials``; with ``updatedInput``, it runs
  with that input;
- ``decision: {behavior: deny}``: the tool result is its ``message``, or ``Permission denied by hook`` without
  one, and the call is listed.

With a permission prompt tool (a case's ``approvals``) a hook that decides nothing leaves the answer to the user
(approval-permissionrequest-payload); a hook's decision races the user's answer and the first decides (an allow
5 seconds before the user's deny decides, approval-permissionrequest-hook-before-user; a deny 3 seconds after the
user's allow does not, approval-permissionrequest-hook-after-user, nor an allow 10 seconds after the user's deny,
approval-permissionrequest-hook-and-prompt), so that is not-modelled. 2.1.252 and 2.1.257 run no PermissionRequest
hook in print mode.

The same holds for a subagent's calls (the payload names the agent: hook-output-permissionrequest-in-subagent); in
bypass mode nothing asks and no hook fires (hook-output-permissionrequest-in-bypass-mode); plan mode: ``in_plan``.
What an allow's ``updatedPermissions`` and a deny's ``interrupt`` do next: permission_request_updates.py.

Not measured, so not-modelled: a PreToolUse hook's ask or any ask a rule makes, other tools and kinds of ask, a rule
outside a settings file or on another matcher, several handlers, handlers that are not plain commands, every other
output field, and the releases between 2.1.257 and 2.1.278 that the profile leaves open.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from harness.refengine import permission_request_updates
from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.hook_actions import run_command
from harness.refengine.hooks import HookAction, HookRule, payload
from harness.refengine.permission_request import Decision
from harness.refengine.permission_request_updates import HookAnswer
from harness.refengine.runtime import Runtime, active_rules

_EVENT = "PermissionRequest"
_DENIED_BY_HOOK = "Permission denied by hook"
_AFTER_CALL = frozenset({"PostToolUse", "PostToolUseFailure", "PostToolBatch"})


def _write_in_folder(rt: Runtime, message: str) -> bool:
    found = re.match(r"\S+ in '([^']*)' (needs approval|was blocked)", message)
    return found is not None and found.group(1).startswith(f"{rt.workdir}/")


def _redirect(rt: Runtime, message: str) -> bool:
    return message.startswith(f"Output redirection to '{rt.workdir}/")


def _variable(rt: Runtime, message: str) -> bool:
    return message == rt.profile.bash_variable_refusal


def _file_write(rt: Runtime, message: str) -> bool:
    return message.startswith(f"Claude requested permissions to write to {rt.workdir}/")


def _add_folder(rt: Runtime) -> dict[str, Any]:
    return {"type": "addDirectories", "directories": [str(rt.workdir)], "destination": "session"}


def _accept_edits(rt: Runtime) -> dict[str, Any]:
    return {"type": "setMode", "mode": "acceptEdits", "destination": "session"}


#: The kinds of ask measured, per tool: how the refusal reads, and the payload's ``permission_suggestions``.
_SUGGESTIONS: Mapping[str, tuple[tuple[Callable[[Runtime, str], bool], tuple[Callable[[Runtime], dict[str, Any]], ...]],
                                ...]] = {
    "Bash": ((_write_in_folder, (_add_folder, _accept_edits)), (_redirect, (_add_folder,)), (_variable, ())),
    "Write": ((_file_write, (_accept_edits,)),),
}


#: acceptEdits allows the other kinds above (they fire nothing); what it still asks about, and the suggestions
#: (hook-event-permissionrequest-accept-edits).
_ACCEPT_EDITS_SUGGESTIONS: Mapping[str, tuple[tuple[Callable[[Runtime, str], bool],
                                                   tuple[Callable[[Runtime], dict[str, Any]], ...]], ...]] = {
    "Bash": ((_variable, ()),),
}
_BY_MODE = {"default": _SUGGESTIONS, "acceptEdits": _ACCEPT_EDITS_SUGGESTIONS}


def measured(rt: Runtime, conversation: Conversation, name: str, decision: Decision) -> bool:
    """Whether a refusal (before the mode adjusts it) is one whose PermissionRequest hooks are measured."""
    # Measured in runs without ask rules, where every ask is the tool's own check (whichever module words it).
    return (decision.behaviour == "ask" and not rt.rules.ask and conversation.kind in ("main", "subagent")
            and conversation.mode is None and rt.mode in _BY_MODE and rt.profile.permission_request_hooks is not None
            and _suggestions(_SUGGESTIONS, rt, name, decision) is not None)


def in_plan(rt: Runtime, conversation: Conversation) -> bool:
    """A main-thread call in a plan-mode session: plan mode's auto-mode classifier refusals fire no
    PermissionRequest hook (hook-output-permissionrequest-in-plan-mode on 2.1.278 and 2.1.332; 2.1.252 and
    2.1.257 fire none in print mode); what falls back to default mode's refusal (2.1.278's third) fires it with
    ``permission_mode: plan``, whose answers are not measured."""
    return rt.mode == "plan" and conversation.kind == "main" and conversation.mode is None


def _suggestions(table: Mapping[str, tuple[tuple[Callable[[Runtime, str], bool],
                                                 tuple[Callable[[Runtime], dict[str, Any]], ...]], ...]],
                 rt: Runtime, name: str, decision: Decision) -> list[dict[str, Any]] | None:
    for reads, offered in table.get(name, ()):
        if reads(rt, decision.message):
            return [make(rt) for make in offered]
    return None


def ask_hooks(rt: Runtime, conversation: Conversation, name: str, reported: Mapping[str, Any],
              decision: Decision, *, pre_added: bool) -> HookAnswer | None:
    """Run the PermissionRequest hooks for a ``measured`` ask; their answer, None where they give none (or run
    beside a permission prompt tool, whose answer decides). ``pre_added``: a PreToolUse hook added context,
    stopped the turn or rewrote the input."""
    rules = active_rules(rt, conversation, _EVENT)
    if not rules or not rt.profile.permission_request_hooks:
        return None
    if pre_added:
        raise NotModelled(f"a {_EVENT} hook after a PreToolUse hook that added context, stopped or rewrote input")
    actions = _actions(rules, name)
    if len(actions) > 1:
        raise NotModelled(f"several {_EVENT} handlers for one call (measured with one)")
    suggestions = _suggestions(_BY_MODE[rt.mode], rt, name, decision)
    if suggestions is None:
        raise NotModelled(f"a {_EVENT} hook for a {name} call {rt.mode} mode still asks about (not measured)")
    data = payload(_EVENT, source=rt.payload_source(conversation),
                   fields={"tool_name": name, "tool_input": dict(reported), "permission_suggestions": suggestions})
    answers = [_answer(run_command(rt, rule, action, data, event=_EVENT).output) for rule, action in actions]
    if rt.approvals is not None and any(answers):
        raise NotModelled(f"a {_EVENT} hook's decision beside a permission prompt tool (the hook and the user's "
                          "answer race: the first decides)")
    if not answers or answers[0] is None:
        return None
    if answers[0].updated_input is not None and active_rules(rt, conversation) and any(
            r.event in _AFTER_CALL for r in active_rules(rt, conversation)):
        raise NotModelled(f"a {_EVENT} updatedInput beside hooks on {', '.join(sorted(_AFTER_CALL))} (which input "
                          "their payloads hold is not measured)")
    return answers[0]


def _actions(rules: list[HookRule], name: str) -> list[tuple[HookRule, HookAction]]:
    found: list[tuple[HookRule, HookAction]] = []
    for rule in rules:
        if not rule.from_settings:
            raise NotModelled(f"a hook on {_EVENT} outside a settings file ({rule.origin})")
        if rule.matcher not in (None, "", "*", name):
            raise NotModelled(f"a hook on {_EVENT} with the matcher {rule.matcher!r} for a {name} call "
                              f"(measured: none, '*' and the tool's name)")
        for action in rule.actions:
            if action.type != "command" or set(action.keys) - {"type", "command"}:
                raise NotModelled(f"a {_EVENT} handler other than a plain command ({rule.origin}: "
                                  f"{', '.join(action.keys)})")
            found.append((rule, action))
    return found


def _answer(output: Mapping[str, Any] | None) -> HookAnswer | None:
    """What one handler's JSON output decides (its exit code and plain text decide nothing: measured)."""
    if output is None:
        return None
    specific = output.get("hookSpecificOutput")
    if set(output) != {"hookSpecificOutput"} or not isinstance(specific, Mapping) \
            or set(specific) != {"hookEventName", "decision"} or specific.get("hookEventName") != _EVENT:
        raise NotModelled(f"the {_EVENT} hook output {sorted(output)} (measured: hookSpecificOutput with "
                          "hookEventName and decision alone)")
    decision = specific["decision"]
    behaviour = decision.get("behavior") if isinstance(decision, Mapping) else None
    if behaviour == "allow" and set(decision) <= {"behavior", "updatedInput", "updatedPermissions"}:
        updated = decision.get("updatedInput")
        if updated is not None and not isinstance(updated, Mapping):
            raise NotModelled(f"a {_EVENT} updatedInput that is not an object")
        if updated is not None and "updatedPermissions" in decision:
            raise NotModelled(f"a {_EVENT} updatedInput beside updatedPermissions (measured apart)")
        return HookAnswer(allowed=True, updated_input=updated,
                          updated_permissions=permission_request_updates.measured_updates(
                              decision["updatedPermissions"]) if "updatedPermissions" in decision else ())
    if behaviour == "deny" and set(decision) <= {"behavior", "message", "interrupt"} and isinstance(
            decision.get("message", ""), str) and decision.get("interrupt", True) is True:
        if decision.get("interrupt") is True and not decision.get("message"):
            raise NotModelled(f"a {_EVENT} deny with interrupt and no message (measured with one)")
        return HookAnswer(allowed=False, message=decision.get("message") or _DENIED_BY_HOOK,
                          interrupt=decision.get("interrupt") is True)
    raise NotModelled(f"the {_EVENT} hook decision {decision!r} (measured: allow with or without updatedInput or "
                      "updatedPermissions, deny with or without a message or interrupt)")
