"""The agents section of the reports: per part of a setup, each engine's cases by status, from the records."""

from __future__ import annotations

from harness.engine_name import EngineName
from harness.outcome import Status
from harness.report import html, markdown
from harness.reporting import agents as agents_table
from harness.reporting import model_of
from harness.results import Record


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
