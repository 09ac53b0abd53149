"""``BASELINE``: the oldest behaviour the reference engine models, one value per version-dependent switch.

A profile for version V starts here and applies the rows of ``CHANGES`` (profile_table.py) whose ``since``
is at most V (profiles.py). Each comment names the versions and cases that measured the values below it.
"""

from __future__ import annotations

from typing import Any

BASELINE: dict[str, Any] = {
    "agent_tool_name": "Task",
    "subagent_spawn_depth": 1,
    "matcher_comma_list": False,
    "matcher_hyphen_exact": False,
    "safe_skills_skip_approval": False,
    "skill_disallowed_tools": False,
    "skill_allowed_tools_pre_approve": False,
    "http_hooks": False,
    "mcp_tool_hooks": False,
    "agent_hooks_on_main_agent": False,
    "agent_hooks_need_trust": False,
    "search_tools_hidden_while_bash_available": False,
    "deferred_builtins": frozenset(),
    # Measured on 2.1.252 (the earliest version measured) and unchanged through 2.1.332:
    "skill_hook_lifetime": "process",
    "skill_camel_allowed_tools": False,
    "skill_listed_without_description": True,
    "agent_frontmatter_hooks": True,
    "depth_cap_error": False,
    "rich_hook_actions_only_on_tool_events": False,
    # Measured on 2.1.252; each changes at the first release its row below names (docs/timeline/changes.yaml).
    "hook_deny_reason_names_event": False,
    # Measured on 2.1.252 and 2.1.257 (hook-event-stop-gate, hook-event-subagentstop-block).
    "stop_block_adds_note": False,
    "unavailable_tool_says_continue": False,
    "skill_approval_names_allow_rule": False,
    # Measured on 2.1.252 to 2.1.278 (hook-prompt-action, hook-hook-via-agent); later: the row below.
    "hook_verdict_rules": False,
    # Measured on 2.1.252 and 2.1.257 (tool-builtin-input-errors); later: the rows below.
    "input_error_types": "named",
    # Measured on 2.1.252, 2.1.257 and 2.1.278 (tool-default-mode-refusals); later: the rows below.
    "bash_path_refusal": "blocked",
    # Measured on 2.1.252, 2.1.257 and 2.1.278 (bash-variable-default-mode); later: the row below.
    "bash_variable_refusal": "Contains simple_expansion",
    "agent_result_hand_back_frame": False,
    "tools_used_summary": False,
    "search_tools_stay_next_prompt": False,
    "search_tools_stay_after_resume": False,
    "send_message_hint_only_on_main": False,
    "mcp_tools_deferred": False,
    "settings_errors_logged": False,
    "hook_effort_level": "high",
    "init_lists_agent_as_task": True,
    "search_path_error_wrapped": True,
    "edit_note_needs_known_file": False,
    "notebook_retype_drops_code_fields": False,
    "notebook_trailing_newline": False,
    # Measured on 2.1.252 to 2.1.332 with plugins loaded by --plugin-dir; the first two change in 2.1.269 and
    # 2.1.290 (rows below).
    "unknown_skill_names_plugin_skill": False,
    "plugin_skill_listing_shows_alias": False,
    "plugin_skill_description_names_plugin": False,
    "plugin_skill_name_replaces_folder": False,
    "plugin_variable_fails_settings_hook": True,
    "skill_preload_finds_plugin_bare_name": True,
    # Measured on 2.1.252 (cc-harness explore seed 1, x1-0043; tool-builtin-read-twice); later: the row below.
    "read_unchanged_is_wasted_call": True,
    # Measured on 2.1.252 (cc-harness explore seed 1, x1-0061; permission-read-deny-blocks-write).
    "read_deny_write_is_listed_denial": False,
    # Measured on 2.1.252 and 2.1.257 (memory-claude-md, memory-import, memory-rules-folder, memory-nested-folder);
    # each changes at the release its row below names.
    "memory_context_header": True,
    "memory_deferred_in_tool_result": False,
    # Measured on 2.1.252, 2.1.257 and 2.1.278 (slash-command-shell-line-fails); the row below from 2.1.318.
    "shell_line_failure_printed": False,
    # Measured on 2.1.252, 2.1.257 and 2.1.278 (mode-plan-classifier, mode-plan-classifier-limit); 2.1.332: the
    # rows below.
    "plan_classifier_refusal": (
        "Auto mode could not evaluate this action and is blocking it for safety — run with --debug for details. "
        "This is not a judgment that the action is unsafe. This is usually transient — wait briefly and try this "
        "action again as-is; don't rewrite it. If it keeps failing, continue with other tasks that don't require "
        "this action and come back to it later. Note: reading files, searching code, and other read-only "
        "operations do not require the classifier and can still be used."),
    "plan_classifier_fallback_after": 2,
    # Measured on 2.1.252, 2.1.257 and 2.1.278 (memory-resume); 2.1.332: the rows below.
    "memory_loaded_kept_on_resume": False,
    # 2.1.252, 2.1.257 and 2.1.278 show nothing after a Write or an Edit (memory-rules-write-edit): what they load
    # is not measured; 2.1.332: the row below.
    "memory_loaded_on_write": None,
    # Measured on 2.1.252, 2.1.257 and 2.1.278 (hook-event-instructionsloaded); 2.1.332: the rows below.
    "instructions_loaded_effort": False,
    # Measured on 2.1.252, 2.1.257 and 2.1.278 (hook-pretooluse-updated-input-invalid); later: the row below.
    "hook_rewrite_refusal_suffix": "",
    # Measured on 2.1.252 and 2.1.257 (hook-event-permissionrequest-refused, approval-permissionrequest-hook-allow):
    # no PermissionRequest hook runs in print mode; later: the row below.
    "permission_request_hooks": False,
    # Measured on 2.1.252, 2.1.257 and 2.1.278 (hook-option-http-on-failure-block, -status, -timeout): an http
    # handler's onFailure is not read; later: the rows below.
    "hook_on_failure_blocks": False,
    # Measured on 2.1.252 and 2.1.257 (tool-builtin-task-unknown-hooks); later: the rows below.
    "task_output_tool": True,
    "tool_search_tool": False,
}
