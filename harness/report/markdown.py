"""``docs/CONFORMANCE.md``: per engine the 4x4 grid, then claims x engine versions.

Deterministic by design (no timestamps, durations or revisions): CI regenerates it from the results
and fails when the committed file differs (``cc-harness report --check``).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.engine_name import EngineName
from harness.outcome import WORST_FIRST
from harness.report import agents, escape
from harness.report.model import SYMBOL, ClaimCell, ClaimRow, EngineGrid, Model, PrecedenceRow, Sources, Verdict
from harness.results import Record
from harness.timeline_model import Timeline

#: Observed strings are cut in table cells; the list under the table has them whole (up to this).
_CELL_CHARS = 60
_LIST_CHARS = 400
_VERDICT_SYMBOL = {
    Verdict.HOLDS: "✅", Verdict.DIFFERS: "🟡", Verdict.ERROR: "💥", Verdict.NOT_MODELLED: "◌", Verdict.NONE: "·"
}


def _code(text: str | None, *, limit: int) -> str:
    if text is None:
        return "(nothing)"
    cut = text if len(text) <= limit else text[:limit] + "…"
    return f"`{escape.markdown_code(cut)}`"


def grid_table(g: EngineGrid) -> list[str]:
    lines = [
        "| caller ↓ / callee → | " + " | ".join(g.callees) + " |",
        "|---" * (len(g.callees) + 1) + "|",
    ]
    for caller in g.callers:
        row = [f"**{caller}**"]
        for callee in g.callees:
            cell = g.cell(caller, callee)
            text = "·" if not cell.cases else cell.describe()
            marks = ",".join(str(n.number) for n in g.notes_for(cell))
            row.append(text + (f"<sup>{marks}</sup>" if marks else ""))
        lines.append("| " + " | ".join(row) + " |")
    if g.footnotes:
        lines.append("")
        lines += [f"{n.number}. {n.text}" for n in g.footnotes]
    if g.outside:
        lines.append("")
        lines.append(
            "Outside the grid: "
            + ", ".join(f"{escape.markdown(r.case)} {SYMBOL[r.status]} {r.status.value}" for r in g.outside)
        )
    return lines


def _precedence(rows: Sequence[PrecedenceRow], engines: Sequence[EngineName]) -> list[str]:
    lines = [
        "| defined in | case | " + " | ".join(escape.markdown(e.text()) for e in engines) + " |",
        "|---|---" + "|---" * len(engines) + "|",
    ]
    for row in rows:
        order = f"{row.kind}: " + row.joiner.join(row.order)
        cells = [_precedence_cell(row.cells[e], row.evidence(e)) for e in engines]
        lines.append(f"| {order} | `{escape.markdown_code(row.case)}` | " + " | ".join(cells) + " |")
    return lines


def _precedence_cell(cell: ClaimCell, evidence: str) -> str:
    """``ran: user, plugin`` (or ``refused 2 calls``) and the verdict against the documented order."""
    return (f"{escape.markdown(evidence)} · " if evidence else "") + _claim_cell(cell)


def _sources(sources: Sources | None, engines: Sequence[EngineName]) -> list[str]:
    """The sources-by-grid view per engine and the precedence table; nothing when every part is the project's."""
    if sources is None:
        return []
    lines = [
        "",
        "## Sources",
        "",
        "Where the parts of a grid cell come from (the case file's `sources`): project (`.claude/`), user",
        "(`~/.claude`), local (`.claude/settings.local.json`), cli (`--settings`, `--agents`, `--setting-sources`),",
        "plugin (`--plugin-dir`). A case counts in the column of each source other than the project that one of",
        "its parts comes from; a case whose parts all come from the project counts under project.",
    ]
    for engine, g in zip(engines, sources.grids, strict=True):
        lines += ["", f"### {escape.markdown(engine.text())} by source", ""]
        lines += ["| caller → callee | " + " | ".join(g.columns) + " |", "|---" * (len(g.columns) + 1) + "|"]
        for row in g.rows:
            cells = [row.cells[c].describe() if row.cells[c].cases else "·" for c in g.columns]
            lines.append(f"| **{row.label}** | " + " | ".join(cells) + " |")
    if sources.precedence:
        lines += [
            "",
            "### Precedence as measured",
            "",
            "One row per clash case: the same name defined in several sources (for hooks, the same and distinct",
            "handlers of several sources). defined in: `a > b`, a wins by the documented precedence; `a + b`, merged",
            "(every hook handler runs, a deny rule of any source binds); `a, b`, no documented order. ran: the",
            "sources whose definitions ran, from the `FROM-<source>` markers they leave in the run's files",
            "(`SAME-HANDLER xn`: how often a handler repeated in several files ran); refused: the calls a permission",
            "case's rules refused. ✅ holds: as the case documents (for hooks: merged, a handler repeated across",
            "settings files run once) · 🟡 differs: what the engine did instead.",
            "",
        ]
        lines += _precedence(sources.precedence, engines)
    return lines


