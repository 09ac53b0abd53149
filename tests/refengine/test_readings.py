"""Documented readings: the table, the overlay, and that ``reference@V`` stays measured."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest

from harness.case import load_case
from harness.engines.reference import ReferenceEngine
from harness.refengine.hooks import event_runs
from harness.refengine.profile_baseline import BASELINE
from harness.refengine.profiles import Profile, profile_for
from harness.refengine.readings import READINGS, readings_for
from tests.conftest import CaseWriter, run_in_copy

DOCUMENTED_VERSIONS = {(2, 1, 233), (2, 1, 240), (2, 1, 252), (2, 1, 257), (2, 1, 278)}
"""The seed articles' versions, and 2.1.240 for readings of the research notes (which read the docs there)."""
MEASURED_FIELDS = {f.name for f in dataclasses.fields(Profile)} - {"version", "documented", "readings"}


# -- the table ---------------------------------------------------------------------------------


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: f"{r.claim}-{r.seed}")
def test_each_reading_sets_a_profile_switch_to_a_value_of_its_type(reading: object) -> None:
    assert reading.behaviour in MEASURED_FIELDS  # type: ignore[attr-defined]
    assert type(reading.value) is type(BASELINE[reading.behaviour])  # type: ignore[attr-defined]
    seed = reading.seed  # type: ignore[attr-defined]
    assert seed in ("000", "001", "002", "003", "004") or seed.startswith("notes §"), seed
    assert reading.version in DOCUMENTED_VERSIONS and reading.says  # type: ignore[attr-defined]


def test_a_version_sets_each_switch_once() -> None:
    keys = [(r.version, r.behaviour) for r in READINGS]
    assert len(keys) == len(set(keys))


def test_every_reading_differs_from_the_measurement_it_overlays() -> None:
    """A reading that agrees with the measured profile is noise: it belongs in no table."""
    for r in READINGS:
        measured = profile_for(".".join(map(str, r.version)))
        assert getattr(measured, r.behaviour) != r.value, r


# -- the overlay -------------------------------------------------------------------------------


def test_measured_profiles_carry_no_reading() -> None:
    for version in ("2.1.233", "2.1.252", "2.1.257", "2.1.278", "2.1.332"):
        p = profile_for(version)
        assert not p.documented and p.readings == ()
        assert all(getattr(p, r.behaviour) != r.value for r in readings_for(p.version))


def test_documented_2_1_252_is_seed_001() -> None:
    p = profile_for("2.1.252", documented=True)
    assert p.documented and p.readings == ("A5", "A6a", "H13", "S1", "S4", "T3")
    assert p.depth_cap_error and not p.agent_frontmatter_hooks and p.rich_hook_actions_only_on_tool_events
    assert p.skill_allowed_tools_pre_approve and p.skill_hook_lifetime == "turn"
    assert not p.init_lists_agent_as_task
    # everything else is the measurement
    measured = profile_for("2.1.252")
    untouched = MEASURED_FIELDS - {r.behaviour for r in readings_for((2, 1, 252))}
    assert all(getattr(p, f) == getattr(measured, f) for f in untouched)


def test_documented_2_1_257_is_seed_000() -> None:
    p = profile_for("2.1.257", documented=True)
    assert p.readings == ("S1", "S4", "S6")
    assert p.skill_hook_lifetime == "session" and p.skill_camel_allowed_tools
    assert p.agent_frontmatter_hooks and not p.depth_cap_error  # 001's readings stay at 2.1.252


def test_documented_2_1_233_is_seed_004() -> None:
    assert profile_for("2.1.233", documented=True).readings == ("E5", "L2")
    assert not profile_for("2.1.233", documented=True).skill_listed_without_description
    assert profile_for("2.1.233", documented=True).plugin_skill_description_names_plugin


def test_a_version_no_article_documents_gets_the_measurement() -> None:
    p = profile_for("2.1.253", documented=True)
    assert p.documented and p.readings == ()
    assert dataclasses.replace(p, documented=False) == profile_for("2.1.253")


def test_the_engine_picks_the_overlay_by_its_name(write_case: CaseWriter) -> None:
    steps = "steps: [{prompt: p, turns: [{say: x}]}]\n"
    case = load_case(write_case("c", HEAD.format(id="c", version="2.1.252") + steps))
    assert ReferenceEngine().profile(case) == profile_for("2.1.252", documented=True)
    assert ReferenceEngine(version="2.1.252").profile(case) == profile_for("2.1.252")
    assert not ReferenceEngine(version="2.1.257").profile(case).documented


def test_h13_reading_runs_rich_actions_on_tool_events_only() -> None:
    documented, measured = profile_for("2.1.252", documented=True), profile_for("2.1.252")
    for action in ("mcp_tool", "prompt", "agent"):
        assert not event_runs("UserPromptSubmit", action, profile=documented)
        assert event_runs("PreToolUse", action, profile=documented)
        assert event_runs("UserPromptSubmit", action, profile=measured)
    assert event_runs("UserPromptSubmit", "command", profile=documented)


# -- whole runs: each reading against the measurement ------------------------------------------

HEAD = """\
id: {id}
title: t
combination: skill -> hook
claims: [S4]
source: seed 000
documented_for: {version}
"""
DENY = """echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",""" \
       """"permissionDecisionReason":"BLOCKED"}}'\n"""
