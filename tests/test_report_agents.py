"""The agents section of the reports: per part of a setup, each engine's cases by status, from the records."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import pytest

from harness import baseline
from harness.case import Case, discover_cases, load_case
from harness.checks import DEBUG_LOG_AT
from harness.engine_name import EngineName
from harness.engines import make_engine
from harness.errors import UsageError
from harness.expectations import Expectations
from harness.outcome import Status
from harness.report import html, markdown
from harness.reporting import agents as agents_table
from harness.reporting import model_of
from harness.reporting.agents import ALL, MCP, setup_rows
from harness.reporting.recorded import record_of, recorded
from harness.results import Record
from harness.snapshots import path_for
from tests.conftest import SUITE, CaseWriter


def _record(case: str, engine: str, status: Status, combination: str, sources: str = "") -> Record:
    return Record(
        case=case, engine=EngineName.parse(engine), status=status, combination=combination, claims=(), flags=(),
        duration=1.0,
        sources=sources,
    )


RECORDS = [
    _record("a", "claude@2.1.332", Status.PASS, "skill -> hook"),
    _record("a", "qwen@0.24.4", Status.KNOWN, "skill -> hook"),
    _record("b", "claude@2.1.332", Status.PASS, "skill -> tool", sources="plugin -> project"),
    _record("b", "qwen@0.24.4", Status.NOT_MODELLED, "subagent -> tool", sources="plugin -> project"),
    _record("b", "reference@2.1.332", Status.PASS, "subagent -> tool", sources="plugin -> project"),
]
ENGINES = [EngineName.parse(e) for e in ("reference@2.1.332", "claude@2.1.332", "qwen@0.24.4")]


def test_each_part_counts_the_cases_reaching_it_per_engine_by_status() -> None:
    t = agents_table.table(RECORDS, ENGINES)
    assert t is not None
    assert t.cell("skill", ENGINES[2]) == "1 known"
    assert t.cell("hook", ENGINES[1]) == "1 pass"
    assert t.cell("plugin", ENGINES[2]) == "1 not-modelled"
    assert t.cell("subagent", ENGINES[1]) == "·"  # no case of its reaches a subagent
    assert t.cell("tool", ENGINES[2]) == "1 not-modelled"


def test_the_section_is_in_both_reports_only_when_two_families_besides_the_reference_compare() -> None:
    assert "## Agents" in markdown.render(model_of(RECORDS))
    assert 'id="agents"' in html.render(model_of(RECORDS))
    claude_only = [r for r in RECORDS if r.engine.family != "qwen"]
    assert agents_table.table(claude_only, ENGINES[:2]) is None
    assert "## Agents" not in markdown.render(model_of(claude_only))
    assert 'id="agents"' not in html.render(model_of(claude_only))


# -- another agent's column, rebuilt from the repository (harness/reporting/recorded.py) ------------------

CODEX = "codex@0.171.0"
#: A case Codex runs, whose one known difference on it is listed (expectations/codex-0.171.0.yaml).
KNOWN_ON_CODEX = "engine-isolation-a-hook-deny"


def _case(case_id: str) -> Case:
    found = load_case(SUITE.cases / case_id, catalogue=SUITE.catalogue)
    assert isinstance(found, Case)
    return found


def test_a_committed_snapshot_is_judged_by_todays_case_and_the_engines_expectations(tmp_path: Path) -> None:
    case, engine = _case(KNOWN_ON_CODEX), make_engine(CODEX)
    listed = Expectations(root=SUITE.expectations).listed(EngineName.parse(CODEX), case.id)
    assert listed  # the snapshot shows a listed difference: known with the expectations file, a failure without
    known = record_of(case, engine, snapshot_root=SUITE.snapshots, expectations=Expectations(root=SUITE.expectations))
    assert known is not None and known.status is Status.KNOWN
    assert {f.at for f in known.findings} == {k.at for k in listed}
    empty = tmp_path / "expectations"
    empty.mkdir()
    unlisted = record_of(case, engine, snapshot_root=SUITE.snapshots, expectations=Expectations(root=empty))
    assert unlisted is not None and unlisted.status is Status.FAIL


def test_a_case_the_adapter_cannot_say_is_not_modelled_with_its_reasons_and_one_with_no_snapshot_unrecorded(
    tmp_path: Path,
) -> None:
    several = next(c for c in _cases() if len(c.steps) > 1)
    expectations = Expectations(root=SUITE.expectations)
    (got,) = recorded([several, _case(KNOWN_ON_CODEX)], [EngineName.parse(CODEX)], snapshot_root=tmp_path,
                      expectations=expectations)
    assert [(r.case, r.status) for r in got.records] == [(several.id, Status.NOT_MODELLED)]
    assert got.records[0].fault is not None and "prompts" in got.records[0].fault.message
    assert got.unrecorded == (KNOWN_ON_CODEX,)  # no snapshot under tmp_path


def test_a_case_an_agent_sdk_cannot_script_is_not_modelled_without_a_run(tmp_path: Path) -> None:
    """The sdk-ts adapter refuses approvals and planned API faults before it starts the SDK: the grid knows it."""
    approvals = next(c for c in _cases() if c.approvals is not None)
    faults = next(c for c in _cases() if c.run.api_faults)
    plain = _case(KNOWN_ON_CODEX)
    expectations = Expectations(root=SUITE.expectations)
    engines = [EngineName.parse("sdk-ts@0.3.333")]
    (got,) = recorded([approvals, faults, plain], engines, snapshot_root=tmp_path, expectations=expectations)
    assert [(r.case, r.status) for r in got.records] == [(c.id, Status.NOT_MODELLED) for c in (approvals, faults)]
    messages = [r.fault.message if r.fault else "" for r in got.records]
    assert "approvals:" in messages[0] and "run.api_faults:" in messages[1]
    assert got.unrecorded == (plain.id,)  # no snapshot under tmp_path


def test_a_case_whose_fixture_links_out_is_a_case_error_of_its_own_not_the_end_of_the_report(
    tmp_path: Path, write_case: CaseWriter
) -> None:
    """A translated agent's column copies each case's fixture: a link out of a case folder (a pull request adding
    ``leak.txt -> /etc/hostname``) makes that case a case-error naming the link, and the other cases are judged."""
    directory = write_case("evil", "id: evil\ntitle: t\nsteps:\n  - prompt: Hi.\n    turns: [{say: hi}]\n")
    (directory / ".claude").mkdir()
    (directory / ".claude" / "leak.txt").symlink_to("/etc/hostname")
    evil, plain = load_case(directory), _case(KNOWN_ON_CODEX)
    (got,) = recorded([evil, plain], [EngineName.parse(CODEX)], snapshot_root=SUITE.snapshots,
                      expectations=Expectations(root=SUITE.expectations))
    assert [(r.case, r.status) for r in got.records] == [("evil", Status.CASE_ERROR), (plain.id, Status.KNOWN)]
    fault = got.records[0].fault
    assert fault is not None and "leak.txt" in fault.message and "links outside the fixture" in fault.message


@pytest.mark.parametrize("content", [b"not json", b"\xff\xfe", b"[1, 2]"])
def test_a_snapshot_that_is_not_a_transcript_is_one_line_naming_its_file(tmp_path: Path, content: bytes) -> None:
    case = _case(KNOWN_ON_CODEX)
    path = path_for(tmp_path, EngineName.parse(CODEX), case.id)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    with pytest.raises(UsageError) as err:
        record_of(case, make_engine(CODEX), snapshot_root=tmp_path, expectations=Expectations(root=SUITE.expectations))
    assert str(err.value).startswith(f"{path}: not a snapshot") and "\n" not in str(err.value)


def test_a_known_difference_found_in_the_debug_log_is_left_to_live_runs() -> None:
    """A snapshot holds no debug log: an entry found there would be taken for stale (a failure)."""
    expectations = Expectations(root=SUITE.expectations)
    for name in ("qwen@0.24.4", "codex@0.171.0", "opencode@1.18.33"):
        engine = make_engine(name)
        for case_id, entries in expectations.for_engine(engine.name).items():
            if any(k.at == DEBUG_LOG_AT for k in entries) and path_for(SUITE.snapshots, engine.name, case_id).is_file():
                got = record_of(_case(case_id), engine, snapshot_root=SUITE.snapshots, expectations=expectations)
                assert got is not None and DEBUG_LOG_AT not in {f.at for f in got.findings}, got.explain()
                return
    pytest.skip("no agent version lists a debug-log difference of a case it has a snapshot of")


def test_hook_events_and_mcp_are_rows_of_their_own() -> None:
    mcp_case = next(c for c in _cases() if (c.directory / ".mcp.json").is_file())
    assert MCP in setup_rows(mcp_case)
    deny = _case("tool-hook-pretooluse-deny")
    assert "hook: PreToolUse" in setup_rows(deny)
    record = _record(deny.id, "qwen@0.24.4", Status.KNOWN, "tool -> hook")
    t = agents_table.table([record], ENGINES, setup={deny.id: setup_rows(deny)}, unrecorded={ENGINES[1]: 3})
    assert t is not None
    assert t.cell("hook: PreToolUse", ENGINES[2]) == "1 known"
    assert t.cell(ALL, ENGINES[2]) == "1 known"
    assert "hook: PreToolUse" in t.rows and MCP in t.rows
    shown = markdown.render(model_of([record, _record(deny.id, "claude@2.1.332", Status.PASS, "tool -> hook")],
                                     setup={deny.id: setup_rows(deny)}))
    assert "| hook: PreToolUse | 1 pass | 1 known |" in shown


@functools.cache
def _cases() -> list[Case]:
    return [c for c in discover_cases(SUITE.cases, catalogue=SUITE.catalogue) if isinstance(c, Case)]


def test_check_of_an_agent_takes_a_case_its_adapter_cannot_say_as_unchanged(tmp_path: Path) -> None:
    """`check sdk-ts@V`: an approvals case has no snapshot by design; its baseline is the adapter's not-modelled
    record, and a run's not-modelled record of it (with the conversation so far as detail) is no change."""
    approvals = next(c for c in _cases() if c.approvals is not None)
    engine = EngineName.parse("sdk-ts@0.3.333")
    base = baseline.from_snapshots([approvals], engine=engine, snapshot_root=tmp_path, expectations_root=tmp_path)
    assert base.records[approvals.id].status is Status.NOT_MODELLED
    fault = base.records[approvals.id].fault
    assert fault is not None
    run = Record.faulted(approvals, engine=engine, fault=dataclasses.replace(fault, detail="conversation so far: -"))
    (change,) = baseline.changes(base, [run], case_ids=[approvals.id])
    assert not change.changed
    other = Record.faulted(approvals, engine=engine, fault=dataclasses.replace(fault, message="another cause"))
    (change,) = baseline.changes(base, [other], case_ids=[approvals.id])
    assert change.changed  # a not-modelled run for another reason is still a change
