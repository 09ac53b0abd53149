"""What the Markdown and HTML reports show, computed once from records: engines, grids, claims.

Everything here is sorted explicitly so two reports from the same records are byte-identical, whatever
order the records were merged in (one run, or the shards of one).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from harness import grid
from harness.claims import Catalogue, claim_order, claim_text
from harness.engines.install import version_key
from harness.outcome import WORST_FIRST, Judgement, Status
from harness.results import Record, totals

#: Flags a grid cell gets a footnote for, and what each means for a reader of the grid.
FOOTNOTE_FLAGS = {
    "silent-fail": "silent fail: a wrong or missing setting gives no error, so the case checks that nothing happens",
    "impossible": "impossible: no part can make this call; the case shows that it does not happen",
    "model-mediated": "model-mediated: the link exists only because the model chose to make the call; "
    "the engine guarantees nothing",
}


def engine_key(engine: str) -> tuple[int, tuple[int, ...], str]:
    """Reference engines first, then claude versions oldest to newest."""
    family, _, version = engine.partition("@")
    rank = {"reference": 0, "claude": 1}.get(family, 2)
    try:
        number = version_key(version) if version else ()
    except ValueError:
        number = ()
    return (rank, number, engine)


def engines_of(records: Iterable[Record]) -> list[str]:
    return sorted({r.engine for r in records}, key=engine_key)


@dataclass(frozen=True, kw_only=True)
class Footnote:
    number: int
    caller: str
    callee: str
    flag: str
    cases: tuple[str, ...]

    @property
    def text(self) -> str:
        return f"{self.caller} → {self.callee}: {FOOTNOTE_FLAGS[self.flag]} ({', '.join(self.cases)})"


@dataclass(frozen=True, kw_only=True)
class EngineGrid:
    engine: str
    totals: dict[Status, int]
    cells: tuple[grid.Cell, ...]
    footnotes: tuple[Footnote, ...]
    outside: tuple[Record, ...]  # cases that check no grid cell (engine and mode claims)

    def notes_for(self, cell: grid.Cell) -> list[Footnote]:
        return [f for f in self.footnotes if (f.caller, f.callee) == (cell.caller, cell.callee)]


def engine_grid(records: Sequence[Record], *, engine: str) -> EngineGrid:
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


@dataclass(frozen=True, kw_only=True)
class ClaimCell:
    verdict: str  # holds | differs | error | not-modelled | none
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
    cells: dict[str, ClaimCell]


def _claim_cell(records: Sequence[Record]) -> ClaimCell:
    if not records:
        return ClaimCell(verdict="none")
    if any(r.status.is_error for r in records):
        return ClaimCell(verdict="error")
    if all(r.status is Status.NOT_MODELLED for r in records):
        return ClaimCell(verdict="not-modelled")
    seen: list[Observation] = []
    stale: list[str] = []
    for r in records:
        for f in r.findings:
            if f.judgement is Judgement.STALE:
                stale.append(r.case)
            else:
                known = f.judgement is not Judgement.UNEXPECTED
                seen.append(Observation(case=r.case, at=f.at, observed=f.observed, known=known, reason=f.reason))
    ordered = tuple(sorted(seen, key=lambda o: (o.case, o.at, o.observed or "")))
    # A claim holds when no case observed a difference; a stale expectation is bookkeeping, not behaviour.
    verdict = "differs" if ordered else "holds"
    return ClaimCell(verdict=verdict, observations=ordered, stale=tuple(sorted(set(stale))))


def claim_rows(records: Sequence[Record], *, engines: Sequence[str], catalogue: Catalogue | None) -> list[ClaimRow]:
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
