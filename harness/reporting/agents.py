"""The agents table: which parts of a setup each engine honours, side by side.

One row per part a setup has (skills, subagents, tools, hooks), then the hooks by event, MCP servers and what
comes from a plugin, then every case; one column per engine of the records (and of the other agents'
records the report rebuilds from the repository, harness/reporting/recorded.py). A cell counts the cases that
reach that row by status: a part as caller or callee of their combination, a hook event or MCP when the case's
setup has one (``setup_rows``), a plugin through their ``sources``. Read from the records: a part a family
cannot be given (not-modelled, with its reason in the record) shows as such, never as a pass.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from harness.case import Case
from harness.case.spec import PARTS
from harness.engine_name import EngineName
from harness.outcome import Status
from harness.report.model import AgentsTable
from harness.results import Record
from harness.surface.coverage import case_elements
from harness.surface.model import Kind, element, split

#: The rows after the parts and the hook events: MCP servers, what comes from a plugin (a source, not a part),
#: and every case.
MCP, _PLUGIN, ALL = "MCP", "plugin", "every case"
_HOOK_EVENT = "hook: "


def setup_rows(case: Case) -> frozenset[str]:
    """The rows a case's setup reaches beyond its combination: each hook event its settings or plugins register
    (``hook: PreToolUse``), and MCP when it has a ``.mcp.json`` or calls an ``mcp__`` tool."""
    elements = case_elements(case)
    rows = {_HOOK_EVENT + name for kind, name in map(split, elements) if kind is Kind.HOOK_EVENT}
    folders = (case.directory, *case.fixture_dirs)
    if any((d / ".mcp.json").is_file() for d in folders) or any(
        e.startswith(element(Kind.TOOL, "mcp__")) for e in elements
    ):
        rows.add(MCP)
    return frozenset(rows)


def _rows_of(record: Record, setup: Mapping[str, frozenset[str]]) -> set[str]:
    """The rows a record's case reaches: both sides of its combination, its setup's rows (``setup``: by case
    id), ``plugin`` when a source is one, and the every-case row."""
    sides = {side.strip() for side in record.combination.split("->") if side.strip()}
    reached = {side for side in sides if side in PARTS} | set(setup.get(record.case, ())) | {ALL}
    if _PLUGIN in record.sources:
        reached.add(_PLUGIN)
    return reached


def table(
    records: Sequence[Record],
    engines: Sequence[EngineName],
    *,
    setup: Mapping[str, frozenset[str]] | None = None,
    unrecorded: Mapping[EngineName, int] | None = None,
) -> AgentsTable | None:
    """The table of ``records`` with ``engines`` as its columns; None unless the records compare two engine
    families or more besides the reference engine (one family's grid says it all). ``setup``: each case's
    setup rows (``setup_rows``); ``unrecorded``: per engine, the cases it has no record of."""
    families = {e.family for e in engines} - {"reference"}
    if len(families) < 2:
        return None
    setup = setup or {}
    cells: dict[tuple[str, EngineName], Counter[Status]] = {}
    for record in records:
        for row in _rows_of(record, setup):
            cells.setdefault((row, record.engine), Counter())[record.status] += 1
    events = sorted({row for rows in setup.values() for row in rows if row.startswith(_HOOK_EVENT)})
    return AgentsTable(
        engines=tuple(engines),
        rows=(*PARTS, *events, MCP, _PLUGIN, ALL),
        cells=cells,
        unrecorded=dict(unrecorded or {}),
    )
