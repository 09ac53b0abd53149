"""What the Markdown and HTML reports show, computed once from records: engines, grids, claims.

Everything here is sorted explicitly so two reports from the same records are byte-identical, whatever
order the records were merged in (one run, or the shards of one).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from harness import grid
from harness.case.spec import PARTS, SOURCES, Sources
from harness.claims import Catalogue, claim_order, claim_text
from harness.engine_name import EngineName
from harness.outcome import WORST_FIRST, Judgement, Status
from harness.results import Record, totals

#: Flags a grid cell gets a footnote for, and what each means for a reader of the grid.
FOOTNOTE_FLAGS = {
    "silent-fail": "silent fail: a wrong or missing setting gives no error, so the case checks that nothing happens",
    "impossible": "impossible: no part can make this call; the case shows that it does not happen",
    "model-mediated": "model-mediated: the link exists only because the model chose to make the call; "
    "the engine guarantees nothing",
}


@dataclass(frozen=True, kw_only=True)
class Footnote:
    number: int
    caller: str
    callee: str
    flag: str
    cases: tuple[str, ...]

    @property
    def text(self) -> str:
        return f"{grid.cell_label(self.caller, self.callee)}: {FOOTNOTE_FLAGS[self.flag]} ({', '.join(self.cases)})"


@dataclass(frozen=True, kw_only=True)
class EngineGrid:
    engine: EngineName
    totals: dict[Status, int]
    cells: tuple[grid.Cell, ...]
    footnotes: tuple[Footnote, ...]
    outside: tuple[Record, ...]  # cases that check no grid cell (engine and mode claims)

    def notes_for(self, cell: grid.Cell) -> list[Footnote]:
        return [f for f in self.footnotes if (f.caller, f.callee) == (cell.caller, cell.callee)]


def engine_grid(records: Sequence[Record], *, engine: EngineName) -> EngineGrid:
    mine = sorted((r for r in records if r.engine == engine), key=lambda r: r.case)
    cells = tuple(grid.cells(mine, engine=engine))
    flags = {r.case: r.flags for r in mine}
    notes: list[Footnote] = []
    for cell in cells:
        for flag in FOOTNOTE_FLAGS:
            flagged = tuple(c for c in cell.cases if flag in flags[c])
            if flagged:
                notes.append(
                    Footnote(number=len(notes) + 1, caller=cell.caller, callee=cell.callee, flag=flag, cases=flagged)
                )
    outside = tuple(r for r in mine if not r.combination)
    return EngineGrid(engine=engine, totals=totals(mine), cells=cells, footnotes=tuple(notes), outside=outside)


def total_columns(grids: Sequence[EngineGrid]) -> list[Status]:
    """The totals table's columns: the conformance outcomes always, then each status that occurs."""
    always = (Status.PASS, Status.KNOWN, Status.FAIL)
    rest = (s for s in reversed(WORST_FIRST) if s not in always and any(g.totals[s] for g in grids))
    return [*always, *rest]


@dataclass(frozen=True, kw_only=True)
class Observation:
    """One observed difference from a claim's documented behaviour."""

    case: str
    at: str
    observed: str | None
    known: bool  # listed in the engine's expectations file
    reason: str | None


class Verdict(StrEnum):
    """A claim's verdict on one engine, over the cases that show it."""

    HOLDS = "holds"  # no case observed a difference
    DIFFERS = "differs"  # a case observed one (known or not)
    ERROR = "error"  # a case ran without a verdict
    NOT_MODELLED = "not-modelled"  # the reference engine abstained on every case
    NONE = "none"  # no case of the claim ran on the engine


@dataclass(frozen=True, kw_only=True)
class ClaimCell:
    verdict: Verdict
    observations: tuple[Observation, ...] = ()
    stale: tuple[str, ...] = ()  # cases whose expectations list a difference no longer observed

    @property
    def unexpected(self) -> bool:
        """Whether an observed difference is missing from the engine's expectations file."""
        return any(not o.known for o in self.observations)


@dataclass(frozen=True, kw_only=True)
class ClaimRow:
    claim: str
    text: str
    cells: dict[EngineName, ClaimCell]


