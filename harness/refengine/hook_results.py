"""What hook actions' results mean: one event's results combined into the outcome the engine acts on.

hooks.py decides which actions run, hook_actions.py runs them; this module gives their exit codes, stdout
and JSON output their meaning (notes §1.6-§1.7) with the measured strings of messages.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from harness.refengine import hook_messages
from harness.refengine.errors import NotModelled
from harness.refengine.hooks import HookAction

# What an event does not read of a command's result, the parts combine must not act on: every hook event takes
# the same exit codes and JSON fields, but each reads only some of them (measured on 2.1.252 to 2.1.332, each
# output alone and all together in one committed case per event; hook_surface names them). Reading a result
# through as_read keeps combine's rules per field instead of per event and field.
#: Events where exit 2 is measured to be a non-blocking error, as exit 1 is.
_EXIT_2_IGNORED = frozenset({"SessionStart", "SubagentStart", "SessionEnd", "MessageDisplay"})
#: Events where a top-level ``decision: block`` is measured to change nothing.
_BLOCK_IGNORED = frozenset({"SessionStart", "SubagentStart", "SessionEnd", "MessageDisplay"})
#: Events where ``continue: false`` is measured to act (hook_surface cites the cases).
_CONTINUE_READ = frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit"})


def _as_read(event: str, result: ActionResult) -> ActionResult:
    """``result`` without what ``event`` does not read (an ignored exit 2 becomes an exit 1)."""
    if result.exit_code == 2 and event in _EXIT_2_IGNORED:
        result = replace(result, exit_code=1)
    if result.output is None:
        return result
    output: Mapping[str, Any] = result.output
    if event in _BLOCK_IGNORED and output.get("decision") == "block":
        output = {k: v for k, v in output.items() if k not in ("decision", "reason")}
    if event not in _CONTINUE_READ and "continue" in output:
        output = {k: v for k, v in output.items() if k not in ("continue", "stopReason")}
    return replace(result, output=output) if output is not result.output else result


Permission = Literal["allow", "deny", "ask", "defer"]
_PRECEDENCE: dict[Permission, int] = {"deny": 3, "defer": 2, "ask": 1, "allow": 0}
# Exit 2 and decision block reach the model as '<event>:<tool> hook blocking error from command: ...' (measured on
# 2.1.252 to 2.1.332: hook-output-posttooluse-exit2, -block, hook-output-posttoolusefailure-exit2, -block).
_BLOCKING_ERROR_EVENTS = frozenset({"PostToolUse", "PostToolUseFailure"})


@dataclass(frozen=True, kw_only=True)
class ActionResult:
    """What one action produced, before the event gives it meaning."""

    action: HookAction
    exit_code: int = 0
    stdout: str = ""
    stderr: str = ""
    output: Mapping[str, Any] | None = None
    """Parsed JSON output (command/http/mcp_tool), if any."""
    verdict_ok: bool | None = None
    """prompt/agent actions: the model's ``ok``; None when it gave no usable verdict."""
    verdict_reason: str = ""


@dataclass(frozen=True, kw_only=True)
class HookOutcome:
    """The combined effect of every action that ran for one event."""

    permission: Permission | None = None
    message: str | None = None
    """The text the model gets: a deny reason, a block message, or Stop feedback."""
    blocked: bool = False
    stop_turn: bool = False
    contexts: tuple[str, ...] = ()
    updated_input: Mapping[str, Any] | None = None
    block_note: str | None = None
    """A system note sent after a Stop/SubagentStop block's feedback (the profile's ``stop_block_adds_note``)."""
    suppress_prompt: bool = False
    """A UserPromptSubmit block whose printed message leaves the original prompt out (suppressOriginalPrompt)."""
    stop_reason: str | None = None
    """The first ``stopReason`` beside a ``continue: false`` the event reads (CONTINUE_READ)."""
    updated_without_decision: bool = False
    """``updated_input`` came with no permissionDecision: the rewritten call still needs the permission check."""
    actions: int = 0
    """How many actions ran for the event."""
    continue_false: bool = False
    """An output the event reads said ``continue: false`` (CONTINUE_READ), or one held back a block
    (HOLDS_BLOCK: then ``blocked`` is false and ``stop_turn`` true)."""
    blocked_otherwise: bool = False
    """A block came from an exit 2 or a prompt/agent verdict, not from JSON output."""
    stops_differ: bool = False
    """Several ``continue: false`` outputs gave different stopReasons (or one none): which one prints is a race."""
    block_apart: bool = False
    """A block came from an action that did not say ``continue: false`` (hook_reads: a race with the stop)."""
    displays: tuple[str, ...] = ()
    """Each MessageDisplay ``displayContent`` text, in order (hook_display.py)."""
    raced: tuple[str, ...] = ()
    """When several actions blocked with different texts: every one of them, ``message`` (the first) first.
    Which one the real engine gives is a race (combine), so a run's answer is any of them."""


