"""What differs between two engines' records of the same cases: statuses and transcript fields.

Exchanges are aligned by what the case file calls them (``steps[0].turns[1]``,
``contexts.probe.turns[0]``), so a change is reported at the field a reader can look up. Files and
prompts are compared leaf by leaf (``files["hook-input.jsonl"][0].effort.level``): a hook payload that
gains one key shows as that key, not as two screens of JSON.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from harness.changes import CaseChange, FieldChange, Widespread
from harness.claims import Catalogue, claim_order
from harness.outcome import Status
from harness.results import Record

#: Rendered in place of a value one side does not have.
_ABSENT = "(absent)"
#: An exchange leaves ``offered`` out when the tools are the same as on the thread's previous turn.
_SAME_OFFER = "(same tools as the previous turn)"
_ALIGNMENT_KEYS = ("context", "step", "turn")
#: A prompt's record of the tools the engine listed in its stream-json init message.
_TOOL_LISTING = "init_tools"
#: Transcript keys that name the run, not what the engine did.
_NAMES = frozenset({"case", "engine"})
#: Transcript keys compared with their own alignment above; every other key is compared leaf by leaf.
_STRUCTURED = frozenset({"exchanges", "prompts", "files"})


def show(value: Any) -> str:
    """A value as text for a side-by-side column: strings verbatim, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return "(nothing)"
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _exchange_label(ex: Mapping[str, Any], occurrence: int) -> str:
    turn = int(ex.get("turn", 0)) - 1
    if ex.get("context") == "main":
        label = f"steps[{int(ex.get('step', 0)) - 1}].turns[{turn}]"
    else:
        label = f"contexts.{ex.get('context')}.turns[{turn}]"
    # A context the engine opens twice (two subagents with one task) repeats its turn numbers.
    return label if occurrence == 0 else f"{label} (occurrence {occurrence + 1})"


