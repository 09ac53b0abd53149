"""Every claim of CLAIMS.md is checked by at least one case; every grid cell has cases."""

from __future__ import annotations

from harness.case import Case
from harness.case.spec import PARTS
from harness.trace import traces, uncovered
from tests.conftest import REPO, SUITE

assert SUITE.catalogue is not None
CATALOGUE = SUITE.catalogue


def test_every_claim_is_covered(committed_cases: list[Case]) -> None:
    missing = uncovered(committed_cases, CATALOGUE)
    assert not missing, f"claims no case checks: {', '.join(missing)}"


def test_every_grid_cell_has_a_case(committed_cases: list[Case]) -> None:
    cells = {(c.combination.caller, c.combination.callee) for c in committed_cases if c.combination}
    empty = [f"{a} -> {b}" for a in PARTS for b in PARTS if (a, b) not in cells]
    assert not empty, f"grid cells without a case: {', '.join(empty)}"


def test_the_catalogue_is_read_in_full() -> None:
    ids = list(CATALOGUE)
    assert ids[:3] == ["S1", "S2", "S3"] and "E6" in ids and "H13" in ids and len(ids) == len(set(ids))


def test_trace_lists_cases_per_claim(committed_cases: list[Case]) -> None:
    rows = {t.claim: t for t in traces(committed_cases, CATALOGUE)}
    assert set(rows) == set(CATALOGUE)
    for case in committed_cases:
        for cid in case.claims:
            assert case.id in rows[cid.rstrip("abcdefgh")].cases


def test_every_snapshot_belongs_to_a_case(committed_cases: list[Case]) -> None:
    """A run selects engines and cases, so syrupy only warns about unused snapshots; orphans fail here."""
    ids = {c.id for c in committed_cases}
    orphans = [str(p.relative_to(REPO)) for p in (REPO / "snapshots").glob("*/*.json") if p.stem not in ids]
    assert not orphans, f"snapshots of no case: {orphans}"
    engines = {p.name for p in (REPO / "snapshots").iterdir() if p.is_dir()}
    assert {"reference", "claude-2.1.252", "claude-2.1.332"} <= engines