def _claim_cell(records: Sequence[Record]) -> ClaimCell:
    if not records:
        return ClaimCell(verdict=Verdict.NONE)
    if any(r.status.is_error for r in records):
        return ClaimCell(verdict=Verdict.ERROR)
    if all(r.status is Status.NOT_MODELLED for r in records):
        return ClaimCell(verdict=Verdict.NOT_MODELLED)
    seen: list[Observation] = []
    stale: list[str] = []
    for r in records:
        for f in r.findings:
            if f.judgement is Judgement.STALE:
                stale.append(r.case)
            else:
                known = f.judgement is not Judgement.UNEXPECTED
                seen.append(Observation(case=r.case, at=f.at, observed=f.observed, known=known, reason=f.reason))
    # Every field breaks ties: two intermittent entries at one field (a file empty, or absent) must list in
    # one order whatever order the records came in, or the committed report differs run to run.
    ordered = tuple(
        sorted(seen, key=lambda o: (o.case, o.at, o.observed is None, o.observed or "", o.reason or "", o.known))
    )
    # A claim holds when no case observed a difference; a stale expectation is bookkeeping, not behaviour.
    verdict = Verdict.DIFFERS if ordered else Verdict.HOLDS
    return ClaimCell(verdict=verdict, observations=ordered, stale=tuple(sorted(set(stale))))


def claim_rows(
    records: Sequence[Record], *, engines: Sequence[EngineName], catalogue: Catalogue | None
) -> list[ClaimRow]:
    """One row per claim id the records check (``A6a`` and ``A6`` are separate rows)."""
    rows = []
    for claim in claim_order((c for r in records for c in r.claims), catalogue):
        cells = {
            engine: _claim_cell(
                sorted((r for r in records if r.engine == engine and claim in r.claims), key=lambda r: r.case)
            )
            for engine in engines
        }
        rows.append(ClaimRow(claim=claim, text=claim_text(claim, catalogue), cells=cells))
    return rows


# -- sources -----------------------------------------------------------------------------------

#: The column of a grid cell whose parts all come from the project (and of records without ``sources``).
PROJECT = "project"


def source_columns(sources: str) -> tuple[str, ...]:
    """The sources-by-grid columns a record counts in: each source other than the project (and built-ins)
    that one of its parts comes from, or ``project`` when there is none."""
    if not sources:
        return (PROJECT,)
    parsed = Sources.parse(sources)
    found = {s for s in (*parsed.caller, *parsed.callee)} - {PROJECT, "builtin"}
    return tuple(s for s in SOURCES if s in found) or (PROJECT,)


@dataclass(frozen=True, kw_only=True)
class SourceRow:
    caller: str
    callee: str
    cells: dict[str, grid.Cell]
    """Per source column: the cell's cases whose parts come from that source, counted by status."""


@dataclass(frozen=True, kw_only=True)
class SourceGrid:
    """One engine's grid cells by where their parts come from: which cells hold when a part is a plugin's,
    the user's, the command line's or settings.local.json's."""

    engine: EngineName
    columns: tuple[str, ...]
    rows: tuple[SourceRow, ...]


def source_grid(records: Sequence[Record], *, engine: EngineName, columns: Sequence[str]) -> SourceGrid:
    """The grid cells with cases, each split by source column; ``columns`` is the same for every engine."""
    mine = sorted((r for r in records if r.engine == engine and r.combination), key=lambda r: r.case)
    rows = []
    for caller in PARTS:
        for callee in grid.COLUMNS:
            in_cell = [r for r in mine if r.combination == grid.cell_name(caller, callee)]
            if not in_cell:
                continue
            cells = {}
            for column in columns:
                rs = [r for r in in_cell if column in source_columns(r.sources)]
                cells[column] = grid.Cell(caller=caller, callee=callee, cases=tuple(r.case for r in rs),
                                          counts=grid.counts(rs))
            rows.append(SourceRow(caller=caller, callee=callee, cells=cells))
    return SourceGrid(engine=engine, columns=tuple(columns), rows=tuple(rows))


