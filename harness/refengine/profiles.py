"""Version profiles: which behaviour the reference engine models for a given Claude Code version.

The table ``CHANGES`` (profile_table.py) is the single place that names the version at which a modelled behaviour
changed. A profile for version V starts from ``BASELINE`` (profile_baseline.py: the oldest behaviour we model)
and applies every change whose ``since`` is at most V, in table order. Evidence says where each row comes from:
"measured" rows were observed on the real binary through the fake API, the first version and the
release before it (cc-harness bisect, docs/timeline/; releases from 2.1.0 run, the ones before 2.1.110
as cli.js). shared/reference/claude-code-semantics.md (docs and changelog) gave the
leads; the rows name what the measurement found.

That is the *measured* profile, the one ``reference@V`` runs. ``profile_for(V, documented=True)`` is the
*documented* profile the engine name ``reference`` runs a case documented for V with: the measured
profile with the articles' readings for exactly V laid over it (readings.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from harness.refengine.errors import EngineFailure
from harness.refengine.profile_baseline import BASELINE
from harness.refengine.profile_table import CHANGES, Version
from harness.refengine.readings import readings_for

SkillHookLifetime = Literal["process", "session", "turn"]
BashPathRefusal = Literal["blocked", "needs-approval"]
InputErrorTypes = Literal["named", "unknown"]


@dataclass(frozen=True, kw_only=True)
class Profile:
    """Every version-dependent switch the reference engine reads. Field docs say what True means."""

    version: Version
    agent_tool_name: str
    """The name under which the subagent tool is offered (``Task`` was renamed ``Agent``)."""
    subagent_spawn_depth: int
    """Default nesting cap: a context at this depth gets no Agent tool (main thread is depth 0)."""
    matcher_comma_list: bool
    """A matcher like ``Bash,Read`` is a list of exact names (before: it never matched)."""
    matcher_hyphen_exact: bool
    """A ``-`` keeps a matcher on the exact-name path (before: it made the matcher a regex)."""
    safe_skills_skip_approval: bool
    """A skill whose loaded properties are all on the safe list needs no approval in print mode."""
    skill_disallowed_tools: bool
    """SKILL.md ``disallowed-tools`` is honoured."""
    skill_allowed_tools_pre_approve: bool
    """SKILL.md ``allowed-tools`` pre-approves the listed tools in print mode (S1)."""
    http_hooks: bool
    mcp_tool_hooks: bool
    agent_hooks_on_main_agent: bool
    """Agent-frontmatter hooks also apply when the agent is the main thread (``--agent``)."""
    agent_hooks_need_trust: bool
    """Project agent-frontmatter hooks are dropped unless the folder's trust was accepted."""
    search_tools_hidden_while_bash_available: bool
    """Glob and Grep are left out of the inherited tool pool, and hidden wherever Bash is offered (the model
    is told to use find/grep); a pool without Bash by a deny rule or an explicit ``tools:`` list has them,
    as has a context whose skill withholds Bash."""
    deferred_builtins: frozenset[str]
    """Built-ins left out of an inherited pool's ``tools`` (deferred behind ToolSearch) and still callable;
    an agent's explicit ``tools:`` list offers them as usual."""
    search_path_error_wrapped: bool
    """Glob and Grep's missing-path errors (``Directory does not exist``, ``Path does not exist``, ``Path is
    not a directory``) are wrapped in ``<tool_use_error>``."""
    edit_note_needs_known_file: bool
    """An Edit result carries ``(file state is current in your context ...)`` only when the context had the
    whole file (read whole, written, or created by Edit); before, every Edit result does."""
    notebook_retype_drops_code_fields: bool
    """NotebookEdit turning a code cell into markdown drops its ``execution_count`` and ``outputs``."""
    notebook_trailing_newline: bool
    """NotebookEdit writes the notebook with a final newline."""
    skill_hook_lifetime: SkillHookLifetime
    """How long an invoked skill's hooks stay registered (S4): ``process`` (lost on resume and on a new
    session), ``session`` (kept on resume, lost on a new session), ``turn`` (until the next user message)."""
    skill_camel_allowed_tools: bool
    """A camelCase ``allowedTools:`` key in SKILL.md is read as ``allowed-tools`` (S6)."""
    skill_listed_without_description: bool
    """A skill with neither ``description`` nor ``when_to_use`` is listed, by its body's first line (E5)."""
    agent_frontmatter_hooks: bool
    """Agent-frontmatter ``hooks:`` apply at all (A6; where and when: the two switches above)."""
    depth_cap_error: bool
    """At the depth cap the Agent tool stays offered and a call fails with ``Subagent nesting limit
    reached (depth N)`` (before: the tool is withheld, A5)."""
    rich_hook_actions_only_on_tool_events: bool
    """mcp_tool, prompt and agent actions run only on PreToolUse, PostToolUse, PermissionRequest (H13)."""
    hook_deny_reason_names_event: bool
    """A PreToolUse deny reason reaches the model as ``PreToolUse:<tool> hook error: <reason>``."""
    stop_block_adds_note: bool
    """After a Stop/SubagentStop JSON ``decision: block``'s ``Stop hook feedback:\n<reason>``, a system note
    ``Stop hook blocking error from command: "<cmd>": <reason>`` follows (before: the feedback alone)."""
    unavailable_tool_says_continue: bool
    """A call to a known but unoffered tool says ``X is not among the tools available here. Continue
    with the tools you have.`` (before: ``X is disabled for this session, in subagents as well as here.``)."""
    hook_verdict_rules: bool
    """A prompt or agent action's system prompt tells the model how to decide (``"ok" decides what happens next
    ...``), in 2.1.332's wording (before: ``You are evaluating a hook condition in Claude Code. ...`` and
    ``... StructuredOutput tool with: - ok: true if the condition is met ...``)."""
    input_error_types: InputErrorTypes
    """How a call with a missing or mistyped parameter is refused: ``named`` (``The required parameter `x` is
    missing``; ``... provided as `number```), ``unknown`` (both read ``... type is expected as `string` but
    provided as `unknown```)."""
    bash_path_refusal: BashPathRefusal
    """How default mode refuses a Bash redirection to a file or a file-changing program's path:
    ``blocked`` (``... was blocked. For security, Claude Code may only ...``), ``needs-approval`` (``... needs
    approval. The path is inside/outside the working directories ...``)."""
    bash_variable_refusal: str
    """How default mode refuses a Bash command with a shell variable (permissions._variable_decision)."""
    skill_approval_names_allow_rule: bool
    """The Skill refusal adds ``The user can add the allow rule Skill(x) to .claude/settings.local.json...``."""
    agent_result_hand_back_frame: bool
    """An Agent tool_result puts the subagent's reply, indented, under a ``[Subagent hand-back]`` frame."""
    tools_used_summary: bool
    """Agent and forked-skill results start with ``<tools-used-before-summary>`` naming the tools called
    that the session had not answered yet (agents.tools_used_summary)."""
    search_tools_stay_next_prompt: bool
    """Glob and Grep, brought into a context's tool list by a skill withholding Bash, stay there after the
    user's next message (before: they leave with the restriction), for as long as the process runs."""
    search_tools_stay_after_resume: bool
    """... and in a process resuming the session too."""
    send_message_hint_only_on_main: bool
    """The Agent result's ``(use SendMessage ...)`` hint is left out where a subagent started the subagent."""
    mcp_tools_deferred: bool
    """MCP tools are left out of the request's ``tools`` (deferred behind ToolSearch) and still callable."""
    settings_errors_logged: bool
    """Settings problems (an unknown hook event, a malformed hook entry) are written to the debug log."""
    hook_effort_level: str
    """The ``effort.level`` of hook payloads."""
    init_lists_agent_as_task: bool
    """stream-json's ``system/init`` tool list (and ``permission_denials``) names the Agent tool ``Task``."""
    unknown_skill_names_plugin_skill: bool
    """A Skill call with a plugin skill's bare name says ``Did you mean <plugin>:<name>? Invoke it by that full
    name.`` (before: the usual edit-distance suggestion, over the built-in commands too)."""
    plugin_skill_listing_shows_alias: bool
    """A plugin skill whose frontmatter ``name`` differs from its folder is listed ``<plugin>:<folder>
    (<plugin>:<name>)`` (before: by its folder's name alone)."""
    plugin_skill_description_names_plugin: bool
    """The skill listing appends ``(plugin:<plugin>)`` to a plugin skill's description (seed 004)."""
    plugin_skill_name_replaces_folder: bool
    """A plugin skill's frontmatter ``name`` replaces its folder's name: it is listed and invoked as
    ``<plugin>:<name>`` only (notes §2.1; before: measured, both names invoke it)."""
    skill_preload_finds_plugin_bare_name: bool
    """An agent's ``skills: [greet]`` preloads a plugin's ``team:greet`` (false: the bare name names no skill)."""
    plugin_variable_fails_settings_hook: bool
    """A settings hook whose command names ``${CLAUDE_PLUGIN_ROOT}`` or ``${CLAUDE_PLUGIN_DATA}`` does not run
    (a debug-log error only); false: it runs, the shell expanding the unset variable to nothing (notes §1.9)."""
    read_unchanged_is_wasted_call: bool
    """A whole Read of a file the same context already read whole, unchanged since (and not written by the
    context in between), answers ``Wasted call — file unchanged since your last Read. ...`` (false: the
    content again)."""
    read_deny_write_is_listed_denial: bool
    """A Write refused by a bare ``Read`` deny rule (``File is covered by a Read deny rule ...``) is listed in the
    prompt's ``permission_denials`` (false: the refusal is a validation error only)."""
    memory_context_header: bool
    """The CLAUDE.md block that opens a context is framed as user context (``# claudeMd`` ... ``# currentDate``);
    false: it holds the files alone (memory.py)."""
    memory_deferred_in_tool_result: bool
    """A folder's CLAUDE.md or a scoped rule, loaded by the first Read of a file it covers, arrives as a
    ``<system-reminder>`` block of the tool result's message (before: a message of its own after it)."""
    plan_classifier_refusal: str | None
    """Plan mode's refusal of a call its auto-mode classifier must judge, when the case scripts no classifier
    answer (``{tool}``: the tool's name); None: not measured (plan_classifier.py)."""
    plan_classifier_fallback_after: int | None
    """After this many classifier refusals in a prompt, plan mode refuses the next such call as default mode
    would, without the classifier; None: no such limit met (plan_classifier.py)."""
    memory_loaded_kept_on_resume: bool | None
    """A folder's CLAUDE.md or a scoped rule a context loaded stays loaded in a process resuming the session
    (false: each process loads it again, on its first Read of a file it covers); None: not measured."""
    instructions_loaded_effort: bool | None
    """An InstructionsLoaded payload fired within a prompt (a folder's CLAUDE.md or a scoped rule loaded) carries
    ``effort`` (memory_hooks.py); None: not measured."""
    memory_loaded_on_write: bool | None
    """A successful Write or Edit of a file a folder's CLAUDE.md or a scoped rule covers loads it as a Read does
    (memory-rules-write-edit); None: not modelled (2.1.252 to 2.1.278 show nothing after the call: what they
    load or mark loaded is not measured)."""
    hook_rewrite_refusal_suffix: str
    """The last line of the refusal of a PreToolUse ``updatedInput`` that the tool's schema refuses (hook_rewrite.py);
    empty: none."""
    shell_line_failure_printed: bool
    """A command whose one ``!`` line fails prints ``Shell command failed for pattern "!`cmd`": [stderr]\n...``
    (false: it prints nothing); either way the model is not asked (slash.py)."""
    permission_request_hooks: bool | None
    """Print mode runs the PermissionRequest hooks for a call default mode asks about, and honours their decision
    (permission_request_hooks.py; false: it runs none); None: not measured."""
    hook_on_failure_blocks: bool | None
    """A PreToolUse http handler with ``onFailure: "block"`` whose request fails blocks the call (hook_handler_types;
    false: the option is not read, the failure is a non-blocking error); None: not measured."""
    task_output_tool: bool
    """TaskOutput is a tool (refusing an unknown task id); without it a call is answered ``No such tool available``."""
    tool_search_tool: bool
    """ToolSearch is a tool (lookup_tools.py); without it a call is answered ``No such tool available``."""
    documented: bool = False
    """The articles' readings for this version are laid over the measured profile (readings.py)."""
    readings: tuple[str, ...] = ()
    """Claim ids of the readings that changed a measured value, in table order (documented mode only)."""


