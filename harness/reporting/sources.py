"""Where the parts of a grid cell come from: the grid by source per engine, and the clash cases' precedence."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from harness.case.spec import PARTS, SOURCES, Sources
from harness.engine_name import EngineName
from harness.report.model import Cell, PrecedenceRow, SourceGrid, SourceRow
from harness.report.model import Sources as SourcesView
from harness.reporting.claims import claim_cell
from harness.reporting.grid import COLUMNS, cell_label, cell_name, counts
from harness.results import Record

#: The column of a grid cell whose parts all come from the project (and of records without ``sources``).
_PROJECT = "project"


def source_columns(sources: str) -> tuple[str, ...]:
    """The sources-by-grid columns a record counts in: each source other than the project (and built-ins)
    that one of its parts comes from, or ``project`` when there is none."""
    if not sources:
        return (_PROJECT,)
    parsed = Sources.parse(sources)
    found = {s for s in (*parsed.caller, *parsed.callee)} - {_PROJECT, "builtin"}
    return tuple(s for s in SOURCES if s in found) or (_PROJECT,)


def source_grid(records: Sequence[Record], *, engine: EngineName, columns: Sequence[str]) -> SourceGrid:
    """The grid cells with cases, each split by source column; ``columns`` is the same for every engine."""
    mine = sorted((r for r in records if r.engine == engine and r.combination), key=lambda r: r.case)
    rows = []
    for caller in PARTS:
        for callee in COLUMNS:
            in_cell = [r for r in mine if r.combination == cell_name(caller, callee)]
            if not in_cell:
                continue
            cells = {}
            for column in columns:
                rs = [r for r in in_cell if column in source_columns(r.sources)]
                cells[column] = Cell(caller=caller, callee=callee, cases=tuple(r.case for r in rs), counts=counts(rs))
            rows.append(SourceRow(caller=caller, callee=callee, label=cell_label(caller, callee), cells=cells))
    return SourceGrid(engine=engine, columns=tuple(columns), rows=tuple(rows))


def _source_grid_columns(records: Iterable[Record]) -> tuple[str, ...]:
    """The source columns that occur, project first, then as SOURCES orders them."""
    found = {c for r in records if r.combination for c in source_columns(r.sources)}
    return tuple(s for s in SOURCES if s in found)


#: A clash case's definitions each leave ``FROM-<SOURCE>`` in a file of the working copy when they run (a
#: handler repeated in several files writes ``SAME-HANDLER``): docs/case-format.md, "sources".
_MARKERS = re.compile(r"\b(FROM-(?:USER|PROJECT|LOCAL|CLI|PLUGIN)|SAME-HANDLER)\b")


def ran_markers(record: Record) -> str:
    """What a clash case's run left: ``user, plugin`` (the sources whose definitions ran, in SOURCES order),
    ``; SAME-HANDLER x2`` when a repeated handler ran more than once; ``(none)`` for nothing."""
    files = (record.transcript or {}).get("files") or {}
    found = Counter(m for text in files.values() if isinstance(text, str) for m in _MARKERS.findall(text))
    sources = [s for s in SOURCES if f"FROM-{s.upper()}" in found]
    same = found.get("SAME-HANDLER", 0)
    text = ", ".join(sources) or "(none)"
    return text + (f"; SAME-HANDLER x{same}" if same else "")


def _outside_kind(records: Sequence[Record]) -> str:
    """What clashes in a clash case outside the grid, from what its runs did: ``MCP server`` when a call named
    an ``mcp__`` tool, ``permission rule`` when a prompt's ``permission_denials`` holds a call, else ``—``."""
    transcripts = [r.transcript or {} for r in records]
    calls = {str((x.get("call") or {}).get("name") or "") for t in transcripts for x in t.get("exchanges") or ()}
    if any(name.startswith("mcp__") for name in calls):
        return "MCP server"
    if any(p.get("permission_denials") for t in transcripts for p in t.get("prompts") or ()):
        return "permission rule"
    return "—"


def _refused(record: Record) -> str:
    """What a permission clash case's run refused: ``refused 2 calls`` (``permission_denials``)."""
    n = sum(len(p.get("permission_denials") or ()) for p in (record.transcript or {}).get("prompts") or ())
    return f"refused {n} call{'s' if n != 1 else ''}"


def precedence_rows(records: Sequence[Record], *, engines: Sequence[EngineName]) -> list[PrecedenceRow]:
    """One row per clash case (a ``sources`` side naming several sources), by callee part, then case id."""
    clashes: dict[str, tuple[str, tuple[str, ...]]] = {}
    for r in records:
        if not r.sources:
            continue
        parsed = Sources.parse(r.sources)
        caller, _, callee = r.combination.partition(" -> ")
        if len(parsed.callee) > 1:
            clashes[r.case] = (callee or "—", parsed.callee)
        elif len(parsed.caller) > 1:  # one side alone names the definitions that clash: the caller's part
            clashes[r.case] = (caller or "—", parsed.caller)
    order = {part: i for i, part in enumerate(PARTS)}
    rows = []
    for case, (kind, side) in sorted(clashes.items(), key=lambda kv: (order.get(kv[1][0], len(PARTS)), kv[0])):
        mine = {e: [r for r in records if r.engine == e and r.case == case] for e in engines}
        if kind == "—":
            kind = _outside_kind([r for rs in mine.values() for r in rs])
        cells = {e: claim_cell(rs) for e, rs in mine.items()}
        # A permission case leaves no markers: what it refused is its evidence.
        shown = _refused if kind == "permission rule" else ran_markers
        ran = {e: shown(rs[0]) if rs and not rs[0].status.is_error else "" for e, rs in mine.items()}
        rows.append(PrecedenceRow(case=case, kind=kind, order=side, cells=cells, ran=ran))
    return rows


def sources_of(records: Sequence[Record], *, engines: Sequence[EngineName]) -> SourcesView | None:
    """The sources section; None when every part of every case is the project's and nothing clashes."""
    columns = _source_grid_columns(records)
    precedence = precedence_rows(records, engines=engines)
    if columns == ("project",) and not precedence:
        return None
    return SourcesView(
        columns=columns,
        grids=tuple(source_grid(records, engine=e, columns=columns) for e in engines),
        precedence=tuple(precedence),
    )
