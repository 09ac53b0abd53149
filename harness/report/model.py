"""What the reports show, as values: Markdown, HTML, JUnit, the GitHub summary and the terminal each render
one of these and compute nothing of their own.

The values are built once from the records by harness/reporting/ (``model_of``, ``compatibility_of``,
``changes_by_claim``, ``changes_by_case``), which knows the rest of the harness: the case format's parts,
the engines' order, the claims catalogue, how transcripts align. This package reads only these values,
the records and the statuses, so it imports nothing above them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from harness.changes import CaseChange, Widespread
from harness.engine_name import EngineName
from harness.outcome import WORST_FIRST, Status
from harness.results import Record
from harness.timeline_model import Timeline

#: A status as the Markdown report and the grids show it.
SYMBOL = {
    Status.PASS: "✅",
    Status.KNOWN: "🟡",
    Status.FAIL: "❌",
    Status.NOT_MODELLED: "◌",
    Status.TIMEOUT: "⏱",
    Status.CRASH: "💥",
    Status.API_FAULT: "📡",
    Status.INSTALL_ERROR: "📦",
    Status.CASE_ERROR: "📝",
    Status.HARNESS_ERROR: "🐞",
}


# -- the who-calls-whom grid -------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Cell:
    caller: str
    callee: str
    cases: tuple[str, ...]
    counts: tuple[tuple[Status, int], ...]
    """How many of the cell's cases have each status that occurs, worst first."""

    @property
    def worst(self) -> Status | None:
        return self.counts[0][0] if self.counts else None

    def describe(self, *, symbols: bool = True) -> str:
        """``1 fail · 2 known · 3 pass`` (with a symbol before each)."""
        return " · ".join(f"{SYMBOL[s] + ' ' if symbols else ''}{n} {s.value}" for s, n in self.counts)


@dataclass(frozen=True, kw_only=True)
class Footnote:
    number: int
    caller: str
    callee: str
    text: str  # ``hook → tool: silent fail: ... (case-a, case-b)``


@dataclass(frozen=True, kw_only=True)
class EngineGrid:
    engine: EngineName
    totals: dict[Status, int]
    callers: tuple[str, ...]  # the rows: the case format's parts
    callees: tuple[str, ...]  # the columns: the parts, then the cases about the caller alone
    cells: tuple[Cell, ...]  # one per (caller, callee), rows first
    footnotes: tuple[Footnote, ...]
    outside: tuple[Record, ...]  # cases that check no grid cell (engine and mode claims)

    def cell(self, caller: str, callee: str) -> Cell:
        return next(c for c in self.cells if (c.caller, c.callee) == (caller, callee))

    def notes_for(self, cell: Cell) -> list[Footnote]:
        return [f for f in self.footnotes if (f.caller, f.callee) == (cell.caller, cell.callee)]


# -- claims ------------------------------------------------------------------------------------


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


# -- sources -----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class SourceRow:
    caller: str
    callee: str
    label: str  # ``hook → tool``, or ``hook`` alone
    cells: dict[str, Cell]
    """Per source column: the cell's cases whose parts come from that source, counted by status."""


@dataclass(frozen=True, kw_only=True)
class SourceGrid:
    """One engine's grid cells by where their parts come from: which cells hold when a part is a plugin's,
    the user's, the command line's or settings.local.json's."""

    engine: EngineName
    columns: tuple[str, ...]
    rows: tuple[SourceRow, ...]


@dataclass(frozen=True, kw_only=True)
class PrecedenceRow:
    """A clash case: the same name or handler defined in several sources, and what each engine ran."""

    case: str
    kind: str
    """The part whose definitions clash (``skill``, ``subagent``, ``hook``): the callee's when the callee side of
    ``sources`` names several sources, else the caller's; for a case outside the grid what its runs show
    clashing (``MCP server``, ``permission rule``), else ``—``."""
    order: tuple[str, ...]
    """The clashing sources, highest documented precedence first (for hooks: the sources that merge)."""
    cells: dict[EngineName, ClaimCell]
    """Per engine: holds (the documented winner ran), differs (with what the engine did), error, ..."""
    ran: dict[EngineName, str]
    """Per engine: the sources whose definitions left their marker in the run's files."""

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


