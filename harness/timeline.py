"""The timeline: what each case showed on every release, and where it changed.

From the records, per case and per case-file field (``_series``): the value on each version (the
observed string, or ``(as documented)``) and the runs of equal values (``_segments``); a **change** is a
boundary between two runs, and a **window** a run that is neither the first nor the last (a behaviour
that came and went again). A run without a verdict (timeout, crash) leaves a gap and changes nothing.
The records come from a scan (harness/timeline_scan.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness import results
from harness.engine_name import EngineName
from harness.errors import CaseFormatError
from harness.results import Record
from harness.run_outcome import AS_DOCUMENTED, field_value, outcome_of
from harness.timeline_model import Row, Timeline
from harness.versions import version_key
from harness.yamlfile import read_yaml


@dataclass(frozen=True, kw_only=True)
class _Segment:
    """A run of consecutive versions on which a field had one value."""

    value: str
    first: str
    last: str
    versions: int


@dataclass(frozen=True, kw_only=True)
class Change:
    """A boundary between two segments of one case-file field."""

    case: str
    at: str
    last_same: str
    first_different: str
    old: str
    new: str
    window_end: str | None = None
    """For a window (the new value went again): the last version that shows it."""
    reverted_in: str | None = None
    """For a window: the first version after it."""

    @property
    def is_window(self) -> bool:
        return self.window_end is not None


def _version(engine: EngineName) -> str:
    return engine.version or ""


def _series(records: Iterable[Record]) -> dict[tuple[str, str], list[tuple[str, str | None]]]:
    """Per (case, field): the value on each version, oldest first (None: that run gave no verdict).

    Where a version did what the case documents, the value names what the case expects there (from a
    finding of another version), so a change reads ``(as documented: X)`` -> ``Y``."""
    by_case: dict[str, dict[str, Record]] = {}
    expected: dict[tuple[str, str], str] = {}
    for r in records:
        by_case.setdefault(r.case, {})[_version(r.engine)] = r
        for f in r.findings:
            if f.expected is not None:
                expected.setdefault((r.case, f.at), f.expected)
    out: dict[tuple[str, str], list[tuple[str, str | None]]] = {}
    for case, runs in sorted(by_case.items()):
        versions = sorted(runs, key=version_key)
        outcomes = {v: outcome_of(runs[v]) for v in versions}
        fields = list(dict.fromkeys(at for o in outcomes.values() for at, _ in o.observed))
        for at in fields:
            documented = f"{AS_DOCUMENTED[:-1]}: {expected[(case, at)]})" if (case, at) in expected else AS_DOCUMENTED
            values: list[tuple[str, str | None]] = []
            for v in versions:
                o = outcomes[v]
                values.append((v, dict(o.observed).get(at, documented) if o.judged else None))
            out[(case, at)] = values
    return out


def _segments(values: Sequence[tuple[str, str | None]]) -> list[_Segment]:
    """Runs of equal values; versions without a verdict are passed over."""
    out: list[_Segment] = []
    for version, value in values:
        if value is None:
            continue
        if out and out[-1].value == value:
            last = out[-1]
            out[-1] = dataclasses.replace(last, last=version, versions=last.versions + 1)
        else:
            out.append(_Segment(value=value, first=version, last=version, versions=1))
    return out


def changes(records: Iterable[Record]) -> list[Change]:
    """Every change of every field, oldest first; a segment that came and went again is one window."""
    out: list[Change] = []
    for (case, at), values in _series(records).items():
        runs = _segments(values)
        i = 1
        while i < len(runs):
            before, now = runs[i - 1], runs[i]
            after = runs[i + 1] if i + 1 < len(runs) else None
            if after is not None and after.value == before.value:  # came and went: one window
                out.append(
                    Change(
                        case=case,
                        at=at,
                        last_same=before.last,
                        first_different=now.first,
                        old=before.value,
                        new=now.value,
                        window_end=now.last,
                        reverted_in=after.first,
                    )
                )
                i += 2
                continue
            edge = {"last_same": before.last, "first_different": now.first}
            out.append(Change(case=case, at=at, old=before.value, new=now.value, **edge))
            i += 1
    return sorted(out, key=lambda c: (version_key(c.first_different), c.case, c.at))


def scanned_versions(records: Iterable[Record]) -> list[str]:
    return sorted({_version(r.engine) for r in records}, key=version_key)


def _cut(text: str, limit: int) -> str:
    one_line = text.replace("\n", "⏎")
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def describe_change(c: Change) -> str:
    """``2.1.281 (last same 2.1.280)`` or, for a window, ``2.1.281 .. 2.1.290 (gone again in 2.1.291)``."""
    if c.is_window:
        return f"{c.first_different} .. {c.window_end} (last before {c.last_same}, gone again in {c.reverted_in})"
    return f"{c.first_different} (last same {c.last_same})"


def render_text(found: Sequence[Change], *, limit: int = 120, label: Labeller = lambda _: None) -> list[str]:
    """Every change, oldest first: versions, case and field (and the note's behaviour), then the old and
    the new value."""
    if not found:
        return ["no change: every scanned field had one value on every version"]
    lines = []
    for c in found:
        name = label(c)
        lines.append(f"{describe_change(c)}  {c.case}  {c.at}" + (f"  [{name}]" if name else ""))
        lines.append(f"    old: {_cut(c.old, limit)}")
        lines.append(f"    new: {_cut(c.new, limit)}")
    return lines


Labeller = Callable[[Change], str | None]


def rows(found: Sequence[Change], *, label: Labeller = lambda _: None) -> list[Row]:
    """Changes that share a behaviour (``label``) and versions as one row; an unlabelled change is a row
    per case and field. Ordered by first version, then behaviour."""
    groups: dict[tuple[str, str, str | None], list[Change]] = {}
    for c in found:
        name = label(c) or f"{c.case} · {c.at}"
        groups.setdefault((name, c.first_different, c.window_end), []).append(c)
    out = [
        Row(
            behaviour=name,
            first=first,
            last_same=members[0].last_same,
            window_end=end,
            reverted_in=members[0].reverted_in,
            fields=tuple((c.case, c.at) for c in members),
            old=members[0].old,
            new=members[0].new,
        )
        for (name, first, end), members in groups.items()
    ]
    return sorted(out, key=lambda r: (version_key(r.first), r.behaviour))


def load(path: Path | None, *, note: Sequence[Behaviour] = ()) -> Timeline | None:
    """The timeline of a scan's results file (None when there is none): its changes, labelled by the
    note, and the rows of the note's behaviours the scan cannot show, from their bisects (``_bisect_rows``)."""
    if path is None or not path.is_file():
        return None
    records = results.read(path).records
    scanned = rows(changes(records), label=note_labeller(note))
    shown = {r.behaviour for r in scanned}
    found = _bisect_rows(path.parent / _BISECTS, [b for b in note if b.name not in shown])
    return Timeline(
        source=path.name,
        versions=tuple(scanned_versions(records)),
        cases=len({r.case for r in records}),
        rows=tuple(sorted([*scanned, *found], key=lambda r: (version_key(r.first), r.behaviour))),
    )


#: The folder beside the scan file that keeps the bisects' results, one file per behaviour of the note.
_BISECTS = "bisect"
#: The field of a whole-case bisect (no ``--field``): the outcome, a line per difference.
OUTCOME = "(outcome)"


def bisect_value(record: Record, field: str | None) -> str:
    """A bisect probe's value: the field it bisected, or the whole outcome."""
    return field_value(record, field) if field else "\n".join(outcome_of(record).lines())


def _bisect_rows(folder: Path, note: Sequence[Behaviour]) -> list[Row]:
    """Rows for behaviours of the note that the scan does not show (a transcript field, a probe case
    outside the scan's cases), from ``<folder>/<behaviour>.jsonl`` (``cc-harness bisect --results``): the
    values of the two probes either side of the note's first version. Where the two values share a long
    beginning (a frame, a tool list), both are shown from a little before the first difference."""
    out = []
    for b in note:
        path = folder / f"{b.name}.jsonl"
        if not path.is_file():
            continue
        saved = results.read(path)
        field = saved.head.get("options", {}).get("field")
        probes = sorted(saved.records, key=lambda r: version_key(_version(r.engine)))
        after = next((i for i, r in enumerate(probes) if _version(r.engine) == b.first), None)
        if not after:
            continue  # the bisect did not probe the note's first version, or nothing before it
        old, new = (bisect_value(probes[i], field) for i in (after - 1, after))
        out.append(
            Row(
                behaviour=b.name,
                first=b.first,
                last_same=_version(probes[after - 1].engine),
                window_end=b.last,
                reverted_in=None,
                fields=((probes[after].case, field or OUTCOME),),
                old=_from_difference(old, new),
                new=_from_difference(new, old),
            )
        )
    return out


def _from_difference(value: str, other: str, *, context: int = 40) -> str:
    common = next(
        (i for i, (a, b) in enumerate(zip(value, other, strict=False)) if a != b), min(len(value), len(other))
    )
    return value if common <= context else "…" + value[common - context :]


@dataclass(frozen=True, kw_only=True)
class Behaviour:
    """One entry of a timeline's note (``changes.yaml`` beside the scan file): what changed, where it is
    seen, the versions, the command that found or confirmed them, and the profile row that models it."""

    name: str
    first: str
    last: str | None
    cases: tuple[str, ...]
    command: str
    profile: str | None
    text: str
    marker: str | None = None
    """For a transcript field (found by bisect --field): a string whose presence tells the new value from
    the old, where the whole value also holds text that is not the behaviour (tool lists, model prose)."""

    def labels(self, change: Change) -> bool:
        return change.case in self.cases and (change.first_different, change.window_end) == (self.first, self.last)


_NOTE = "changes.yaml"


def read_note(scan: Path | None) -> list[Behaviour]:
    """The behaviours named in ``changes.yaml`` beside the scan file (none when there is no such file)."""
    if scan is None or not (scan.parent / _NOTE).is_file():
        return []
    path = scan.parent / _NOTE
    raw = read_yaml(path) or []
    if not isinstance(raw, list):
        raise CaseFormatError(path=str(path), field="(top)", message="must be a list of behaviours")
    out = []
    for n, item in enumerate(raw):
        try:
            out.append(
                Behaviour(
                    name=str(item["behaviour"]),
                    first=str(item["first"]),
                    last=str(item["last"]) if item.get("last") else None,
                    cases=tuple(str(c) for c in item["cases"]),
                    command=str(item["command"]),
                    profile=str(item["profile"]) if item.get("profile") else None,
                    text=str(item.get("text", "")),
                    marker=str(item["marker"]) if item.get("marker") else None,
                )
            )
        except (KeyError, TypeError) as exc:
            raise CaseFormatError(path=str(path), field=f"[{n}]", message=f"lacks or mistypes {exc}") from None
    return out


def note_labeller(note: Sequence[Behaviour]) -> Labeller:
    """Labels a change with the behaviour of the note that names its case and versions."""

    def label(change: Change) -> str | None:
        return next((b.name for b in note if b.labels(change)), None)

    return label
