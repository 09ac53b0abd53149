"""What the reports show of a timeline scan: its rows (a behaviour, where it starts and ends) and the scan's extent.

The scan itself (running the cases on every release), the analysis of its records and the bisects behind
the rows are in harness/timeline.py; this model is all the reports need of it, so harness/report/ depends
on no command.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Row:
    """One line of the reports' timeline: a behaviour, where it starts (and ends), what it looks like."""

    behaviour: str
    first: str
    last_same: str
    window_end: str | None
    reverted_in: str | None
    fields: tuple[tuple[str, str], ...]
    """(case, case-file field) pairs that show it, the first being the example."""
    old: str
    new: str


@dataclass(frozen=True, kw_only=True)
class Timeline:
    """What the reports show of a scan."""

    source: str
    versions: tuple[str, ...]
    cases: int
    rows: tuple[Row, ...]
