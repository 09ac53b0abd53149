"""JUnit XML from results, for CI dashboards: one test suite per engine, one test case per case.

A fail is a ``<failure>``; every fault (timeout, crash, API fault, install error, broken case, harness
error) is an ``<error>`` whose type names its status; a known difference and a behaviour the reference
engine does not model are ``<skipped>`` (as pytest reports xfail and skip). So a dashboard's red means
exactly what ``cc-harness run``'s exit status means.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from harness.outcome import Judgement, Status
from harness.report import escape
from harness.report.model import Model
from harness.results import Record, totals


def _add(parent: ET.Element, tag: str, text: str | None = None, **attributes: str) -> ET.Element:
    """A child element whose every attribute and text is case text made well-formed (``escape.xml``)."""
    element = ET.SubElement(parent, tag, {k: escape.xml(v) for k, v in attributes.items()})
    if text is not None:
        element.text = escape.xml(text)
    return element


def _case(suite: ET.Element, r: Record) -> None:
    case = _add(
        suite,
        "testcase",
        classname=f"{r.engine}.{(r.combination or 'outside-grid').replace(' ', '')}",
        name=r.case,
        time=f"{r.duration:.3f}",
    )
    props = _add(case, "properties")
    _add(props, "property", name="claims", value=",".join(r.claims))
    _add(props, "property", name="flags", value=",".join(r.flags))
    _add(props, "property", name="status", value=r.status.value)
    if r.status is Status.FAIL:
        text = "\n".join(f.render() for f in r.findings if f.judgement in (Judgement.UNEXPECTED, Judgement.STALE))
        _add(case, "failure", text, message=f"differs at {r.failing_at}", type="fail")
    elif r.fault is not None and r.status.is_error:
        message = r.fault.message.splitlines()[0] if r.fault.message else r.status.value
        _add(case, "error", r.fault.render(), message=message, type=r.status.value)
    elif r.status is Status.KNOWN:
        reasons = "; ".join(f"{f.at}: {f.reason}" for f in r.findings if f.reason)
        _add(case, "skipped", type="known-difference", message=f"known difference: {reasons}")
    elif r.status is Status.NOT_MODELLED:
        message = r.fault.message if r.fault else "not modelled"
        _add(case, "skipped", type="not-modelled", message=message)


def _counts(records: Sequence[Record]) -> dict[str, str]:
    t = totals(records)
    errors = sum(n for s, n in t.items() if s.is_error)
    return {
        "tests": str(len(records)),
        "failures": str(t[Status.FAIL]),
        "errors": str(errors),
        "skipped": str(t[Status.KNOWN] + t[Status.NOT_MODELLED]),
    }


def render(model: Model) -> str:
    records = model.records
    root = ET.Element("testsuites", name="cc-harness")
    for engine in model.engines:
        mine = sorted((r for r in records if r.engine == engine), key=lambda r: r.case)
        seconds = f"{sum(r.duration for r in mine):.3f}"
        suite = _add(root, "testsuite", name=engine.text(), **_counts(mine), time=seconds)
        for r in mine:
            _case(suite, r)
    for key, value in _counts(records).items():
        root.set(key, value)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
