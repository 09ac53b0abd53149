"""Which cases a run takes: filters by id glob, claim id, grid cell, and a deterministic shard."""

from __future__ import annotations

import fnmatch
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.case import Case, discover_cases
from harness.claims import base_id
from harness.errors import HarnessError


@dataclass(frozen=True, kw_only=True)
class Shard:
    index: int  # 1-based
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        try:
            i, n = (int(p) for p in text.split("/"))
        except ValueError:
            raise HarnessError(f"--shard takes I/N, e.g. 1/2 (got {text!r})") from None
        if not 1 <= i <= n:
            raise HarnessError(f"--shard {text}: I must be between 1 and N")
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

    def __call__(self, cases_dir: Path) -> list[Case]:
        wanted_cells = {c.replace(" ", "") for c in self.cells}
        out = []
        for case in discover_cases(cases_dir):
            if self.ids and not any(fnmatch.fnmatch(case.id, g) for g in self.ids):
                continue
            if self.claims and not set(self.claims) & ({*case.claims} | {base_id(c) for c in case.claims}):
                continue
            cell = f"{case.combination.caller}->{case.combination.callee}" if case.combination else ""
            if wanted_cells and cell not in wanted_cells:
                continue
            if self.shard and not self.shard.takes(case.id):
                continue
            out.append(case)
        return out
