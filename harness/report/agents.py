"""The reports' agents section: which parts of a setup each engine honours, side by side.

One row per part a setup has (skills, subagents, tools, hooks, and definitions that come from a plugin), one
column per engine of the records; a cell counts the cases that reach that part (as caller or callee of their
combination, or through their ``sources``) by status. Read from the records alone: a part a family cannot be
given (not-modelled, with its reason in the record) shows as such, never as a pass.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from harness.case.spec import PARTS
from harness.engine_name import EngineName
from harness.outcome import WORST_FIRST, Status
from harness.report import escape
from harness.results import Record

#: The rows: the four parts, then what comes from a plugin (a source, not a part).
ROWS = (*PARTS, "plugin")


@dataclass(frozen=True, kw_only=True)
class AgentsTable:
    engines: tuple[EngineName, ...]
    cells: dict[tuple[str, EngineName], Counter[Status]]
    """(row, engine) -> the statuses of the cases reaching that row's part on that engine."""

    def cell(self, row: str, engine: EngineName) -> str:
        counts = self.cells.get((row, engine))
        if not counts:
            return "·"
        return " · ".join(f"{counts[s]} {s.value}" for s in WORST_FIRST if counts[s])


def parts_of(record: Record) -> set[str]:
    """The rows a record's case reaches: both sides of its combination, and ``plugin`` when a source is one."""
    sides = {side.strip() for side in record.combination.split("->") if side.strip()}
    reached = {side for side in sides if side in PARTS}
    if "plugin" in record.sources:
        reached.add("plugin")
    return reached


def table(records: Sequence[Record], engines: Sequence[EngineName]) -> AgentsTable | None:
    """The table of ``records`` with ``engines`` as its columns; None unless the records compare two engine
    families or more besides the reference engine (one family's grid says it all)."""
    families = {e.family for e in engines} - {"reference"}
    if len(families) < 2:
        return None
    cells: dict[tuple[str, EngineName], Counter[Status]] = {}
    for record in records:
        for row in parts_of(record):
            cells.setdefault((row, record.engine), Counter())[record.status] += 1
    return AgentsTable(engines=tuple(engines), cells=cells)


def markdown_lines(t: AgentsTable | None) -> list[str]:
    if t is None:
        return []
    lines = [
        "",
        "## Agents",
        "",
        "Which parts of a setup each engine honours: per part, the cases that reach it, by status (not-modelled:",
        "the engine cannot be given that part of the case; its record says why).",
        "",
        "| part | " + " | ".join(escape.markdown(e.text()) for e in t.engines) + " |",
        "|---" * (len(t.engines) + 1) + "|",
    ]
    lines += [f"| {row} | " + " | ".join(t.cell(row, e) for e in t.engines) + " |" for row in ROWS]
    return lines


def html_section(t: AgentsTable | None) -> str:
    if t is None:
        return ""
    head = "".join(f"<th>{escape.html(e.text())}</th>" for e in t.engines)
    rows = "".join(
        f"<tr><td>{escape.html(row)}</td>" + "".join(f"<td>{escape.html(t.cell(row, e))}</td>" for e in t.engines)
        + "</tr>"
        for row in ROWS
    )
    return (
        '<h2 id="agents">Agents</h2><p>Which parts of a setup each engine honours: per part, the cases that reach'
        f" it, by status.</p><table><tr><th>part</th>{head}</tr>{rows}</table>"
    )
