"""The 4x4 who-calls-whom grid: per engine, each cell's cases counted by status, with its footnotes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from harness.case.spec import ALONE, PARTS
from harness.engine_name import EngineName
from harness.outcome import WORST_FIRST, Status
from harness.report.model import Cell, EngineGrid, Footnote
from harness.results import Record, totals

#: The grid's columns: the callee parts, then the cases about the caller alone (``combination: hook``).
COLUMNS = (*PARTS, ALONE)

#: Flags a grid cell gets a footnote for, and what each means for a reader of the grid.
_FOOTNOTE_FLAGS = {
    "silent-fail": "silent fail: a wrong or missing setting gives no error, so the case checks that nothing happens",
    "impossible": "impossible: no part can make this call; the case shows that it does not happen",
    "model-mediated": "model-mediated: the link exists only because the model chose to make the call; "
    "the engine guarantees nothing",
}


def cell_name(caller: str, callee: str) -> str:
    """The record's ``combination`` a cell holds: ``hook -> tool``, or ``hook`` for the ALONE column."""
    return caller if callee == ALONE else f"{caller} -> {callee}"


def cell_label(caller: str, callee: str) -> str:
    """How reports title a cell: ``hook → tool``, or ``hook`` alone."""
    return cell_name(caller, callee).replace(" -> ", " → ")


def counts(records: Iterable[Record]) -> tuple[tuple[Status, int], ...]:
    statuses = [r.status for r in records]
    return tuple((s, statuses.count(s)) for s in WORST_FIRST if s in statuses)


def cells(records: Iterable[Record], *, engine: EngineName) -> list[Cell]:
    mine = [r for r in records if r.engine == engine]
    out = []
    for caller in PARTS:
        for callee in COLUMNS:
            rs = [r for r in mine if r.combination == cell_name(caller, callee)]
            out.append(Cell(caller=caller, callee=callee, cases=tuple(r.case for r in rs), counts=counts(rs)))
    return out


def engine_grid(records: Sequence[Record], *, engine: EngineName) -> EngineGrid:
    mine = sorted((r for r in records if r.engine == engine), key=lambda r: r.case)
    grid_cells = tuple(cells(mine, engine=engine))
    flags = {r.case: r.flags for r in mine}
    notes: list[Footnote] = []
    for cell in grid_cells:
        for flag, meaning in _FOOTNOTE_FLAGS.items():
            flagged = tuple(c for c in cell.cases if flag in flags[c])
            if flagged:
                text = f"{cell_label(cell.caller, cell.callee)}: {meaning} ({', '.join(flagged)})"
                notes.append(Footnote(number=len(notes) + 1, caller=cell.caller, callee=cell.callee, text=text))
    return EngineGrid(
        engine=engine,
        totals=totals(mine),
        callers=PARTS,
        callees=COLUMNS,
        cells=grid_cells,
        footnotes=tuple(notes),
        outside=tuple(r for r in mine if not r.combination),
    )


def total_columns(grids: Sequence[EngineGrid]) -> list[Status]:
    """The totals table's columns: the conformance outcomes always, then each status that occurs."""
    always = (Status.PASS, Status.KNOWN, Status.FAIL)
    rest = (s for s in reversed(WORST_FIRST) if s not in always and any(g.totals[s] for g in grids))
    return [*always, *rest]
