"""MessageDisplay: the hook event the engine fires as it shows an assistant message, as far as it is measured.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332, print mode:

- It fires once for each main-thread assistant message with text, a message that also calls a tool included (before
  the call runs), and for each such message of a later or resumed prompt; a tool-only message and a subagent's
  text fire nothing (hook-event-messagedisplay).
- Its payload: session_id, transcript_path, cwd, prompt_id, hook_event_name, turn_id (one per prompt), message_id,
  index 0, final true and delta, the message's whole text; no permission_mode or effort (hook-event-messagedisplay).
- Exit 2 and exit 1 with a stderr text, plain stdout, and every JSON field cc-harness explore's hooks print change
  nothing: the call runs, no hook text reaches the model, the printed result is the model's answer
  (hook-output-messagedisplay-ignored).
- ``hookSpecificOutput.displayContent`` on the last message replaces the printed result; the model keeps its own
  text (hook-output-messagedisplay-display-content). On an earlier message of the turn it changes nothing the run
  shows (hook-output-messagedisplay-display-content-earlier).

Not measured, so not-modelled: a MessageDisplay rule outside a settings file, with a matcher other than ``*``, or
with a handler that is not a command; a forked skill's, a hook agent's or an ``--agent`` main thread's messages; a
message of several text blocks; several handlers answering displayContent; displayContent that is not text.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.hook_actions import check_settings_command_rule, fire
from harness.refengine.hook_results import HookOutcome
from harness.refengine.hooks import HookRule
from harness.refengine.runtime import Runtime, active_rules

_EVENT = "MessageDisplay"  # its measured outputs and endings, with their cases: hook_surface.py
#: A namespace for the turn_id of a prompt: one id per prompt, apart from its prompt_id (measured: they differ).
_TURN_IDS = uuid.UUID("6f1c2d4e-8a5b-4c3d-9e7f-1a2b3c4d5e6f")


def _check(rule: HookRule, conversation: Conversation, rt: Runtime) -> None:
    check_settings_command_rule(rule, _EVENT)
    if conversation.kind not in ("main", "subagent") or rt.main_agent is not None:
        raise NotModelled(f"a hook on {_EVENT} in a {conversation.kind} context or an --agent main thread "
                          "(measured: the main thread and a subagent)")


def on_reply(rt: Runtime, conversation: Conversation, reply: list[dict[str, Any]]) -> None:
    """Fire MessageDisplay for ``reply``, an assistant message just received, where it has text; remember a
    displayContent for the main thread's printed result (``printed``)."""
    texts = [b for b in reply if b.get("type") == "text" and b.get("text")]
    rules = active_rules(rt, conversation, _EVENT)
    if not texts or not rules:
        return
    for rule in rules:
        _check(rule, conversation, rt)
    if conversation.kind == "subagent":
        return  # measured: a subagent's text fires nothing
    if len(texts) > 1:
        raise NotModelled(f"a hook on {_EVENT} and a message of several text blocks (measured: one)")
    text = str(texts[0]["text"])
    outcome = fire(rt, conversation, _EVENT, subject=None, fields=_fields(rt, text))
    rt.session.displayed = (text, _display_content(outcome))


def _fields(rt: Runtime, text: str) -> Mapping[str, Any]:
    turn = str(uuid.uuid5(_TURN_IDS, rt.session.prompt_id or ""))
    return {"turn_id": turn, "message_id": str(uuid.uuid4()), "index": 0, "final": True, "delta": text}


def _display_content(outcome: HookOutcome) -> str | None:
    shown = outcome.displays
    if len(set(shown)) > 1:
        raise NotModelled(f"several {_EVENT} handlers answering different displayContent (which wins: unmeasured)")
    return shown[0] if shown else None


def printed(rt: Runtime, result: str) -> str:
    """The printed result of a prompt whose main thread answered ``result``: a displayContent the hook gave for
    that last message replaces it."""
    displayed, rt.session.displayed = rt.session.displayed, None
    if displayed is None:
        return result
    text, shown = displayed
    if shown is None:
        return result
    if text != result:
        raise NotModelled(f"a {_EVENT} displayContent for the last message shown, where the prompt printed "
                          "another text (measured: the message is the result)")
    return shown
