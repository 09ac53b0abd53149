"""The 4x4 who-calls-whom grid: per engine, each cell's cases counted by status."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from harness.case.spec import ALONE, PARTS
from harness.engine_name import EngineName
from harness.outcome import WORST_FIRST, Status
from harness.results import Record

SYMBOL = {
    Status.PASS: "✅",
    Status.KNOWN: "🟡",
    Status.FAIL: "❌",
    Status.NOT_MODELLED: "◌",
    Status.TIMEOUT: "⏱",
    Status.CRASH: "💥",
    Status.API_FAULT: "📡",
    Status.INSTALL_ERROR: "📦",
    Status.CASE_ERROR: "📝",
    Status.HARNESS_ERROR: "🐞",
}


#: The grid's columns: the callee parts, then the cases about the caller alone (``combination: hook``).
COLUMNS = (*PARTS, ALONE)


def cell_name(caller: str, callee: str) -> str:
    """The record's ``combination`` a cell holds: ``hook -> tool``, or ``hook`` for the ALONE column."""
    return caller if callee == ALONE else f"{caller} -> {callee}"


def cell_label(caller: str, callee: str) -> str:
    """How reports title a cell: ``hook → tool``, or ``hook`` alone."""
    return cell_name(caller, callee).replace(" -> ", " → ")


@dataclass(frozen=True, kw_only=True)
class Cell:
    caller: str
    callee: str
    cases: tuple[str, ...]
    counts: tuple[tuple[Status, int], ...]
    """How many of the cell's cases have each status that occurs, worst first."""

    @property
    def worst(self) -> Status | None:
        return self.counts[0][0] if self.counts else None

    def describe(self, *, symbols: bool = True) -> str:
        """``1 fail · 2 known · 3 pass`` (with a symbol before each)."""
        return " · ".join(f"{SYMBOL[s] + ' ' if symbols else ''}{n} {s.value}" for s, n in self.counts)


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


def render_text(records: Iterable[Record], *, engine: EngineName) -> str:
    """A compact grid for terminals: rows are callers, columns callees, each cell its counts per status."""
    grid = {(c.caller, c.callee): c for c in cells(records, engine=engine)}
    width = max([22, *(len(c.describe(symbols=False)) + 2 for c in grid.values())])
    lines = ["caller ↓ callee →".ljust(18) + "".join(p.ljust(width) for p in COLUMNS)]
    for caller in PARTS:
        row = caller.ljust(18)
        for callee in COLUMNS:
            c = grid[(caller, callee)]
            row += (c.describe(symbols=False) if c.cases else "·").ljust(width)
        lines.append(row.rstrip())
    return "\n".join(lines)
