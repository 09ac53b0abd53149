"""NOT_MODELLED.md's list of abstentions is the code's: regenerating it changes nothing."""

from __future__ import annotations

from harness.refengine.abstentions import collect, refreshed
from tests.conftest import REPO


def test_not_modelled_lists_every_abstention_of_the_code() -> None:
    document = REPO / "harness" / "refengine" / "NOT_MODELLED.md"
    found = collect(REPO / "harness")
    assert found, "the reference engine abstains somewhere"
    assert any(a.what.startswith("Grep parameter") for a in found)
    assert any(a.function == "unmodelled_parts" for a in found)
    text = document.read_text(encoding="utf-8")
    assert refreshed(text, found) == text, "stale: run python -m harness.refengine.abstentions --write"
