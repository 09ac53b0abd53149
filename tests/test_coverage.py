"""Every claim of CLAIMS.md is checked by at least one case; every grid cell has cases."""

from __future__ import annotations

from pathlib import Path

from harness.case import discover_cases
from harness.case.spec import PARTS
from harness.claims import catalogue
from harness.trace import traces, uncovered

REPO = Path(__file__).resolve().parent.parent


def test_every_claim_is_covered() -> None:
    missing = uncovered(discover_cases(REPO / "cases"))
    assert not missing, f"claims no case checks: {', '.join(missing)}"


def test_every_grid_cell_has_a_case() -> None:
    cells = {(c.combination.caller, c.combination.callee) for c in discover_cases(REPO / "cases") if c.combination}
    empty = [f"{a} -> {b}" for a in PARTS for b in PARTS if (a, b) not in cells]
    assert not empty, f"grid cells without a case: {', '.join(empty)}"


def test_the_catalogue_is_read_in_full() -> None:
    ids = list(catalogue())
    assert ids[:3] == ["S1", "S2", "S3"] and "E6" in ids and "H13" in ids and len(ids) == len(set(ids))


def test_trace_lists_cases_per_claim() -> None:
    cases = list(discover_cases(REPO / "cases"))
    rows = {t.claim: t for t in traces(cases)}
    assert set(rows) == set(catalogue())
    for case in cases:
        for cid in case.claims:
            assert case.id in rows[cid.rstrip("abcdefgh")].cases


def test_every_snapshot_belongs_to_a_case() -> None:
    """A run selects engines and cases, so syrupy only warns about unused snapshots; orphans fail here."""
    ids = {c.id for c in discover_cases(REPO / "cases")}
    orphans = [str(p.relative_to(REPO)) for p in (REPO / "snapshots").glob("*/*.json") if p.stem not in ids]
    assert not orphans, f"snapshots of no case: {orphans}"
    engines = {p.name for p in (REPO / "snapshots").iterdir() if p.is_dir()}
    assert {"reference", "claude-2.1.252", "claude-2.1.332"} <= engines
