"""The reports' agents section: which parts of a setup each engine honours, side by side (the table is built
by harness/reporting/agents.py)."""

from __future__ import annotations

from harness.report import escape
from harness.report.model import AgentsTable

#: What the section says of its figures (the same words in the Markdown and the HTML report).
_ABOUT = (
    "Which parts of a setup each engine honours: per part of a setup (and per hook event a case registers, MCP"
    " servers, definitions from a plugin), the cases that reach it, by status; the last rows count every case."
    " not-modelled: the engine cannot be given that part of the case (its record says why). Another agent's"
    " column (not reference or claude) comes from the repository: its adapter's reasons for a case it cannot be"
    " given, else the agent's committed snapshot of the case (what it printed when it was recorded) judged by"
    " today's case and expectations; a case with neither is not recorded."
)
_UNRECORDED = "not recorded"


def _unrecorded(t: AgentsTable) -> list[str]:
    """The not-recorded row's cells, or nothing when every engine has a record of every case."""
    if not any(t.unrecorded.values()):
        return []
    return [str(t.unrecorded.get(e, 0) or "·") for e in t.engines]


def markdown_lines(t: AgentsTable | None) -> list[str]:
    if t is None:
        return []
    lines = [
        "",
        "## Agents",
        "",
        _ABOUT,
        "",
        "| part | " + " | ".join(escape.markdown(e.text()) for e in t.engines) + " |",
        "|---" * (len(t.engines) + 1) + "|",
    ]
    lines += [f"| {row} | " + " | ".join(t.cell(row, e) for e in t.engines) + " |" for row in t.rows]
    if cells := _unrecorded(t):
        lines.append(f"| {_UNRECORDED} | " + " | ".join(cells) + " |")
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
    if cells := _unrecorded(t):
        rows += f"<tr><td>{_UNRECORDED}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"
    return f'<h2 id="agents">Agents</h2><p>{escape.html(_ABOUT)}</p><table><tr><th>part</th>{head}</tr>{rows}</table>'
