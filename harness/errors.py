"""One exception class per failure category, so a report can say what kind of thing went wrong."""

from __future__ import annotations


class HarnessError(Exception):
    """Base of every error the harness raises on purpose."""


class CaseFormatError(HarnessError):
    """A case file is malformed: names the file and the field path."""

    def __init__(self, *, path: str, field: str, message: str) -> None:
        self.path = path
        self.field = field
        super().__init__(f"{path}: {field}: {message}")


class ScriptError(HarnessError):
    """The scripted model was asked for a turn it does not have, or left turns unused."""


class EngineError(HarnessError):
    """The engine crashed, timed out, or printed something the adapter cannot read."""


class InstallError(HarnessError):
    """An engine version could not be installed."""


class ServerError(HarnessError):
    """A server the case declares did not start, or did not say which port it listens on."""