@dataclass(frozen=True, kw_only=True)
class Sources:
    """Where the parts of a grid cell come from: a grid per engine by source, and the clash cases' precedence."""

    columns: tuple[str, ...]
    grids: tuple[SourceGrid, ...]  # one per engine, in the model's engine order
    precedence: tuple[PrecedenceRow, ...]


# -- agents ------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class AgentsTable:
    engines: tuple[EngineName, ...]
    rows: tuple[str, ...]  # the parts, the hook events, MCP, ``plugin`` (a source, not a part), every case
    cells: dict[tuple[str, EngineName], Counter[Status]]
    """(row, engine) -> the statuses of the cases reaching that row's part on that engine."""
    unrecorded: dict[EngineName, int] = field(default_factory=dict)
    """Per engine, the cases it has no record of (an agent version's case never recorded)."""

    def cell(self, row: str, engine: EngineName) -> str:
        counts = self.cells.get((row, engine))
        if not counts:
            return "·"
        return " · ".join(f"{counts[s]} {s.value}" for s in WORST_FIRST if counts[s])


# -- the surface contract ----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Element:
    """A surface element of the contract: the pinned versions that know it, the cases that cover it."""

    name: str
    versions: tuple[str, ...]
    cases: tuple[str, ...]
    listed: str | None  # "unreachable: <reason>" or "backlog" when no case covers it
    payload: dict[str, tuple[str, ...]]  # version -> the hook stdin keys the cases recorded (hook events only)


@dataclass(frozen=True, kw_only=True)
class ElementKind:
    title: str  # "Hook events"
    elements: tuple[Element, ...]


@dataclass(frozen=True, kw_only=True)
class Compatibility:
    """What each pinned release knows and which cases cover it (built from harness/surface/contract.py)."""

    versions: tuple[str, ...]
    kinds: tuple[ElementKind, ...]  # every kind, in the surface's order
    hook_events: ElementKind  # the kind the Markdown report shows in full
    #: (kind title, version, elements, covered, unreachable, backlog) per kind and version
    figures: tuple[tuple[str, str, int, int, int, int], ...]


# -- the model ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CaseRuns:
    """One case's records, one per engine in the model's engine order, as the HTML report's case section shows
    them side by side."""

    case: str
    records: tuple[Record, ...]
    exchanges: tuple[Mapping[str, Mapping[str, Any]], ...]
    """Per record: its transcript's exchanges by the case file's names (``steps[0].turns[1]``)."""


@dataclass(frozen=True, kw_only=True)
class Model:
    records: tuple[Record, ...]
    engines: tuple[EngineName, ...]  # the report's columns, in order
    grids: tuple[EngineGrid, ...]  # one per engine
    columns: tuple[Status, ...]  # the statuses the totals table shows
    claims: tuple[ClaimRow, ...]
    attention: tuple[Record, ...]  # failures and errors, worst first: what a reader of a red run looks for
    sources: Sources | None  # None when every part of every case is the project's
    timeline: Timeline | None
    cases: tuple[CaseRuns, ...]  # failing and erroring cases first, then the rest by id
    agents: AgentsTable | None = None  # None unless two engine families or more besides the reference compare


# -- comparisons (check, diff) -----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ChangeGroup:
    claim: str | None  # the claim the changes check; None: the changes by case
    text: str  # the claim's text from the catalogue ("" without one)
    changes: tuple[CaseChange, ...]  # each without the widespread fields, only those still changed


@dataclass(frozen=True, kw_only=True)
class ChangeList:
    """What ``check`` and ``diff`` print: the changes many cases share once, then the rest by claim or by case."""

    compared: tuple[CaseChange, ...]  # every case compared, whole (the summary line counts them)
    widespread: tuple[Widespread, ...]
    groups: tuple[ChangeGroup, ...]
