"""The reference engine's own failures. The adapter (harness/engines/reference.py) names their category."""

from __future__ import annotations


class EngineFailure(Exception):
    """The engine cannot go on: a context that never ends, an ``--agent`` that does not exist, a bad version."""


class NotModelled(Exception):
    """The run reached a behaviour the reference engine has no measurement for; it answers nothing
    rather than a guess. ``feature`` names it (NOT_MODELLED.md lists the known ones)."""

    def __init__(self, feature: str) -> None:
        self.feature = feature
        super().__init__(f"not modelled: {feature}")
