"""The claims table: per claim the cases check, its verdict on each engine, with what each case observed.

Everything here is sorted explicitly so two reports from the same records are byte-identical, whatever
order the records were merged in (one run, or the shards of one).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.claims import Catalogue, claim_order, claim_text
from harness.engine_name import EngineName
from harness.outcome import Judgement, Status
from harness.report.model import ClaimCell, ClaimRow, Observation, Verdict
from harness.results import Record


def claim_cell(records: Sequence[Record]) -> ClaimCell:
    """The verdict of ``records`` (one engine's cases of a claim, or one clash case) and what they observed."""
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
            engine: claim_cell(
                sorted((r for r in records if r.engine == engine and claim in r.claims), key=lambda r: r.case)
            )
            for engine in engines
        }
        rows.append(ClaimRow(claim=claim, text=claim_text(claim, catalogue), cells=cells))
    return rows
