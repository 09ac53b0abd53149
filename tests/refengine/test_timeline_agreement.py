"""reference@V follows the real engine across each measured change point, not only at the pinned versions.

The timeline's note (docs/timeline/changes.yaml) names each behaviour that changed, its first (and, for a
window, last) release, and the profile row that models it; the profile row must name the same versions.
For every change the committed scan shows (docs/timeline/scan.jsonl, claude on every release) that the
note gives to a profile row, and for every committed bisect of a transcript field (docs/timeline/bisect/),
the reference engine runs the case at the last version before the change and at the first version with
it (for a window, also its last version and the one after), and must give the field the value claude
gave there. A transcript field holds more than the behaviour (the offered tool list, the subagent's token
count the fake API makes up): where the note gives the behaviour a ``marker``, what is compared is whether
the field holds the marker, and claude's values must hold it on exactly one side of the change. A profile
row whose ``since`` is off by one release fails here.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache

import pytest
import yaml

from harness import results, timeline
from harness.case import Case, discover_cases
from harness.engines import make_engine
from harness.results import Record
from harness.run_outcome import outcome_of
from harness.runner import run_case
from harness.versions import version_key
from tests.conftest import EXPECTATIONS, REPO, SUITE

BISECTS = REPO / "docs" / "timeline" / "bisect"
#: The cases the committed scan ran on every release (a whole-case bisect of another case is compared here).
SCANNED = frozenset((REPO / "docs" / "timeline" / "cases.txt").read_text(encoding="utf-8").split())


@dataclass(frozen=True)
class Point:
    """One case-file field or transcript field of one case on one version, as claude answered it."""

    behaviour: str
    case: str
    field: str
    version: str
    claude: str | None
    """claude's value (for a case-file field from the scan: None where it did as the case documents)."""
    transcript: bool
    marker: str | None = None
    """For a transcript field: compare whether the value holds this, not the whole value (the reference
    engine does not model every tool of a list or every word of a frame)."""
    cases_dir: str | None = None
    """The folder of a probe case (docs/timeline/probes), relative to the suite; None: the suite's cases."""


NOTE = timeline.read_note(SUITE.timeline)
MODELLED = {b.name: b for b in NOTE if b.profile}
#: Windows of behaviours no profile row models (the auto-mode classifier's refusals): there reference@V
#: cannot agree with claude@V, so a change point on a version inside one is not compared.
UNMODELLED = [b for b in NOTE if not b.profile and b.last]


def _in_unmodelled_window(case: str, version: str) -> bool:
    v = version_key(version)
    return any(case in b.cases and version_key(b.first) <= v <= version_key(b.last or b.first) for b in UNMODELLED)


def _scan_points() -> list[Point]:
    if SUITE.timeline is None or not SUITE.timeline.is_file():
        return []
    records = results.read(SUITE.timeline).records
    by_run = {(r.case, (r.engine.version or "")): r for r in records}
    label = timeline.note_labeller(list(MODELLED.values()))
    points = []
    for change in timeline.changes(records):
        behaviour = label(change)
        if behaviour is None:
            continue
        around = [change.last_same, change.first_different]
        if change.is_window:
            around += [change.window_end or "", change.reverted_in or ""]
        for version in around:
            if _in_unmodelled_window(change.case, version):
                continue
            claude = dict(outcome_of(by_run[(change.case, version)]).observed).get(change.at)
            points.append(Point(behaviour, change.case, change.at, version, claude, transcript=False))
    return points


def _bisect_points() -> list[Point]:
    points = []
    for path in sorted(BISECTS.glob("*.jsonl")):
        saved = results.read(path)
        options = saved.head["options"]
        field = options.get("field") or timeline.OUTCOME
        behaviour = MODELLED.get(path.stem)
        if behaviour is None:
            continue  # a change no profile row models
        runs = sorted(saved.records, key=lambda r: version_key(r.engine.version or ""))
        if not options.get("field") and not options.get("cases_dir") and runs[0].case in SCANNED:
            continue  # a whole-case bisect of a scanned case: the scan's points compare the field that changed
        values = [((r.engine.version or ""), _value(r, field)) for r in runs]
        for (a, old), (b, new) in itertools.pairwise(values):
            if old != new and _adjacent(a, b):
                case = runs[0].case
                points += [
                    Point(
                        path.stem,
                        case,
                        field,
                        v,
                        value,
                        transcript=True,
                        marker=behaviour.marker,
                        cases_dir=options.get("cases_dir"),
                    )
                    for v, value in ((a, old), (b, new))
                ]
    return points


def _value(record: Record, field: str) -> str:
    """A bisected field's value, or for a whole-case bisect the outcome (a line per difference)."""
    return timeline.bisect_value(record, None if field == timeline.OUTCOME else field)


def _adjacent(a: str, b: str) -> bool:
    from harness.engines.registry import published_versions

    releases = published_versions()
    return releases.index(b) == releases.index(a) + 1


@cache
def _cases(folder: str | None = None) -> dict[str, Case]:
    cases = SUITE.cases if folder is None else SUITE.root / folder
    return {c.id: c for c in discover_cases(cases, catalogue=SUITE.catalogue)}


def _reference(case: str, version: str, folder: str | None = None) -> Record:
    return run_case(_cases(folder)[case], make_engine(f"reference@{version}"), expectations=EXPECTATIONS)


