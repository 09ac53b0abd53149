"""Documented readings: what the articles say a version does, where it differs from the measurement.

The engine name ``reference`` (no version) runs each case at its ``documented_for`` version in
*documented mode*: ``profile_for(version, documented=True)`` starts from the measured profile of that
version (profiles.py) and overlays every reading below whose ``version`` is exactly that version. So a
reading of seed 001 (CLI 2.1.252) applies to the cases documented for 2.1.252 and to nothing else, and
``reference@V`` never sees this table: it stays purely measured.

A row names the claim (shared CLAIMS.md), the article (seed number), the version the article documents,
the profile switch and its documented value, and what the article says. Where the article is wrong about
the real engine, that is the harness's finding (the claude@V runs), not something to fix here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, kw_only=True)
class Reading:
    claim: str
    seed: str
    """The article: ``000`` (CLI 2.1.257, parts 2.1.278), ``001`` (CLI 2.1.252), ``004`` (internals), or the
    shared notes' section (``notes §2.1``: the official docs of v2.1.240, for claims of section L)."""
    version: tuple[int, int, int]
    """The version the article documents; the reading applies to cases documented for exactly this one."""
    behaviour: str
    """A field of profiles.Profile."""
    value: Any
    says: str
    """The article's words, quoted or closely paraphrased (000 is in Chinese: translated)."""


_V2_1_233 = (2, 1, 233)  # seeds 002-004: the only version they name (002's tool table)
_V2_1_252 = (2, 1, 252)  # seed 001
_V2_1_257 = (2, 1, 257)  # seed 000
_V2_1_240 = (2, 1, 240)  # the shared notes: the official docs as of v2.1.240 (claims of section L)

READINGS: tuple[Reading, ...] = (
    Reading(claim="A5", seed="001", version=_V2_1_252, behaviour="depth_cap_error", value=True,
            says="Subagent nesting is capped, not forbidden. [...] Go past it and you get Subagent nesting "
                 "limit reached (depth N)."),
    Reading(claim="A6a", seed="001", version=_V2_1_252, behaviour="agent_frontmatter_hooks", value=False,
            says="Agent definitions take a hooks: field too. It loads without complaint and does nothing. "
                 "[...] Making probe the main agent with --agent probe gives the same result."),
    Reading(claim="H13", seed="001", version=_V2_1_252, behaviour="rich_hook_actions_only_on_tool_events",
            value=True,
            says="Five kinds of action can run: [table lost in the text] The last three only work on the tool "
                 "events: PreToolUse, PostToolUse, PermissionRequest. (CLAIMS.md: mcp_tool, prompt, agent)"),
    Reading(claim="S1", seed="001", version=_V2_1_252, behaviour="skill_allowed_tools_pre_approve", value=True,
            says="The engine turns the field into a context layer of kind allowed_tools, which sits in the "
                 "permission system and marks the listed tools as pre-approved."),
    Reading(claim="S4", seed="001", version=_V2_1_252, behaviour="skill_hook_lifetime", value="turn",
            says="The rule belongs to that skill alone. In the same session, echo HELLO outside the skill "
                 "still prints HELLO. (Modelled: the hook lasts until the next user message.)"),
    Reading(claim="S1", seed="000", version=_V2_1_257, behaviour="skill_allowed_tools_pre_approve", value=True,
            says="(translated) The tools listed in allowed-tools run without the engine asking you; unlisted "
                 "ones can still be called. (列進去的 tool engine 不會跳出來問你)"),
    Reading(claim="S4", seed="000", version=_V2_1_257, behaviour="skill_hook_lifetime", value="session",
            says="(translated) Once the skill is invoked its hooks: are registered on this session [...] closing "
                 "the session clears them: a new session in the same folder prints AFTER. (session 關掉就沒了) "
                 "Every run is one -p prompt, so the session's next message goes by --resume (as in S3)."),
    Reading(claim="S6", seed="000", version=_V2_1_257, behaviour="skill_camel_allowed_tools", value=True,
            says="(translated) The check compares the loaded object's properties: allowed-tools becomes "
                 "allowedTools when read, neither spelling is on the list, the result is the same."),
    Reading(claim="E5", seed="004", version=_V2_1_233, behaviour="skill_listed_without_description", value=False,
            says="(translated) A skill must have description or when_to_use in its frontmatter, otherwise it "
                 "is filtered out: (cmd.hasUserSpecifiedDescription || cmd.whenToUse) // must have one!"),
    Reading(claim="L2", seed="004", version=_V2_1_233, behaviour="plugin_skill_description_names_plugin",
            value=True,
            says="(translated) The system automatically appends source information to the description (e.g. "
                 "(plugin:skills)) [...] description: ${frontmatter.description} (plugin:${plugin.name})"),
    Reading(claim="L3", seed="notes §2.1", version=_V2_1_240, behaviour="plugin_skill_name_replaces_folder",
            value=True,
            says="For plugin skills, `name` replaces the last segment (`/plugin:fancy`) (2.1.216)."),
    Reading(claim="L1", seed="notes §2.3", version=_V2_1_240, behaviour="skill_preload_finds_plugin_bare_name",
            value=False,
            says="Plugin skills are `plugin:skill` (§2.3); an agent's `skills:` preloads the full content of the "
                 "skills it names (§3.2): the bare name names no plugin skill."),
    Reading(claim="L19", seed="notes §1.9", version=_V2_1_240, behaviour="plugin_variable_fails_settings_hook",
            value=False,
            says="Variables set: CLAUDE_PROJECT_DIR [...], CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA [...] In shell "
                 "form the shell expands them from the exported environment."),
    Reading(claim="T3", seed="001", version=_V2_1_252, behaviour="init_lists_agent_as_task", value=False,
            says="Agent and Skill are on the same list. Starting a subagent is the model calling a tool named "
                 "Agent. (The article never shows the tool under another name.)"),
)


def readings_for(version: tuple[int, int, int]) -> tuple[Reading, ...]:
    """The readings documented for exactly ``version``, in table order."""
    return tuple(r for r in READINGS if r.version == version)
