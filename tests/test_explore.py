"""The differential explorer: every drawn scenario is a valid case, a seed draws the same cases, the
observable comparison ignores only the tools the reference engine does not model, and a short real
exploration runs both engines and writes its results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from harness.case import load_case
from harness.engine_name import EngineName
from harness.explore.explorer import FALSE_VERDICT, NOT_MODELLED, draw, explore, run_both, write_case
from harness.explore.grammar import scenarios
from harness.explore.observe import classes, disagreements, observable
from harness.explore.scenario import Call, Scenario, Step
from harness.explore.vocabulary import reach
from harness.outcome import Fault, Status
from harness.results import Record
from harness.surface.model import Kind, Surface
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
    name = EngineName.parse(engine)
    return Record(case="c", engine=name, status=status, combination="", claims=(), flags=(), duration=0.0, **extra)


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


def test_the_grammar_draws_only_from_the_engines_surface() -> None:
    # every event, output field, handler option, frontmatter key and built-in tool the grammar can write
    # is one a pinned release knows (its committed surface): nothing is made up
    # (an event's own output field is also written on other events, on purpose: the field is the surface's)
    surfaces = [Surface.from_file(Path("docs/surface") / f"claude-{v}.json") for v in PINNED]
    for kind, names in reach().items():
        known = frozenset().union(*(s.elements[Kind(kind)] for s in surfaces))
        if kind == "hook-output":
            known = known | {f"{event}.{name.split('.')[-1]}" for name in known for event in reach()["hook-event"]}
        if kind == "tool":
            # Agent is the init list's Task; Glob and Grep are offered only where Bash is withheld (case
            # skill-disallowed-search-tools-stay), so the init list the surface reads has neither
            names = {n for n in names if not n.startswith("mcp__")} - {"Nope", "Agent", "Glob", "Grep"}
        assert names <= known, (kind, sorted(names - known))


def test_draws_of_300_reach_every_area_of_the_grammar() -> None:
    # Three seeds, not one: what Hypothesis draws for a seed changes between its releases (seed 3 alone missed
    # the WebFetch domain rule under Hypothesis 6.170 and reached it under 6.155), and the test is about the
    # grammar's reach, not about one release's draw.
    drawn = [s for seed in (3, 4, 5) for s in draw(300, seed=seed)]
    hooks = [h for s in drawn for h in s.hooks]
    calls = {str(c.input.get("file_path") or c.input.get("command") or c.tool) for s in drawn for st in s.steps
             for c in st.calls}
    assert {h.output for h in hooks} >= {"exit1", "block", "continue-false", "suppress", "updated-alone"}
    assert {h.level for h in hooks} == {"user", "project", "local"}
    assert {s.mode for s in drawn} == {"default", "bypass", "acceptEdits", "plan", "dontAsk"}
    assert {"src", "empty.txt", "crlf.txt", "quotes.txt", "git add notes.txt && git push"} <= calls
    assert any(s.memory for s in drawn) and any(s.env for s in drawn) and any(s.mcp for s in drawn)
    assert {r.text for s in drawn for r in s.rules} >= {"Read(//etc/**)", "Read(~/notes.txt)",
                                                        "WebFetch(domain:example.com)", "mcp__srv__ping"}


def test_an_abstention_is_not_modelled_and_the_real_engine_is_not_run(tmp_path: Path) -> None:
    # a Read of a path that starts with ~ is not modelled (the reference does not know the run's HOME): the verdict
    # is not-modelled whatever claude would do, so it is not run
    scenario = Scenario(skills=(), agents=(), hooks=(), rules=(), trusted=True, mode="bypass",
                        steps=(Step(session="new", calls=(Call(tool="Read", input={"file_path": "~/notes.txt"}),)),))
    outcome = run_both(scenario, version=PINNED[-1], workdir=tmp_path, case_id="abstains")
    assert outcome.verdict == NOT_MODELLED and outcome.real is None


def test_an_answer_that_differs_is_a_false_verdict() -> None:
    from harness.explore.explorer import Outcome

    scenario = Scenario(skills=(), agents=(), hooks=(), rules=(), trusted=True, mode="default", steps=())
    reference, real = _record("reference@2.1.332", ["Bash"], "HI"), _record("claude@2.1.332", ["Bash"], "HELLO")
    outcome = Outcome(scenario=scenario, case_id="c", found=disagreements(reference, real), reference=reference,
                      real=real)
    assert outcome.verdict == FALSE_VERDICT


def test_a_short_exploration_runs_both_engines_and_keeps_every_record(tmp_path: Path) -> None:
    exploration = explore(version=PINNED[-1], budget=3, seed=11, out=tmp_path, shrink_budget=0,
                          real_if_abstained=True)
    assert len(exploration.outcomes) == 3
    assert all(o.real.engine.text() == f"claude@{PINNED[-1]}" and o.real.transcript for o in exploration.outcomes)
    saved = (tmp_path / f"explore-{PINNED[-1]}-seed11.jsonl").read_text(encoding="utf-8")
    assert saved.count('"type": "case"') == 6 and '"complete": true' in saved


def _results_file(path: Path, seed: int, real: Record) -> Path:
    """A one-case exploration's results file holding only the real engine's record ``real``."""
    from harness import results_writer

    head = results_writer.header(engines=[f"reference@{PINNED[-1]}", real.engine.text()],
                                 options={"command": "explore", "seed": seed, "budget": 1}, revision="explore")
    with results_writer.Writer(path, head=head) as writer:
        writer.add(real)
    return path


def test_a_real_run_that_timed_out_is_unjudged_not_a_false_verdict(tmp_path: Path) -> None:
    from harness.explore.explorer import rejudge
    from harness.outcome import Fault

    # seed 1's first case is one the reference engine answers; the real run of it timed out
    fault = Fault(status=Status.TIMEOUT, message="step 1 of 1: claude did not finish within the 60 s limit")
    timed_out = Record(case="x1-0000", engine=EngineName.claude(PINNED[-1]), status=Status.TIMEOUT, combination="",
                       claims=(), flags=(), duration=60.0, fault=fault)
    exploration = rejudge([_results_file(tmp_path / "x.jsonl", 1, timed_out)])
    assert exploration.outcomes == []
    assert exploration.verdicts()[FALSE_VERDICT] == 0
    why = "claude: timeout (step 1 of 1: claude did not finish within the 60 s limit)"
    assert exploration.unjudged == {"x1-0000": why}


def test_an_mcp_server_the_real_engine_reports_failed_is_no_measurement() -> None:
    from harness.explore.explorer import UNJUDGED, judged

    scenario = Scenario(skills=(), agents=(), hooks=(), rules=(), trusted=True, mode="default", steps=(), mcp=True)
    reference = _record("reference@2.1.332", ["Bash", "mcp__srv__ping"], "HI")
    real = _record("claude@2.1.332", ["Bash"], "HI")
    assert judged(scenario, "c", reference, real).verdict == FALSE_VERDICT  # tools absent, no failure reported
    real.transcript["prompts"][0]["mcp_servers_failed"] = [{"name": "srv", "status": "failed"}]
    outcome = judged(scenario, "c", reference, real)
    assert outcome.verdict == UNJUDGED and outcome.unjudged == "claude: MCP server(s) srv did not connect"
    reference.transcript["prompts"][0]["mcp_servers_failed"] = [{"name": "srv", "status": "failed"}]
    assert judged(scenario, "c", reference, real).verdict == FALSE_VERDICT  # both failed: judged (offered differs)
