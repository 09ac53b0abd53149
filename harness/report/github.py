"""GitHub Actions output: a job summary in Markdown and one workflow annotation per record that needs a look.

The composite action (``action.yml``) calls ``cc-harness report --github``: the summary is appended to the
file ``$GITHUB_STEP_SUMMARY`` names, and the annotations go to standard output, where the runner turns each
``::error file=…::…`` line into a note on the case file in the pull request. Everything shown comes from the
records; case text is escaped so that it cannot end the annotation or start a workflow command of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from harness.outcome import WORST_FIRST, Status
from harness.report import escape
from harness.report.markdown import grid_table
from harness.report.model import Model
from harness.results import Record

#: A record's reason is cut to this many characters in the summary and in an annotation.
_REASON_CHARS = 300
#: Annotations per run at the most: GitHub shows at most 10 errors and 10 warnings per step anyway.
_MAX_ANNOTATIONS = 50
#: Case ids that may be turned into a file path: anything else is named in the message only.
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def _markdown_text(text: str) -> str:
    """Case text inside the summary: no raw HTML (the summary renders it), no table or code breaks."""
    return escape.markdown(text)


def _reason(record: Record) -> str:
    """One line saying why a record is not a pass: its fault, else its first unexpected finding."""
    if record.fault is not None:
        text = record.fault.message.splitlines()[0] if record.fault.message else record.status.value
    else:
        at = record.failing_at
        finding = next((f for f in record.findings if f.at == at), None) if at else None
        if finding is not None and finding.expected is not None:
            text = f"{at}: expected {finding.expected!r}, got {finding.observed!r}"
        elif at is not None:
            text = at
        else:
            text = record.status.label
    text = escape.text(text).replace("\n", " ")
    return text if len(text) <= _REASON_CHARS else text[:_REASON_CHARS] + "…"


def _needs_a_look(records: Sequence[Record]) -> list[Record]:
    shown = [r for r in records if r.status is not Status.PASS]
    return sorted(shown, key=lambda r: (WORST_FIRST.index(r.status), r.case, r.engine))


def summary(model: Model, *, title: str = "cc-harness") -> str:
    """The job summary: totals per engine, each engine's grid, and every record that is not a pass."""
    records, grids, shown = model.records, model.grids, model.columns
    lines = [f"## {_markdown_text(title)}", ""]
    lines += ["| engine | " + " | ".join(s.value for s in shown) + " |", "|---" * (len(shown) + 1) + "|"]
    lines += [
        f"| {_markdown_text(g.engine.text())} | " + " | ".join(str(g.totals[s]) for s in shown) + " |" for g in grids
    ]
    looks = _needs_a_look(records)
    if looks:
        lines += ["", "### Not a pass", ""]
        for r in looks:
            where = f"{_markdown_text(r.engine.text())} · `{_markdown_text(r.case)}`"
            lines.append(f"- **{r.status.value}** · {where}: {_markdown_text(_reason(r))}")
    for g in grids:
        lines += ["", "<details>", f"<summary>{_markdown_text(g.engine.text())}: caller → callee grid</summary>", ""]
        lines += [*grid_table(g), "", "</details>"]
    return "\n".join(lines) + "\n"


def _data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped so it stays one command."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value: also ``:`` and ``,``, which end a property."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def annotation_lines(records: Sequence[Record], *, case_file: Callable[[str], str]) -> list[str]:
    """``::error``/``::warning`` lines, one per record that is not a pass (worst first, at most MAX_ANNOTATIONS).

    A failure or an error is an error annotation; a known difference or a not-modelled case is a warning,
    so that a team sees it without its build going red. ``case_file`` maps a case id to the path of its
    case file relative to the repository root (the runner places the note there)."""
    out = []
    for r in _needs_a_look(records)[:_MAX_ANNOTATIONS]:
        level = "error" if r.status.is_bad else "warning"
        where = f"file={_property(case_file(r.case))}," if _SAFE_ID.match(r.case) else ""
        title = _property(f"{r.case} on {r.engine}: {r.status.value}")
        out.append(f"::{level} {where}title={title}::{_data(_reason(r))}")
    return out
