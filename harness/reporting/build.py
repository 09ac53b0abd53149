"""The reports' models, each built once from what the harness found: the records (``model_of``), the surface
contract (``compatibility_of``), and the changes between two engines (``changes_by_claim``, ``changes_by_case``).

Here is what the report package itself does not know: the case format's parts, the engines' column order (the
engine families registered in harness/engines/families.py), the claims catalogue, how transcripts align."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from harness.changes import CaseChange
from harness.claims import Catalogue, claim_text
from harness.compare import by_claim, keyed_exchanges, widespread, without
from harness.engine_name import EngineName
from harness.engines.families import engine_key
from harness.outcome import WORST_FIRST
from harness.report.model import CaseRuns, ChangeGroup, ChangeList, Compatibility, Element, ElementKind, Model
from harness.reporting.agents import table as agents_table
from harness.reporting.claims import claim_rows
from harness.reporting.grid import engine_grid, total_columns
from harness.reporting.recorded import Recorded
from harness.reporting.sources import sources_of
from harness.results import Record
from harness.surface.contract import Contract, figures
from harness.surface.model import Kind
from harness.timeline_model import Timeline


def model_of(
    records: Sequence[Record],
    *,
    catalogue: Catalogue | None = None,
    timeline: Timeline | None = None,
    agents: Sequence[Recorded] = (),
    setup: Mapping[str, frozenset[str]] | None = None,
) -> Model:
    """The one model every report of ``records`` renders (Markdown, HTML, JUnit, the GitHub summary).
    ``agents``: other agents' records rebuilt from the repository, for the agents table only (every other
    section is the runs' records); ``setup``: each case's setup rows of that table (reporting/agents.py)."""
    engines = sorted({r.engine for r in records}, key=engine_key)
    others = [r for a in agents for r in a.records]
    columns = sorted({*engines, *(a.engine for a in agents)}, key=engine_key)
    unrecorded = {a.engine: len(a.unrecorded) for a in agents}
    grids = [engine_grid(records, engine=e) for e in engines]
    bad = sorted((r for r in records if r.status.is_bad), key=lambda r: (WORST_FIRST.index(r.status), r.engine, r.case))
    return Model(
        records=tuple(records),
        engines=tuple(engines),
        grids=tuple(grids),
        columns=tuple(total_columns(grids)),
        claims=tuple(claim_rows(records, engines=engines, catalogue=catalogue)),
        attention=tuple(bad),
        sources=sources_of(records, engines=engines),
        timeline=timeline,
        cases=_case_runs(records, engines),
        agents=agents_table([*records, *others], columns, setup=setup, unrecorded=unrecorded),
    )


def _case_runs(records: Sequence[Record], engines: Sequence[EngineName]) -> tuple[CaseRuns, ...]:
    """Per case its records in engine order; failing and erroring cases first, then the rest by id."""
    by_case: dict[str, list[Record]] = {}
    for r in sorted(records, key=lambda r: r.case):
        by_case.setdefault(r.case, []).append(r)
    order = {e: i for i, e in enumerate(engines)}
    runs = []
    for case_id, rs in sorted(by_case.items(), key=lambda kv: (not any(r.status.is_bad for r in kv[1]), kv[0])):
        mine = tuple(sorted(rs, key=lambda r: order[r.engine]))
        keyed = tuple(keyed_exchanges(r.transcript or {}) for r in mine)
        runs.append(CaseRuns(case=case_id, records=mine, exchanges=keyed))
    return tuple(runs)


def compatibility_of(contract: Contract) -> Compatibility:
    """The contract as the reports show it: elements by kind (every kind, in order), and the figures."""
    kinds = {
        kind: ElementKind(
            title=kind.title,
            elements=tuple(
                Element(name=e.name, versions=e.versions, cases=e.cases, listed=e.listed, payload=e.payload)
                for e in contract.of(kind)
            ),
        )
        for kind in Kind
    }
    return Compatibility(
        versions=contract.versions,
        kinds=tuple(kinds.values()),
        hook_events=kinds[Kind.HOOK_EVENT],
        figures=tuple((k.title, v, n, c, u, b) for k, v, n, c, u, b in figures(contract)),
    )


def changes_by_claim(changes: Sequence[CaseChange], catalogue: Catalogue | None) -> ChangeList:
    """``check``'s list: the widespread changes once, then every changed case under each claim it checks."""
    common = widespread(changes)
    groups = by_claim((without(c, common) for c in changes), catalogue)
    return ChangeList(
        compared=tuple(changes),
        widespread=tuple(common),
        groups=tuple(
            ChangeGroup(claim=claim, text=claim_text(claim, catalogue), changes=tuple(group))
            for claim, group in groups
        ),
    )


def changes_by_case(changes: Sequence[CaseChange]) -> ChangeList:
    """``diff``'s list: the widespread changes once, then every case that still differs, in id order."""
    common = widespread(changes)
    rest = tuple(r for r in (without(c, common) for c in changes) if r.changed)
    group = ChangeGroup(claim=None, text="", changes=rest)
    return ChangeList(compared=tuple(changes), widespread=tuple(common), groups=(group,))
