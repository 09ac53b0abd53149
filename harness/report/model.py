"""What the reports show, built once from the records: Markdown, HTML, JUnit and the GitHub summary each
render this model and compute nothing of their own.

The report package reads only this model, the records and the claims catalogue. What needs the rest of
the harness (the engines' column order, which the engine families decide) is given to ``build`` by its
caller: ``harness.reporting.model_of`` builds it for the command and for scripts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from harness.claims import Catalogue
from harness.engine_name import EngineName
from harness.outcome import WORST_FIRST, Status
from harness.report.agents import AgentsTable
from harness.report.agents import table as agents_table
from harness.report.summary import (
    ClaimRow,
    EngineGrid,
    PrecedenceRow,
    SourceGrid,
    claim_rows,
    engine_grid,
    precedence_rows,
    source_grid,
    source_grid_columns,
    total_columns,
)
from harness.results import Record
from harness.timeline_model import Timeline


@dataclass(frozen=True, kw_only=True)
class Sources:
    """Where the parts of a grid cell come from: a grid per engine by source, and the clash cases' precedence."""

    columns: tuple[str, ...]
    grids: tuple[SourceGrid, ...]  # one per engine, in the model's engine order
    precedence: tuple[PrecedenceRow, ...]


@dataclass(frozen=True, kw_only=True)
class Element:
    """A surface element of the contract: the pinned versions that know it, the cases that cover it."""

    name: str
    versions: tuple[str, ...]
    cases: tuple[str, ...]
    listed: str | None  # "unreachable: <reason>" or "backlog" when no case covers it
    payload: dict[str, tuple[str, ...]]  # version -> the hook stdin keys the cases recorded (hook events only)


@dataclass(frozen=True, kw_only=True)
class ElementKind:
    title: str  # "Hook events"
    elements: tuple[Element, ...]


@dataclass(frozen=True, kw_only=True)
class Compatibility:
    """What each pinned release knows and which cases cover it (built from harness/surface/contract.py)."""

    versions: tuple[str, ...]
    kinds: tuple[ElementKind, ...]  # every kind, in the surface's order
    hook_events: ElementKind  # the kind the Markdown report shows in full
    #: (kind title, version, elements, covered, unreachable, backlog) per kind and version
    figures: tuple[tuple[str, str, int, int, int, int], ...]


@dataclass(frozen=True, kw_only=True)
class Model:
    records: tuple[Record, ...]
    engines: tuple[EngineName, ...]  # the report's columns, in order
    grids: tuple[EngineGrid, ...]  # one per engine
    columns: tuple[Status, ...]  # the statuses the totals table shows
    claims: tuple[ClaimRow, ...]
    attention: tuple[Record, ...]  # failures and errors, worst first: what a reader of a red run looks for
    sources: Sources | None  # None when every part of every case is the project's
    timeline: Timeline | None
    agents: AgentsTable | None = None  # None unless two engine families or more besides the reference compare


def build(
    records: Sequence[Record],
    *,
    engine_key: Callable[[EngineName], tuple[int, tuple[int, ...], str]],
    catalogue: Catalogue | None = None,
    timeline: Timeline | None = None,
) -> Model:
    """The model of ``records``; ``engine_key`` orders the engines (the report's columns)."""
    engines = sorted({r.engine for r in records}, key=engine_key)
    grids = [engine_grid(records, engine=e) for e in engines]
    bad = sorted((r for r in records if r.status.is_bad), key=lambda r: (WORST_FIRST.index(r.status), r.engine, r.case))
    columns = source_grid_columns(records)
    precedence = precedence_rows(records, engines=engines)
    sources = (
        None
        if columns == ("project",) and not precedence
        else Sources(
            columns=columns,
            grids=tuple(source_grid(records, engine=e, columns=columns) for e in engines),
            precedence=tuple(precedence),
        )
    )
    return Model(
        records=tuple(records),
        engines=tuple(engines),
        grids=tuple(grids),
        columns=tuple(total_columns(grids)),
        claims=tuple(claim_rows(records, engines=engines, catalogue=catalogue)),
        attention=tuple(bad),
        sources=sources,
        timeline=timeline,
        agents=agents_table(records, engines),
    )
