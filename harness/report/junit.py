"""JUnit XML from results, for CI dashboards: one test suite per engine, one test case per case.

A known difference is reported as skipped (as pytest reports an xfail), an error as an error, so a
dashboard's red means exactly what ``cc-harness run``'s exit status means.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from harness.report.summary import engines_of
from harness.results import Record, totals


def _case(suite: ET.Element, r: Record) -> None:
    case = ET.SubElement(
        suite,
        "testcase",
        classname=f"{r.engine}.{(r.combination or 'outside-grid').replace(' ', '')}",
        name=r.case,
        time=f"{r.duration:.3f}",
    )
    props = ET.SubElement(case, "properties")
    ET.SubElement(props, "property", name="claims", value=",".join(r.claims))
    ET.SubElement(props, "property", name="flags", value=",".join(r.flags))
    if r.status == "fail":
        text = "\n".join(f"{f['at']}\n    expected: {f['expected']}\n    got:      {f['got']!r}" for f in r.failures)
        if r.error:
            text += f"\n{r.error}"
        ET.SubElement(case, "failure", message=f"differs at {r.failing_step}", type="fail").text = text
    elif r.status == "error":
        first = (r.error or "engine error").splitlines()[0]
        ET.SubElement(case, "error", message=first, type="error").text = r.error or ""
    elif r.status == "known":
        reasons = "; ".join(f"{k['at']}: {k['reason']}" for k in r.known)
        ET.SubElement(case, "skipped", type="known-difference", message=f"known difference: {reasons}")
    elif r.status == "skipped":
        ET.SubElement(case, "skipped", type="skipped", message="the case does not apply to this engine")


def render(records: Sequence[Record]) -> str:
    root = ET.Element("testsuites", name="cc-harness")
    for engine in engines_of(records):
        mine = sorted((r for r in records if r.engine == engine), key=lambda r: r.case)
        t = totals(mine)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=engine,
            tests=str(len(mine)),
            failures=str(t["fail"]),
            errors=str(t["error"]),
            skipped=str(t["known"] + t["skipped"]),
            time=f"{sum(r.duration for r in mine):.3f}",
        )
        for r in mine:
            _case(suite, r)
    all_totals = totals(records)
    root.set("tests", str(len(records)))
    root.set("failures", str(all_totals["fail"]))
    root.set("errors", str(all_totals["error"]))
    root.set("skipped", str(all_totals["known"] + all_totals["skipped"]))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