def keyed_exchanges(transcript: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    seen: dict[tuple[Any, ...], int] = {}
    out: dict[str, Mapping[str, Any]] = {}
    for ex in transcript.get("exchanges", ()):
        key = tuple(ex.get(k) for k in _ALIGNMENT_KEYS)
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        out[_exchange_label(ex, occurrence)] = ex
    return out


def _union(a: Iterable[str], b: Iterable[str]) -> list[str]:
    """Keys of both sides, in first-seen order (old first), so output follows the conversation."""
    return list(dict.fromkeys([*a, *b]))


def _offered_change(where: str, old: Any, new: Any, *, missing: str = _SAME_OFFER) -> FieldChange:
    """A tool list's change as the names only on each side (the lists run to dozens of names)."""
    if isinstance(old, list) and isinstance(new, list):
        only_old = sorted(set(old) - set(new))
        only_new = sorted(set(new) - set(old))
        if not only_old and not only_new:  # same tools in another order
            return FieldChange(where=where, kind="offered", old=show(old), new=show(new))
        return FieldChange(
            where=f"{where} (tools only on this side)",
            kind="offered",
            old=", ".join(only_old) or "(none)",
            new=", ".join(only_new) or "(none)",
        )
    return FieldChange(
        where=where,
        kind="offered",
        old=missing if old is None else show(old),
        new=missing if new is None else show(new),
    )


def _exchange_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> Iterator[FieldChange]:
    a, b = keyed_exchanges(old), keyed_exchanges(new)
    for label in _union(a, b):
        if label not in a or label not in b:
            present = a.get(label) or b[label]
            summary = show({k: v for k, v in present.items() if k not in _ALIGNMENT_KEYS})
            yield FieldChange(
                where=label,
                kind="exchange",
                old=summary if label in a else "(no such turn)",
                new=summary if label in b else "(no such turn)",
            )
            continue
        x, y = a[label], b[label]
        for key in _union((k for k in x if k not in _ALIGNMENT_KEYS), (k for k in y if k not in _ALIGNMENT_KEYS)):
            if x.get(key) == y.get(key):
                continue
            where = f"{label}.{key}"
            if key == "offered":
                yield _offered_change(where, x.get(key), y.get(key))
            else:
                yield FieldChange(
                    where=where,
                    kind=key,
                    old=show(x[key]) if key in x else _ABSENT,
                    new=show(y[key]) if key in y else _ABSENT,
                )


def _leaf_changes(where: str, kind: str, old: Any, new: Any, *, present: tuple[bool, bool]) -> Iterator[FieldChange]:
    """Differences between two JSON values, down to the first level where they are not both containers."""
    if old == new and present[0] == present[1]:
        return
    if all(present) and isinstance(old, dict) and isinstance(new, dict):
        for key in _union(old, new):
            yield from _leaf_changes(
                f"{where}.{key}", kind, old.get(key), new.get(key), present=(key in old, key in new)
            )
        return
    if all(present) and isinstance(old, list) and isinstance(new, list):
        for i in range(max(len(old), len(new))):
            yield from _leaf_changes(
                f"{where}[{i}]",
                kind,
                old[i] if i < len(old) else None,
                new[i] if i < len(new) else None,
                present=(i < len(old), i < len(new)),
            )
        return
    yield FieldChange(
        where=where,
        kind=kind,
        old=show(old) if present[0] else _ABSENT,
        new=show(new) if present[1] else _ABSENT,
    )


def transcript_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[FieldChange]:
    """Every field of two transcripts of one case that differs: exchanges, prompts' results, files, and every
    other part a transcript may hold (``stderr``, ``side_calls``, ``script_error``, ``races``, ...), leaf by
    leaf under its own key, so a part added to transcripts later is compared without a change here."""
    changes = list(_exchange_changes(old, new))
    old_prompts = {f"prompts[step {p.get('step')}]": p for p in old.get("prompts", ())}
    new_prompts = {f"prompts[step {p.get('step')}]": p for p in new.get("prompts", ())}
    for label in _union(old_prompts, new_prompts):
        a, b = old_prompts.get(label), new_prompts.get(label)
        if a is not None and b is not None:
            # The tool listing the engine printed is a set of names, like ``offered``: compare it as one.
            if a.get(_TOOL_LISTING) != b.get(_TOOL_LISTING):
                where = f"{label}.{_TOOL_LISTING}"
                changes.append(_offered_change(where, a.get(_TOOL_LISTING), b.get(_TOOL_LISTING), missing=_ABSENT))
            a = {k: v for k, v in a.items() if k != _TOOL_LISTING}
            b = {k: v for k, v in b.items() if k != _TOOL_LISTING}
        changes += _leaf_changes(label, "prompt", a, b, present=(label in old_prompts, label in new_prompts))
    old_files, new_files = old.get("files", {}), new.get("files", {})
    for name in sorted(set(old_files) | set(new_files)):
        # A file missing from ``files`` was not touched by the run: say so rather than "(absent)".
        changes += [
            FieldChange(
                where=c.where,
                kind=c.kind,
                old=c.old if name in old_files else "(not written by the run)",
                new=c.new if name in new_files else "(not written by the run)",
            )
            for c in _leaf_changes(
                f"files[{json.dumps(name)}]",
                "file",
                old_files.get(name),
                new_files.get(name),
                present=(name in old_files, name in new_files),
            )
        ]
    for key in _union(old, new):
        if key not in _NAMES and key not in _STRUCTURED:
            changes += _leaf_changes(key, key, old.get(key), new.get(key), present=(key in old, key in new))
    return changes


def compare_case(
    *,
    old: Record | None,
    new: Record | None,
    old_status: Status | None = None,
    new_status: Status | None = None,
    note: str | None = None,
) -> CaseChange:
    """One case's change. ``old_status``/``new_status`` override the records' own (see ``check``)."""
    some = new or old
    if some is None:
        raise ValueError("compare_case needs at least one record")
    fields: list[FieldChange] = []
    if old is not None and new is not None and old.transcript is not None and new.transcript is not None:
        fields = transcript_changes(old.transcript, new.transcript)
    elif old is not None and new is not None and (old.fault or new.fault) and _cause(old) != _cause(new):
        fields = [FieldChange(where="fault", kind="fault", old=_fault(old), new=_fault(new))]
    return CaseChange(
        case=some.case,
        claims=some.claims,
        old_status=old_status or (old.status if old else None),
        new_status=new_status or (new.status if new else None),
        fields=tuple(fields),
        note=note,
    )


def compare_engines(*, old: Iterable[Record], new: Iterable[Record]) -> list[CaseChange]:
    """Per case (by id), the change from ``old``'s records to ``new``'s; statuses as recorded."""
    a = {r.case: r for r in old}
    b = {r.case: r for r in new}
    return [compare_case(old=a.get(c), new=b.get(c)) for c in sorted(set(a) | set(b))]


def widespread(changes: Iterable[CaseChange], *, min_cases: int = 3) -> list[Widespread]:
    """Tool-list changes that repeat across ``min_cases`` or more cases.

    A new engine version usually adds or drops built-in tools for every conversation; printed per case
    that buries the claim-specific changes, so it is printed once, with the cases it was seen in.
    """
    seen: dict[tuple[str, str], tuple[FieldChange, list[str]]] = {}
    for change in changes:
        for f in change.fields:
            if f.kind != "offered":
                continue
            _, cases = seen.setdefault((f.old, f.new), (f, []))
            if change.case not in cases:
                cases.append(change.case)
    return [Widespread(change=f, cases=tuple(cases)) for f, cases in seen.values() if len(cases) >= min_cases]


def without(change: CaseChange, common: Iterable[Widespread]) -> CaseChange:
    """``change`` minus the fields already reported as widespread."""
    signatures = {(w.change.old, w.change.new) for w in common}
    rest = tuple(f for f in change.fields if f.kind != "offered" or (f.old, f.new) not in signatures)
    return dataclasses.replace(change, fields=rest)


def by_claim(changes: Iterable[CaseChange], catalogue: Catalogue | None) -> list[tuple[str, list[CaseChange]]]:
    """Changed cases grouped under each claim they check (a case with two claims is under both)."""
    groups: dict[str, list[CaseChange]] = {}
    for change in changes:
        if change.changed:
            for claim in change.claims:
                groups.setdefault(claim, []).append(change)
    return [(cid, groups[cid]) for cid in claim_order(groups, catalogue)]


def _cause(record: Record) -> object:
    """What a fault says of its cause: a not-modelled run's detail (the conversation so far) is left out, since the
    baseline of a case an adapter cannot say is that check, made without a run (reporting/recorded.py)."""
    fault = record.fault
    if fault is not None and fault.status is Status.NOT_MODELLED:
        return (fault.status, fault.message, fault.phase)
    return fault


def _fault(record: Record) -> str:
    return record.fault.render() if record.fault else "(no fault)"