def newest_measured() -> str:
    """The newest version a row of ``CHANGES`` names: what the engine knows best when asked for no version."""
    return ".".join(map(str, max(change.since for change in CHANGES)))


def version_text(version: Version) -> str:
    return ".".join(map(str, version))


def _parse_version(text: str) -> Version:
    parts = text.strip().split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise EngineFailure(f"reference engine: version {text!r} is not MAJOR.MINOR.PATCH")
    return int(parts[0]), int(parts[1]), int(parts[2])


def profile_for(version: str, *, documented: bool = False) -> Profile:
    """The measured profile for ``version``: the baseline with every change up to that version applied.

    ``documented``: the articles' readings for exactly ``version`` are laid over it (the engine name
    ``reference``, which runs each case at its ``documented_for`` version).
    """
    wanted = _parse_version(version)
    profile = Profile(version=wanted, **BASELINE)
    for change in CHANGES:
        if change.applies_to(wanted):
            profile = dataclasses.replace(profile, **{change.behaviour: change.value})
    if not documented:
        return profile
    changed: list[str] = []
    for reading in readings_for(wanted):
        if getattr(profile, reading.behaviour) != reading.value:
            changed.append(reading.claim)
            profile = dataclasses.replace(profile, **{reading.behaviour: reading.value})
    return dataclasses.replace(profile, documented=True, readings=tuple(dict.fromkeys(changed)))