HOOKTEST = """\
---
description: Test skill.
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - {type: command, command: bash .claude/skills/hooktest/deny.sh}
---
Call the Bash tool with command: echo HELLO
"""
LIFETIME_STEPS = """\
run: {permission_mode: bypass}
steps:
  - prompt: Invoke hooktest.
    turns:
      - call: {name: Skill, input: {skill: hooktest}}
      - call: {name: Bash, input: {command: echo HELLO}}
      - say: blocked
  - prompt: Run echo SAME.
    session: same
    turns:
      - call: {name: Bash, input: {command: echo SAME}}
      - say: done
  - prompt: Run echo RESUMED.
    session: resume
    turns:
      - call: {name: Bash, input: {command: echo RESUMED}}
      - say: done
  - prompt: Run echo NEW.
    session: new
    turns:
      - call: {name: Bash, input: {command: echo NEW}}
      - say: done
"""


def bash_results(directory: Path, tmp_path: Path, engine: ReferenceEngine) -> list[str | None]:
    model = run_in_copy(directory, engine, tmp_path / engine.name.dir).model
    return [e.result for e in model.exchanges if e.reply.call and e.reply.call.name == "Bash"]


@pytest.mark.parametrize(("version", "documented", "expected"), [
    ("2.1.252", False, ["BLOCKED", "BLOCKED", "RESUMED", "NEW"]),  # measured: lives as long as the process
    ("2.1.252", True, ["BLOCKED", "SAME", "RESUMED", "NEW"]),  # 001: belongs to the skill (its turn)
    ("2.1.257", True, ["BLOCKED", "BLOCKED", "BLOCKED", "NEW"]),  # 000: lives as long as the session
])
def test_s4_skill_hook_lifetime(write_case: CaseWriter, tmp_path: Path, version: str, documented: bool,
                                expected: list[str]) -> None:
    files = {".claude/skills/hooktest/SKILL.md": HOOKTEST, ".claude/skills/hooktest/deny.sh": DENY}
    directory = write_case("life", HEAD.format(id="life", version=version) + LIFETIME_STEPS, files=files)
    engine = ReferenceEngine() if documented else ReferenceEngine(version=version)
    assert bash_results(directory, tmp_path, engine) == expected


def test_a5_reading_refuses_the_call_at_the_cap(write_case: CaseWriter, tmp_path: Path) -> None:
    body = """\
        run: {permission_mode: bypass, env: {CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH: "1"}}
        steps:
          - prompt: Delegate.
            turns:
              - call: {name: Agent, input: {subagent_type: general-purpose, prompt: LEVEL-A, description: d,
                                            run_in_background: false}}
              - say: done
        contexts:
          a:
            opens_with: LEVEL-A
            turns:
              - offered: {tools: {include: [Agent]}}
                call: {name: Agent, input: {subagent_type: general-purpose, prompt: LEVEL-B, description: d,
                                            run_in_background: false}}
              - say: refused
        """
    directory = write_case("cap", HEAD.format(id="cap", version="2.1.252") + textwrap.dedent(body))
    engine = ReferenceEngine()
    model = run_in_copy(directory, engine, tmp_path / engine.name.dir).model
    nested = next(e for e in model.exchanges if e.context == "a" and e.reply.call)
    assert nested.result == "Subagent nesting limit reached (depth 1)" and nested.is_error
    assert nested.problems == []


def test_a6a_reading_drops_agent_hooks_where_the_measurement_applies_them(write_case: CaseWriter,
                                                                          tmp_path: Path) -> None:
    body = """\
        run: {permission_mode: bypass, trusted: true, agent: probe}
        steps:
          - prompt: Run echo SUB.
            turns:
              - call: {name: Bash, input: {command: echo SUB}}
              - say: done
        """
    probe = """\
        ---
        name: probe
        description: Probe.
        hooks:
          PreToolUse:
            - matcher: Bash
              hooks:
                - {type: command, command: bash deny.sh}
        ---
        You are a probe.
        """
    directory = write_case("main-agent", HEAD.format(id="main-agent", version="2.1.252") + textwrap.dedent(body),
                           files={".claude/agents/probe.md": probe, "deny.sh": DENY})
    assert bash_results(directory, tmp_path, ReferenceEngine()) == ["SUB"]
    assert bash_results(directory, tmp_path, ReferenceEngine(version="2.1.252")) == ["BLOCKED"]


@pytest.mark.parametrize(("engine", "listed"), [(ReferenceEngine(), False),
                                                (ReferenceEngine(version="2.1.233"), True)])
def test_e5_reading_leaves_an_undescribed_skill_out_of_the_listing(
        write_case: CaseWriter, tmp_path: Path, engine: ReferenceEngine, listed: bool) -> None:
    body = """\
        run: {permission_mode: bypass}
        steps:
          - prompt: Anything.
            turns:
              - offered: {context: {%s: [LISTTEST BODY]}}
                say: done
        """ % ("include" if listed else "exclude")
    directory = write_case("e5", HEAD.format(id="e5", version="2.1.233") + textwrap.dedent(body),
                           files={".claude/skills/listtest/SKILL.md": "---\nname: listtest\n---\nLISTTEST BODY\n"})
    model = run_in_copy(directory, engine, tmp_path / engine.name.dir).model
    assert model.exchanges[0].problems == []


@pytest.mark.parametrize(("engine", "result"), [(ReferenceEngine(), "Execute skill: camel"),
                                                (ReferenceEngine(version="2.1.257"), "Launching skill: camel")])
def test_s6_reading_reads_camel_case_allowed_tools(write_case: CaseWriter, tmp_path: Path,
                                                   engine: ReferenceEngine, result: str) -> None:
    body = """\
        run: {permission_mode: default}
        steps:
          - prompt: Invoke camel.
            turns:
              - call: {name: Skill, input: {skill: camel}}
              - say: done
        """
    directory = write_case("s6", HEAD.format(id="s6", version="2.1.257") + textwrap.dedent(body),
                           files={".claude/skills/camel/SKILL.md": "---\ndescription: d\nallowedTools: Read\n---\nx\n"})
    assert run_in_copy(directory, engine, tmp_path / engine.name.dir).model.exchanges[0].result == result
