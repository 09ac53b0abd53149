"""The reports' agents section: which parts of a setup each engine honours, side by side (the table is built
by harness/reporting/agents.py)."""

from __future__ import annotations

from harness.report import escape
from harness.report.model import AgentsTable


def markdown_lines(t: AgentsTable | None) -> list[str]:
    if t is None:
        return []
    lines = [
        "",
        "## Agents",
        "",
        "Which parts of a setup each engine honours: per part, the cases that reach it, by status (not-modelled:",
        "the engine cannot be given that part of the case; its record says why).",
        "",
        "| part | " + " | ".join(escape.markdown(e.text()) for e in t.engines) + " |",
        "|---" * (len(t.engines) + 1) + "|",
    ]
    lines += [f"| {row} | " + " | ".join(t.cell(row, e) for e in t.engines) + " |" for row in t.rows]
    return lines


def html_section(t: AgentsTable | None) -> str:
    if t is None:
        return ""
    head = "".join(f"<th>{escape.html(e.text())}</th>" for e in t.engines)
    rows = "".join(
        f"<tr><td>{escape.html(row)}</td>" + "".join(f"<td>{escape.html(t.cell(row, e))}</td>" for e in t.engines)
        + "</tr>"
        for row in t.rows
    )
    return (
        '<h2 id="agents">Agents</h2><p>Which parts of a setup each engine honours: per part, the cases that reach'
        f" it, by status.</p><table><tr><th>part</th>{head}</tr>{rows}</table>"
    )
