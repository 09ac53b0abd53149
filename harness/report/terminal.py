"""Change lists for the terminal: old and new values side by side, grouped by claim or by case."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from harness.changes import CaseChange, Widespread
from harness.outcome import Status
from harness.report.escape import SafeConsole
from harness.report.model import ChangeList, EngineGrid

#: Longer values are cut in the terminal (the results file keeps them whole).
_MAX_SHOWN = 600
_STATUS_STYLE = {Status.PASS: "green", Status.KNOWN: "yellow", Status.FAIL: "red", Status.NOT_MODELLED: "dim"}


#: Characters kept on each side of where two long values start (and stop) differing.
_CONTEXT = 60


def _cut(text: str) -> Text:
    return Text(text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + f"… <{len(text)} chars>")


def _focus(old: str, new: str, *, context: int = _CONTEXT) -> tuple[str, str]:
    """Both values cut down to the part that differs, with ``context`` characters around it.

    Two 700-character subagent results that differ in one id should show the id, not 700 characters.
    """
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    start = max(0, prefix - context)
    out = []
    for text in (old, new):
        end = max(len(text) - suffix + context, prefix + context)
        head = "…" if start > 0 else ""
        tail = "…" if end < len(text) else ""
        out.append(head + text[start:end] + tail)
    return out[0], out[1]


def _status(status: Status | None) -> Text:
    if status is None:
        return Text("(no record)", style="dim")
    return Text(status.value, style=_STATUS_STYLE.get(status, "bold red"))


def _case_block(out: Console, change: CaseChange, *, old_label: str, new_label: str) -> None:
    line = Text("  ") + Text(change.case, style="bold") + Text("  ")
    if change.status_changed:
        line += _status(change.old_status) + Text(" → ") + _status(change.new_status)
    else:
        line += _status(change.new_status) + Text(" (status unchanged)", style="dim")
    out.print(line)
    if change.note:
        out.print(Text(f"    {change.note}", style="dim"))
    if change.fields:
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2, 0, 4), expand=False)
        table.add_column("field", overflow="fold", max_width=48)
        table.add_column(old_label, overflow="fold")
        table.add_column(new_label, overflow="fold")
        for f in change.fields:
            old, new = _focus(f.old, f.new)
            table.add_row(Text(f.where), _cut(old), _cut(new))
        out.print(table)


def _widespread_block(out: Console, common: Sequence[Widespread], *, old_label: str, new_label: str) -> None:
    for w in common:
        out.print(Text(f"Tools offered changed the same way in {len(w.cases)} cases", style="bold"))
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2, 0, 4))
        table.add_column(f"only on {old_label}", overflow="fold")
        table.add_column(f"only on {new_label}", overflow="fold")
        table.add_row(_cut(w.change.old), _cut(w.change.new))
        out.print(table)
        out.print(Text("    cases: " + ", ".join(w.cases), style="dim"))


def console() -> Console:
    """Standard output; piped output is 160 wide (unless COLUMNS says), as two columns of strings need room."""
    return SafeConsole() if sys.stdout.isatty() or "COLUMNS" in os.environ else SafeConsole(width=160)


def print_changes(out: Console, changes: ChangeList, *, old_label: str, new_label: str) -> None:
    """``check``'s output (every changed case under each claim it checks) or ``diff``'s (every case that differs,
    in id order), after the changes many cases share."""
    _widespread_block(out, changes.widespread, old_label=old_label, new_label=new_label)
    for group in changes.groups:
        if group.claim is not None:
            text = group.text if len(group.text) <= 100 else group.text[:100] + "…"
            out.print()
            out.print(Text(group.claim, style="bold cyan") + Text("  " + text))
        for change in group.changes:
            if group.claim is None:
                out.print()
            _case_block(out, change, old_label=old_label, new_label=new_label)


def summary_line(changes: ChangeList) -> str:
    compared = changes.compared
    changed = [c for c in compared if c.changed]
    statuses = [c for c in compared if c.status_changed]
    return (
        f"{len(compared)} cases compared: {len(changed)} changed "
        f"({len(statuses)} in status), {len(compared) - len(changed)} unchanged"
    )


def grid_text(g: EngineGrid) -> str:
    """A compact grid for terminals: rows are callers, columns callees, each cell its counts per status."""
    width = max([22, *(len(c.describe(symbols=False)) + 2 for c in g.cells)])
    lines = ["caller ↓ callee →".ljust(18) + "".join(p.ljust(width) for p in g.callees)]
    for caller in g.callers:
        row = caller.ljust(18)
        for callee in g.callees:
            c = g.cell(caller, callee)
            row += (c.describe(symbols=False) if c.cases else "·").ljust(width)
        lines.append(row.rstrip())
    return "\n".join(lines)
