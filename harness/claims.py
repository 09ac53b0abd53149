"""The claims catalogue (harness/CLAIMS.md): ids, texts and the grid's cells."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

_CLAIM_LINE = re.compile(r"^- \*\*([A-Z][0-9]+)\*\* (.*)$")


@dataclass(frozen=True, kw_only=True)
class Claim:
    id: str
    text: str


@cache
def catalogue() -> dict[str, Claim]:
    """Every claim of CLAIMS.md by id, in the catalogue's order."""
    text = resources.files("harness").joinpath("CLAIMS.md").read_text(encoding="utf-8")
    claims: dict[str, Claim] = {}
    for line in text.splitlines():
        if m := _CLAIM_LINE.match(line):
            cid = m.group(1)
            claims[cid] = Claim(id=cid, text=m.group(2))
    return claims


def base_id(claim_id: str) -> str:
    """``A6a`` names part (a) of claim ``A6``."""
    return claim_id.rstrip("abcdefgh")
