"""The agents table: which parts of a setup each engine honours, side by side.

One row per part a setup has (skills, subagents, tools, hooks, and definitions that come from a plugin), one
column per engine of the records; a cell counts the cases that reach that part (as caller or callee of their
combination, or through their ``sources``) by status. Read from the records alone: a part a family cannot be
given (not-modelled, with its reason in the record) shows as such, never as a pass.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from harness.case.spec import PARTS
from harness.engine_name import EngineName
from harness.outcome import Status
from harness.report.model import AgentsTable
from harness.results import Record

#: The rows: the four parts, then what comes from a plugin (a source, not a part).
ROWS = (*PARTS, "plugin")


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
    return AgentsTable(engines=tuple(engines), rows=ROWS, cells=cells)
