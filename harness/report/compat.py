"""The reports' compatibility section: which pinned release knows which hook event, output, option, key,
tool, rule form and setting, and which cases cover it (the model: harness/surface/contract.py)."""

from __future__ import annotations

from collections.abc import Callable

from harness.report.escape import html as escape
from harness.surface.contract import Contract, figures, table_lines
from harness.surface.model import Kind


def markdown_lines(contract: Contract, *, link: Callable[[str], str], reference: str | None = None) -> list[str]:
    """The figures per kind and version, and the hook events' table in full (the rest: ``reference``)."""
    more = f" Every other element, with its cases: [the contract reference]({reference})." if reference else ""
    lines = [
        "",
        "## Compatibility",
        "",
        "What each pinned release knows (read from the release: `cc-harness surface V`) and how much of it the",
        f"cases cover; the rest is unreachable offline (with a reason) or on the backlog.{more}",
        "",
        "| kind | version | elements | covered | unreachable | backlog |",
        "|---|---|---|---|---|---|",
    ]
    lines += [f"| {k.title} | {v} | {n} | {c} | {u} | {b} |" for k, v, n, c, u, b in figures(contract)]
    lines += ["", f"### {Kind.HOOK_EVENT.title}", "", *table_lines(contract, Kind.HOOK_EVENT, link)]
    return lines


def html_section(contract: Contract, *, link: Callable[[str], str]) -> str:
    """Every kind's table: element, ✓ or — per version, its cases (or why none)."""
    head = "".join(f"<th>{escape(v)}</th>" for v in contract.versions)
    parts = [
        '<h2 id="compatibility">Compatibility</h2><p>What each pinned release knows (read from the release:'
        " <code>cc-harness surface V</code>) and the cases that cover each element.</p>"
    ]
    for kind in Kind:
        entries = contract.of(kind)
        if not entries:
            continue
        rows = []
        for e in entries:
            marks = "".join(f"<td>{'✓' if v in e.versions else '—'}</td>" for v in contract.versions)
            cases = (
                ", ".join(f'<a href="{escape(link(c))}">{escape(c)}</a>' for c in e.cases)
                if e.cases
                else escape(e.listed or "none")
            )
            rows.append(f"<tr><td><code>{escape(e.name)}</code></td>{marks}<td>{cases}</td></tr>")
        parts.append(
            f"<h3>{escape(kind.title)}</h3><table><tr><th>element</th>{head}<th>cases</th></tr>{''.join(rows)}</table>"
        )
    return "\n".join(parts)
