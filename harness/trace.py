"""Traceability: each claim of CLAIMS.md, the cases that check it, and their status per engine."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from harness.case import Case
from harness.claims import Catalogue, base_id
from harness.results import Record


@dataclass(frozen=True, kw_only=True)
class Trace:
    claim: str
    text: str
    cases: tuple[str, ...]
    status: dict[str, dict[str, str]]  # engine -> case id -> status


def traces(cases: list[Case], catalogue: Catalogue, records: Iterable[Record] = ()) -> list[Trace]:
    recs = list(records)
    out = []
    for cid, claim in catalogue.claims.items():
        ids = tuple(c.id for c in cases if cid in {base_id(x) for x in c.claims})
        status: dict[str, dict[str, str]] = {}
        for r in recs:
            if r.case in ids:
                status.setdefault(r.engine.text(), {})[r.case] = r.status.value
        out.append(Trace(claim=cid, text=claim.text, cases=ids, status=status))
    return out


def uncovered_in(rows: Iterable[Trace]) -> list[str]:
    """Claim ids of the traces that have no case."""
    return [t.claim for t in rows if not t.cases]


def uncovered(cases: Iterable[Case], catalogue: Catalogue) -> list[str]:
    """Claim ids no case names (a case naming ``A6a`` covers ``A6``)."""
    return uncovered_in(traces(list(cases), catalogue))


def render_text(rows: list[Trace]) -> str:
    """One block per claim: its id, the first words of its text, then each case with a status per engine."""
    lines = []
    for t in rows:
        mark = "UNCOVERED" if not t.cases else f"{len(t.cases)} case(s)"
        lines.append(f"{t.claim:<4} {mark:<11} {t.text[:90]}")
        for case_id in t.cases:
            statuses = ", ".join(f"{e}={s[case_id]}" for e, s in sorted(t.status.items()) if case_id in s)
            lines.append(f"       {case_id}" + (f"  [{statuses}]" if statuses else ""))
    return "\n".join(lines)
