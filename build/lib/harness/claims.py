"""A claims catalogue: the behaviours a suite checks, each with an id (this repository's is harness/CLAIMS.md).

A suite names its catalogue in its configuration, or has none: a team's suite about its own setup need
not carry research metadata, and then a case's ``claims`` are free labels.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError

_CLAIM_LINE = re.compile(r"^- \*\*([A-Za-z][A-Za-z0-9_.-]*)\*\* (.*)$")


@dataclass(frozen=True, kw_only=True)
class Claim:
    id: str
    text: str


@dataclass(frozen=True, kw_only=True)
class Catalogue:
    """Claims by id, in the catalogue's order. A catalogue file lists each claim as ``- **ID** text``."""

    path: Path
    claims: Mapping[str, Claim]

    @classmethod
    def load(cls, path: Path) -> Catalogue:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"{path}: cannot read the claims catalogue: {exc.strerror or exc}") from None
        claims: dict[str, Claim] = {}
        for line in text.splitlines():
            if m := _CLAIM_LINE.match(line):
                claims[m.group(1)] = Claim(id=m.group(1), text=m.group(2))
        if not claims:
            raise UsageError(f"{path}: no claims in the catalogue (each is a line '- **ID** text')")
        return cls(path=path, claims=claims)

    def __contains__(self, claim_id: object) -> bool:
        return isinstance(claim_id, str) and base_id(claim_id) in self.claims

    def __iter__(self) -> Iterator[str]:
        return iter(self.claims)

    def text(self, claim_id: str) -> str:
        claim = self.claims.get(base_id(claim_id))
        return claim.text if claim else "(not in the claims catalogue)"


def base_id(claim_id: str) -> str:
    """``A6a`` names part (a) of claim ``A6``."""
    return claim_id.rstrip("abcdefgh") if re.fullmatch(r"[A-Z][0-9]+[a-h]", claim_id) else claim_id


def claim_order(claim_ids: Iterable[str], catalogue: Catalogue | None) -> list[str]:
    """Claim ids in the catalogue's order (a part such as ``A6a`` right after ``A6``); others after, by id."""
    order = {cid: i for i, cid in enumerate(catalogue or ())}

    def key(cid: str) -> tuple[int, str]:
        return (order.get(base_id(cid), len(order)), cid)

    return sorted(set(claim_ids), key=key)


def claim_text(claim_id: str, catalogue: Catalogue | None) -> str:
    return catalogue.text(claim_id) if catalogue is not None else ""
