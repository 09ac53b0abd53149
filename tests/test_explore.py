"""The differential explorer: every drawn scenario is a valid case, a seed draws the same cases, the
observable comparison ignores only the tools the reference engine does not model, and a short real
exploration runs both engines and writes its results."""

from __future__ import annotations

from pathlib import Path

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
    return Record(
        case="c", engine=engine, status=status, combination="", claims=(), flags=(), duration=0.0, transcript=transcript
    )


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
    reference = Record(
        case="c",
        engine="reference@2.1.332",
        status=Status.NOT_MODELLED,
        combination="",
        claims=(),
        flags=(),
        duration=0.0,
        fault=fault,
    )
    real = _record("claude@2.1.332", ["Bash"], "HI")
    assert disagreements(reference, real) == ["status: not-modelled (reference@2.1.332: run.flags.agents) -> pass"]


def test_a_short_exploration_runs_both_engines_and_keeps_every_record(tmp_path: Path) -> None:
    exploration = explore(version=PINNED[-1], budget=3, seed=11, out=tmp_path, shrink_budget=0)
    assert len(exploration.outcomes) == 3
    assert all(o.real.engine == f"claude@{PINNED[-1]}" and o.real.transcript for o in exploration.outcomes)
    saved = (tmp_path / f"explore-{PINNED[-1]}-seed11.jsonl").read_text(encoding="utf-8")
    assert saved.count('"type": "case"') == 6 and '"complete": true' in saved
