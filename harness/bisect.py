"""``cc-harness bisect``: the first published release whose outcome for a case differs from a good one's.

The outcome of a case on a version (the whole case, or one field) is defined in harness/run_outcome.py,
once, for bisect and the timeline alike.

The search is git bisect's over the registry's release versions between ``--good`` and ``--bad``: one
probe per halving, so about log2(n) installs. A case that is intermittent on some engine (its
expectations say ``intermittent: true``) is run up to ``retries`` times per version, and a version counts
as unchanged as soon as one run reproduces an outcome seen on the good version; a run without a verdict
(timeout, crash, API fault, not-modelled) is retried the same way, and a version that never gives one is
skipped, as ``git bisect skip`` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from harness.case import Case
from harness.engine_name import EngineName
from harness.engines.install import binary_path
from harness.errors import UsageError
from harness.expectations import Expectations, KnownDifference
from harness.results import Record
from harness.run_outcome import AS_DOCUMENTED, FieldError, Outcome, field_value, outcome_of
from harness.runner import run_named

#: Runs beyond the attempts a version may take when runs give no verdict (a timeout on a loaded machine).
_ERROR_RETRIES = 2


def is_intermittent(case_id: str, listed: Iterable[dict[str, list[KnownDifference]]]) -> bool:
    """Whether any engine's expectations (one mapping per expectations file) mark a difference of this
    case intermittent."""
    return any(k.intermittent for known in listed for k in known.get(case_id, ()))


@dataclass(frozen=True)
class Probe:
    """One version's runs of the case."""

    version: str
    outcomes: tuple[Outcome, ...]
    installed: bool
    """The version was installed for this probe (it was not in the cache)."""
    records: tuple[Record, ...] = ()
    """The runs, for their transcripts (a documented field's value shown beside a changed one)."""

    @property
    def judged(self) -> tuple[Outcome, ...]:
        return tuple(o for o in self.outcomes if o.judged)

    @property
    def typical(self) -> Outcome:
        """The outcome to show: the most frequent judged one, else the first run's."""
        counts = Counter(self.judged)
        return counts.most_common(1)[0][0] if counts else self.outcomes[0]


@dataclass(frozen=True)
class Sides:
    """What tells the old behaviour from the new: the outcomes only the good version showed, and those
    only the bad one showed (an intermittent good version may show the new outcome too, now and then)."""

    old_only: frozenset[Outcome]
    new_only: frozenset[Outcome]

    @classmethod
    def of(cls, good: Probe, bad: Probe) -> Sides:
        return cls(old_only=frozenset(good.judged) - set(bad.judged), new_only=frozenset(bad.judged) - set(good.judged))

    @property
    def differ(self) -> bool:
        return bool(self.old_only or self.new_only)

    def settled(self, outcomes: Iterable[Outcome]) -> bool | None:
        """True: an old-only outcome was seen (the old behaviour is still there); False: a new-only one was,
        where the good version had nothing of its own; None: not yet known."""
        seen = set(outcomes)
        if self.old_only:
            return True if seen & self.old_only else None
        return False if seen & self.new_only else None

    def same(self, p: Probe) -> bool:
        """After every attempt: unchanged unless the old-only outcomes never showed (or a new-only one did)."""
        settled = self.settled(p.judged)
        return settled if settled is not None else not self.old_only


@dataclass
class Bisection:
    """The state and the answer of one bisect."""

    case: str
    path: str | None
    good: str
    bad: str
    probes: list[Probe] = field(default_factory=list)
    last_same: str | None = None
    first_different: str | None = None
    skipped: list[str] = field(default_factory=list)
    problem: str | None = None
    """Why there is no answer (good and bad agree; a version never gave a verdict)."""

    @property
    def installs(self) -> int:
        return sum(p.installed for p in self.probes)

    def probe_of(self, version: str | None) -> Probe | None:
        return next((p for p in self.probes if p.version == version), None)


Runner = Callable[[str], tuple[Record, bool]]
"""Runs the case once on ``claude@VERSION``: its record, and whether the version had to be installed."""


def probe(version: str, run: Runner, *, path: str | None, attempts: int, sides: Sides | None) -> Probe:
    """Run the case until it has ``attempts`` verdicts (1 for a case that is not intermittent), stopping
    early once ``sides`` can tell old from new; runs without a verdict are retried, at most twice more in
    all. The good and the bad version (``sides`` None) get all their attempts: their outcomes are what the
    others are compared with."""
    outcomes: list[Outcome] = []
    records: list[Record] = []
    installed = False
    for _ in range(attempts + _ERROR_RETRIES):
        record, fresh = run(version)
        installed = installed or fresh
        outcome = outcome_of(record, path)
        outcomes.append(outcome)
        records.append(record)
        if sides is not None and sides.settled([outcome] if outcome.judged else []) is not None:
            break
        if sum(o.judged for o in outcomes) >= attempts:
            break
    return Probe(version=version, outcomes=tuple(outcomes), installed=installed, records=tuple(records))


