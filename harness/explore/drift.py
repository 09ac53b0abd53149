"""Whether a case drawn again from a seed is the one a results file recorded: the explorer's check before it
stores such a case (``explorer.store_drawn_cases``)."""

from __future__ import annotations

from typing import Any

from harness.results import Record


def drift(case: dict[str, Any], record: Record) -> str | None:
    """Where ``record``'s main-thread exchanges differ from ``case``'s scripted turns, if they do."""
    for ex in (record.transcript or {}).get("exchanges", ()):
        if ex.get("context") != "main" or "step" not in ex:
            continue
        try:
            turn = case["steps"][ex["step"] - 1]["turns"][ex["turn"] - 1]
        except (IndexError, KeyError):
            return f"step {ex['step']} turn {ex.get('turn')} is not in the drawn case"
        shown = {"call": turn["call"]} if "call" in turn else {"say": turn["say"]}
        recorded = {"call": ex["call"]} if "call" in ex else {"say": ex.get("say")}
        if shown != recorded:
            return f"step {ex['step']} turn {ex['turn']}: drawn {shown}, recorded {recorded}"
    return None
