"""One tool_use, start to finish: lookup, validation, PreToolUse, permission, the tool, PostToolUse.

This order is the engine's, and it is what makes T2 true: the hook runs before the tool, and on a
deny the tool never starts. Validation failures come first and fire no hook at all.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.refengine import (
    agent_rules,
    agents,
    approvals,
    file_patch,
    hook_async,
    hook_defer,
    hook_quiet,
    hook_rewrite,
    lookup_tools,
    memory,
    memory_hooks,
    messages,
    modes,
    notebook_rules,
    path_denials,
    permission_request_hooks,
    permission_request_updates,
    read_guard,
    skills,
    web,
)
from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.hook_actions import STRUCTURED_OUTPUT, fire
from harness.refengine.hook_results import HookOutcome
from harness.refengine.mcp_client import McpUnavailable
from harness.refengine.permission_request import ALLOW, Request
from harness.refengine.permissions import decide, removed_by_deny
from harness.refengine.profiles import Profile
from harness.refengine.runtime import Runtime
from harness.refengine.tool_model import (
    ALIASES,
    DISABLED_BUILTINS,
    FILE_WRITING_TOOLS,
    MODELLED_BUILTINS,
    SPECS,
    UNMODELLED_BUILTINS,
    ToolEnvironment,
    ToolResult,
    inside,
    normalized_input,
    resolve,
    validation_error,
)
from harness.refengine.tools import MACHINE_TOOLS, check_background

# Tools that ask the model themselves (web.py), after the usual checks.
_MODEL_TOOLS = {"WebFetch": web.run_webfetch, "WebSearch": web.run_websearch}

# The SDK-facing name of the Agent tool in init ``tools`` and ``permission_denials`` (notes §3.5;
# init measured on 2.1.252).
_REPORTED_NAMES = {"Agent": "Task"}


def reported_name(name: str, profile: Profile) -> str:
    """The name the engine prints for a tool in stream-json (init list, permission_denials)."""
    return _REPORTED_NAMES.get(name, name) if profile.init_lists_agent_as_task else name


@dataclass(frozen=True, kw_only=True)
class CallOutcome:
    blocks: tuple[dict[str, Any], ...]
    """The tool_result block, then anything injected after it in the same user message."""
    notes: tuple[str, ...] = ()
    """Hook context for the model, sent as a system message after the results."""
    stop_turn: bool = False
    ends_context: bool = False


def run_tool_use(rt: Runtime, conversation: Conversation, use: Mapping[str, Any]) -> CallOutcome:
    """One tool call of ``conversation``, answered; its tool then counts as answered in the session."""
    hook_async.settle(rt.async_unsettled)
    outcome = _answer(rt, conversation, use)
    rt.session.tools_answered.add(str(use.get("name", "")))
    return outcome


def _answer(rt: Runtime, conversation: Conversation, use: Mapping[str, Any]) -> CallOutcome:
    use_id = str(use.get("id", ""))
    called = str(use.get("name", ""))
    name = ALIASES.get(called, called)
    raw_input = use.get("input")
    tool_input: dict[str, Any] = dict(raw_input) if isinstance(raw_input, dict) else {}
    looked_up = lookup_tools.present(name, rt.profile)  # TaskStop, TaskOutput, ToolSearch where the release has it
    if looked_up:
        lookup_tools.check(rt, conversation, name, tool_input)
    elif name in UNMODELLED_BUILTINS and name not in lookup_tools.TOOLS:
        raise NotModelled(f"a call to the built-in tool {name}")
    available = conversation.callable(rt.profile)
    conversation.tools_called.append(called)  # every attempt counts, refused or not (measured ``tool_uses``)
    if called not in available and name not in available and not looked_up:
        return _error(use_id, messages.no_such_tool(
            called, known_builtin=name in MODELLED_BUILTINS, bash_offered="Bash" in available,
            says_continue=rt.profile.unavailable_tool_says_continue,
            disabled=name in DISABLED_BUILTINS or name in removed_by_deny(rt.rules)))
    check_background(name, tool_input)
    invalid = validation_error(name, tool_input, rt.profile.input_error_types) or (
        skills.validation_error(rt, tool_input) if name == "Skill" else None) or (
        lookup_tools.validation_error(name, tool_input) if looked_up else None)
    if invalid is None and ((invalid := path_denials.read_denied_write(rt, name, tool_input)) is not None
                            or (invalid := path_denials.path_denied(rt, name, tool_input)) is not None) \
            and rt.profile.read_deny_write_is_listed_denial:
        _deny(rt, name, normalized_input(name, tool_input, workdir=rt.workdir))
    if invalid is None:  # the read-first guard: no permission denial listed (read_guard.py)
        invalid = read_guard.unread_refusal(rt, conversation, name, tool_input)
    if invalid is None and (refused := notebook_rules.validation_refusal(rt, conversation, name, tool_input)):
        return _error(use_id, refused)  # the same plain text where NotebookEdit is deferred (measured)
    if invalid is not None:
        if name in conversation.deferred(rt.profile) and not looked_up:
            # 2.1.332 appends "This tool's schema was not sent to the API ..." and the tool's JSON schema.
            raise NotModelled(f"input validation of the deferred tool {name}")
        return _error(use_id, invalid)

    reported = lookup_tools.reported_input(tool_input) if looked_up else normalized_input(
        name, tool_input, workdir=rt.workdir)
    hook_quiet.wake_for_call(rt, name, tool_input)
    pre = fire(rt, conversation, "PreToolUse", subject=name, tool=name,
               fields={"tool_name": name, "tool_input": reported, "tool_use_id": use_id})
    if pre.permission == "defer":  # the call waits for a decision from outside: the turn ends (hook_defer)
        hook_defer.check(rt, conversation, pre)
        return CallOutcome(blocks=(), stop_turn=True)
    if pre.blocked:
        hook_quiet.wake_refused(rt, conversation.mode or rt.mode)
        _check_deny_outside(rt, name, tool_input)
    if pre.blocked and conversation.mode is None and rt.mode in modes.SESSION_MODES:
        modes.hook_refusal(rt.mode, name, pre.permission)
    if pre.blocked and pre.permission == "ask" and approvals.can_ask(rt, conversation, name, hook_ask=True):
        _check_plain_ask(pre)
        answer = approvals.ask_user(rt, name, tool_input)
        if not answer.allowed:
            _deny(rt, name, reported)
            return _error(use_id, answer.message)
        return _run_allowed(rt, conversation, name, dict(answer.tool_input), use_id, pre,
                            reported=normalized_input(name, answer.tool_input, workdir=rt.workdir))
    if pre.blocked:
        _deny(rt, name, reported)
        return _error(use_id, pre.message or "", notes=pre.contexts, stop_turn=pre.stop_turn)
    if pre.updated_input is not None:
        tool_input = dict(pre.updated_input)  # updatedInput replaces the whole input (notes §1.7)
        if (refused := hook_rewrite.refusal(name, tool_input, rt.profile)) is not None:
            if pre.contexts or pre.stop_turn:
                raise NotModelled("a PreToolUse updatedInput the schema refuses beside hook context or a stop")
            _deny(rt, name, reported)  # listed with the model's own input
            return _error(use_id, refused)
        hook_rewrite.check_path_kept(name, raw_input if isinstance(raw_input, dict) else {}, tool_input)
    _check_modelled(rt, conversation, name, tool_input)
    mode = conversation.mode or rt.mode
    request = Request(
        tool=name, tool_input=tool_input, mode=mode, workdir=rt.workdir,
        rules=agent_rules.effective(rt.rules, name, mode),
        granted=tuple(conversation.granted), withheld=frozenset(conversation.withheld),
        hook_allowed=pre.permission == "allow",
        skill_needs_approval=name == "Skill" and skills.needs_approval(rt, tool_input),
        skill_refusal_names_allow_rule=rt.profile.skill_approval_names_allow_rule,
        bash_path_refusal=rt.profile.bash_path_refusal,
        bash_variable_refusal=rt.profile.bash_variable_refusal,
    )
    # ToolSearch asks for no approval in the modes it was measured in (lookup_tools.check holds it to those).
    decision = ALLOW if name == lookup_tools.TOOL_SEARCH else decide(request)
    hooked = decision.behaviour != "allow" and permission_request_hooks.measured(rt, conversation, name, decision)
    not_allowed, in_plan = decision.behaviour != "allow", permission_request_hooks.in_plan(rt, conversation)
    if not_allowed and not in_plan:  # in plan mode, what the classifier decides tells whether the hooks fire
        hook_quiet.wake_refused(rt, conversation.mode or rt.mode, request_modelled=hooked)
    if conversation.mode is None:  # the session's mode; a hook agent's own dontAsk answers as default does
        decision = modes.adjust(decision, request, refusals=len(rt.session.denials),
                                classifier_refusals=rt.session.classifier_refusals, profile=rt.profile)
        if decision.by_classifier and rt.profile.plan_classifier_fallback_after is not None and (
                name == "Agent" or "Agent" in rt.session.tools_answered):
            # Up to 2.1.278 the classifier's request to the Messages API holds the Agent prompt, which the scripted
            # model answers as the subagent's context when one opens with it (explore seed 771203, x771203-0157).
            raise NotModelled("plan mode's auto-mode classifier asked about an Agent call or after one (its request "
                              "holds the subagent's prompt)")
        rt.session.classifier_refusals += decision.by_classifier
    if not_allowed and in_plan:
        hook_quiet.wake_refused(rt, "plan", request_modelled=decision.by_classifier
                                or rt.profile.permission_request_hooks is False)
    if decision.behaviour != "allow" and pre.updated_without_decision:
        # Measured only where the rewritten call was allowed anyway (hook-output-pretooluse-updated-input-alone).
        raise NotModelled(f"a PreToolUse updatedInput without a decision whose rewritten {name} call is not allowed")
    if hooked and decision.behaviour == "ask" and (hook_answer := permission_request_hooks.ask_hooks(
            rt, conversation, name, reported, decision,
            pre_added=bool(pre.contexts or pre.stop_turn or pre.updated_input is not None))) is not None:
        if not hook_answer.allowed:
            _deny(rt, name, reported)
            return _error(use_id, hook_answer.message,
                          stop_turn=permission_request_updates.interrupts(rt, conversation, hook_answer))
        permission_request_updates.apply(rt, conversation, hook_answer)
        if hook_answer.updated_input is not None:
            tool_input = dict(hook_answer.updated_input)
            reported = normalized_input(name, tool_input, workdir=rt.workdir)
        return _run_allowed(rt, conversation, name, tool_input, use_id, pre, reported=reported)
    if decision.behaviour == "ask" and approvals.can_ask(rt, conversation, name, hook_ask=False):
        _check_plain_ask(pre)
        answer = approvals.ask_user(rt, name, tool_input)
        if not answer.allowed:
            _deny(rt, name, reported)
            return _error(use_id, answer.message)
        if answer.tool_input != tool_input:
            reported = normalized_input(name, answer.tool_input, workdir=rt.workdir)
        tool_input = dict(answer.tool_input)
    elif decision.behaviour != "allow":
        # Print mode cannot ask: an ask is a refusal whose message is the tool_result (E2).
        _deny(rt, name, reported)
        return _error(use_id, decision.message, notes=pre.contexts, stop_turn=pre.stop_turn)
    return _run_allowed(rt, conversation, name, tool_input, use_id, pre, reported=reported)


def _check_plain_ask(pre: HookOutcome) -> None:
    """A prompt is measured after PreToolUse hooks that added nothing else (no context, no rewritten input)."""
    if pre.contexts or pre.stop_turn or pre.updated_input is not None:
        raise NotModelled("a permission prompt after a PreToolUse hook that added context, stopped or rewrote input")


def _run_allowed(rt: Runtime, conversation: Conversation, name: str, tool_input: dict[str, Any], use_id: str,
                 pre: HookOutcome, *, reported: Mapping[str, Any]) -> CallOutcome:
    """The call runs: the tool, then PostToolUse hooks (given the input as ``reported``)."""
    started = time.monotonic()
    result, injected = _execute(rt, conversation, name, tool_input)
    post = _post_hooks(rt, conversation, name, reported, use_id, result, started, ran_input=tool_input)
    block = _result_block(use_id, result)
    exposed = _expose_conditional_skills(rt, reported) if not result.failed else ""
    notes = [n for n in (*pre.contexts, *post.contexts, post.message or "", exposed) if n]
    loaded = _deferred_memory(rt, conversation, name, tool_input, result)
    if loaded and notes:
        raise NotModelled("a folder's CLAUDE.md or a scoped rule loaded beside hook context or a skill listing")
    if rt.profile.memory_deferred_in_tool_result:
        injected = (*injected, *({"type": "text", "text": text} for text in loaded))
    else:
        notes += loaded
    return CallOutcome(
        blocks=(block, *injected),
        notes=tuple(notes),
        stop_turn=pre.stop_turn or post.stop_turn,
        ends_context=name == STRUCTURED_OUTPUT,
    )


def _deferred_memory(rt: Runtime, conversation: Conversation, name: str, tool_input: Mapping[str, Any],
                     result: ToolResult) -> list[str]:
    """The texts of the folder CLAUDE.md files and scoped rules a call loads (memory.py). Measured: a successful
    Read on the main thread, and a successful Write or Edit where the profile says they load as a Read does
    (memory-rules-write-edit); a successful Glob or Grep loads nothing; other file tools, a failed call and a
    call in another context are not."""
    model = rt.config.memory
    if not model.deferred or name not in ("Read", "Glob", "Grep", *FILE_WRITING_TOOLS):
        return []
    if name in ("Glob", "Grep") and not result.failed and conversation.kind == "main":
        return []  # measured: they load nothing, a later Read still does (memory-rules-search-tools)
    loads = name == "Read" or (name in ("Write", "Edit") and rt.profile.memory_loaded_on_write is True)
    if not loads or result.failed or conversation.kind != "main":
        raise NotModelled(f"{name} {'that failed ' if result.failed else ''}in a {conversation.kind} context with a "
                          "folder's CLAUDE.md or a scoped rule present (measured: a Read on the main thread; a "
                          "Write or an Edit on 2.1.332)")
    path = resolve(str(tool_input.get("file_path", "")), workdir=rt.workdir)
    due = memory.on_read(model, conversation.memory_loaded, path, rt.workdir, tool=name)
    memory_hooks.on_load(rt, conversation, due, tool=name, trigger=path)
    return [memory.deferred_text(f, rt.profile) for f in due]


def _check_deny_outside(rt: Runtime, name: str, tool_input: Mapping[str, Any]) -> None:
    """A PreToolUse deny of a Read or Write outside the working copy, where the profile's
    ``hook_deny_reason_names_event`` holds: 2.1.332 prefixes the reason ("PreToolUse:Read hook error: ...") for
    /etc/hostname and /etc/x.txt but not for ../x.txt or ~/.bashrc (both under the temp folder here), while it
    leaves it bare inside the working copy (hook-pretooluse-deny-prefix-outside; cc-harness explore, seed
    20261202, x20261202-0011). Which outside paths are prefixed is not known."""
    path = tool_input.get("file_path")
    if (rt.profile.hook_deny_reason_names_event and name in ("Read", "Write") and isinstance(path, str)
            and not inside(resolve(path, workdir=rt.workdir), rt.workdir)):
        raise NotModelled(f"a PreToolUse deny of {name} outside the working copy (its reason is prefixed for some "
                          "paths on 2.1.332: which is not measured)")


def _check_modelled(rt: Runtime, conversation: Conversation, name: str, tool_input: Mapping[str, Any]) -> None:
    """Raise NotModelled for a call whose answer no measurement covers, before the permission check."""
    spec = SPECS.get(name)
    given = tool_input.get(spec.path_param) if spec is not None and spec.path_param else None
    if name not in FILE_WRITING_TOOLS or not isinstance(given, str):
        return
    path = resolve(given, workdir=rt.workdir)
    if not inside(path, rt.workdir) and (conversation.mode or rt.mode) != "bypass":
        # Measured: bypass writes there as in the working copy; with an allow rule 2.1.257 on refused an
        # existing unread file ("File has not been read yet"), 2.1.252 wrote a new one. The rule is unknown.
        raise NotModelled(f"{name} outside the working copy without bypass")


def _execute(rt: Runtime, conversation: Conversation, name: str,
             tool_input: Mapping[str, Any]) -> tuple[ToolResult, tuple[dict[str, Any], ...]]:
    if name in MACHINE_TOOLS:
        env = ToolEnvironment(workdir=rt.workdir, env=rt.env, profile=rt.profile,
                              known=conversation.known_files,
                              read_views=conversation.read_views, seen=conversation.seen_files)
        try:
            return MACHINE_TOOLS[name](tool_input, env), ()
        except (OSError, UnicodeDecodeError) as exc:
            # The engine's own wording for these (a folder, a binary file, no permission) is not measured.
            raise NotModelled(f"{name} error path {type(exc).__name__} (unmodelled tool error path)") from None
    if name in _MODEL_TOOLS:
        return _MODEL_TOOLS[name](rt, tool_input), ()
    if name == "Skill":
        run = skills.invoke(rt, conversation, tool_input)
        return run.result, run.injected
    if name == "Agent":
        return agents.launch(rt, conversation, tool_input), ()
    if name == lookup_tools.TOOL_SEARCH:
        return lookup_tools.run_tool_search(rt, conversation, tool_input), ()
    if name == STRUCTURED_OUTPUT:
        conversation.structured_output = dict(tool_input)
        return ToolResult(content="Structured output provided successfully"), ()
    target = rt.mcp.split(name)
    if target is None:
        return ToolResult(content=messages.no_such_tool(name, known_builtin=False, bash_offered=False,
                                                         says_continue=rt.profile.unavailable_tool_says_continue),
                          is_error=True), ()
    try:
        called = rt.mcp.call(target[0], target[1], tool_input)
    except McpUnavailable as exc:
        return ToolResult(content=messages.tool_use_error(f"Error: {exc}"), is_error=True), ()
    return ToolResult(content=called.content, is_error=True if called.is_error else None,
                      response=called.content), ()


def _expose_conditional_skills(rt: Runtime, reported: Mapping[str, Any]) -> str:
    """A file tool touching a ``paths:`` glob lists that skill from the next request on."""
    path = reported.get("file_path")
    if not isinstance(path, str):
        return ""
    newly = skills.activate_for_path(rt, Path(path))
    return agents.skill_listing(rt, only=newly) if newly else ""


def _post_hooks(rt: Runtime, conversation: Conversation, name: str, reported: Mapping[str, Any], use_id: str,
                result: ToolResult, started: float, *, ran_input: Mapping[str, Any]) -> HookOutcome:
    """PostToolUse after success, PostToolUseFailure after an error result (notes §1.1)."""
    if result.failed:
        error = result.content if isinstance(result.content, str) else str(result.content)
        return fire(rt, conversation, "PostToolUseFailure", subject=name, tool=name, ran_input=ran_input, fields={
            "tool_name": name, "tool_input": reported, "tool_use_id": use_id, "error": error,
            "is_interrupt": False, "duration_ms": int((time.monotonic() - started) * 1000)})
    file_patch.check_read(rt, conversation, name, result.response)
    written = _written_file(rt, name, reported)
    before = _content(written)
    outcome = fire(rt, conversation, "PostToolUse", subject=name, tool=name, ran_input=ran_input, fields={
        "tool_name": name, "tool_input": reported, "tool_response": result.response, "tool_use_id": use_id,
        "duration_ms": int((time.monotonic() - started) * 1000)})
    if written is not None and _content(written) != before:
        # Measured: the engine then tells the model "PostToolUse hook modified <path> after your edit (likely a
        # formatter) ..." (hook-event-posttooluse-formatter); its wording per version is not modelled here.
        raise NotModelled(f"a PostToolUse hook that rewrote the file {name} wrote (a formatter)")
    return outcome


def _written_file(rt: Runtime, name: str, reported: Mapping[str, Any]) -> Path | None:
    path = reported.get("file_path")
    return resolve(path, workdir=rt.workdir) if name in FILE_WRITING_TOOLS and isinstance(path, str) else None


def _content(path: Path | None) -> bytes | None:
    try:
        return path.read_bytes() if path is not None else None
    except OSError:
        return None


def _result_block(use_id: str, result: ToolResult) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": use_id, "content": result.content}
    if result.is_error is not None:
        block["is_error"] = result.is_error
    return block


def _error(use_id: str, text: str, *, notes: tuple[str, ...] = (), stop_turn: bool = False) -> CallOutcome:
    return CallOutcome(blocks=(_result_block(use_id, ToolResult(content=text, is_error=True)),), notes=notes,
                       stop_turn=stop_turn)


def _deny(rt: Runtime, name: str, reported: Mapping[str, Any]) -> None:
    """Refusals in every context count for the prompt's ``permission_denials`` (measured: a
    subagent's hook denial is listed in the main result)."""
    rt.session.denials.append({"tool_name": reported_name(name, rt.profile), "tool_input": dict(reported)})