def _value_in(p: Probe, at: str) -> str:
    """What the typical run of ``p`` had at the case-file field ``at``: the observed difference, else the
    transcript's value where the field names one, else ``(as documented)``."""
    typical = p.typical
    shown_here = dict(typical.observed)
    if at in shown_here:
        return shown_here[at]
    record = next((r for r, o in zip(p.records, p.outcomes, strict=True) if o == typical), None)
    if record is None:
        return AS_DOCUMENTED
    try:
        return field_value(record, at)
    except FieldError:
        return AS_DOCUMENTED


def bisect(
    versions: Sequence[str],
    run: Runner,
    *,
    case: str,
    path: str | None,
    attempts: int,
    report: Callable[[Probe, str], None] = lambda probe, verdict: None,
) -> Bisection:
    """Find the first version of ``versions`` (good first, bad last) whose outcome is not good's."""
    result = Bisection(case=case, path=path, good=versions[0], bad=versions[-1])

    def take(version: str, sides: Sides | None, *, role: str = "") -> Probe:
        p = probe(version, run, path=path, attempts=attempts, sides=sides)
        result.probes.append(p)
        if sides is None or not p.judged:
            verdict = role if p.judged else "no verdict"
        else:
            verdict = "same" if sides.same(p) else "different"
        report(p, verdict)
        return p

    good = take(versions[0], None, role="good")
    if not good.judged:
        result.problem = f"the good version {versions[0]} gave no verdict ({good.outcomes[0].status})"
        return result
    bad = take(versions[-1], None, role="bad")
    if not bad.judged:
        result.problem = f"the bad version {versions[-1]} gave no verdict ({bad.outcomes[0].status})"
        return result
    sides = Sides.of(good, bad)
    if not sides.differ:
        result.problem = f"{versions[0]} and {versions[-1]} agree: nothing to bisect"
        return result
    lo, hi = 0, len(versions) - 1
    while hi - lo > 1:
        p = None
        for mid in _midpoints(lo, hi):
            p = take(versions[mid], sides)
            if p.judged:
                break
            result.skipped.append(versions[mid])
            p = None
        if p is None:  # every version between gave no verdict
            break
        if sides.same(p):
            lo = mid
        else:
            hi = mid
    result.last_same, result.first_different = versions[lo], versions[hi]
    if hi - lo > 1:
        between = f"the change lies between {versions[lo]} and {versions[hi]}"
        result.problem = f"no verdict from {', '.join(result.skipped)}: {between}"
    return result


def _midpoints(lo: int, hi: int) -> Iterator[int]:
    """The middle of (lo, hi), then its neighbours outward: where to probe when a version is skipped."""
    mid = (lo + hi) // 2
    yield mid
    for step in range(1, hi - lo):
        for candidate in (mid + step, mid - step):
            if lo < candidate < hi:
                yield candidate


def releases_between(published: Sequence[str], good: str, bad: str) -> list[str]:
    """The published release versions from ``good`` to ``bad``, both included."""
    missing = [v for v in (good, bad) if v not in published]
    if missing:
        raise UsageError(f"not a published release version: {', '.join(missing)}")
    lo, hi = published.index(good), published.index(bad)
    if lo >= hi:
        raise UsageError(f"--good {good} must be older than --bad {bad}")
    return list(published[lo : hi + 1])


def describe(result: Bisection) -> list[str]:
    """The answer as text: the two versions and their outcomes side by side."""
    if result.first_different is None or result.last_same is None:
        return [f"no answer: {result.problem}"]
    lines = [f"last same: {result.last_same}, first different: {result.first_different}"]
    if result.problem:
        lines.append(f"note: {result.problem}")
    old = result.probe_of(result.last_same)
    new = result.probe_of(result.first_different)
    if old is None or new is None:
        return lines
    lines += _side_by_side(old, new)
    lines.append(f"{len(result.probes)} probes, {result.installs} installs")
    return lines


def _side_by_side(old: Probe, new: Probe) -> list[str]:
    """Each field whose value differs, with the old and the new value under each other."""
    a, b = old.typical, new.typical
    fields = list(dict.fromkeys([at for at, _ in a.observed] + [at for at, _ in b.observed]))
    lines = []
    if a.status != b.status and a.status != "field":
        lines.append(f"  status: {old.version}: {a.status}  |  {new.version}: {b.status}")
    for at in fields:
        before, after = _value_in(old, at), _value_in(new, at)
        if before == after:
            continue
        lines.append(f"  {at}")
        lines.append(f"    {old.version}: {before}")
        lines.append(f"    {new.version}: {after}")
    return lines


def selected_case(cases: Sequence[Case], case_id: str) -> Case:
    for case in cases:
        if case.id == case_id:
            return case
    raise UsageError(f"no case {case_id!r} in the suite")


def recording(run: Runner, keep: Callable[[Record], None]) -> Runner:
    """``run``, handing every record to ``keep`` as well (a results file's writer)."""

    def recorded(version: str) -> tuple[Record, bool]:
        record, fresh = run(version)
        keep(record)
        return record, fresh

    return recorded


def live_runner(case: Case, expectations: Expectations) -> Runner:
    """Runs ``case`` on ``claude@V`` for real (installing V first when the cache lacks it)."""

    def run(version: str) -> tuple[Record, bool]:
        fresh = not binary_path(version).is_file()
        # a harness bug is a run without a verdict (run_named's fault), not the end of the search
        return run_named(case, EngineName.claude(version), expectations=expectations), fresh

    return run
