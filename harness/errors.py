"""One exception class per fault category; each names the status a run that raised it gets."""

from __future__ import annotations

from typing import ClassVar

from harness.outcome import Fault, Status


class HarnessError(Exception):
    """Base of every error the harness raises on purpose. A user mistake: reported without a traceback."""

    status: ClassVar[Status] = Status.HARNESS_ERROR

    def __init__(self, message: str, *, detail: str = "", phase: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail
        self.phase = phase

    def fault(self, *, phase: str | None = None) -> Fault:
        """This error as a run's fault (``phase`` when the raiser did not name one)."""
        return Fault(status=self.status, message=str(self), detail=self.detail, phase=self.phase or phase)


class UsageError(HarnessError):
    """A command was given something it cannot use (an unknown engine, a missing file)."""


class CaseFormatError(HarnessError):
    """A case file or its fixture is malformed: names the file and the field path."""

    status = Status.CASE_ERROR

    def __init__(self, *, path: str, field: str, message: str) -> None:
        self.path = path
        self.field = field
        super().__init__(f"{path}: {field}: {message}", phase="load")


class ServerError(HarnessError):
    """A server the case declares did not start, or did not say which port it listens on."""

    status = Status.CASE_ERROR


class ScriptError(HarnessError):
    """The scripted model was asked for a turn it does not have, or left turns unused: a conformance finding,
    which the runner judges (a failed case), never a fault with a status of its own."""


class EngineError(HarnessError):
    """The engine failed to run the case: crashed, timed out, or its API failed."""

    status = Status.CRASH


class EngineCrash(EngineError):
    """The engine exited abnormally, or printed something its adapter cannot read."""

    status = Status.CRASH


class EngineTimeout(EngineError):
    """The engine did not finish within the case's time limit."""

    status = Status.TIMEOUT


class ApiFault(EngineError):
    """The Messages API answered an error status or a broken stream (injected, or from a recording)."""

    status = Status.API_FAULT


class InstallError(HarnessError):
    """An engine version could not be installed."""

    status = Status.INSTALL_ERROR


class NotModelled(HarnessError):
    """The reference engine has no measurement for a behaviour the case reached."""

    status = Status.NOT_MODELLED


class NotObservable(HarnessError):
    """The engine release cannot show what the case checks (claude before 2.1.20 has no ``--debug-file``, so a
    case's ``debug_log`` checks cannot be judged on it): no verdict, as for not-modelled."""

    status = Status.NOT_MODELLED
