"""Faults the fake Messages API can serve instead of a scripted reply: a small typed plan and its text form.

A plan is a list of faults, each for some of the ``POST /v1/messages`` requests of a run (numbered from
1 in the order they reach the fake API; requests refused for a wrong key and ``count_tokens`` calls are
not counted). The first fault whose requests include a request's number is served, and the scripted
model is not asked (its turn stays for the engine's retry). The text form, for a command line:

    KIND@WHICH[,KIND@WHICH...]

``KIND`` is an HTTP status (``500``, ``529`` overloaded_error, ``401``, ...), ``hang`` (the stream stops
after message_start and never ends), ``malformed`` (an event whose data is not JSON) or ``drop`` (the
connection is reset mid-stream, before message_stop). ``WHICH`` is ``*`` (every request), ``N``,
``N-M`` or ``N+`` (N and after). Examples: ``529@1``, ``500@*``, ``malformed@2``, ``drop@1``,
``hang@1``, ``529@1-3,drop@4``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from harness.errors import UsageError

FaultKind = Literal["status", "hang", "malformed", "drop"]

#: The ``error.type`` the real API gives with each status (https://docs.anthropic.com/en/api/errors).
_ERROR_TYPES: dict[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    502: "api_error",
    503: "api_error",
    504: "api_error",
    529: "overloaded_error",
}
_BROKEN = {
    "hang": "a stream that stops after message_start and never ends",
    "malformed": "a stream with a malformed event (data that is not JSON)",
    "drop": "a stream cut off mid-message (connection reset before message_stop)",
}
_ITEM = re.compile(r"^(?P<kind>[0-9]{3}|hang|malformed|drop)@(?P<which>\*|[0-9]+(?:-[0-9]+|\+)?)$")


@dataclass(frozen=True, kw_only=True)
class InjectedFault:
    """One fault: what is served, and to which requests (``first`` to ``last``; ``last`` None: no end)."""

    kind: FaultKind
    status: int | None = None
    """The HTTP status, for kind ``status``."""
    first: int = 1
    last: int | None = None

    def __post_init__(self) -> None:
        if (self.kind == "status") != (self.status is not None):
            raise ValueError(f"a status fault needs a status, and only it: {self!r}")
        if self.first < 1 or (self.last is not None and self.last < self.first):
            raise ValueError(f"requests are numbered from 1, first to last: {self!r}")

    def covers(self, number: int) -> bool:
        return self.first <= number and (self.last is None or number <= self.last)

    @property
    def error_type(self) -> str:
        """The API's ``error.type`` for a status fault (``api_error`` for a status it has no name for)."""
        assert self.status is not None
        return _ERROR_TYPES.get(self.status, "api_error")

    def describe(self) -> str:
        """What the engine got, for a message: ``HTTP 529 overloaded_error``, ``a stream that ...``."""
        if self.kind == "status":
            return f"HTTP {self.status} {self.error_type}"
        return _BROKEN[self.kind]

    def __str__(self) -> str:
        kind = str(self.status) if self.kind == "status" else self.kind
        if self.first == 1 and self.last is None:
            which = "*"
        elif self.last is None:
            which = f"{self.first}+"
        elif self.last == self.first:
            which = str(self.first)
        else:
            which = f"{self.first}-{self.last}"
        return f"{kind}@{which}"


@dataclass(frozen=True)
class ApiFaultPlan:
    """The faults of one run; ``ApiFaultPlan.parse("529@1,drop@3")`` reads the text form."""

    faults: tuple[InjectedFault, ...] = ()

    def for_request(self, number: int) -> InjectedFault | None:
        """The fault to serve to the ``number``-th messages request, if any (the first that covers it)."""
        return next((f for f in self.faults if f.covers(number)), None)

    def __bool__(self) -> bool:
        return bool(self.faults)

    def __str__(self) -> str:
        return ",".join(str(f) for f in self.faults)

    @classmethod
    def parse(cls, text: str) -> ApiFaultPlan:
        """The plan a text like ``529@1,500@*`` describes; UsageError naming the item it cannot read."""
        faults = []
        for item in (part.strip() for part in text.split(",")):
            if not item:
                continue
            faults.append(_parse_item(item, text))
        return cls(tuple(faults))


def _parse_item(item: str, text: str) -> InjectedFault:
    match = _ITEM.match(item)
    if match is None:
        raise UsageError(
            f"API fault {item!r} in {text!r}: expected KIND@WHICH, KIND an HTTP status (e.g. 529), hang,"
            " malformed or drop, WHICH * or a request number N, N-M or N+ (e.g. 529@1, 500@*, drop@2)"
        )
    kind, which = match["kind"], match["which"]
    status = int(kind) if kind.isdigit() else None
    if status is not None and not 400 <= status <= 599:
        raise UsageError(f"API fault {item!r} in {text!r}: an injected status is an error status, 400 to 599")
    first, last = _requests(which)
    if first < 1 or (last is not None and last < first):
        raise UsageError(f"API fault {item!r} in {text!r}: requests are numbered from 1, N-M with N <= M")
    if status is not None:
        return InjectedFault(kind="status", status=status, first=first, last=last)
    broken: FaultKind = kind  # type: ignore[assignment]  # the pattern allows only hang, malformed, drop
    return InjectedFault(kind=broken, first=first, last=last)


def _requests(which: str) -> tuple[int, int | None]:
    if which == "*":
        return 1, None
    if which.endswith("+"):
        return int(which[:-1]), None
    first, _, last = which.partition("-")
    return int(first), int(last or first)


@dataclass(frozen=True, kw_only=True)
class ServedFault:
    """A fault the fake API served: to which request, and what."""

    request: int
    fault: InjectedFault

    def describe(self) -> str:
        return f"{self.fault.describe()} to request {self.request}"


def summarise(served: list[ServedFault]) -> str:
    """``HTTP 529 overloaded_error to requests 1, 2, 3; a stream cut off ... to request 4``."""
    groups: dict[str, list[int]] = {}
    for s in served:
        groups.setdefault(s.fault.describe(), []).append(s.request)
    parts = []
    for what, numbers in groups.items():
        noun = "request" if len(numbers) == 1 else "requests"
        parts.append(f"{what} to {noun} {', '.join(map(str, numbers))}")
    return "; ".join(parts)
