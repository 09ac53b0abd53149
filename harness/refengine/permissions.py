"""Permission decisions: deny > ask > allow rules, the mode, and each tool's own check (E2, S1, S3, S6).

The engine asks here after PreToolUse hooks ran. An ``ask`` cannot be answered in print mode, so the
caller turns it into a refusal whose message is the tool_result (E2).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from harness.refengine import bash_redirect_rules, messages, notebook_rules
from harness.refengine.bash_safety import approval_message, writes_a_file
from harness.refengine.bash_shapes import has_variable, is_compound, is_simple_variable_command, plain_parts
from harness.refengine.edit_rules import write_decision
from harness.refengine.errors import NotModelled
from harness.refengine.permission_request import ALLOW, Decision, Request
from harness.refengine.permission_rules import Rule, RuleSet, bash_pattern_matches, host_of
from harness.refengine.tool_model import MODELLED_BUILTINS, SPECS, inside, resolve, skill_name
from harness.refengine.tools import READ_ONLY_TOOLS


def removed_by_deny(rules: RuleSet) -> frozenset[str]:
    """Built-ins a bare deny rule takes out of every context (measured for ``deny: [Bash]`` on 2.1.252 to
    2.1.332: Bash is not offered and a call gets "Bash is disabled for this session, in subagents as well as
    here."); a rule with a specifier refuses matching calls instead (``decide``)."""
    return frozenset(r.tool for r in rules.deny if r.specifier is None and r.tool in MODELLED_BUILTINS)


def mcp_removed_by_deny(rules: RuleSet, tool: str) -> bool:
    """An MCP tool a deny rule naming it as a whole takes out of every context: its tools are not offered and a call
    gets the plain "No such tool available". Measured on 2.1.252 to 2.1.332 for ``mcp__marker`` (rule-mcp-server),
    ``mcp__marker__*`` (rule-mcp-deny-star), ``mcp__marker__record`` (rule-mcp-deny-tool), ``mcp__marker__rec*``
    (rule-mcp-deny-prefix) and ``mcp__mark*`` (rule-mcp-deny-server-glob: the whole server). A ``*`` elsewhere
    in the name is not measured."""
    for rule in rules.deny:
        if rule.tool.startswith("mcp__") and "*" in rule.tool.rstrip("*"):
            raise NotModelled(f"an MCP deny rule {rule.text} with a * inside the name")
    return any(r.specifier is None and r.covers_tool(tool) for r in rules.deny if r.tool.startswith("mcp__"))


def decide(request: Request) -> Decision:
    tool, tool_input = request.tool, request.tool_input

    def any_match(rules: Iterable[Rule]) -> bool:
        return any(r.matches(tool, tool_input, workdir=request.workdir) for r in rules)

    _check_modelled(request)
    # A skill's disallowed-tools holds even in bypass mode (S3).
    if tool in request.withheld:
        return Decision(behaviour="deny", message=messages.permission_denied(tool))
    for rule in request.rules.deny:
        if _denies(rule, tool, tool_input, workdir=request.workdir):
            return Decision(behaviour="deny", message=_deny_text(rule, tool, tool_input))
    if (bound := write_decision(request)) is not None:  # an Edit rule with a path governs a Write too
        return bound
    if (bound := notebook_rules.decision(request)) is not None:  # and a NotebookEdit
        return bound
    # Explicit ask rules are never auto-approved, not even in bypass mode (notes §4.1).
    if any_match(request.rules.ask):
        return _ask_rule(request)
    if request.hook_allowed or request.mode == "bypass":
        return ALLOW
    allow_rules = (*request.rules.allow, *request.granted)
    if tool == "Bash" and has_variable(str(tool_input.get("command", ""))):
        return _variable_decision(request, allow_rules)
    if any_match(allow_rules):
        command = str(tool_input.get("command", ""))
        if tool == "Bash" and writes_a_file(command):
            matching = [r for r in allow_rules if r.matches(tool, tool_input, workdir=request.workdir)]
            return bash_redirect_rules.allowed(
                command, matching, granted=any(r in request.granted for r in matching), mode=request.mode,
                without_rules=lambda: dataclasses.replace(_tool_default(request, ()), by_tool=True))
        return ALLOW
    return dataclasses.replace(_tool_default(request, allow_rules), by_tool=True)


def _variable_decision(request: Request, allow_rules: tuple[Rule, ...]) -> Decision:
    """A command with a shell variable where no hook, bypass, deny or ask rule decided: the read-only check that
    lets ``echo`` run does not apply. Measured in default mode for one plain command whose variables are
    ``$NAME`` (bash-variable-default-mode, bash-variable-allow-prefix, bash-variable-allow-bare, 2.1.252 to
    2.1.332): refused with the profile's ``bash_variable_refusal`` and listed as a denial, also under a prefix
    allow rule that matches it; a bare ``Bash`` allow rule lets it run."""
    command = str(request.tool_input.get("command", ""))
    if (request.mode == "plan" and is_simple_variable_command(command)
            and not any(r.matches("Bash", request.tool_input, workdir=request.workdir) for r in allow_rules)):
        # Plan mode sends it to the auto-mode classifier, which up to 2.1.278 falls back to this refusal after
        # two (mode-plan-classifier-variable, 2.1.252 to 2.1.332; plan_classifier.py).
        return Decision(behaviour="ask", message=request.bash_variable_refusal, by_tool=True)
    if (request.mode == "acceptEdits" and is_simple_variable_command(command)
            and not any(r.matches("Bash", request.tool_input, workdir=request.workdir) for r in allow_rules)):
        # acceptEdits refuses it as default mode does (hook-event-permissionrequest-accept-edits,
        # hook-output-permissionrequest-updated-permissions, 2.1.252 to 2.1.332)
        return Decision(behaviour="ask", message=request.bash_variable_refusal, by_tool=True)
    if request.mode != "default" or not is_simple_variable_command(command):
        raise NotModelled("a Bash command with a shell variable other than one plain command's $NAME in default "
                          "mode (its approval is not modelled)")
    matching = [r for r in allow_rules if r.matches("Bash", request.tool_input, workdir=request.workdir)]
    if any(r.specifier is None for r in matching):
        return ALLOW  # a bare Bash allow rule runs it (bash-variable-allow-bare)
    if any(not re.fullmatch(r"[^*]+(?: \*|:\*)", r.specifier or "") for r in matching):
        raise NotModelled("a Bash command with a shell variable under an allow rule other than a prefix rule")
    # a prefix rule such as Bash(echo *) does not let it run (bash-variable-allow-prefix)
    return Decision(behaviour="ask", message=request.bash_variable_refusal)


def _denies(rule: Rule, tool: str, tool_input: Mapping[str, Any], *, workdir: Path) -> bool:
    """A deny rule against a call; a Bash rule with a specifier binds any part of a compound command."""
    command = str(tool_input.get("command", ""))
    if tool == "Bash" and rule.specifier is not None and is_compound(command):
        parts = plain_parts(command)
        assert parts is not None  # _check_modelled let only the measured shape through
        return any(bash_pattern_matches(rule.specifier, part) for part in parts)
    return rule.matches(tool, tool_input, workdir=workdir)


def _deny_text(rule: Rule, tool: str, tool_input: Mapping[str, Any]) -> str:
    if tool == "Bash" and rule.specifier:
        return messages.bash_denied_by_rule(str(tool_input.get("command", "")))
    if tool in ("Read", "Edit") and rule.specifier:
        return messages.path_denied()  # dispatch answers these in the input validation, before this
    if tool == "WebFetch" and rule.specifier:
        return messages.webfetch_domain_denied(host_of(str(tool_input.get("url", ""))) or "")
    if tool == "Agent" and rule.specifier:
        # 2.1.332 answers "Agent type 'probe' has been denied by permission rule 'Agent(probe)' from userSettings."
        # and lists no permission denial (cc-harness explore, seed 22061, x22061-0154); no case measures it.
        raise NotModelled(f"a deny rule {rule.text} that refuses an Agent call (its refusal is not measured)")
    return messages.permission_denied(tool)


def _check_modelled(request: Request) -> None:
    """Rule evaluations with no measurement behind them: a compound Bash command against a Bash rule with a
    specifier other than a deny rule against plain words joined by ``&&`` (the engine checks each part), a
    PreToolUse hook's ``allow`` against a matching deny or ask rule, and every MCP or ``WebFetch(domain:)``
    rule in a list it was not measured in."""
    tool, tool_input, workdir = request.tool, request.tool_input, request.workdir
    command = str(tool_input.get("command", ""))
    if tool == "Bash" and is_compound(command):
        if any(r.covers_tool("Bash") and r.specifier is not None for r in request.rules.ask):
            raise NotModelled("a compound Bash command against a Bash ask rule with a specifier")
        if plain_parts(command) is None and any(r.covers_tool("Bash") and r.specifier is not None
                                                 for r in request.rules.deny):
            raise NotModelled("a compound Bash command other than plain words joined by && against a Bash deny "
                              "rule with a specifier")
        if any(r.specifier is not None and r.matches(tool, tool_input, workdir=workdir)
               for r in (*request.rules.allow, *request.granted)):
            raise NotModelled("a compound Bash command that a Bash allow rule matches as a whole")
    if request.hook_allowed and any(r.matches(tool, tool_input, workdir=workdir)
                                    for r in (*request.rules.deny, *request.rules.ask)):
        raise NotModelled("a PreToolUse hook's allow against a matching deny or ask rule")
    # Edit rules bind the other file-writing tools and Read rules the searching ones in the real engine; with
    # what pattern semantics there is not measured.
    covering = {"Grep": "Read", "Glob": "Read"}.get(tool)  # Write: edit_rules.py; NotebookEdit: notebook_rules.py
    if covering and any(r.tool == covering and r.specifier is not None
                        for r in (*request.rules.deny, *request.rules.allow, *request.rules.ask, *request.granted)):
        raise NotModelled(f"a {covering} rule with a path beside a {tool} call")
    # An Edit allow rule with a path lets the Edits it binds run in default mode (rule-edit-root-slash-local-allow,
    # 2.1.252 to 2.1.332); bypass and acceptEdits allow them anyway. A Read allow rule with a path is not measured.
    edit_allowed = tool == "Edit" and request.mode in ("default", "bypass", "acceptEdits")
    if tool in ("Read", "Edit") and any(r.specifier is not None and r.matches(tool, tool_input, workdir=workdir)
                                        for r in (*request.rules.allow, *request.granted)) \
            and not (edit_allowed and not any(r.specifier is not None and r.tool == "Edit" for r in request.granted)):
        raise NotModelled(f"a {tool} allow rule with a path that binds the call in {request.mode} mode (measured: "
                          "an Edit rule in default mode)")
    if tool in ("Read", "Edit") and any(r.specifier is not None and r.matches(tool, tool_input, workdir=workdir)
                                        for r in request.rules.ask) and not _measured_read_ask(request):
        raise NotModelled(f"a {tool} ask rule with a path that binds the call in {request.mode} mode (measured: a "
                          "Read of a file in the working copy in default mode)")
    if tool.startswith("mcp__"):
        # Measured: deny rules naming the tool as a whole (the tool is gone before this: mcp_removed_by_deny),
        # and mcp__s__*, mcp__s__rec*, mcp__s__tool allow rules in default mode.
        if any(r.covers_tool(tool) for r in (*request.rules.deny, *request.rules.ask)):
            raise NotModelled(f"an ask rule (or a deny rule with a specifier) for the MCP tool {tool}")
        if any(r.is_mcp_server and r.covers_tool(tool) for r in request.rules.allow):
            raise NotModelled(f"a bare mcp__server allow rule for the MCP tool {tool}")
        if any(r.covers_tool(tool) for r in request.granted):
            raise NotModelled(f"a skill's allowed-tools rule for the MCP tool {tool}")
    if tool == "WebFetch":
        domain_rules = [r for r in (*request.rules.allow, *request.rules.ask, *request.granted)
                        if r.covers_tool(tool) and (r.specifier or "").startswith("domain:")]
        if any(r.matches(tool, tool_input, workdir=workdir) for r in domain_rules):
            raise NotModelled("a WebFetch(domain:) allow or ask rule that binds the call (only deny is measured)")


def _tool_default(request: Request, allow_rules: tuple[Rule, ...]) -> Decision:
    """What the tool itself says in default mode when no rule decided."""
    tool = request.tool
    if tool == "Read":
        return _read_default(request)
    if tool in READ_ONLY_TOOLS or tool in ("Agent", "StructuredOutput"):
        return ALLOW
    if tool == "Bash":
        def allowed(part: str) -> bool:
            return any(r.matches("Bash", {"command": part}, workdir=request.workdir) for r in allow_rules)

        message = approval_message(str(request.tool_input["command"]), workdir=request.workdir, allowed=allowed,
                                   path_refusal=request.bash_path_refusal)
        return ALLOW if message is None else Decision(behaviour="ask", message=message)
    if tool in ("Write", "Edit", "NotebookEdit"):
        # Measured for NotebookEdit too: "Claude requested permissions to write to <absolute path> ...".
        path_param = SPECS[tool].path_param or "file_path"
        path = resolve(str(request.tool_input[path_param]), workdir=request.workdir)
        return Decision(behaviour="ask", message=messages.write_not_granted(path))
    if tool == "Skill":
        if not request.skill_needs_approval:
            return ALLOW
        name = skill_name(request.tool_input)
        return Decision(behaviour="ask", message=messages.execute_skill(
            name, names_allow_rule=request.skill_refusal_names_allow_rule))
    return Decision(behaviour="ask", message=messages.permission_not_granted(tool))


def _read_default(request: Request) -> Decision:
    """A Read in default mode: inside the working copy it runs; outside it asks, "Claude requested permissions to
    read from <path> ..." (measured on 2.1.252 to 2.1.332 for /etc/hostname and a file in HOME: mode-default-tools,
    mode-default-outside). The engine's own folders under ~/.claude, which it may read unasked, are not measured."""
    path = resolve(str(request.tool_input.get("file_path", "")), workdir=request.workdir)
    if inside(path, request.workdir):
        return ALLOW
    if ".claude" in path.parts:
        raise NotModelled(f"a Read of {path}, outside the working copy in a .claude folder")
    return Decision(behaviour="ask", message=f"Claude requested permissions to read from {path}, but you haven't "
                                             "granted it yet.")


def _ask_rule(request: Request) -> Decision:
    """An ask rule's refusal in print mode. In default mode an Edit is refused with the text of the tool's own
    check, "Claude requested permissions to write to <path> ..."; in acceptEdits, where that check lets it through,
    with the rule's "... to use Edit ..." (measured on 2.1.257 and 2.1.332: mode-default-rules,
    mode-accept-edits-rules). A Write or NotebookEdit ask rule in default mode is not measured."""
    tool = request.tool
    if _measured_read_ask(request):
        return Decision(behaviour="ask", message="Claude requested permissions to read from "
                        f"{resolve(str(request.tool_input['file_path']), workdir=request.workdir)}, but you haven't "
                        "granted it yet.")
    if tool == "Bash" and request.mode not in ("bypass", "acceptEdits") \
            and writes_a_file(command := str(request.tool_input.get("command", ""))):
        # Measured in bypass and acceptEdits (settings-perm-ask-bypass, mode-accept-edits-rules) and, for a
        # prefix rule, in default mode (bash_redirect_rules.py).
        refusal = bash_redirect_rules.asked(
            command, [r for r in request.rules.ask if r.matches(tool, request.tool_input, workdir=request.workdir)],
            mode=request.mode, path_check=lambda: _tool_default(request, ()))
        if refusal is not None:
            return refusal
    if request.mode == "default" and tool in ("Write", "NotebookEdit"):
        raise NotModelled(f"an ask rule for {tool} in default mode (measured for Edit: the tool's own text)")
    if request.mode == "default" and tool == "Edit":
        return Decision(behaviour="ask", message=messages.write_not_granted(
            resolve(str(request.tool_input["file_path"]), workdir=request.workdir)))
    return Decision(behaviour="ask", message=messages.permission_not_granted(tool))


def _measured_read_ask(request: Request) -> bool:
    """A Read ask rule with a path that binds a Read of a file in the working copy, in default mode: refused in
    print mode with the text of a Read outside the working copy and listed as a denial (measured on 2.1.252 to
    2.1.332 for ``src/**`` and ``*.md``: rule-read-path-ask)."""
    given = request.tool_input.get("file_path")
    return (request.tool == "Read" and request.mode == "default" and isinstance(given, str)
            and inside(resolve(given, workdir=request.workdir), request.workdir)
            and any(r.specifier is not None and r.matches("Read", request.tool_input, workdir=request.workdir)
                    for r in request.rules.ask))