def source_grid_columns(records: Iterable[Record]) -> tuple[str, ...]:
    """The source columns that occur, project first, then as SOURCES orders them."""
    found = {c for r in records if r.combination for c in source_columns(r.sources)}
    return tuple(s for s in SOURCES if s in found)


@dataclass(frozen=True, kw_only=True)
class PrecedenceRow:
    """A clash case: the same name or handler defined in several sources, and what each engine ran."""

    case: str
    kind: str
    """The part whose definitions clash (``skill``, ``subagent``, ``hook``): the callee's when the callee side of
    ``sources`` names several sources, else the caller's; for a case outside the grid what its runs show
    clashing (``MCP server``, ``permission rule``: ``outside_kind``), else ``—``."""
    order: tuple[str, ...]
    """The clashing sources, highest documented precedence first (for hooks: the sources that merge)."""

    def evidence(self, engine: EngineName) -> str:
        """What the engine's run shows: ``ran: user, plugin`` (the markers), or for a permission clash
        ``refused 2 calls``; empty for a run without a verdict."""
        ran = self.ran.get(engine, "")
        return ran if not ran or self.kind == "permission rule" else f"ran: {ran}"

    @property
    def joiner(self) -> str:
        """How the sources combine: ``+`` merged (every hook handler runs, a deny rule of any source binds),
        ``>`` one wins by the documented precedence, ``,`` no documented order (MCP servers: notes §1.3)."""
        return {"hook": " + ", "permission rule": " + ", "skill": " > ", "subagent": " > "}.get(self.kind, ", ")
    cells: dict[EngineName, ClaimCell]
    """Per engine: holds (the documented winner ran), differs (with what the engine did), error, ..."""
    ran: dict[EngineName, str]
    """Per engine: the sources whose definitions left their marker in the run's files (``MARKERS``)."""


#: A clash case's definitions each leave ``FROM-<SOURCE>`` in a file of the working copy when they run (a
#: handler repeated in several files writes ``SAME-HANDLER``): docs/case-format.md, "sources".
MARKERS = re.compile(r"\b(FROM-(?:USER|PROJECT|LOCAL|CLI|PLUGIN)|SAME-HANDLER)\b")


def ran_markers(record: Record) -> str:
    """What a clash case's run left: ``user, plugin`` (the sources whose definitions ran, in SOURCES order),
    ``; SAME-HANDLER x2`` when a repeated handler ran more than once; ``(none)`` for nothing."""
    files = (record.transcript or {}).get("files") or {}
    found = Counter(m for text in files.values() if isinstance(text, str) for m in MARKERS.findall(text))
    sources = [s for s in SOURCES if f"FROM-{s.upper()}" in found]
    same = found.get("SAME-HANDLER", 0)
    text = ", ".join(sources) or "(none)"
    return text + (f"; SAME-HANDLER x{same}" if same else "")


def outside_kind(records: Sequence[Record]) -> str:
    """What clashes in a clash case outside the grid, from what its runs did: ``MCP server`` when a call named
    an ``mcp__`` tool, ``permission rule`` when a prompt's ``permission_denials`` holds a call, else ``—``."""
    transcripts = [r.transcript or {} for r in records]
    calls = {str((x.get("call") or {}).get("name") or "") for t in transcripts for x in t.get("exchanges") or ()}
    if any(name.startswith("mcp__") for name in calls):
        return "MCP server"
    if any(p.get("permission_denials") for t in transcripts for p in t.get("prompts") or ()):
        return "permission rule"
    return "—"


def refused(record: Record) -> str:
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
            kind = outside_kind([r for rs in mine.values() for r in rs])
        cells = {e: _claim_cell(rs) for e, rs in mine.items()}
        # A permission case leaves no markers: what it refused is its evidence.
        shown = refused if kind == "permission rule" else ran_markers
        ran = {e: shown(rs[0]) if rs and not rs[0].status.is_error else "" for e, rs in mine.items()}
        rows.append(PrecedenceRow(case=case, kind=kind, order=side, cells=cells, ran=ran))
    return rows
