"""Firing an event: pick the matching rules, run their actions, combine the results.

The five action types are all run by the engine, never by the main model (H12): ``command`` and
``http`` are processes and requests, ``mcp_tool`` is a direct MCP call that triggers no PreToolUse
(H9), ``prompt`` and ``agent`` are model calls of their own through the same model (H10). Actions
run one after the other in definition order; the real engine runs them in parallel (NOT_MODELLED.md).
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
import uuid
from collections.abc import Mapping
from typing import Any

from harness.refengine import (
    hook_async,
    hook_exec,
    hook_failure,
    hook_handler_types,
    hook_messages,
    hook_options,
    hook_prompt_stop,
    hook_surface,
    http_client,
    launch,
    transcript_reads,
)
from harness.refengine.agents import full_pool
from harness.refengine.conversation import AGENT, Conversation, text_of, user_text
from harness.refengine.errors import NotModelled
from harness.refengine.hook_results import ActionResult, HookOutcome, combine, parse_output
from harness.refengine.hooks import (
    EVENTS_WITHOUT_MATCHER,
    HookAction,
    HookRule,
    encode_payload,
    event_runs,
    js_json,
    matcher_hits,
    payload,
    substitute,
)
from harness.refengine.mcp_client import McpUnavailable
from harness.refengine.runtime import Request, Runtime, active_rules
from harness.refengine.settings import handler_identity

_DEFAULT_ACTION_TIMEOUT = 600.0  # seconds, command/http/mcp_tool (notes §1.8)
STRUCTURED_OUTPUT = "StructuredOutput"
_PLUGIN_VARIABLES = ("CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")


def check_settings_command_rule(rule: HookRule, event: str) -> None:
    """NotModelled unless ``rule`` has the form an event was measured with only: a settings file's rule
    with no matcher or ``*``, and command handlers only."""
    if not rule.from_settings:
        raise NotModelled(f"a hook on {event} outside a settings file ({rule.origin}; measured: settings files)")
    if rule.matcher not in (None, "", "*"):
        raise NotModelled(f"a hook on {event} with the matcher {rule.matcher!r} (measured: none and '*')")
    if any(a.type != "command" for a in rule.actions):
        raise NotModelled(f"a hook on {event} with a handler that is not a command ({rule.origin})")


def fire(rt: Runtime, conversation: Conversation, event: str, *, subject: str | None,
         fields: Mapping[str, Any], tool: str | None = None,
         ran_input: Mapping[str, Any] | None = None, effort: bool | None = None) -> HookOutcome:
    """Run every action whose rule matches ``subject`` (the tool name, agent type or source) and whose ``if``
    holds; ``ran_input`` is the input a tool ran with when a PreToolUse ``updatedInput`` rewrote it."""
    if rt.config.hooks_disabled:
        return combine(event, tool, [], deny_names_event=rt.profile.hook_deny_reason_names_event)
    rules = active_rules(rt, conversation)
    for rule in rules:  # right or silent: any hook this engine has no measurement for ends the run here
        for a in rule.actions if rule.event not in hook_surface.QUIET_EVENTS else ():  # inert: they never run
            hook_options.check(rule.event, a.options, from_settings=rule.from_settings, origin=rule.origin)
            hook_failure.check_handler(rule.event, a.options, from_settings=rule.from_settings,
                                       where=f"({rule.event}, {rule.origin})")
            if "args" in a.options:
                hook_exec.check(rule.event, a.command, a.options["args"], from_settings=rule.from_settings,
                                where=f"({rule.event}, {rule.origin})")
        hook_surface.check_rule(rule.event, ((a.type, a.keys) for a in rule.actions), origin=rule.origin)
    data = payload(event, source=rt.payload_source(conversation), fields=fields, effort=effort)
    results: list[ActionResult] = []
    seen: set[str] = set()  # settings handlers already run for this event (measured: once, whatever the matcher)
    for rule in rules:
        if rule.event != event:
            continue
        if event not in EVENTS_WITHOUT_MATCHER and subject is not None and not matcher_hits(
                rule.matcher, subject, profile=rt.profile, debug=rt.debug.append):
            continue
        for action in rule.actions:
            if "if" in action.options and not hook_options.condition_holds(
                    event, action.options["if"], tool=tool, tool_input=fields.get("tool_input"),
                    ran_input=ran_input, context=conversation.kind):
                continue
            # A plugin's copy of a settings handler stays separate (notes §1.8; measured: the same command in
            # every settings file and in a plugin's hooks.json runs twice, once for each kind).
            if rule.from_settings:
                key = handler_identity(action)
                if key in seen and action.args:
                    raise NotModelled(f"two exec-form handlers {action.label!r} on {event} (not measured)")
                if key in seen:
                    continue
                seen.add(key)
            if _runs(rt, conversation, event, action):
                result = _run(rt, conversation, rule, action, event=event, data=data)
                if action.options.get("async") is not True:  # an async handler's answer decides nothing
                    hook_surface.check_output_mode(event, result.output or {}, conversation.mode or rt.mode)
                    results.append(result)
    outcome = combine(event, tool, results, deny_names_event=rt.profile.hook_deny_reason_names_event,
                      stop_block_note=rt.profile.stop_block_adds_note, matched=subject)
    if outcome.raced and outcome.raced not in rt.races:
        rt.races.append(outcome.raced)
    return outcome


def _runs(rt: Runtime, conversation: Conversation, event: str, action: HookAction) -> bool:
    if not event_runs(event, action.type, profile=rt.profile):
        rt.debug.append(
            hook_messages.http_hook_skipped_debug(action.url, event) if action.type == "http"
            else f"[reference] {action.type} hook on {event} skipped: the event does not run that type"
        )
        return False
    if (action.type == "http" and not rt.profile.http_hooks) or \
            (action.type == "mcp_tool" and not rt.profile.mcp_tool_hooks):
        return False
    # A hook's own agent does not start hook agents again: its tool calls run only the other
    # actions of a matching rule (H10, "the second hit runs only the command action").
    return not (conversation.kind == "hook_agent" and action.type in ("prompt", "agent"))


def _run(rt: Runtime, conversation: Conversation, rule: HookRule, action: HookAction, *, event: str,
         data: Mapping[str, Any]) -> ActionResult:
    if action.type == "command":
        return _command(rt, rule, action, data, event=event)
    if action.type in ("http", "mcp_tool"):
        result = _http(rt, action, data, event=event) if action.type == "http" else \
            _mcp_tool(rt, action, data, event=event)
        if result.output is not None:
            hook_surface.check_output(event, result.output)
        return result
    if action.type == "prompt":
        return _prompt(rt, conversation, action, data, event)
    return _agent(rt, conversation, action, event=event, data=data)


def run_command(rt: Runtime, rule: HookRule, action: HookAction, data: Mapping[str, Any], *,
                event: str) -> ActionResult:
    """One command handler run as ``fire`` runs it, for an event whose answer another module reads
    (permission_request_hooks.py)."""
    return _command(rt, rule, action, data, event=event)


def _timeout(rt: Runtime, action: HookAction) -> float:
    return min(action.timeout or _DEFAULT_ACTION_TIMEOUT, rt.timeout)


def _command(rt: Runtime, rule: HookRule, action: HookAction, data: Mapping[str, Any], *, event: str) -> ActionResult:
    env = dict(rt.env)
    named = next((v for v in _PLUGIN_VARIABLES if "${" + v + "}" in action.command), None)
    if rule.plugin_root is not None:
        if named == "CLAUDE_PLUGIN_DATA":
            raise NotModelled("${CLAUDE_PLUGIN_DATA} in a skill's hook (the data folder is not measured)")
        env["CLAUDE_PLUGIN_ROOT"] = str(rule.plugin_root)
    elif named is not None and rt.profile.plugin_variable_fails_settings_hook:
        if not rule.from_settings:
            raise NotModelled(f"${{{named}}} in an agent's frontmatter hook")
        failure = hook_messages.plugin_variable_outside_plugin(named, action.command)
        rt.debug.append(f"Hook failed to run ({event}): {failure}")
        return ActionResult(action=action, exit_code=1, stderr=f"Failed to run: {failure}")
    if "SHELL" in env:
        raise NotModelled("a command hook with SHELL set (which shell runs it is measured without SHELL)")
    in_background = action.options.get("async") is True
    timeout = min(_timeout(rt, action), hook_async.BUDGET) if in_background else _timeout(rt, action)
    with transcript_reads.Watch(rt.session.transcript_path.parent, who=f"the {event} hook {action.command!r}") as watch:
        proc = launch.run_shell_command(action.command, env=env, cwd=rt.workdir, stdin=encode_payload(data).encode(),
                                        timeout=timeout, args=action.args,
                                        stand_in=launch.EXEC_STAND_IN if action.args else launch.HOOK_STAND_IN)
    watch.check()
    if in_background:
        stdout = "" if proc.timed_out else _hook_text(proc.stdout, stream="stdout")
        output = parse_output(stdout)
        ending = hook_surface.ending(proc.returncode, stdout, output)
        hook_async.check_answer(event, timed_out=proc.timed_out, ending=ending,
                                fields=hook_surface.output_fields(event, output or {}))
        hook_async.started(rt.async_unsettled, event, f"({event}, {rule.origin})")
        return ActionResult(action=action, exit_code=proc.returncode)
    if proc.timed_out:
        # A timed-out hook renders no decision; on PreToolUse it does not block (notes §1.6).
        rt.debug.append(f"[reference] command hook timed out: {action.command}")
        hook_surface.check_ending(event, -1, "", None)
        hook_failure.check_ending(event, action.options, "timeout")
        return ActionResult(action=action, exit_code=-1)
    stdout = _hook_text(proc.stdout, stream="stdout")
    output = parse_output(stdout)
    hook_surface.check_ending(event, proc.returncode, stdout, output)
    hook_failure.check_ending(event, action.options, hook_surface.ending(proc.returncode, stdout, output))
    if output is not None:
        hook_surface.check_output(event, output)
    return ActionResult(action=action, exit_code=proc.returncode, stdout=stdout,
                        stderr=_hook_text(proc.stderr, stream="stderr"), output=output)


def _hook_text(raw: bytes, *, stream: str) -> str:
    """A hook's output as the engine reads it. Measured on 2.1.252 and 2.1.332: stdout ``ok \\377 z``
    reaches the model as ``ok \ufffd z`` (the byte that is never UTF-8 replaced by U+FFFD). Other bytes
    that are not UTF-8 (a cut sequence, an overlong form) and such bytes on stderr are not measured."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = raw[exc.start:exc.end]
        if stream != "stdout" or any(byte != 0xFF for byte in _invalid_bytes(raw)):
            raise NotModelled(f"a command hook's {stream} that is not UTF-8 ({bad!r} at byte {exc.start})") from None
        return raw.decode("utf-8", "replace")


