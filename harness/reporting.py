"""The reports' model built from the records, with what the report package itself does not know: the
engines' column order (the engine families registered in harness/engines/families.py) and the surface
contract (harness/surface/contract.py) as the reports' ``Compatibility``."""

from __future__ import annotations

from collections.abc import Sequence

from harness.claims import Catalogue
from harness.engines.families import engine_key
from harness.report.model import Compatibility, Element, ElementKind, Model, build
from harness.results import Record
from harness.surface.contract import Contract, figures
from harness.surface.model import Kind
from harness.timeline_model import Timeline


def model_of(
    records: Sequence[Record], *, catalogue: Catalogue | None = None, timeline: Timeline | None = None
) -> Model:
    """The one model every report of ``records`` renders (Markdown, HTML, JUnit, the GitHub summary)."""
    return build(records, engine_key=engine_key, catalogue=catalogue, timeline=timeline)


def compatibility_of(contract: Contract) -> Compatibility:
    """The contract as the reports show it: elements by kind (every kind, in order), and the figures."""
    kinds = {
        kind: ElementKind(
            title=kind.title,
            elements=tuple(
                Element(name=e.name, versions=e.versions, cases=e.cases, listed=e.listed, payload=e.payload)
                for e in contract.of(kind)
            ),
        )
        for kind in Kind
    }
    return Compatibility(
        versions=contract.versions,
        kinds=tuple(kinds.values()),
        hook_events=kinds[Kind.HOOK_EVENT],
        figures=tuple((k.title, v, n, c, u, b) for k, v, n, c, u, b in figures(contract)),
    )
