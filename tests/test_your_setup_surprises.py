"""docs/your-setup.md's "Two surprises a first suite meets" say what the engines did: each quoted text is in a
committed snapshot the harness recorded (the mcp 2.x result wrapping, the print-mode refusal of a skill with
``allowed-tools``), on the versions the page names."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import REPO

DOC = (REPO / "docs" / "your-setup.md").read_text(encoding="utf-8")


def _results(snapshot: Path) -> list[str]:
    data = json.loads(snapshot.read_text(encoding="utf-8"))
    return [str(ex["result"]) for ex in data["exchanges"] if ex.get("result") is not None]


def test_the_mcp_result_wrapping_the_page_quotes_is_what_both_engines_recorded() -> None:
    quoted = re.search(r'snapshot holds `"(\{\\"result\\":\\"TICKET-42: Login times out after 30\s+s\\"\})"`', DOC)
    assert quoted is not None, "docs/your-setup.md no longer quotes the team repository's wrapped result"
    wrapped = re.sub(r"\s+", " ", quoted.group(1)).replace('\\"', '"')
    for engine in ("reference", "claude-2.1.332"):
        snapshot = REPO / "examples" / "team-repo" / "snapshots" / engine / "tickets-mcp.json"
        assert wrapped in _results(snapshot), engine


def test_the_skill_refusal_the_page_quotes_is_what_each_version_recorded() -> None:
    """The page: ``Execute skill: <name>``, and from 2.1.332 a sentence naming the allow rule."""
    suffix = re.search(r"from 2\.1\.332 it adds `(The user can add the allow rule\s+Skill\(release-bump\)[^`]*)`", DOC)
    assert suffix is not None
    added = re.sub(r"\s+", " ", suffix.group(1)).replace("release-bump", "restricttest")
    case = "skill-tool-allowed-tools-approval"  # a skill with allowed-tools, called with -p in default mode
    old = _results(REPO / "snapshots" / "claude-2.1.252" / f"{case}.json")
    new = _results(REPO / "snapshots" / "claude-2.1.332" / f"{case}.json")
    assert "Execute skill: restricttest" in old
    assert f"Execute skill: restricttest. {added}" in new