def parse_output(stdout: str) -> Mapping[str, Any] | None:
    """Stdout is JSON only when its first non-space character is ``{`` (notes §1.6)."""
    text = stdout.strip()
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def combine(event: str, tool: str | None, results: Iterable[ActionResult], *,
            deny_names_event: bool = False, stop_block_note: bool = False,
            matched: str | None = None) -> HookOutcome:
    """Give the results of one event's actions their meaning (notes §1.6-§1.7, measured strings).

    ``deny_names_event``: a PreToolUse deny reason is framed as ``PreToolUse:<tool> hook error:``
    (the profile's ``hook_deny_reason_names_event``). ``matched``: what the rules were matched against (a
    SessionStart's source), named in a plain-stdout success note. ``stop_block_note``: a Stop or SubagentStop
    JSON block also leaves a note framed like a PostToolUse block (the profile's ``stop_block_adds_note``).

    Several blocking actions with different texts on one event: the actions run in parallel and the text
    of the first to finish wins, so with actions of like duration which one it is is a race. Measured on
    2.1.332: two UserPromptSubmit commands exiting 2 at once gave the first in 6 runs of 6, and the second
    in 3 of 3 once the first slept 0.5 s first; two PreToolUse scripts of like duration gave one, then the
    other, on successive calls of one run (cc-harness explore seed 4242, x4242-0017); 2.1.252 named the
    first, 2.1.332 the second (seed 7, x7-0122). The outcome names the first in definition order and lists
    every text in ``raced``: a run's answer is any of them (harness/refengine/NOT_MODELLED.md, races)."""
    permission: Permission | None = None
    message: str | None = None
    blocked = stop = False
    contexts: list[str] = []
    updated: Mapping[str, Any] | None = None
    updated_alone = False
    block_note: str | None = None
    suppress = False
    subject = tool or ""

    raced: list[str] = []
    displays: list[str] = []
    apart = stops = False

    def block(text: str, decision: Permission = "deny") -> None:
        nonlocal permission, message, blocked, apart
        apart = apart or not stops  # a block from a handler that did not say continue: false races a stop
        if blocked and text not in raced:
            raced.append(text)
        blocked = True
        if permission is None or _PRECEDENCE[decision] > _PRECEDENCE[permission]:
            permission = decision
        if message is None:
            message = text
            raced.append(text)

    stop_reason: str | None = None
    otherwise = continued = False
    stop_reasons: set[str | None] = set()
    decided: list[str] = []  # PreToolUse JSON decisions, to keep a defer beside another one unmodelled
    results = list(results)
    holding = _continue_holding(event, results)
    results = [_as_read(event, r) for r in results]
    for r in results:
        specific = _specific(r.output)
        stops = r.output is not None and r.output.get("continue") is False
        if r.output is not None and stops:
            stop = continued = True
            reason_given = r.output.get("stopReason")
            stop_reasons.add(reason_given if isinstance(reason_given, str) else None)
            if stop_reason is None and isinstance(reason_given, str):
                stop_reason = reason_given
        if r.action.type in ("prompt", "agent"):
            otherwise = otherwise or r.verdict_ok is False
            if r.verdict_ok is False:
                if event in ("Stop", "SubagentStop"):
                    block(hook_messages.stop_feedback(r.action.prompt, r.verdict_reason))
                elif r.action.type == "prompt":
                    block(hook_messages.hook_error(event, subject, r.action.prompt, r.verdict_reason))
                    stop = stop or not r.action.continue_on_block
                else:
                    block(hook_messages.agent_hook_not_met(event, subject, r.verdict_reason))
            continue
        if r.exit_code == 2:
            otherwise = True
            if event in ("Stop", "SubagentStop"):
                block(hook_messages.stop_feedback(r.action.label, r.stderr))
            elif event == "UserPromptSubmit":
                block(hook_messages.prompt_blocked(r.action.label, r.stderr))
            elif event in _BLOCKING_ERROR_EVENTS:
                block(hook_messages.blocking_error(event, subject, r.action.label, f"[{r.action.label}]: {r.stderr}"))
            else:
                block(hook_messages.hook_error(event, subject, r.action.label, r.stderr))
            continue
        if r.output is None:
            if r.exit_code == 0 and r.stdout.strip() and event in ("SessionStart", "UserPromptSubmit"):
                contexts.append(hook_messages.hook_success(event, matched, r.stdout.strip()))
            continue
        decision = specific.get("permissionDecision") or _legacy_decision(r.output.get("decision"), event)
        reason = str(specific.get("permissionDecisionReason") or r.output.get("reason") or "")
        if event == "PreToolUse" and decision in _PRECEDENCE:
            decided.append(decision)
            if decision == "deny" and not reason:
                block(_deny_without_reason(event, subject, deny_names_event=deny_names_event), decision)
            elif decision == "deny" and deny_names_event and _deny_names_event_for(subject):
                block(hook_messages.hook_denied(event, subject, reason), decision)
            elif decision in ("deny", "ask"):
                if not reason:
                    raise NotModelled("the text of a PreToolUse ask without a reason (only a deny without one is "
                                      "measured)")
                block(reason, decision)
            elif permission is None or _PRECEDENCE[decision] > _PRECEDENCE[permission]:
                permission = decision
            if isinstance(specific.get("updatedInput"), dict):
                updated = specific["updatedInput"]
        elif event == "PreToolUse" and decision is None and isinstance(specific.get("updatedInput"), dict):
            # Measured on 2.1.252 to 2.1.332 (hook-output-pretooluse-updated-input-alone): without a decision the
            # rewritten input is what runs, through the usual permission check (dispatch gates that check).
            updated = specific["updatedInput"]
            updated_alone = True
        elif r.output.get("decision") == "block":
            if event in ("Stop", "SubagentStop"):
                block(hook_messages.stop_feedback(None, reason))
                if stop_block_note and block_note is None:
                    block_note = hook_messages.blocking_error(event, None, r.action.label, reason)
            elif event in _BLOCKING_ERROR_EVENTS:
                block(hook_messages.blocking_error(event, subject, r.action.label, reason))
            elif event == "UserPromptSubmit":
                block(hook_messages.prompt_blocked_reason(reason))
                # Measured on 2.1.252 to 2.1.332 (hook-output-userpromptsubmit-suppress-original-prompt).
                suppress = suppress or specific.get("suppressOriginalPrompt") is True
            else:
                block(hook_messages.hook_error(event, subject, r.action.label, reason))
        if isinstance(specific.get("displayContent"), str):
            displays.append(specific["displayContent"])
        if isinstance(specific.get("additionalContext"), str):
            contexts.append(hook_messages.additional_context(event, tool, specific["additionalContext"]))
    if "defer" in decided and (len(decided) > 1 or blocked):
        raise NotModelled("a PreToolUse defer beside another handler's decision or block (not measured)")
    outcome = HookOutcome(
        permission=permission, message=message, blocked=blocked, stop_turn=stop, contexts=tuple(contexts),
        updated_input=updated, actions=len(results), raced=tuple(raced) if len(raced) > 1 else (),
        updated_without_decision=updated_alone and permission is None, block_note=block_note,
        suppress_prompt=suppress, stop_reason=stop_reason, continue_false=continued,
        blocked_otherwise=otherwise, block_apart=apart, stops_differ=len(stop_reasons) > 1, displays=tuple(displays),
    )
    return _held(event, outcome, holding) if holding else outcome


