"""The differential explorer: every drawn scenario is a valid case, a seed draws the same cases, the
observable comparison ignores only the tools the reference engine does not model, and a short real
exploration runs both engines and writes its results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from harness.case import load_case
from harness.explore.explorer import draw, explore, write_case
from harness.explore.grammar import Scenario, scenarios
from harness.explore.observe import classes, disagreements, observable
from harness.outcome import Fault, Status
from harness.results import Record
from tests.conftest import PINNED

pytestmark = pytest.mark.xdist_group("test_explore")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=scenarios())
def test_every_drawn_scenario_is_a_case_that_loads(
    scenario: Scenario, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("drawn")
    case = load_case(write_case(scenario, folder, "drawn"))
    assert len(case.steps) == len(scenario.steps)
    assert {c.name for c in case.contexts} >= {c.context[0] for s in scenario.steps for c in s.calls if c.context}


def test_a_seed_draws_the_same_cases() -> None:
    assert draw(8, seed=7) == draw(8, seed=7)
    assert draw(8, seed=7) != draw(8, seed=8)


def _record(engine: str, offered: list[str], result: str, status: Status = Status.PASS) -> Record:
    transcript = {
        "exchanges": [
            {"context": "main", "step": 1, "turn": 1, "offered": offered, "call": {"name": "Bash"}, "result": result}
        ],
        "prompts": [{"step": 1, "result": "done", "init_tools": offered}],
        "files": {},
    }
    return _bare(engine, status, transcript=transcript)


def _bare(engine: str, status: Status, **extra: Any) -> Record:
    """A record of case ``c`` with nothing but what the comparison reads."""
    return Record(case="c", engine=engine, status=status, combination="", claims=(), flags=(), duration=0.0, **extra)


def test_tools_the_reference_engine_does_not_model_are_not_a_disagreement() -> None:
    reference = _record("reference@2.1.332", ["Agent", "Bash", "Read"], "HI")
    real = _record("claude@2.1.332", ["Agent", "Bash", "CronCreate", "Read", "ToolSearch"], "HI")
    assert disagreements(reference, real) == []
    assert observable(real)["exchanges"][0]["offered"] == ["Agent", "Bash", "Read"]


def test_a_different_answer_or_a_missing_modelled_tool_is() -> None:
    reference = _record("reference@2.1.332", ["Bash", "Read"], "HI")
    real = _record("claude@2.1.332", ["Bash", "Glob", "Read"], "HELLO")
    found = disagreements(reference, real)
    assert "steps[0].turns[0].result: HI -> HELLO" in found
    assert classes(found) == {
        "steps[*].turns[*].offered (tools only on this side): (none)",
        "steps[*].turns[*].result: HI",
        "prompts[*].init_tools (tools only on this side): (none)",
    }


def test_not_modelled_counts_as_disagreement() -> None:
    fault = Fault(status=Status.NOT_MODELLED, message="reference@2.1.332: run.flags.agents")
    reference = _bare("reference@2.1.332", Status.NOT_MODELLED, fault=fault)
    real = _record("claude@2.1.332", ["Bash"], "HI")
    assert disagreements(reference, real) == ["status: not-modelled (reference@2.1.332: run.flags.agents) -> pass"]


def _failed_in_step_1(engine: str, later: list[dict[str, object]]) -> Record:
    """Both engines' script failure in step 1 (one turn too few), then what each did after it."""
    first = [
        {"context": "main", "step": 1, "turn": 1, "offered": ["Agent"], "call": {"name": "Agent"}, "result": "no"},
        {"context": "main", "step": 1, "turn": 2, "say": "DONE-1"},
    ]
    transcript = {
        "exchanges": [*first, *later],
        "prompts": [],
        "files": {},
        "script_error": "<case>/case.yaml: steps[0]: the engine asked 'main' for turn 3, but the script has 2",
    }
    return _bare(engine, Status.FAIL, transcript=transcript)


def test_after_a_shared_script_failure_no_later_step_is_compared_nor_the_subagents_it_started() -> None:
    # The real engine answers the unscripted request's API error and runs the later prompts (one starts a
    # subagent, whose exchanges carry no step); the reference engine stops. The two agree up to the failure.
    later = [
        {"context": "main", "step": 2, "turn": 1, "call": {"name": "Agent"}, "result": "SUB-DONE"},
        {"context": "task-2", "turn": 1, "offered": ["Bash"], "call": {"name": "Bash"}, "result": "denied"},
        {"context": "task-2", "turn": 2, "say": "SUB-DONE"},
        {"context": "main", "step": 2, "turn": 2, "say": "DONE-2"},
    ]
    reference, real = _failed_in_step_1("reference@2.1.252", []), _failed_in_step_1("claude@2.1.252", later)
    assert disagreements(reference, real) == []
    # what the subagent did inside the failing step is still compared
    inside = [{"context": "task-1", "turn": 1, "offered": ["Bash"], "call": {"name": "Bash"}, "result": "HI"}]
    other = [{**inside[0], "result": "HELLO"}]
    reference = _failed_in_step_1("reference@2.1.252", inside)
    assert disagreements(reference, _failed_in_step_1("claude@2.1.252", other)) != []


def test_a_short_exploration_runs_both_engines_and_keeps_every_record(tmp_path: Path) -> None:
    exploration = explore(version=PINNED[-1], budget=3, seed=11, out=tmp_path, shrink_budget=0)
    assert len(exploration.outcomes) == 3
    assert all(o.real.engine == f"claude@{PINNED[-1]}" and o.real.transcript for o in exploration.outcomes)
    saved = (tmp_path / f"explore-{PINNED[-1]}-seed11.jsonl").read_text(encoding="utf-8")
    assert saved.count('"type": "case"') == 6 and '"complete": true' in saved
