"""``continue: false`` beside a block, per event.

Measured on 2.1.252 to 2.1.332, the stop and the block in one output and from two handlers, and the stop without a
``stopReason`` (cases ``hook-output-<event>-continue-false-beside-block``):

- PreToolUse: the deny (``permissionDecision: deny`` or the deprecated ``decision: block``) refuses the call with
  its text, listed as a permission denial, and the turn ends (dispatch: a refused call's ``stop_turn``). Without
  a ``stopReason`` the call runs and the turn ends, as with one (hook-output-pretooluse-continue-false).
- PostToolUse: the turn ends after the call; nothing is printed.
- PostToolUseFailure: ``continue`` is not read (hook_results.CONTINUE_READ); the block's text reaches the model.
- UserPromptSubmit: the stop wins over the block: ``Operation stopped by hook: <stopReason>``, and without a
  ``stopReason`` ``Operation stopped by hook`` (hook_reads.stopped_prompt).
- Stop, SubagentStop (HOLDS_BLOCK): ``continue: false`` alone changes nothing (hook-output-stop-ignored,
  -subagentstop-ignored); beside a JSON ``decision: block`` it holds the block back: the model is not asked
  again, the main thread prints an empty result and a subagent hands back its last answer (session.py).
  Beside an exit 2, a prompt or agent verdict, ``additionalContext``, or without a ``stopReason``: not measured.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from harness.refengine.errors import NotModelled

if TYPE_CHECKING:
    from harness.refengine.hook_results import ActionResult, HookOutcome

#: Events where ``continue: false`` holds back a block beside it (and is otherwise not read).
HOLDS_BLOCK = frozenset({"Stop", "SubagentStop"})

Holding = Literal["with reason", "without reason"]
#: What session._stop_hooks gives when a ``continue: false`` held a block back: the model is not asked again.
HELD: tuple[str, str | None] = ("", None)


def holding(event: str, results: Iterable[ActionResult]) -> Holding | None:
    """Whether a result of ``event`` (an event of HOLDS_BLOCK) said ``continue: false``, and with a stopReason."""
    if event not in HOLDS_BLOCK:
        return None
    outputs = [r.output for r in results if r.output is not None and r.output.get("continue") is False]
    if not outputs:
        return None
    return "with reason" if any(isinstance(o.get("stopReason"), str) for o in outputs) else "without reason"


def held(event: str, outcome: HookOutcome, how: Holding) -> HookOutcome:
    """``outcome`` of a Stop or SubagentStop whose results also said ``continue: false``."""
    if not outcome.blocked and not outcome.contexts:
        return outcome  # nothing to hold back: continue false alone changes nothing here
    if outcome.contexts or outcome.blocked_otherwise or how == "without reason":
        raise NotModelled(f"a {event} continue false beside additionalContext, an exit 2 or a prompt or agent "
                          "verdict, or without a stopReason (measured: beside a JSON decision block, with one)")
    return replace(outcome, blocked=False, permission=None, message=None, raced=(), block_note=None, stop_turn=True,
                   continue_false=True)
