"""The reports' model built from the records, with what the report package itself does not know: the
engines' column order (the engine families registered in harness/engines/families.py)."""

from __future__ import annotations

from collections.abc import Sequence

from harness.claims import Catalogue
from harness.engines.families import engine_key
from harness.report.model import Model, build
from harness.results import Record
from harness.timeline_model import Timeline


def model_of(
    records: Sequence[Record], *, catalogue: Catalogue | None = None, timeline: Timeline | None = None
) -> Model:
    """The one model every report of ``records`` renders (Markdown, HTML, JUnit, the GitHub summary)."""
    return build(records, engine_key=engine_key, catalogue=catalogue, timeline=timeline)
