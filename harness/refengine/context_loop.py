"""The loop every context runs: ask the model, run the tool calls of its reply, and end where a reply holds
no tool_use and the Stop (or SubagentStop) hooks let it end. The main thread, subagents, forks and hook
agents all run it (session.py opens the main thread's; runtime.Runtime.converse hands it the others)."""

from __future__ import annotations

from harness.refengine import agent_keys, hook_batch, hook_display, hook_results
from harness.refengine.conversation import Conversation, system_note, text_of, user_text
from harness.refengine.dispatch import run_tool_use
from harness.refengine.errors import EngineFailure, NotModelled
from harness.refengine.hook_actions import fire
from harness.refengine.hook_messages import STRUCTURED_OUTPUT_ENFORCE
from harness.refengine.runtime import Request, Runtime

#: Model calls one context was measured to make with no limit met: claude 2.1.252 and 2.1.332 ran 601 (600
#: tool calls and the last reply) in one context and finished normally. Past it the engine answers
#: not-modelled (whether claude stops somewhere beyond is unmeasured), never a crash of its own.
_MAX_TURNS = 601
_STOP_BLOCK_CAP = 8  # consecutive Stop-hook blocks before the turn ends anyway (notes §1.7)
_HOOK_AGENT_MAX_TURNS = 50


def run_conversation(rt: Runtime, conversation: Conversation) -> str:
    """Ask the model until a reply has no tool_use and no Stop hook sends it back; the final text.

    Subagent and fork contexts are framed by SubagentStart and SubagentStop.
    """
    is_subagent = conversation.kind in ("subagent", "fork")
    if is_subagent:
        started = fire(rt, conversation, "SubagentStart", subject=conversation.agent_type,
                       fields={})
        if started.contexts:
            conversation.messages.append(system_note("\n\n".join(started.contexts)))
    stop_blocks = 0
    reminded = False
    limit = _HOOK_AGENT_MAX_TURNS if conversation.kind == "hook_agent" else _MAX_TURNS
    for turn in range(1, limit + 1):
        reply = rt.model.respond(_request(rt, conversation))
        conversation.messages.append({"role": "assistant", "content": reply})
        kept = rt.session.transcript_of(conversation)
        if kept:
            kept.reply(reply)
        hook_display.on_reply(rt, conversation, reply)
        uses = [b for b in reply if b.get("type") == "tool_use"]
        if uses:
            answered = set(rt.session.tools_answered)
            outcomes = [run_tool_use(rt, conversation, use) for use in uses]
            conversation.messages.append({"role": "user", "content": [b for o in outcomes for b in o.blocks]})
            if kept:
                kept.tool_results(conversation.messages[-1]["content"])
            notes = [*(n for o in outcomes for n in o.notes), *hook_batch.after_batch(rt, conversation, uses, outcomes)]
            if notes:
                conversation.messages.append(system_note("\n\n".join(notes)))
            if any(o.ends_context for o in outcomes) or any(o.stop_turn for o in outcomes):
                return ""
            if agent_keys.turn_limit(conversation.agent) == turn and conversation.kind == "subagent":
                # no model sees these results: 2.1.332's next tools-used summary still names their tools
                # (agent-key-max-turns)
                rt.session.tools_answered = answered
                conversation.stopped_at_turn_limit = True
                return ""
            continue
        text = text_of(reply)
        if conversation.kind == "hook_agent":
            if conversation.structured_output is None and not reminded:
                reminded = True
                conversation.messages.append(user_text(STRUCTURED_OUTPUT_ENFORCE))
                continue
            return text
        stopped = _stop_hooks(rt, conversation, text, active=stop_blocks > 0)
        if stopped is hook_results.HELD:  # a continue false held a block back
            return "" if conversation.kind == "main" else text
        if stopped is None or stop_blocks >= _STOP_BLOCK_CAP:
            return text
        stop_blocks += 1
        feedback, note = stopped
        conversation.messages.append(user_text(feedback))
        if note is not None:
            conversation.messages.append(system_note(note))
    if conversation.kind == "hook_agent":
        raise EngineFailure(f"reference engine: a {conversation.kind} context made {limit} model calls without ending")
    raise NotModelled(f"a context of more than {limit} model calls (measured up to {limit}: no limit met)")


def _request(rt: Runtime, conversation: Conversation) -> Request:
    tools = conversation.offered(rt.profile)
    return Request(system=conversation.system, messages=tuple(conversation.messages), tools=tools)


def _stop_hooks(rt: Runtime, conversation: Conversation, text: str, *,
                active: bool) -> tuple[str, str | None] | None:
    """Stop (main) or SubagentStop (subagent, fork): a block returns the feedback for the model, and the
    system note that follows it, if any."""
    if conversation.kind == "main":
        outcome = fire(rt, conversation, "Stop", subject=None, fields={
            "stop_hook_active": active, "last_assistant_message": text, "background_tasks": [],
            "session_crons": []})
    else:
        transcript = rt.session.agent_transcript(conversation.agent_id or "")
        outcome = fire(rt, conversation, "SubagentStop", subject=conversation.agent_type, fields={
            "stop_hook_active": active, "agent_transcript_path": str(transcript), "last_assistant_message": text,
            "background_tasks": [], "session_crons": []})
    if outcome.continue_false:
        return hook_results.HELD
    if outcome.blocked:
        return outcome.message or "", outcome.block_note
    if outcome.contexts:
        # A Stop command's hookSpecificOutput.additionalContext sends the main thread back to the model with
        # it, as a block does, up to the same cap: measured on 2.1.252 to 2.1.332 (hook-stop-additional-context:
        # nine model calls, each request after the first ending in "Stop hook additional context: ..."), and a
        # SubagentStop command's the subagent the same way (hook-output-subagentstop-additional-context).
        return "\n\n".join(outcome.contexts), None
    return None