#: Where the profile's ``hook_deny_reason_names_event`` holds, a PreToolUse JSON deny reason reaches the model
#: as ``PreToolUse:<tool> hook error: <reason>`` for these tools, and as the bare reason for ``_DENY_REASON_BARE``.
#: Measured on 2.1.332 (hook-pretooluse-deny-prefix-tools, -bypass: Bash prefixed, Read and Write bare, in print
#: mode and with bypass; hook-subagent-matcher-agent: Agent prefixed; cc-harness explore seed 7, x7-0025: Skill
#: prefixed). Other tools are not measured.
_DENY_REASON_NAMES_EVENT = frozenset({"Bash", "Agent", "Skill"})
_DENY_REASON_BARE = frozenset({"Read", "Write"})


def _deny_names_event_for(tool: str) -> bool:
    if tool in _DENY_REASON_NAMES_EVENT:
        return True
    if tool in _DENY_REASON_BARE:
        return False
    raise NotModelled(f"the text of a PreToolUse JSON deny reason for {tool} (prefixed for Bash, Agent and Skill, bare "
                      "for Read and Write, measured)")


#: The tools a PreToolUse JSON deny without a reason is measured for (hook-pretooluse-deny-no-reason, -bypass, on
#: 2.1.252 to 2.1.332, print mode and bypass alike: ``Hook PreToolUse:<tool> denied this tool``, and where the
#: profile's ``hook_deny_reason_names_event`` holds, Bash's ``PreToolUse:Bash hook error: Blocked by hook``; every
#: such call is a permission denial in the result event).
_DENY_WITHOUT_REASON_MEASURED = frozenset({"Bash", "Read", "Write"})


