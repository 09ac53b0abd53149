"""Version profiles: the table picks each behaviour by the version it changed at."""

from __future__ import annotations

import pytest

from harness.refengine.conversation import Conversation
from harness.refengine.errors import EngineFailure
from harness.refengine.profile_table import CHANGES
from harness.refengine.profiles import profile_for


def test_2_1_252() -> None:
    p = profile_for("2.1.252")
    assert p.agent_tool_name == "Agent"
    assert p.subagent_spawn_depth == 3
    assert p.agent_hooks_need_trust and p.search_tools_hidden_while_bash_available


def test_skill_allowed_tools_pre_approve_only_on_newer_versions() -> None:
    # Measured: 2.1.252, 2.1.257 and 2.1.278 refuse what allowed-tools lists; 2.1.332 runs it.
    assert [profile_for(v).skill_allowed_tools_pre_approve for v in ("2.1.252", "2.1.278", "2.1.332")] == \
        [False, False, True]


def test_depth_cap_history() -> None:
    assert [profile_for(v).subagent_spawn_depth for v in ("2.1.100", "2.1.200", "2.1.218", "2.1.219")] == [1, 5, 1, 3]


def test_before_the_rename_the_tool_was_task() -> None:
    assert profile_for("2.1.62").agent_tool_name == "Task"


def test_every_change_names_a_profile_field() -> None:
    fields = set(profile_for("2.1.252").__dataclass_fields__)
    assert {c.behaviour for c in CHANGES} <= fields


def test_bad_version_is_an_engine_failure() -> None:
    with pytest.raises(EngineFailure):
        profile_for("latest")


def test_2_1_332_rewords_and_defers() -> None:
    old, new = profile_for("2.1.278"), profile_for("2.1.332")
    switches = ("hook_deny_reason_names_event", "unavailable_tool_says_continue", "skill_approval_names_allow_rule",
                "tools_used_summary", "mcp_tools_deferred", "settings_errors_logged", "send_message_hint_only_on_main")
    assert not any(getattr(old, s) for s in switches) and all(getattr(new, s) for s in switches)
    assert (old.hook_effort_level, new.hook_effort_level) == ("high", "medium")


def test_deferred_mcp_tools_are_callable_but_not_offered() -> None:
    context = Conversation(kind="main", system="", messages=[], pool=("Agent", "Bash", "mcp__m__record"), depth=0)
    assert context.offered(profile_for("2.1.278")) == ("Agent", "Bash", "mcp__m__record")
    assert context.offered(profile_for("2.1.332")) == ("Agent", "Bash")
    assert context.callable(profile_for("2.1.332")) == ("Agent", "Bash", "mcp__m__record")


def test_the_hand_back_frame_arrives_in_2_1_278() -> None:
    assert [profile_for(v).agent_result_hand_back_frame for v in ("2.1.257", "2.1.278")] == [False, True]
