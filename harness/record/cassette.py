"""A live recording's cassette: the exchanges the proxy saved, one JSON object per line, after a first line
that says how the engine ran (its command, its private HOME and TMPDIR: what the recording's paths are
read against). ``cc-harness record --cassette FILE`` reads it back into the same case the live run wrote."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.record.proxy import Exchange
from harness.record.writer import Scrubber

#: The first line's key: a file without it is no cassette of cc-harness's.
_HEAD = "cc-harness-cassette"


@dataclass(frozen=True, kw_only=True)
class Cassette:
    argv: tuple[str, ...]
    home: Path
    tmp: Path | None
    exchanges: tuple[Exchange, ...]


def write(path: Path, cassette: Cassette, *, scrub: Scrubber) -> None:
    """The cassette at ``path`` (the exchanges were scrubbed when saved; the command is scrubbed here)."""
    head = {_HEAD: 1, "argv": [scrub.text(a) for a in cassette.argv], "home": str(cassette.home)}
    head["tmp"] = str(cassette.tmp) if cassette.tmp else None
    lines = [head, *(e.to_json() for e in cassette.exchanges)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")


def read(path: Path) -> Cassette:
    try:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValueError) as exc:
        raise UsageError(f"--cassette {path}: not readable as JSON lines ({exc})") from None
    if not lines or not isinstance(lines[0], dict) or _HEAD not in lines[0]:
        raise UsageError(f"--cassette {path}: line 1 has no {_HEAD!r}: not a cassette cc-harness record wrote")
    head = lines[0]
    try:
        exchanges = tuple(Exchange(**x) for x in lines[1:])
    except TypeError as exc:
        raise UsageError(f"--cassette {path}: an exchange line has other fields ({exc})") from None
    return Cassette(
        argv=tuple(str(a) for a in _list(head.get("argv"))),
        home=Path(str(head.get("home"))),
        tmp=Path(head["tmp"]) if head.get("tmp") else None,
        exchanges=exchanges,
    )


def _list(value: object) -> Sequence[object]:
    return value if isinstance(value, list) else []
