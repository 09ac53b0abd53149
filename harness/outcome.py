"""What a run of a case came to, as one typed value from the runner to every report.

A **status** says what happened; a **finding** is one difference between what the case documents and
what the engine did, judged against the engine's expectations file; a **fault** is why a run has no
verdict at all (the engine timed out or crashed, the API or the install failed, the case is broken,
the harness has a bug). Results files, the terminal, JUnit, Markdown, HTML and pytest all read these
types; nothing downstream re-derives them from strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """Conformance outcomes first, then the error kinds (wptrunner's TIMEOUT/CRASH/ERROR split)."""

    PASS = "pass"
    """The engine did what the case documents."""
    KNOWN = "known"
    """It differed exactly as the engine's expectations file lists."""
    FAIL = "fail"
    """An unexpected difference, or a listed one that no longer happens (stale)."""
    NOT_MODELLED = "not-modelled"
    """The reference engine reached a behaviour it has no measurement for, or the engine release cannot show
    what the case checks (a debug log before claude 2.1.20): no verdict."""
    TIMEOUT = "timeout"
    """The engine did not finish within the case's time limit."""
    CRASH = "crash"
    """The engine exited abnormally (exit status or signal, stderr tail in the fault)."""
    API_FAULT = "api-fault"
    """The Messages API answered with an error or a broken stream (HTTP status or event in the fault)."""
    INSTALL_ERROR = "install-error"
    """The engine version could not be installed."""
    CASE_ERROR = "case-error"
    """The case is broken: its file, its fixture or a server it declares."""
    HARNESS_ERROR = "harness-error"
    """A bug in cc-harness itself."""

    @property
    def is_error(self) -> bool:
        """No verdict on the engine's conformance: something else went wrong (or the reference engine abstained)."""
        return self not in (Status.PASS, Status.KNOWN, Status.FAIL, Status.NOT_MODELLED)

    @property
    def is_bad(self) -> bool:
        """Makes a run exit 1: a failure or any error."""
        return self is Status.FAIL or self.is_error

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Status.PASS: "as documented",
    Status.KNOWN: "known difference",
    Status.FAIL: "unexpected difference",
    Status.NOT_MODELLED: "not modelled (by the reference engine, or not observable on this release)",
    Status.TIMEOUT: "engine timed out",
    Status.CRASH: "engine crashed",
    Status.API_FAULT: "API fault",
    Status.INSTALL_ERROR: "engine install failed",
    Status.CASE_ERROR: "broken case",
    Status.HARNESS_ERROR: "harness error (a cc-harness bug)",
}

#: Every status, worst first: summaries list failures and errors before the rest.
WORST_FIRST: tuple[Status, ...] = (
    Status.HARNESS_ERROR,
    Status.INSTALL_ERROR,
    Status.CASE_ERROR,
    Status.CRASH,
    Status.API_FAULT,
    Status.TIMEOUT,
    Status.FAIL,
    Status.NOT_MODELLED,
    Status.KNOWN,
    Status.PASS,
)


class Judgement(StrEnum):
    UNEXPECTED = "unexpected"
    """Observed, and not listed for this engine."""
    KNOWN = "known"
    """Observed exactly as listed."""
    STALE = "stale"
    """Listed, but the engine no longer does it."""
    INTERMITTENT = "intermittent"
    """Listed as intermittent and not shown by this run (the engine does either)."""


@dataclass(frozen=True, kw_only=True)
class Finding:
    """One difference from the documented behaviour, at a case-file field (``steps[0].turns[1].call.expect.result``)."""

    at: str
    judgement: Judgement
    expected: str | None
    """What the case documents (None for a stale or intermittent entry: nothing was compared)."""
    observed: str | None
    """What the engine did (for a stale or intermittent entry: what the expectations file lists)."""
    reason: str | None = None
    """The expectations file's reason, for a listed difference."""
    intermittent: bool = False
    detail: str = ""
    """More of the story for a reader (the conversation so far); never compared with an expectations entry."""

    @property
    def differs(self) -> bool:
        """An observation of the engine (stale entries are bookkeeping, not behaviour)."""
        return self.judgement is not Judgement.STALE

    def render(self) -> str:
        if self.judgement is Judgement.STALE:
            return f"{self.at}\n    stale known difference: {_show(self.observed)} no longer observed"
        head = f"{self.at}" + (f"  (known: {self.reason})" if self.judgement is Judgement.KNOWN else "")
        text = f"{head}\n    expected: {self.expected}\n    got:      {_show(self.observed)}"
        return text + (f"\n{self.detail}" if self.detail else "")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"at": self.at, "judgement": self.judgement.value}
        out |= {"expected": self.expected, "observed": self.observed}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.intermittent:
            out["intermittent"] = True
        if self.detail:
            out["detail"] = self.detail
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        return cls(
            at=str(data["at"]),
            judgement=Judgement(data["judgement"]),
            expected=data.get("expected"),
            observed=data.get("observed"),
            reason=data.get("reason"),
            intermittent=bool(data.get("intermittent", False)),
            detail=str(data.get("detail", "")),
        )


@dataclass(frozen=True, kw_only=True)
class Fault:
    """Why a run has no verdict: its error status and what a person needs to act on it."""

    status: Status
    message: str
    """One line naming the cause (a file and field, an exit status, an HTTP status)."""
    detail: str = ""
    """The longer story: stderr tail, the conversation so far, a traceback."""
    phase: str | None = None
    """Where it happened: ``load``, ``install``, ``servers``, ``step 2``, ..."""

    def render(self) -> str:
        where = f" [{self.phase}]" if self.phase else ""
        return f"{self.status.value}{where}: {self.message}" + (f"\n{self.detail}" if self.detail else "")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status.value, "message": self.message}
        if self.detail:
            out["detail"] = self.detail
        if self.phase:
            out["phase"] = self.phase
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fault:
        return cls(
            status=Status(data["status"]),
            message=str(data["message"]),
            detail=str(data.get("detail", "")),
            phase=data.get("phase"),
        )


def status_of(findings: tuple[Finding, ...], *, settle_intermittent: bool) -> Status:
    """fail on an unexpected or stale finding; known when listed ones were seen (or, with
    ``settle_intermittent``, when the case has intermittent ones at all); else pass."""
    kinds = {f.judgement for f in findings}
    if Judgement.UNEXPECTED in kinds or Judgement.STALE in kinds:
        return Status.FAIL
    if Judgement.KNOWN in kinds or (settle_intermittent and Judgement.INTERMITTENT in kinds):
        return Status.KNOWN
    return Status.PASS


def _show(value: str | None, *, limit: int = 600) -> str:
    if value is None:
        return "(nothing)"
    return repr(value) if len(value) <= limit else repr(value[:limit]) + f"… <{len(value)} chars>"