def _invalid_bytes(raw: bytes) -> bytes:
    """The bytes of ``raw`` that a UTF-8 decoder rejects, in order."""
    out = bytearray()
    start = 0
    while True:
        try:
            raw[start:].decode("utf-8")
            return bytes(out)
        except UnicodeDecodeError as exc:
            out += raw[start + exc.start: start + exc.end]
            start += exc.end


_ENV_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _header_value(value: str, *, allowed: tuple[str, ...], env: Mapping[str, str]) -> str:
    """``$VAR`` / ``${VAR}`` resolved for the variables in ``allowedEnvVars``; any other becomes ''."""
    def resolve(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        return env.get(name, "") if name in allowed else ""

    return _ENV_REFERENCE.sub(resolve, value)


def _http(rt: Runtime, action: HookAction, data: Mapping[str, Any], *, event: str) -> ActionResult:
    """POST the payload; only a 2xx body's JSON counts, failures never block (notes §1.2). The URL is
    taken as written; only header values see environment variables."""
    headers = {k: _header_value(v, allowed=action.allowed_env_vars, env=rt.env) for k, v in action.headers.items()}
    request = urllib.request.Request(
        action.url, data=json.dumps(data).encode(), method="POST",
        headers={"Content-Type": "application/json", **headers},
    )
    try:
        with http_client.opener(rt.env).open(request, timeout=_timeout(rt, action)) as response:
            status, body = response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:  # a non-2xx answer: its body is not read as a decision
        answer = exc.read().decode("utf-8", "replace")
        rt.debug.append(hook_messages.http_hook_debug(action.url, status=exc.code, body=answer))
        return _http_failed(rt, action, event, "status", status=exc.code)
    except (urllib.error.URLError, TimeoutError, ValueError) as exc:
        rt.debug.append(f"[reference] http hook {action.url} failed: {exc}")
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        return _http_failed(rt, action, event, "refused" if isinstance(reason, ConnectionRefusedError)
                            else "timeout" if isinstance(reason, TimeoutError) else "other")
    rt.debug.append(hook_messages.http_hook_debug(action.url, status=status, body=body))
    return ActionResult(action=action, stdout=body, output=parse_output(body))


def _http_failed(rt: Runtime, action: HookAction, event: str, failure: hook_handler_types.HttpFailure, *,
                 status: int = 0) -> ActionResult:
    """A failed request: a non-blocking error, or a block where ``onFailure`` says so (hook_handler_types)."""
    blocking = hook_handler_types.http_failure(rt.profile, event, action, failure, status=status)
    return ActionResult(action=action, exit_code=1 if blocking is None else 2, stderr=blocking or "")


def _mcp_tool(rt: Runtime, action: HookAction, data: Mapping[str, Any], *, event: str) -> ActionResult:
    arguments = substitute(dict(action.input), data)
    try:
        result = rt.mcp.call(action.server, action.tool, arguments)
    except McpUnavailable as exc:
        rt.debug.append(f"[reference] mcp_tool hook: {exc}")
        hook_handler_types.check_failure(event, action, refused=False)
        return ActionResult(action=action, exit_code=1)
    text = "\n".join(str(c.get("text", "")) for c in result.content if c.get("type") == "text")
    if result.is_error:
        hook_handler_types.check_failure(event, action, refused=False)
        return ActionResult(action=action, exit_code=1, stderr=text)
    return ActionResult(action=action, stdout=text, output=parse_output(text))


def _hook_prompt_text(prompt: str, data: Mapping[str, Any]) -> str:
    """``$ARGUMENTS`` becomes the payload JSON; without it the JSON is appended (measured)."""
    arguments = js_json(data)
    if "$ARGUMENTS" in prompt:
        return prompt.replace("$ARGUMENTS", arguments)
    return f"{prompt}\n\nARGUMENTS: {arguments}"


def _check_event_measured(action: HookAction, event: str) -> None:
    """An agent action's context is measured for tool events (PreToolUse); on Stop or SubagentStop a prompt
    action's check is a stop-condition judge's (hook_prompt_stop.py), an agent action's is not measured."""
    if event in hook_prompt_stop.STOP_EVENTS:
        raise NotModelled(f"a {action.type} action on {event} (its stop-condition system prompt is not measured)")


def _prompt(rt: Runtime, conversation: Conversation, action: HookAction, data: Mapping[str, Any],
            event: str) -> ActionResult:
    """One tool-less request; the reply must be ``{"ok": ..., "reason": ...}``."""
    hook_prompt_stop.check_continue_on_block(event, action)
    if rt.config.memory.present:
        raise NotModelled("memory files with a prompt hook (whether its request holds them is unmeasured)")
    if event in hook_prompt_stop.STOP_EVENTS:
        request = hook_prompt_stop.stop_request(conversation, action, data, event=event,
                                                ruled=rt.profile.hook_verdict_rules)
    else:
        system = (hook_messages.PROMPT_HOOK_SYSTEM_RULED if rt.profile.hook_verdict_rules
                  else hook_messages.PROMPT_HOOK_SYSTEM)
        request = Request(system=system, messages=(user_text(_hook_prompt_text(action.prompt, data)),), tools=())
    answer = _json_object(text_of(rt.model.respond(request)))
    hook_prompt_stop.check_verdict(answer, event)
    verdict = _verdict(answer)
    return ActionResult(action=action, verdict_ok=verdict[0], verdict_reason=verdict[1])


def _agent(rt: Runtime, conversation: Conversation, action: HookAction, *, event: str,
           data: Mapping[str, Any]) -> ActionResult:
    """A subagent context with the subagent tools (no Agent) plus StructuredOutput (measured)."""
    _check_event_measured(action, event)
    if rt.config.memory.present:
        raise NotModelled("memory files with an agent hook (whether its context holds them is unmeasured)")
    checker = Conversation(
        kind="hook_agent",
        system=hook_messages.agent_hook_system(event, rt.session.transcript_path, ruled=rt.profile.hook_verdict_rules),
        messages=[user_text(_hook_prompt_text(action.prompt, data))],
        pool=(*(t for t in full_pool(rt) if t != AGENT), STRUCTURED_OUTPUT),
        depth=conversation.depth + 1,
        agent_id=f"hook-agent-{uuid.uuid4()}",
        mode="dontAsk",
    )
    rt.converse(checker)
    verdict = _verdict(checker.structured_output)
    return ActionResult(action=action, verdict_ok=verdict[0], verdict_reason=verdict[1])


def _json_object(text: str) -> Mapping[str, Any] | None:
    try:
        value = json.loads(text.strip().removeprefix("```json").removeprefix("```").removesuffix("```"))
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _verdict(value: Mapping[str, Any] | None) -> tuple[bool | None, str]:
    """(ok, reason); ok is None when the model gave nothing usable (a non-blocking error)."""
    if value is None or not isinstance(value.get("ok"), bool):
        return None, ""
    return value["ok"], str(value.get("reason") or "")
