"""What differs between two engines' records of one case, as values: the fields, the case, the changes common
to many cases. harness/compare.py finds them; the terminal report (harness/report/terminal.py) prints them."""

from __future__ import annotations

from dataclasses import dataclass

from harness.outcome import Status


@dataclass(frozen=True, kw_only=True)
class FieldChange:
    """One transcript field whose value differs; ``old`` and ``new`` are display strings."""

    where: str
    kind: str  # offered | result | is_error | exchange | prompt | file | ... (the transcript key)
    old: str
    new: str


@dataclass(frozen=True, kw_only=True)
class CaseChange:
    """One case on two engines. A status of None means that side has no record of the case."""

    case: str
    claims: tuple[str, ...]
    old_status: Status | None
    new_status: Status | None
    fields: tuple[FieldChange, ...]
    note: str | None = None  # why a side is missing, e.g. no committed snapshot

    @property
    def status_changed(self) -> bool:
        return self.old_status != self.new_status

    @property
    def changed(self) -> bool:
        return self.status_changed or bool(self.fields)


@dataclass(frozen=True, kw_only=True)
class Widespread:
    """The same change seen in several cases (typically the engine's built-in tool list)."""

    change: FieldChange  # ``where`` is the first place it was seen
    cases: tuple[str, ...]
