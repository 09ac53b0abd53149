"""How one engine process ended, and what that makes of the run: judged once the process has stopped, root cause
first (``judge_process``).

A fault the fake API was told to serve is an ApiFault (even when the engine retried into a timeout, or recovered);
a scripted-model failure is the model's ScriptError (a finding); then EngineTimeout, then EngineCrash for a signal,
a nonzero exit after anything but an error result, missing results or unreadable output. Every message names the
case file and the step.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass

from harness.apifaults import ApiFaultPlan, summarise
from harness.case import Case
from harness.engine_name import EngineName
from harness.engines.base import StepOutput
from harness.engines.fakeapi import FakeMessagesAPI
from harness.errors import ApiFault, EngineCrash, EngineTimeout

#: No planned faults: a case without ``run.api_faults``.
NO_FAULTS = ApiFaultPlan()


@dataclass(frozen=True, kw_only=True)
class ProcessEnd:
    """How one engine process ended: what tells a finished process from a crash or a timeout."""

    step: int
    """The index of the step the process was on when it ended (its last prompt sent)."""
    prompts: int
    """How many prompts the process was to answer (one ``result`` each)."""
    results: int
    """How many ``result`` events it printed."""
    returncode: int | None
    """Its exit status, negative for a signal; None when the adapter cannot see it (the SDK's process)."""
    timed_out: bool = False
    stderr: str = ""
    broken: str | None = None
    """What the adapter could not read (a stdout line that is not JSON, the SDK's own error), if anything."""
    error_result: str | None = None
    """The text of the last ``result`` event when it is an error (``is_error``), else None."""
    seconds: float | None = None
    """Wall time from starting the engine process to its exit: the engine's own share of a run (None
    where the adapter does not start the process itself, as with the SDK)."""

    @property
    def how(self) -> str:
        """``exited with status 1``, ``was killed by SIGKILL``, ``exited normally``; ``ended`` when the exit
        status is hidden (the SDK shows none after the last result)."""
        code = self.returncode
        if code is None:
            return "ended"
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with status {code}" if code else "exited normally"

    @property
    def clean(self) -> bool:
        """Every result printed and read, and an exit status the engine means: 0 (or hidden, under the SDK),
        or nonzero after an error result (the engine ends a failed run so on purpose, for shell scripts;
        what the result says is the case's checks' to judge). A signal is never clean."""
        if self.timed_out or self.broken is not None or self.results < self.prompts:
            return False
        code = self.returncode
        return code in (0, None) or (code > 0 and self.error_result is not None)


@dataclass(frozen=True, kw_only=True)
class ProcessResult:
    session_id: str | None
    steps: list[StepOutput]
    end: ProcessEnd


def judge_process(
    case: Case, *, engine: EngineName, api: FakeMessagesAPI, end: ProcessEnd, planned: ApiFaultPlan = NO_FAULTS
) -> None:
    """Raise what went wrong with a process that has ended, the root cause first: a fault the fake API was
    told to serve (the engine retries 5xx with backoff, so it may end in a timeout, or even recover), a
    scripted-model failure (a conformance finding), a timeout, an abnormal end. A fault the case itself plans
    (``run.api_faults``) is the condition the case documents: the run is judged as any other."""
    where = f"{case.case_file}: step {end.step + 1} of {len(case.steps)}"
    detail, phase = _stderr_detail(end.stderr), f"step {end.step + 1}"
    unplanned = [s for s in api.served if s.fault not in planned.faults]
    if unplanned:
        then = f"{engine} then {_ending(end, case)}"
        served = summarise(unplanned)
        raise ApiFault(
            f"{where}: the fake Messages API served injected faults: {served}; {then}", detail=detail, phase=phase
        )
    if api.errors:
        raise api.errors[0]
    if end.timed_out:
        raise EngineTimeout(
            f"{where}: {engine} did not finish within the {case.run.timeout:g} s limit (run.timeout) and was killed"
            + _refusals(api),
            detail=detail,
            phase=phase,
        )
    if end.broken is not None:
        raise EngineCrash(
            f"{where}: {engine} printed what its adapter cannot read: {end.broken}", detail=detail, phase=phase
        )
    if not end.clean:
        raise EngineCrash(
            f"{where}: {engine} {end.how} {_after(end)}{_last_line(end.stderr)}{_refusals(api)}",
            detail=detail,
            phase=phase,
        )


def _ending(end: ProcessEnd, case: Case) -> str:
    if end.timed_out:
        return f"did not finish within the {case.run.timeout:g} s limit (run.timeout) and was killed"
    if end.clean and end.error_result is None:
        return "retried and finished normally (a run served an injected fault gets no verdict)"
    return f"{end.how} {_after(end)}"


def _after(end: ProcessEnd) -> str:
    """``after 1 of 2 results``, with the error result's text when the last one is an error."""
    text = f"after {end.results} of {end.prompts} result{'s' if end.prompts > 1 else ''}"
    if end.error_result is not None:
        text += f" (the last an error: {end.error_result[:200]!r})"
    return text


def _refusals(api: FakeMessagesAPI) -> str:
    """A hint when requests without the run's key were refused: the engine may not have sent the key."""
    refused = api.refused
    return f" ({len(refused)} request(s) without this run's API key were refused with 401)" if refused else ""


def _last_line(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return f"; stderr ends: {lines[-1][:300]!r}" if lines else "; stderr is empty"


def _stderr_detail(stderr: str) -> str:
    tail = stderr.strip()[-2000:]
    return f"stderr (last 2000 characters):\n{tail}" if tail else ""
