"""Which cases a run takes: filters by id glob, claim id, grid cell, and a deterministic shard."""

from __future__ import annotations

import fnmatch
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness.case import BrokenCase, Case
from harness.claims import base_id
from harness.errors import UsageError


@dataclass(frozen=True, kw_only=True)
class Shard:
    index: int  # 1-based
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        try:
            i, n = (int(p) for p in text.split("/"))
        except ValueError:
            raise UsageError(f"--shard takes I/N, e.g. 1/2 (got {text!r})") from None
        if not 1 <= i <= n:
            raise UsageError(f"--shard {text}: I must be between 1 and N")
        return cls(index=i, count=n)

    def takes(self, case_id: str) -> bool:
        """By a hash of the id, so adding a case never moves the others between shards."""
        digest = int(hashlib.sha256(case_id.encode()).hexdigest(), 16)
        return digest % self.count == self.index - 1


@dataclass(frozen=True, kw_only=True)
class Selection:
    ids: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()
    cells: tuple[str, ...] = ()
    shard: Shard | None = None

    @classmethod
    def from_options(
        cls, *, case: Sequence[str], claim: Sequence[str], combination: Sequence[str], shard: str | None
    ) -> Selection:
        """From the ``--case``, ``--claim``, ``--combination`` and ``--shard`` options (CLI and pytest alike)."""
        return cls(
            ids=tuple(case),
            claims=tuple(claim),
            cells=tuple(combination),
            shard=Shard.parse(shard) if shard else None,
        )

    @property
    def narrows(self) -> bool:
        """Whether any filter was given (an empty selection takes every case)."""
        return bool(self.ids or self.claims or self.cells or self.shard)

    @property
    def file_suffix(self) -> str:
        """What a run's default results file name adds for this selection, so a run of some cases never
        replaces the whole suite's file: ``.partial`` (cases, claims or cells named), ``.shard-1-of-4``."""
        parts = ["partial"] if self.ids or self.claims or self.cells else []
        if self.shard:
            parts.append(f"shard-{self.shard.index}-of-{self.shard.count}")
        return "".join(f".{p}" for p in parts)

    def as_json(self) -> dict[str, Any]:
        """For a results header: what the run left out, so a report can tell a partial run."""
        return {
            "case": list(self.ids),
            "claim": list(self.claims),
            "combination": list(self.cells),
            "shard": f"{self.shard.index}/{self.shard.count}" if self.shard else None,
        }

    def takes(self, found: Case | BrokenCase) -> bool:
        if self.shard and not self.shard.takes(found.id):
            return False
        if self.ids and not any(fnmatch.fnmatch(found.id, g) for g in self.ids):
            return False
        if isinstance(found, BrokenCase):
            # Its claims and cell are unknown: it is taken when named by id, or when nothing narrows by them.
            return not (self.claims or self.cells) or bool(self.ids)
        if self.claims and not set(self.claims) & ({*found.claims} | {base_id(c) for c in found.claims}):
            return False
        cell = str(found.combination).replace(" ", "") if found.combination else ""
        return not self.cells or cell in {c.replace(" ", "") for c in self.cells}

    def __call__(self, found: Sequence[Case | BrokenCase]) -> list[Case | BrokenCase]:
        return [f for f in found if self.takes(f)]