POINTS = _scan_points() + _bisect_points()


def test_the_committed_timeline_has_points_to_check() -> None:
    assert len({p.behaviour for p in POINTS}) >= 5, "the scan and the bisects name the change points checked here"


@pytest.mark.parametrize("behaviour", list(MODELLED.values()), ids=lambda b: b.name)
def test_the_profile_row_names_the_versions_the_note_measured(behaviour: timeline.Behaviour) -> None:
    from harness.refengine.profile_table import CHANGES
    from harness.refengine.profiles import version_text

    rows = [c for c in CHANGES if c.behaviour == behaviour.profile and version_text(c.since) == behaviour.first]
    assert rows, f"no row of {behaviour.profile} starts at {behaviour.first}"
    assert [version_text(r.until) if r.until else None for r in rows] == [behaviour.last]
    assert behaviour.command in rows[0].evidence, "the row's evidence names the command that measured it"


def test_a_marker_tells_the_two_sides_of_its_change_apart() -> None:
    """Where only a marker is compared, claude's value holds it on exactly one side of the change, so a
    profile row one release early or late still fails the comparison."""
    sides: dict[str, list[Point]] = {}
    for p in POINTS:
        if p.marker is not None:
            sides.setdefault(p.behaviour, []).append(p)
    assert sides, "the bisected transcript fields compare a marker"
    for behaviour, points in sides.items():
        for before, after in zip(points[::2], points[1::2], strict=True):
            assert before.marker is not None and before.claude is not None and after.claude is not None
            assert (before.marker in before.claude) != (before.marker in after.claude), (
                f"{behaviour}: {before.marker!r} does not tell claude@{before.version} from claude@{after.version}"
            )


@pytest.mark.parametrize("point", POINTS, ids=lambda p: f"{p.behaviour}-{p.case}-{p.version}-{p.field}")
def test_reference_at_v_agrees_with_claude_at_v_on_the_changed_field(point: Point) -> None:
    record = _reference(point.case, point.version, point.cases_dir)
    assert record.status.value != "not-modelled", record.notes
    ours = _value(record, point.field) if point.transcript else dict(outcome_of(record).observed).get(point.field)
    if point.marker is not None and point.claude is not None and ours is not None:
        held, theirs = point.marker in ours, point.marker in point.claude
        assert held == theirs, f"reference@{point.version} and claude@{point.version}: {point.marker!r} in the field"
        return
    assert ours == point.claude, f"reference@{point.version} and claude@{point.version} differ at {point.field}"


#: A version a reason or a profile row names as the edge of a change.
_EDGE = re.compile(r"\b(?:[Ff]rom|[Uu]p to|[Bb]efore|not in|first in) (\d+\.\d+\.\d+)")
_VAGUE = re.compile(r"lies between|between \d+\.\d+\.\d+ and|the switch lies", re.IGNORECASE)


def _measured_edges() -> set[str]:
    """Every first version of the note and the release just before it (its last same)."""
    from harness.engines.registry import published_versions

    releases = published_versions()
    firsts = {b.first for b in NOTE}
    return firsts | {releases[releases.index(f) - 1] for f in firsts} | {b.last for b in NOTE if b.last}


def test_every_version_an_expectation_reason_names_is_a_measured_change_point() -> None:
    edges = _measured_edges()
    for path in sorted(SUITE.expectations.glob("*.yaml")):
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for case, entries in (raw.get("differences") or {}).items():
            for entry in entries:
                reason = str(entry.get("reason", ""))
                assert not _VAGUE.search(reason), f"{path.name} {case}: {reason}"
                for version in _EDGE.findall(reason):
                    assert version in edges, f"{path.name} {case}: {version} is no change point of the note: {reason}"


#: A command in a row's evidence: a plain cc-harness command (no environment settings, no patch to apply).
_COMMAND = re.compile(r"`cc-harness ")


#: Rows measured on the pinned versions whose change point is not bisected yet: the reference engine abstains
#: between the pins that differ (a row with value None), and each row says "not bisected". The list only shrinks.
UNBISECTED = {"plan_classifier_refusal", "plan_classifier_fallback_after", "memory_loaded_kept_on_resume",
              "memory_loaded_on_write", "instructions_loaded_effort", "hook_on_failure_blocks"}


def test_every_profile_row_names_its_first_version_and_the_command() -> None:
    """Every row, below 2.1.252 too (bisected from 2.1.0 and 2.1.110), says where it starts and which command
    found it."""
    from harness.refengine.profile_table import CHANGES
    from harness.refengine.profiles import version_text

    unbisected = {row.behaviour for row in CHANGES if "first in" not in row.evidence}
    assert unbisected == UNBISECTED, "a row measured on the pins alone is in UNBISECTED, and leaves it once bisected"
    for row in CHANGES:
        if row.behaviour in UNBISECTED:
            continue
        first = version_text(row.since)
        assert not _VAGUE.search(row.evidence), f"{row.behaviour}: {row.evidence}"
        assert f"first in {first}" in row.evidence, f"{row.behaviour} since {first}: {row.evidence}"
        assert _COMMAND.search(row.evidence), f"{row.behaviour}: the evidence names the command that found {first}"
        assert any(b.profile == row.behaviour and b.first == first for b in NOTE), f"{row.behaviour} is in the note"
