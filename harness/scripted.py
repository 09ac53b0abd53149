"""The scripted model: deterministic replay of a case's turns, one list per model context.

Both engines talk to it through ``respond(request)``: the reference engine calls it in process, the
real engine through the fake Messages API. So the same offered-tools and context assertions hold on
both, and the journal it keeps is the engine-neutral record of what happened.

How a request is placed in a conversation ("thread"), most certain first:
1. it carries a tool_use id this model issued -> the thread that issued it;
2. its opening user message is that of a known thread -> that thread (a text-only turn has no ids);
3. otherwise it opens a new thread: the main thread if it holds the current step's prompt and no main
   thread is open for this session (and, with ``main_needs_tools``, it offers tools), else the context
   whose ``opens_with`` it holds, else a side call (only for requests without tools; a tool-bearing
   request nobody scripted is an error).

A context named by ``system_contains`` instead is found by its system prompt before all of these, and only by
it: a forked context or a Stop prompt hook's request carries the main transcript and would otherwise look like
the main thread (and the main thread's next request like that context). A side call
that a case scripts (``side_calls``) gets the case's reply; any other gets ``ok``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.case import Case, Context, Step
from harness.case.placeholders import filled
from harness.errors import ScriptError
from harness.model_request import (
    ID_PREFIX,
    Exchange,
    ModelRequest,
    block_text,
    reminder_text,
    result_text,
)

_MAIN = "main"
_SPAWNING = frozenset({"Agent", "Task"})  # the tool that starts a subagent, and its name before 2.1.63
_SIDE_REPLY = "ok"


@dataclass(kw_only=True)
class _Thread:
    index: int
    context: str
    opening: str
    next_turn: int = 0
    parent: int | None = None
    """The exchange this conversation is placed after in ``in_order()`` (an index into ``exchanges``)."""
    by_call: bool = False
    """Whether ``parent`` is the Agent call that started this conversation (a subagent)."""


def _as_is(text: str) -> str:
    return text


@dataclass(kw_only=True)
class ScriptedModel:
    case: Case
    redact: Callable[[str], str] = _as_is
    """Applied to engine text quoted in a failure message before it is cut, so that the excerpt does not
    depend on the length of the run's temporary paths (the runner passes the transcript normaliser)."""
    exchanges: list[Exchange] = field(default_factory=list)
    _threads: list[_Thread] = field(default_factory=list)
    _by_id: dict[str, Exchange] = field(default_factory=dict)
    _step: int = 0
    _main_open: bool = False
    _step_turns_used: dict[int, int] = field(default_factory=dict)
    side_calls_made: dict[str, int] = field(default_factory=dict)
    """How many requests each of the case's scripted side calls answered."""
    main_needs_tools: bool = False
    """The main thread opens only from a request that offers tools. Set by the claude adapter for releases
    before 2.1.110, whose first request is a session-title side call without tools that quotes the prompt as
    a block of its own (it would otherwise be taken for the main thread). Off by default: on newer releases
    and the reference engine a main thread with no tools (``--tools ""``, a deny-all setup) must still open.
    The model knows no engine versions; the adapter that does says so before the run."""
    ports: Mapping[str, int] = field(default_factory=dict)
    """The case's servers' ports, written over ``{{port:NAME}}`` in a call's input as it is sent (the
    transcript keeps the case's own input, placeholder and all)."""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def begin_step(self, index: int) -> None:
        """The driver is about to send ``steps[index]``'s prompt."""
        with self._lock:
            self._step = index
            if self.case.steps[index].session == "new":
                self._main_open = False

    def respond(self, request: ModelRequest) -> list[dict[str, Any]]:
        """The next scripted reply as API content blocks; raises ScriptError when the script has none."""
        with self._lock:
            self._record_results(request)
            thread = self._thread_for(request)
            if thread is None:
                return [{"type": "text", "text": self._side_reply(request)}]
            return self._serve(thread, request)

    def _side_reply(self, request: ModelRequest) -> str:
        text = request.all_text()
        for side in self.case.side_calls:
            if side.contains in text:
                self.side_calls_made[side.name] = self.side_calls_made.get(side.name, 0) + 1
                return side.reply
        return _SIDE_REPLY

    def finish(self) -> None:
        """Raise ScriptError if any scripted turn was never asked for."""
        unused = []
        for i, step in enumerate(self.case.steps):
            used = self._step_turns_used.get(i, 0)
            if used < len(step.turns):
                unused.append(f"step {i + 1} (main): turns {used + 1}..{len(step.turns)} unused")
            elif step.then == "asks-again" and used == len(step.turns):
                unused.append(f"step {i + 1} (main): then: asks-again, but the engine did not ask past turn {used}")
        for ctx in self.case.contexts:
            # one thread per context at most: a second opening is refused in _open_context
            thread = next((t for t in self._threads if t.context == ctx.name), None)
            used = thread.next_turn if thread else 0
            if used < len(ctx.turns):
                what = "never opened" if thread is None else "unused"
                unused.append(f"context {ctx.name}: turns {used + 1}..{len(ctx.turns)} {what}")
            elif ctx.then == "asks-again" and used == len(ctx.turns):
                unused.append(f"context {ctx.name}: then: asks-again, but the engine did not ask past turn {used}")
        if unused:
            raise ScriptError(
                f"{self.case.case_file}: the engine did not ask for every scripted turn:\n  "
                + "\n  ".join(unused)
                + "\n"
                + self.conversation()
            )

    def in_order(self) -> list[Exchange]:
        """The exchanges in an order that does not depend on timing: each conversation in its own turn
        order, and every conversation other than a main thread right after the exchange that started it
        (its ``parent``), before the next exchange of that exchange's conversation.

        ``exchanges`` is the order requests arrived in, and conversations that run at once (a subagent in
        the background and the main thread that goes on) arrive in whichever order the scheduler gave
        them: a snapshot of that order would fail on the race, not on a change of the engine. Where
        nothing runs at once this is the arrival order."""
        children: dict[int | None, list[_Thread]] = {}
        for t in self._threads:
            children.setdefault(t.parent, []).append(t)
        by_thread: dict[int, list[int]] = {}
        for i, ex in enumerate(self.exchanges):
            by_thread.setdefault(ex.thread, []).append(i)
        out: list[Exchange] = []

        def place(thread: _Thread) -> None:
            for i in by_thread.get(thread.index, ()):
                out.append(self.exchanges[i])
                for child in children.get(i, ()):
                    place(child)

        for root in children.get(None, ()):
            place(root)
        return out

    def conversation(self) -> str:
        """The conversation so far, for failure messages."""
        lines = ["conversation so far:"]
        for ex in self.exchanges:
            where = f"{ex.context}" + (f" step {ex.step + 1}" if ex.step is not None else "")
            said = []
            if ex.reply.say is not None:
                said.append(f"say {ex.reply.say!r}")
            if ex.reply.call is not None:
                said.append(f"call {ex.reply.call.name} {json.dumps(ex.reply.call.input, sort_keys=True)}")
            lines.append(f"  [{where} turn {ex.turn + 1}] " + "; ".join(said))
            if ex.result is not None:
                lines.append(f"      -> {'error ' if ex.is_error else ''}{ex.result[:300]!r}")
        if len(lines) == 1:
            lines.append("  (no turn served)")
        return "\n".join(lines)

    # -- internals -------------------------------------------------------------------------------

    def _record_results(self, request: ModelRequest) -> None:
        for tool_use_id, block in request.tool_results().items():
            ex = self._by_id.get(tool_use_id)
            if ex is None:
                continue
            text = result_text(block.get("content"))
            if ex.result is None:
                ex.result = text
                ex.is_error = bool(block.get("is_error", False))
                ex.reminders = reminder_text(block.get("content"))
            elif text != ex.result or ex.final_result is not None:
                # every request carries the thread's history: the last one says what the call ended as
                ex.final_result = text

    def _thread_for(self, request: ModelRequest) -> _Thread | None:
        for ctx in self.case.contexts:
            if ctx.system_contains is not None and ctx.system_contains in request.system:
                known = next((t for t in self._threads if t.context == ctx.name), None)
                return known or self._open(ctx.name, request.opening)
        ids = request.issued_ids()
        if ids and ids[-1] in self._by_id:
            return self._threads[self._by_id[ids[-1]].thread]
        opening = request.opening
        by_system = {ctx.name for ctx in self.case.contexts if ctx.system_contains is not None}
        for t in reversed(self._threads):
            # A context found by its system prompt shares its opening with the thread it judges (a Stop
            # prompt hook's request carries the main transcript): only that system prompt leads to it.
            if t.context in by_system:
                continue
            if t.opening == opening and not (t.context == _MAIN and not self._main_open):
                return t
        step = self.case.steps[self._step]
        may_be_main = bool(request.tools) or not self.main_needs_tools
        if not self._main_open and may_be_main and request.opens_with_prompt(step.prompt):
            self._main_open = True
            return self._open(_MAIN, opening)
        for ctx in self.case.contexts:
            if ctx.opens_with is not None and ctx.opens_with in opening:
                return self._open_context(ctx, opening, request)
        if not request.tools:
            return None
        raise ScriptError(
            f"{self.case.case_file}: step {self._step + 1}: a conversation opened that no context scripts "
            f"(opening text: {self.redact(opening)[-400:]!r}; tools offered: {', '.join(request.tools)})\n"
            + self.conversation()
        )

    def _open_context(self, ctx: Context, opening: str, request: ModelRequest) -> _Thread:
        if any(t.context == ctx.name for t in self._threads):
            raise ScriptError(
                f"{self.case.case_file}: contexts.{ctx.name}: a second conversation opened with "
                f"{ctx.label}; script it as a context of its own\n" + self.conversation()
            )
        return self._open(ctx.name, opening)

    def _open(self, context: str, opening: str) -> _Thread:
        parent, by_call = (None, False) if context == _MAIN else self._parent_for(opening)
        thread = _Thread(index=len(self._threads), context=context, opening=opening, parent=parent, by_call=by_call)
        self._threads.append(thread)
        return thread

    def _parent_for(self, opening: str) -> tuple[int | None, bool]:
        """The exchange a new conversation started from, and whether it is an Agent call: the Agent call
        whose prompt the conversation opens with (each call starts one), else the latest call still
        waiting for its result in the main thread or a subagent (a hook's model call runs under the tool
        call it is a hook of), else the main thread's latest exchange (a hook of a prompt or of a stop).
        Never merely the exchange served last: that one may be a conversation running at the same time."""
        taken = {t.parent for t in self._threads if t.by_call}
        for i in reversed(range(len(self.exchanges))):
            call = self.exchanges[i].reply.call
            prompt = call.input.get("prompt") if call is not None else None
            spawns = call is not None and call.name in _SPAWNING and isinstance(prompt, str) and prompt in opening
            if spawns and i not in taken:
                return i, True
        agents = {t.index for t in self._threads if t.context == _MAIN or t.by_call}
        for i in reversed(range(len(self.exchanges))):
            ex = self.exchanges[i]
            if ex.thread in agents and ex.reply.call is not None and ex.result is None:
                return i, False
        main = (i for i in reversed(range(len(self.exchanges))) if self.exchanges[i].context == _MAIN)
        return next(main, None), False

    def _turns(self, thread: _Thread) -> tuple[Step | Context, int, str]:
        if thread.context == _MAIN:
            return self.case.steps[self._step], self._step_turns_used.get(self._step, 0), f"steps[{self._step}]"
        return self.case.context(thread.context), thread.next_turn, f"contexts.{thread.context}"

    def _serve(self, thread: _Thread, request: ModelRequest) -> list[dict[str, Any]]:
        scripted, used, where = self._turns(thread)
        turns = scripted.turns
        if used >= len(turns) and scripted.then != "asks-again":
            raise ScriptError(
                f"{self.case.case_file}: {where}: the engine asked {thread.context!r} for turn {used + 1}, "
                f"but the script has {len(turns)}\n" + self.conversation()
            )
        turn = turns[min(used, len(turns) - 1)]  # then: asks-again answers every further request with the last
        if thread.context == _MAIN:
            self._step_turns_used[self._step] = used + 1
        else:
            thread.next_turn = used + 1
        problems: list[str] = []
        if turn.offered and turn.offered.tools:
            problems += turn.offered.tools.problems(list(request.tools))
        if turn.offered and turn.offered.context:
            problems += turn.offered.context.problems(request.all_text(), what="context")
        for check in turn.offered.messages if turn.offered else ():
            problems += check.problems(request.messages, text_of=block_text)
        if turn.offered and turn.offered.model and not turn.offered.model.matches(request.model):
            problems.append(f"model: expected {turn.offered.model.describe()}, the request named {request.model!r}")
        blocks: list[dict[str, Any]] = []
        if turn.say is not None:
            blocks.append({"type": "text", "text": turn.say})
        tool_use_id = None
        if turn.call is not None:
            tool_use_id = f"{ID_PREFIX}{thread.index:02d}_{len(self.exchanges):03d}"
            blocks.append({"type": "tool_use", "id": tool_use_id, "name": turn.call.name,
                           "input": filled(turn.call.input, self.ports)})
        ex = Exchange(
            context=thread.context,
            step=self._step if thread.context == _MAIN else None,
            turn=used,
            thread=thread.index,
            offered=request.tools,
            problems=problems,
            reply=turn,
            model=request.model,
        )
        self.exchanges.append(ex)
        if tool_use_id:
            self._by_id[tool_use_id] = ex
        return blocks
