"""The 4x4 who-calls-whom grid: each cell's status for one engine, from results records."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from harness.case.spec import PARTS
from harness.results import Record

#: Worst status first: a cell takes the worst status of its cases.
_ORDER = ("error", "fail", "known", "pass", "skipped")
SYMBOL = {"pass": "✅", "known": "🟡", "fail": "❌", "error": "💥", "skipped": "⏭", "none": "·"}


@dataclass(frozen=True, kw_only=True)
class Cell:
    caller: str
    callee: str
    status: str  # one of _ORDER, or "none" when no case covers the cell
    cases: tuple[str, ...]


def cells(records: Iterable[Record], *, engine: str) -> list[Cell]:
    mine = [r for r in records if r.engine == engine]
    out = []
    for caller in PARTS:
        for callee in PARTS:
            rs = [r for r in mine if r.combination == f"{caller} -> {callee}"]
            status = min((r.status for r in rs), key=_ORDER.index, default="none")
            out.append(Cell(caller=caller, callee=callee, status=status, cases=tuple(r.case for r in rs)))
    return out


def render_text(records: Iterable[Record], *, engine: str) -> str:
    """A compact grid for terminals: rows are callers, columns callees, each cell its status and case count."""
    grid = {(c.caller, c.callee): c for c in cells(records, engine=engine)}
    lines = ["caller ↓ callee →".ljust(18) + "".join(p.ljust(11) for p in PARTS)]
    for caller in PARTS:
        row = caller.ljust(18)
        for callee in PARTS:
            c = grid[(caller, callee)]
            row += f"{SYMBOL[c.status]} {c.status} {len(c.cases)}".ljust(11) if c.cases else "· none".ljust(11)
        lines.append(row)
    return "\n".join(lines)