def _deny_without_reason(event: str, tool: str, *, deny_names_event: bool) -> str:
    if tool not in _DENY_WITHOUT_REASON_MEASURED:
        raise NotModelled(f"the text of a PreToolUse JSON deny without a reason for {tool} (measured for Bash, Read "
                          "and Write)")
    if deny_names_event and _deny_names_event_for(tool):
        return hook_messages.hook_denied(event, tool, hook_messages.HOOK_DENY_DEFAULT_REASON)
    return hook_messages.hook_denied_without_reason(event, tool)


def _specific(output: Mapping[str, Any] | None) -> Mapping[str, Any]:
    value = (output or {}).get("hookSpecificOutput")
    return value if isinstance(value, Mapping) else {}


def _legacy_decision(value: Any, event: str) -> Permission | None:
    """The deprecated top-level ``decision: approve|block`` of PreToolUse maps to allow|deny."""
    if event != "PreToolUse":
        return None
    return {"approve": "allow", "block": "deny"}.get(value)  # type: ignore[return-value]


# ``continue: false`` beside a block, per event.
#
# Measured on 2.1.252 to 2.1.332, the stop and the block in one output and from two handlers, and the stop without a
# ``stopReason`` (cases ``hook-output-<event>-continue-false-beside-block``):
#
# - PreToolUse: the deny (``permissionDecision: deny`` or the deprecated ``decision: block``) refuses the call with
#   its text, listed as a permission denial, and the turn ends (dispatch: a refused call's ``stop_turn``). Without
#   a ``stopReason`` the call runs and the turn ends, as with one (hook-output-pretooluse-continue-false).
# - PostToolUse: the turn ends after the call; nothing is printed.
# - PostToolUseFailure: ``continue`` is not read (hook_results._CONTINUE_READ); the block's text reaches the model.
# - UserPromptSubmit: the stop wins over the block: ``Operation stopped by hook: <stopReason>``, and without a
#   ``stopReason`` ``Operation stopped by hook`` (hook_reads.stopped_prompt).
# - Stop, SubagentStop (HOLDS_BLOCK): ``continue: false`` alone changes nothing (hook-output-stop-ignored,
#   -subagentstop-ignored); beside a JSON ``decision: block`` it holds the block back: the model is not asked
#   again, the main thread prints an empty result and a subagent hands back its last answer (session.py).
#   Beside an exit 2, a prompt or agent verdict, ``additionalContext``, or without a ``stopReason``: not measured.
#: Events where ``continue: false`` holds back a block beside it (and is otherwise not read).
_HOLDS_BLOCK = frozenset({"Stop", "SubagentStop"})

_Holding = Literal["with reason", "without reason"]
#: What session._stop_hooks gives when a ``continue: false`` held a block back: the model is not asked again.
HELD: tuple[str, str | None] = ("", None)


def _continue_holding(event: str, results: Iterable[ActionResult]) -> _Holding | None:
    """Whether a result of ``event`` (an event of HOLDS_BLOCK) said ``continue: false``, and with a stopReason."""
    if event not in _HOLDS_BLOCK:
        return None
    outputs = [r.output for r in results if r.output is not None and r.output.get("continue") is False]
    if not outputs:
        return None
    return "with reason" if any(isinstance(o.get("stopReason"), str) for o in outputs) else "without reason"


def _held(event: str, outcome: HookOutcome, how: _Holding) -> HookOutcome:
    """``outcome`` of a Stop or SubagentStop whose results also said ``continue: false``."""
    if not outcome.blocked and not outcome.contexts:
        return outcome  # nothing to hold back: continue false alone changes nothing here
    if outcome.contexts or outcome.blocked_otherwise or how == "without reason":
        raise NotModelled(f"a {event} continue false beside additionalContext, an exit 2 or a prompt or agent "
                          "verdict, or without a stopReason (measured: beside a JSON decision block, with one)")
    return replace(outcome, blocked=False, permission=None, message=None, raced=(), block_note=None, stop_turn=True,
                   continue_false=True)