def _claim_cell(cell: ClaimCell) -> str:
    symbol = _VERDICT_SYMBOL[cell.verdict]
    if cell.verdict is Verdict.NONE:
        return "·"
    if cell.verdict is not Verdict.DIFFERS:
        return f"{symbol} {cell.verdict}" + (" (stale expectation)" if cell.stale else "")
    first = cell.observations[0]
    more = f" (+{len(cell.observations) - 1})" if len(cell.observations) > 1 else ""
    return f"{'❌' if cell.unexpected else symbol} differs: {_code(first.observed, limit=_CELL_CHARS)}{more}"


def _claims_table(rows: Sequence[ClaimRow], engines: Sequence[EngineName]) -> list[str]:
    lines = [
        "| claim | " + " | ".join(escape.markdown(e.text()) for e in engines) + " |",
        "|---" * (len(engines) + 1) + "|",
    ]
    for row in rows:
        lines.append(f"| **{row.claim}** | " + " | ".join(_claim_cell(row.cells[e]) for e in engines) + " |")
    return lines


def _observations(rows: Sequence[ClaimRow], engines: Sequence[EngineName]) -> list[str]:
    lines: list[str] = []
    for row in rows:
        entries = [(e, o) for e in engines for o in row.cells[e].observations]
        if not entries:
            continue
        lines += ["", f"### {row.claim}", ""] + ([f"> {row.text}", ""] if row.text else [])
        for engine, o in entries:
            why = f"known difference: {o.reason}" if o.known else "**unexpected** (not in the expectations file)"
            shown_at = f"`{escape.markdown_code(o.case)}` · `{escape.markdown_code(o.at)}`"
            where = f"{escape.markdown(engine.text())} · {shown_at}"
            lines.append(f"- {where}: observed {_code(o.observed, limit=_LIST_CHARS)} — {why}")
    return lines


def _attention(bad: Sequence[Record]) -> list[str]:
    """Failures and errors, worst first: what a reader of a red run looks for first."""
    if not bad:
        return []
    lines = ["", "## Failures and errors", ""]
    for r in bad:
        if r.fault is not None:
            why = escape.markdown(r.fault.message.splitlines()[0] if r.fault.message else "")
        else:
            why = f"`{r.failing_at}`"
        where = f"{escape.markdown(r.engine.text())} · `{escape.markdown_code(r.case)}`"
        lines.append(f"- {SYMBOL[r.status]} **{r.status.value}** · {where}: {why}")
    return lines


