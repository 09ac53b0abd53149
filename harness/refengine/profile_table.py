"""``CHANGES``, the measured table behind the version profiles: the single place that names the version at
which a modelled behaviour changed. A profile for version V starts from ``BASELINE`` (profile_baseline.py,
the oldest behaviour we model) and applies every change whose ``since`` is at most V, in table order
(profiles.py). Evidence says where each row comes from:
"measured" rows were observed on the real binary through the fake API, the first version and the
release before it (cc-harness bisect, docs/timeline/; releases from 2.1.0 run, the ones before 2.1.110
as cli.js). shared/reference/claude-code-semantics.md (docs and changelog) gave the
leads; the rows name what the measurement found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Version = tuple[int, int, int]


@dataclass(frozen=True, kw_only=True)
class Change:
    behaviour: str
    since: Version
    """The first release that has ``value``."""
    value: Any
    evidence: str
    until: Version | None = None
    """For a window: the last release that has ``value``; from the next one the behaviour is what the
    rows before this one make it again."""

    def applies_to(self, version: Version) -> bool:
        return self.since <= version and (self.until is None or version <= self.until)


def _unbisected(behaviour: str, value: Any, *, old: str, new: str, cases: str) -> tuple[Change, Change]:
    """A behaviour measured one way on 2.1.278 (``old``) and another on 2.1.332 (``new``, modelled as ``value``),
    the releases between them not bisected: they stay not-modelled (a row with the value None) rather than
    take either answer on a guess."""
    return (
        Change(behaviour=behaviour, since=(2, 1, 279), value=None,
               evidence=f"not measured between 2.1.278 ({old}) and 2.1.332 ({new}): {cases}, not bisected"),
        Change(behaviour=behaviour, since=(2, 1, 332), value=value,
               evidence=f"measured on 2.1.332 ({cases}): {new}; the first release with it is not bisected (the row "
                        "above leaves 2.1.279 to 2.1.331 not-modelled)"),
    )


CHANGES: tuple[Change, ...] = (
    Change(behaviour="safe_skills_skip_approval", since=(2, 1, 19), value=True,
           evidence="measured: first in 2.1.19, not in 2.1.18 (`cc-harness bisect silent-skill-key-license "
                    "--field 'steps[0].turns[0].call.expect.result' --good 2.1.0 --bad 2.1.109 "
                    "--results docs/timeline/bisect/safe_skills_skip_approval.jsonl`; releases before 2.1.110 run "
                    "as cli.js): in -p without bypass 2.1.18 refuses a skill whose only extra key is license with "
                    "'Execute skill: keytest', "
                    "2.1.19 launches it (silent-skill-key-license; notes §2.3: skills without extra permissions or "
                    "hooks run without approval)"),
    Change(behaviour="agent_tool_name", since=(2, 1, 63), value="Agent",
           evidence="measured: first in 2.1.63, not in 2.1.62 (`cc-harness bisect subagent-tool-inherit "
                    "--field 'steps[0].turns[0].offered' --good 2.1.0 --bad 2.1.109 "
                    "--results docs/timeline/bisect/agent_tool_name.jsonl`): 2.1.62 offers the main thread no "
                    "Agent (Task), 2.1.63 offers Agent "
                    "(subagent-tool-inherit; notes §3.5: Task renamed Agent; Task stays an alias, A4)"),
    Change(behaviour="http_hooks", since=(2, 1, 63), value=True,
           evidence="measured: first in 2.1.63, not in 2.1.62 (`cc-harness bisect hook-http-action "
                    "--field 'steps[0].turns[1].call.expect.result' --good 2.1.0 --bad 2.1.109 "
                    "--results docs/timeline/bisect/http_hooks.jsonl`): 2.1.62 runs the command the http hook "
                    "denies (FORBIDDEN-RAN), 2.1.63 obeys the deny "
                    "(hook-http-action; notes §1.1 changelog)"),
    Change(behaviour="agent_hooks_on_main_agent", since=(2, 1, 116), value=True,
           evidence="measured: first in 2.1.116, not in 2.1.114 (`cc-harness bisect life-agent-hook-main-agent "
                    "--field 'effects[0].content' --good 2.1.110 --bad 2.1.252 --results "
                    "docs/timeline/bisect/agent_hooks_on_main_agent.jsonl`, 2.1.115 was never published): with "
                    "--agent probe, 2.1.114 runs echo SUB and never runs the agent's PreToolUse hook, 2.1.116 "
                    "runs it and the hook denies the call (life-agent-hook-main-agent; notes §5 #30260: fixed in "
                    "2.1.116)"),
    Change(behaviour="mcp_tool_hooks", since=(2, 1, 118), value=True,
           evidence="measured: first in 2.1.118, not in 2.1.117 (`cc-harness bisect hook-tool-mcp-tool --field "
                    "'effects[0].content' --good 2.1.110 --bad 2.1.252 --results "
                    "docs/timeline/bisect/mcp_tool_hooks.jsonl`): up to 2.1.117 the mcp_tool action on "
                    "PreToolUse/Bash never calls the marker server, from 2.1.118 it leaves CALLED note=\"echo "
                    "MAIN\" (hook-tool-mcp-tool; notes §1.1 changelog)"),
    Change(behaviour="skill_disallowed_tools", since=(2, 1, 152), value=True,
           evidence="measured: first in 2.1.152, not in 2.1.150 (`cc-harness bisect skill-tool-disallowed-tools "
                    "--field 'steps[0].turns[1].call.expect.result' --good 2.1.110 --bad 2.1.252 --results "
                    "docs/timeline/bisect/skill_disallowed_tools.jsonl`, 2.1.151 was never published): after a "
                    "skill with disallowed-tools: Bash, 2.1.150 runs echo HELLO, 2.1.152 answers 'Permission to "
                    "use Bash has been denied.' (skill-tool-disallowed-tools; notes §2.2)"),
    Change(behaviour="subagent_spawn_depth", since=(2, 1, 172), value=5,
           evidence="measured: first in 2.1.172, not in 2.1.170 (`cc-harness bisect subagent-subagent-default-cap "
                    "--field 'contexts.agent-a.turns[0].offered' --good 2.1.110 --bad 2.1.182 --results "
                    "docs/timeline/bisect/subagent_spawn_depth_5.jsonl`, 2.1.171 was never published): 2.1.170 "
                    "offers no subagent Agent, 2.1.172 offers it to agent-a and to agent-c at depth 3 too (a cap "
                    "of at least 4; 5 is notes §3.6's value) (subagent-subagent-default-cap)"),
    Change(behaviour="matcher_comma_list", since=(2, 1, 191), value=True,
           evidence="measured: first in 2.1.191, not in 2.1.190 (`cc-harness bisect hook-matcher-comma-list "
                    "--cases-dir docs/timeline/probes --field 'effects[0].content' --good 2.1.110 --bad 2.1.252 "
                    "--results docs/timeline/bisect/matcher_comma_list.jsonl`, a probe case: no suite case writes "
                    "a comma): the PreToolUse matcher Read,Bash does not fire for Bash up to 2.1.190 and fires "
                    "from 2.1.191 (notes §1.3)"),
    Change(behaviour="matcher_hyphen_exact", since=(2, 1, 195), value=True,
           evidence="measured: first in 2.1.195, not in 2.1.193 (`cc-harness bisect hook-matcher-hyphen-regex "
                    "--cases-dir docs/timeline/probes --field 'effects[0].exists' --good 2.1.110 --bad 2.1.252 "
                    "--results docs/timeline/bisect/matcher_hyphen_exact.jsonl`, a probe case: no suite case "
                    "writes a hyphen; 2.1.194 was never published): the PreToolUse matcher Bas|no-such-tool, "
                    "searched as a regex, fires for Bash up to 2.1.193; from 2.1.195 it is a list of exact names "
                    "and does not (notes §1.3)"),
    Change(behaviour="subagent_spawn_depth", since=(2, 1, 217), value=1,
           evidence="measured: first in 2.1.217, not in 2.1.216 (`cc-harness bisect subagent-subagent-default-cap "
                    "--field 'contexts.agent-a.turns[0].offered' --good 2.1.182 --bad 2.1.217 --results "
                    "docs/timeline/bisect/subagent_spawn_depth_1.jsonl`): 2.1.216 offers agent-a Agent, 2.1.217 "
                    "does not (subagent-subagent-default-cap; notes §3.6). CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH=2 "
                    "is honoured from 2.1.217 on and not before (subagent-subagent-depth-cap: 2.1.110 offers "
                    "agent-a no Agent, 2.1.182 and 2.1.216 offer it to agent-b; not modelled: session.py reads "
                    "the variable on every version)"),
    Change(behaviour="agent_hooks_need_trust", since=(2, 1, 218), value=True,
           evidence="measured: first in 2.1.218, not in 2.1.217 (`cc-harness bisect subagent-hook-untrusted "
                    "--field 'contexts.probe.turns[0].call.expect.result' --good 2.1.110 --bad 2.1.252 --results "
                    "docs/timeline/bisect/agent_hooks_need_trust.jsonl`): in a folder never trusted, 2.1.217 "
                    "applies probe.md's PreToolUse deny inside the subagent (BLOCKED-BY-AGENT-HOOK), 2.1.218 drops "
                    "it and echo SUB prints SUB (subagent-hook-untrusted; notes §1.10); on 2.1.252 the hooks "
                    "apply inside the subagent when trusted, dropped when not (this, not the version, separates "
                    "A6a from A6b)"),
    Change(behaviour="subagent_spawn_depth", since=(2, 1, 219), value=3,
           evidence="measured: first in 2.1.219, not in 2.1.218 (`cc-harness bisect subagent-subagent-default-cap "
                    "--field 'contexts.agent-a.turns[0].offered' --good 2.1.217 --bad 2.1.252 --results "
                    "docs/timeline/bisect/subagent_spawn_depth_3.jsonl`): 2.1.218 offers agent-a no Agent, 2.1.219 "
                    "offers it to agent-a and agent-b and not to agent-c (subagent-subagent-default-cap passes; "
                    "notes §3.6; A5; on 2.1.252 the env override 2 caps it at 2, subagent-subagent-depth-cap)"),
    Change(behaviour="search_tools_hidden_while_bash_available", since=(2, 1, 162), value=True,
           evidence="measured: first in 2.1.162, not in 2.1.161 (`cc-harness bisect main-thread-offers-glob-grep "
                    "--cases-dir docs/timeline/probes --good 2.1.120 --bad 2.1.252 --results "
                    "docs/timeline/bisect/search_tools_hidden_while_bash_available.jsonl`, a probe case: 2.1.161 "
                    "offers the main thread Bash, Glob and Grep, 2.1.162 Bash alone); measured in full on 2.1.252 "
                    "to 2.1.332: the main thread and an inheriting subagent lack Glob and Grep; tools: Read, Grep, "
                    "Glob offers all three, tools: Read, Grep, Glob, Bash offers Read, Bash; a Bash deny rule or a "
                    "skill's disallowed-tools: Bash adds them, an agent's disallowedTools: Bash does not "
                    "(subagent-tool-search-allowlist, tool-builtin-search-bash-denied)"),
    Change(behaviour="search_path_error_wrapped", since=(2, 1, 260), value=False,
           evidence="measured: first in 2.1.260, not in 2.1.259 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect tool-builtin-glob-grep --good 2.1.257 --bad "
                    "2.1.278 --results docs/timeline/bisect/search_path_error_wrapped.jsonl`): 2.1.257 wraps "
                    "'Directory does not exist: x. Note: ...' in <tool_use_error>, 2.1.278 does not "
                    "(tool-builtin-glob-grep)"),
    Change(behaviour="skill_allowed_tools_pre_approve", since=(2, 1, 302), value=True,
           evidence="measured: first in 2.1.302, not in 2.1.301 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness timeline scan --since 2.1.252 --to 2.1.332 $(sed "
                    "'s/^/--case /' docs/timeline/cases.txt)`): 2.1.278 refuses Write, Edit, Bash(touch:*) and "
                    "Bash(python3:*) that allowed-tools lists, 2.1.332 runs them; 2.1.281 to 2.1.284 run or "
                    "refuse from run to run (a race, as 2.1.252: 6 of 16), 2.1.285 to 2.1.301 refuse through the "
                    "auto-mode classifier (not modelled), from 2.1.302 every run runs them "
                    "(skill-tool-allowed-tools-preapproves)"),
    Change(behaviour="agent_result_hand_back_frame", since=(2, 1, 277), value=True,
           evidence="measured: first in 2.1.277, not in 2.1.276 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect subagent-tool-inherit --field "
                    "'steps[0].turns[0].result' --good 2.1.257 --bad 2.1.278 --results "
                    "docs/timeline/bisect/agent_result_hand_back_frame.jsonl`): 2.1.257 returns the reply as is, "
                    "2.1.278 under the frame (subagent-tool-inherit)"),
    Change(behaviour="hook_deny_reason_names_event", since=(2, 1, 281), value=True,
           evidence="measured: first in 2.1.281, not in 2.1.280 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect tool-hook-pretooluse-deny --good 2.1.278 --bad "
                    "2.1.332 --results docs/timeline/bisect/hook_deny_reason_names_event.jsonl`): 'PreToolUse:Bash "
                    "hook error: BLOCKED-BY-SKILL-HOOK' (tool-hook-pretooluse-deny and 17 more cases)"),
    Change(behaviour="stop_block_adds_note", since=(2, 1, 259), value=True,
           evidence="measured: first in 2.1.259, not in 2.1.258 (`cc-harness bisect stop-block-wording --cases-dir "
                    "docs/timeline/probes --good 2.1.257 --bad 2.1.278 --results "
                    "docs/timeline/bisect/stop_block_adds_note.jsonl`, the probe a copy of hook-event-stop-gate): "
                    "after a Stop JSON block's 'Stop hook feedback:\\nRUN-THE-TESTS-FIRST' 2.1.259 sends 'Stop hook "
                    "blocking error from command: \"python3 .claude/hooks/gate.py\": RUN-THE-TESTS-FIRST' (the "
                    "same for SubagentStop: hook-event-subagentstop-block on 2.1.278 and 2.1.332)"),
    Change(behaviour="permission_request_hooks", since=(2, 1, 268), value=True,
           evidence="measured: first in 2.1.268, not in 2.1.267 (`cc-harness bisect "
                    "hook-event-permissionrequest-refused --field 'effects[1].content' --good 2.1.257 --bad 2.1.278 "
                    "--results docs/timeline/bisect/permission_request_hooks.jsonl`): a Bash touch that default mode "
                    "refuses in print mode leaves the PermissionRequest recorder's line from 2.1.268 "
                    "(hook-event-permissionrequest-refused, approval-permissionrequest-hook-allow, -deny)"),
    Change(behaviour="unavailable_tool_says_continue", since=(2, 1, 293), value=True,
           evidence="measured: first in 2.1.293, not in 2.1.292 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect subagent-subagent-depth-cap-252 --good 2.1.278 "
                    "--bad 2.1.332 --results docs/timeline/bisect/unavailable_tool_says_continue.jsonl`): an Agent "
                    "call past the cap (subagent-subagent-depth-cap-252)"),
    Change(behaviour="skill_approval_names_allow_rule", since=(2, 1, 324), value=True,
           evidence="measured: first in 2.1.324, not in 2.1.323 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect skill-tool-allowed-tools-approval --good 2.1.278 "
                    "--bad 2.1.332 --results docs/timeline/bisect/skill_approval_names_allow_rule.jsonl`): "
                    "skill-tool-allowed-tools-approval, silent-skill-key-hooks"),
    Change(behaviour="memory_context_header", since=(2, 1, 268), value=False,
           evidence="measured: first in 2.1.268, not in 2.1.267 (`cc-harness bisect memory-opening-wrapper --cases-dir "
                    "docs/timeline/probes --good 2.1.257 --bad 2.1.278 --results "
                    "docs/timeline/bisect/memory_opening_wrapper.jsonl`): up to 2.1.267 the CLAUDE.md block "
                    "opens with 'As you answer the user's questions, you can use the following context:\\n# claudeMd' "
                    "and ends with '# currentDate'; from 2.1.268 it holds the files alone"),
    Change(behaviour="memory_deferred_in_tool_result", since=(2, 1, 307), value=True,
           evidence="measured: first in 2.1.307, not in 2.1.306 (`cc-harness bisect memory-nested-placement "
                    "--cases-dir docs/timeline/probes --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/memory_nested_in_tool_result.jsonl`): a folder's CLAUDE.md arrives as a "
                    "<system-reminder> block of the Read's tool result message, no longer as a message of its own "
                    "(memory-nested-folder)"),
    *_unbisected(
        "plan_classifier_refusal",
        ("Auto mode is unavailable: its safety check does not run for this session, so {tool} was not run. "
         "Other actions that need the check will be denied too, and retrying won't help. Finish what you can "
         "without them, then tell the user what is blocked and that they can switch to another permission mode."),
        old="the classifier asks the Messages API, which answers 'ok': 'Auto mode could not evaluate ...'",
        new="'Auto mode is unavailable ...', no classifier request",
        cases="mode-plan-classifier, mode-plan-classifier-limit"),
    Change(behaviour="plan_classifier_fallback_after", since=(2, 1, 332), value=None,
           evidence="measured on 2.1.332 (mode-plan-classifier-limit): seven classifier refusals in a prompt, each "
                    "with the same text; up to 2.1.278 the third and later get default mode's refusal"),
    *_unbisected(
        "memory_loaded_kept_on_resume", True,
        old="each resumed process loads a folder's CLAUDE.md and a scoped rule again",
        new="a folder's CLAUDE.md and a scoped rule loaded before a --resume are not loaded again after it",
        cases="memory-resume"),
    *_unbisected(
        "instructions_loaded_effort", True,
        old="no effort in an InstructionsLoaded payload",
        new="the firings for a folder's CLAUDE.md and a scoped rule, within a prompt, carry effort after prompt_id",
        cases="hook-event-instructionsloaded"),
    Change(behaviour="memory_loaded_on_write", since=(2, 1, 332), value=True,
           evidence="measured on 2.1.332 (memory-rules-write-edit): a Write that creates a file a scoped rule or a "
                    "folder's CLAUDE.md covers, and an Edit of such a file not read yet, bring it as a Read does; "
                    "2.1.252, 2.1.257 and 2.1.278 show nothing after the call; not bisected (earlier releases "
                    "stay not-modelled)"),
    Change(behaviour="shell_line_failure_printed", since=(2, 1, 318), value=True,
           evidence="measured: first in 2.1.318, not in 2.1.317 (`cc-harness bisect slash-command-shell-line-fails "
                    "--good 2.1.278 --bad 2.1.332 --results docs/timeline/bisect/shell_line_failure_printed.jsonl`): "
                    "a command whose one ! line (ls of a missing folder) fails prints 'Shell command failed for "
                    "pattern ...' with its stderr; before, nothing; the model is not asked on either"),
    Change(behaviour="tools_used_summary", since=(2, 1, 311), value=True,
           evidence="measured: first in 2.1.311, not in 2.1.310 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect subagent-tool-inherit --field "
                    "'steps[0].turns[0].result' --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/tools_used_summary.jsonl`): skill-skill-fork-body-asks, "
                    "subagent-tool-inherit"),
    Change(behaviour="send_message_hint_only_on_main", since=(2, 1, 293), value=True,
           evidence="measured: first in 2.1.293, not in 2.1.292 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect subagent-subagent-depth-cap --field "
                    "'contexts.agent-a.turns[0].result' --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/send_message_hint_only_on_main.jsonl`): agent-a's result from agent-b "
                    "(subagent-subagent-depth-cap)"),
    Change(behaviour="mcp_tools_deferred", since=(2, 1, 304), value=True,
           evidence="measured: first in 2.1.304, not in 2.1.303 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect silent-hook-matcher-mcp-bare --good 2.1.278 --bad "
                    "2.1.332 --results docs/timeline/bisect/mcp_tools_deferred.jsonl`): mcp__marker__record is not "
                    "in tools (ToolSearch is), and a call to it runs (silent-hook-matcher-mcp-bare)"),
    Change(behaviour="settings_errors_logged", since=(2, 1, 299), value=True,
           evidence="measured: first in 2.1.299, not in 2.1.296 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect silent-hook-event-typo --good 2.1.278 --bad "
                    "2.1.332 --results docs/timeline/bisect/settings_errors_logged.jsonl`): 'Invalid setting skipped "
                    "without dialog (automated session)' (silent-hook-event-typo, silent-hook-matcher-list)"),
    Change(behaviour="deferred_builtins", since=(2, 1, 304), value=frozenset({"NotebookEdit", "WebFetch", "WebSearch"}),
           evidence="measured: first in 2.1.304, not in 2.1.303 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect tool-builtin-web --field "
                    "'steps[0].turns[0].offered' --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/deferred_builtins.jsonl`): the main thread and an inheriting subagent "
                    "list them in system/init but not in tools, and a call to each runs; an agent with tools: "
                    "WebFetch, WebSearch is offered both (tool-builtin-web, tool-builtin-notebook-todo)"),
    Change(behaviour="edit_note_needs_known_file", since=(2, 1, 281), value=True,
           evidence="measured: first in 2.1.281, not in 2.1.280 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect tool-builtin-write-edit --good 2.1.278 --bad "
                    "2.1.332 --results docs/timeline/bisect/edit_note_needs_known_file.jsonl`): an Edit of a file "
                    "the context never read, or read with limit, says 'The file x has been updated successfully.' "
                    "alone (tool-builtin-write-edit)"),
    Change(behaviour="notebook_retype_drops_code_fields", since=(2, 1, 332), value=True,
           evidence="measured: first in 2.1.332, not in 2.1.331 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect tool-builtin-notebook-todo --field "
                    "'effects[0].content' --good 2.1.327 --bad 2.1.332 --results "
                    "docs/timeline/bisect/notebook_retype_drops_code_fields.jsonl`): cell_type markdown on a code "
                    "cell (tool-builtin-notebook-todo)"),
    Change(behaviour="notebook_trailing_newline", since=(2, 1, 327), value=True,
           evidence="measured: first in 2.1.327, not in 2.1.326 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect tool-builtin-notebook-todo --field "
                    "'effects[0].content' --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/notebook_trailing_newline.jsonl`): the rewritten nb.ipynb ends in '}\\n' "
                    "(tool-builtin-notebook-todo)"),
    Change(behaviour="hook_effort_level", since=(2, 1, 280), value="medium",
           evidence="measured: first in 2.1.280, not in 2.1.278 (every release 2.1.252 to 2.1.332 in "
                    "docs/timeline/scan.jsonl; `cc-harness bisect life-skill-hook-resume --field "
                    "'effects[1].content' --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/hook_effort_level.jsonl`): hook payloads carry effort high on 2.1.252 to "
                    "2.1.278, medium on 2.1.332 (life-skill-hook-resume)"),
    Change(behaviour="unknown_skill_names_plugin_skill", since=(2, 1, 269), value=True,
           evidence="measured: first in 2.1.269, not in 2.1.268 (`cc-harness bisect plugin-skill-skill-bare-name "
                    "--field 'steps[0].turns[1].call.expect.result' --good 2.1.257 --bad 2.1.278 --results "
                    "docs/timeline/bisect/unknown_skill_names_plugin_skill.jsonl`): 2.1.268 answers Skill {skill: "
                    "inner} with 'Unknown skill: inner', 2.1.269 with 'Unknown skill: inner. Did you mean "
                    "team:inner? Invoke it by that full name.' (plugin-skill-skill-bare-name; 2.1.257 answers "
                    "Skill {skill: lookup} with 'Unknown skill: lookup. Did you mean loop?')"),
    Change(behaviour="plugin_skill_listing_shows_alias", since=(2, 1, 290), value=True,
           evidence="measured: first in 2.1.290, not in 2.1.289 (`cc-harness bisect plugin-skill-listing-alias "
                    "--cases-dir docs/timeline/probes --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/plugin_skill_listing_shows_alias.jsonl`, a probe case beside the scan: "
                    "plugin-skill-name-field's own check reads the same on both sides): '- team:greet-dir "
                    "(team:fancy): FANCY plugin skill' (plugin-skill-name-field)"),
    Change(behaviour="read_unchanged_is_wasted_call", since=(2, 1, 317), value=False,
           evidence="measured: first in 2.1.317, not in 2.1.316 (`cc-harness bisect tool-builtin-read-twice --field "
                    "'steps[0].turns[1].call.expect.result' --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/read_unchanged_is_wasted_call.jsonl`): up to 2.1.316 a second whole Read "
                    "of an unchanged notes.txt answers 'Wasted call — file unchanged since your last Read. ...', from "
                    "2.1.317 the content again (tool-builtin-read-twice; found by cc-harness explore, seed 1)"),
    Change(behaviour="search_tools_stay_next_prompt", since=(2, 1, 281), value=True,
           evidence="measured: first in 2.1.281, not in 2.1.280 (`cc-harness bisect skill-disallowed-search-tools-stay "
                    "--good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/search_tools_stay_next_prompt.jsonl`): "
                    "after a skill's disallowed-tools: Bash, the next prompt's first request offers Glob and Grep "
                    "(found by cc-harness explore, seed 8128, x8128-0055)"),
    Change(behaviour="search_tools_stay_after_resume", since=(2, 1, 304), value=True,
           evidence="measured: first in 2.1.304, not in 2.1.303 (`cc-harness bisect skill-disallowed-search-tools-stay "
                    "--good 2.1.291 --bad 2.1.332 --results "
                    "docs/timeline/bisect/search_tools_stay_after_resume.jsonl`): "
                    "a --resume process's first request still offers Glob and Grep"),
    Change(behaviour="input_error_types", since=(2, 1, 260), until=(2, 1, 284), value="unknown",
           evidence="measured: first in 2.1.260, not in 2.1.259, last in 2.1.284, not in 2.1.285 (`cc-harness bisect "
                    "tool-builtin-input-errors --field 'contexts.checker.turns[1].call.expect.result' --good 2.1.257 "
                    "--bad 2.1.278 --results docs/timeline/bisect/input_error_types.jsonl`, and from --good 2.1.278 "
                    "--bad 2.1.332 into input_error_types_end.jsonl): Read {} and Read with file_path 5, true or "
                    "[notes.txt] answer 'The parameter `file_path` type is expected as `string` but provided as "
                    "`unknown`' on 2.1.278 (tool-builtin-input-errors)"),
    Change(behaviour="bash_path_refusal", since=(2, 1, 281), value="needs-approval",
           evidence="measured: first in 2.1.281, not in 2.1.280 (`cc-harness bisect tool-default-mode-refusals --field "
                    "'steps[0].turns[1].call.expect.result' --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/bash_path_refusal.jsonl`): 'Output redirection to ... needs approval. The "
                    "path is inside the working directories ...' (2.1.285 and 2.1.291 run it: the auto-mode "
                    "classifier's window); on 2.1.332 also outside the working copy and for touch "
                    "(tool-default-mode-refusals, slash-command-allowed-tools-absent)"),
    Change(behaviour="bash_variable_refusal", since=(2, 1, 285),
           value=("Auto mode could not evaluate this action and is blocking it for safety — run with --debug for "
                  "details. This is not a judgment that the action is unsafe. This is usually transient — wait "
                  "briefly and try this action again as-is; don't rewrite it. If it keeps failing, continue with "
                  "other tasks that don't require this action and come back to it later. Note: reading files, "
                  "searching code, and other read-only operations do not require the classifier and can still be "
                  "used."),
           evidence="measured: first in 2.1.285, not in 2.1.284 (`cc-harness bisect bash-variable-default-mode "
                    "--field 'steps[0].turns[0].call.expect.result' --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/bash_variable_refusal.jsonl`): the auto-mode classifier's refusal, on "
                    "2.1.285, 2.1.291 and 2.1.299 (bash-variable-default-mode)"),
    Change(behaviour="bash_variable_refusal", since=(2, 1, 303),
           value="A variable in this command can't be checked before it runs",
           evidence="measured: first in 2.1.303, not in 2.1.301 (2.1.302 would not install) (`cc-harness bisect "
                    "bash-variable-default-mode --field 'steps[0].turns[0].call.expect.result' --good 2.1.291 --bad "
                    "2.1.305 --results docs/timeline/bisect/bash_variable_refusal_text.jsonl`); 2.1.285 to 2.1.301 "
                    "answer 'Auto mode could not evaluate this action ...' (the auto-mode classifier's window, "
                    "bash_variable_refusal.jsonl from --good 2.1.278 --bad 2.1.332), 2.1.284 and before 'Contains "
                    "simple_expansion' (bash-variable-default-mode)"),
    Change(behaviour="hook_verdict_rules", since=(2, 1, 294), value=True,
           evidence="measured: first in 2.1.294, not in 2.1.293 (`cc-harness bisect hook-agent-action-not-met --field "
                    "'contexts.prompt-gate.turns[0].offered' --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/hook_verdict_rules.jsonl`): a prompt action's system prompt opens 'You are "
                    "evaluating a hook in Claude Code. The user's text says what to check. ...', and an agent action's "
                    "ends '... StructuredOutput tool, always with a reason.' and the same rules (its own bisect, "
                    "--field 'contexts.agent-gate.turns[0].offered', the same versions: "
                    "hook_verdict_rules_agent.jsonl; hook-agent-action-not-met)"),
    Change(behaviour="hook_rewrite_refusal_suffix", since=(2, 1, 300),
           value="The tool input from the model was valid; the hook's rewrite of it was not.",
           evidence="measured: first in 2.1.300, not in 2.1.299 (`cc-harness bisect "
                    "hook-pretooluse-updated-input-invalid --field 'steps[0].turns[0].result' --good 2.1.285 --bad "
                    "2.1.332 --results "
                    "docs/timeline/bisect/hook_rewrite_refusal_suffix.jsonl`): the refusal of a Write whose PreToolUse "
                    "updatedInput lacks file_path and content ends with that line from 2.1.300 "
                    "(hook-pretooluse-updated-input-invalid; found by cc-harness explore, seed 20261202)"),
    Change(behaviour="read_deny_write_is_listed_denial", since=(2, 1, 269), value=True,
           evidence="measured: first in 2.1.269, not in 2.1.268 (`cc-harness bisect permission-read-deny-blocks-write "
                    "--field 'prompts[0].permission_denials' --good 2.1.257 --bad 2.1.278 --results "
                    "docs/timeline/bisect/read_deny_write_is_listed_denial.jsonl`): up to 2.1.268 permission_denials "
                    "stays empty for a Write refused by a bare Read deny rule, from 2.1.269 it lists it "
                    "(permission-read-deny-blocks-write; found by cc-harness explore, seed 1)"),
    Change(behaviour="tool_search_tool", since=(2, 1, 304), value=True,
           evidence="measured: first in 2.1.304, not in 2.1.303 (`cc-harness bisect tool-builtin-task-unknown-hooks "
                    "--field 'steps[0].turns[2].call.expect.result' --good 2.1.278 --bad 2.1.332 --results "
                    "docs/timeline/bisect/tool_search_tool.jsonl`): ToolSearch select:Read answers with a tool "
                    "reference (empty text) instead of 'No such tool available: ToolSearch'"),
    Change(behaviour="task_output_tool", since=(2, 1, 277), value=False,
           evidence="measured: first in 2.1.277, not in 2.1.276 (`cc-harness bisect tool-builtin-task-unknown-hooks "
                    "--field 'steps[0].turns[1].call.expect.result' --good 2.1.257 --bad 2.1.278 --results "
                    "docs/timeline/bisect/task_output_tool.jsonl`): TaskOutput with an unknown id is answered 'No such "
                    "tool available: TaskOutput' instead of 'No task found with ID: nosuch-2'"),
    Change(behaviour="hook_on_failure_blocks", since=(2, 1, 279), value=None,
           evidence="not measured between 2.1.278 (an http handler's onFailure block is not read: a refused, 500 or "
                    "timed-out request lets the call run) and 2.1.332: hook-option-http-on-failure-*, not bisected"),
    Change(behaviour="hook_on_failure_blocks", since=(2, 1, 332), value=True,
           evidence="measured on 2.1.332 (hook-option-http-on-failure-block, -status, -timeout against their "
                    "-absent contrasts): the failed request blocks the PreToolUse call; the first release with it is "
                    "not bisected (the row above leaves 2.1.279 to 2.1.331 not-modelled)"),
)

