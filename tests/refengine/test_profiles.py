"""Version profiles: the table picks each behaviour by the version it changed at."""

from __future__ import annotations

import pytest

from harness.errors import EngineError
from harness.refengine.profiles import CHANGES, profile_for


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


def test_bad_version_is_an_engine_error() -> None:
    with pytest.raises(EngineError):
        profile_for("latest")