def _timeline(t: Timeline) -> list[str]:
    """Behaviour -> first version (and last, for a window) -> the old and the new observed strings."""
    lines = [
        "",
        "## Timeline",
        "",
        f"From a scan of every release {t.versions[0]} to {t.versions[-1]} ({len(t.versions)} versions, {t.cases}",
        f"cases; `cc-harness timeline scan`, results in `{t.source}`): each behaviour that changed, with the",
        "first release that shows it. A window came in one release and went again: its last release and the one",
        "that reverted it are named. `cc-harness bisect CASE --good A --bad B` confirms a change live; a row whose",
        "field the scan does not keep (a transcript field, a probe case) comes from the results of the bisect that",
        "found it, `bisect/<behaviour>.jsonl` beside the scan.",
        "",
        "| behaviour | first version | last version | before it | cases · fields | old | new |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in t.rows:
        last = f"{row.window_end} (gone in {row.reverted_in})" if row.window_end else "—"
        case, at = row.fields[0]
        more = f" (+{len(row.fields) - 1})" if len(row.fields) > 1 else ""
        lines.append(
            f"| {escape.markdown(row.behaviour)} | {row.first} | {last} | {row.last_same} | "
            f"`{escape.markdown_code(case)}` `{escape.markdown_code(at)}`{more} | "
            f"{_code(row.old, limit=_CELL_CHARS)} | {_code(row.new, limit=_CELL_CHARS)} |"
        )
    return lines


def render(model: Model, *, catalogue_link: str | None = None, compatibility: Sequence[str] = ()) -> str:
    """``catalogue_link``: the claims catalogue relative to the report; ``compatibility``: the compatibility
    section's lines (report/compat.py), last."""
    engines, grids, rows, shown = model.engines, model.grids, model.claims, model.columns
    claims = f"[the claims catalogue]({catalogue_link})" if catalogue_link else "the claims the cases name"
    lines = [
        "# Conformance",
        "",
        "<!-- Generated by `cc-harness report` from results files: do not edit by hand. -->",
        "",
        "What each engine does with the sixteen caller → callee combinations and with every claim of",
        f"{claims}, from the suite's cases. Regenerate with",
        "`cc-harness report --results FILE...`; `cc-harness report --check` fails when this file is stale.",
        "",
        "Upgrading to a new engine version: `cc-harness check VERSION` installs `claude@VERSION`, runs every case",
        "on it and lists, claim by claim, what changed against the newest pinned version's committed snapshots",
        "and known differences (exit 0: nothing changed). `cc-harness diff A B` compares any two engines case",
        "by case, from fresh runs or from saved results (`--results-a`, `--results-b`).",
        "",
        "Statuses: "
        + " · ".join(f"{SYMBOL[s]} {s.value}" for s in reversed(WORST_FIRST))
        + ". known: a difference listed in the engine's expectations file; not-modelled: the reference engine"
        " has no measurement for it; the rest are errors, with no verdict on the engine. A grid cell counts its"
        " cases by status, worst first; · no case.",
    ]
    lines += _attention(model.attention)
    lines += [
        "",
        "## Totals",
        "",
        "| engine | " + " | ".join(s.value for s in shown) + " |",
        "|---" * (len(shown) + 1) + "|",
    ]
    lines += [
        f"| {escape.markdown(g.engine.text())} | " + " | ".join(str(g.totals[s]) for s in shown) + " |" for g in grids
    ]
    lines += ["", "## Grids"]
    for g in grids:
        lines += ["", f"### {escape.markdown(g.engine.text())}", ""]
        lines += grid_table(g)
    lines += [
        "",
        "## Claims by engine",
        "",
        "✅ holds: every case of the claim behaves as documented · 🟡 differs: a known difference (the observed",
        "string is shown) · ❌ differs: an unexpected one · 💥 error: no verdict (see the failures and errors)",
        "· ◌ not-modelled: the reference engine has no measurement for it.",
        "",
    ]
    lines += _claims_table(rows, engines)
    lines += agents.markdown_lines(model.agents)
    lines += _sources(model.sources, engines)
    observed = _observations(rows, engines)
    if observed:
        lines += ["", "## Observed differences", *observed]
    if model.timeline is not None:  # last: not from the records, so the sections above stay as they were
        lines += _timeline(model.timeline)
    lines += compatibility
    return "\n".join(lines) + "\n"
