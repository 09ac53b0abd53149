"""Texts a race decides: one run's transcript, and the others the same run could have printed.

The reference engine names one answer where the real engine's depends on timing (several hooks blocking
one event with different texts: the first to finish wins). It gives the transcript of one outcome and
lists, under ``races``, each raced text with its rivals. A check then holds for the reference engine only
when it holds for every outcome (``variants``), and two engines agree when the real engine's transcript is
one of them (``settle``), as a WebAssembly test accepts any NaN a ``nan:arithmetic`` pattern allows."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

#: Outcomes tried at most (a run with many races checks the first ones' combinations only).
_MAX_VARIANTS = 64


def races(transcript: dict[str, Any]) -> list[list[str]]:
    """Each race of ``transcript``: the text it gave first, then its rivals."""
    return [list(r) for r in transcript.get("races", ()) if len(r) > 1]


def variants(transcript: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The transcripts the races allow, ``transcript`` itself first (its ``races`` entry kept)."""
    found = races(transcript)
    choices = itertools.product(*(range(len(r)) for r in found))
    for picks in itertools.islice(choices, _MAX_VARIANTS):
        out = transcript
        for race, pick in zip(found, picks, strict=True):
            if pick:
                out = _replace(out, race[0], race[pick])
        yield out


def settle(transcript: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """``other`` with every rival text of ``transcript``'s races written as the text ``transcript`` gave,
    so that an engine that took another branch of a race compares equal where the race is all that differs."""
    for race in races(transcript):
        for rival in race[1:]:
            other = _replace(other, rival, race[0])
    return other


def _replace(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [_replace(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: (v if k == "races" else _replace(v, old, new)) for k, v in value.items()}
    return value
