"""A single-file HTML report: the Markdown report's grids and claims, plus one section per case.

A case section shows each engine's transcript side by side, one row per exchange, so a difference
between engines sits on one line. The page is rendered from the records alone: nothing is read from the
filesystem, least of all through a case id or a link in a case folder (a results file is input, and a
case folder may hold ``environ -> /proc/self/environ``); the fixture is named, not shown.
Failures and errors come first. No external assets: inline CSS, ``<details>`` for the long parts, and
a few lines of inline script for the filter by status, engine and claim (without script every case
shows; ``report.html?status=fail&engine=claude@2.1.332`` opens the page filtered). Statuses are
words on coloured cells, not emoji: a browser without an emoji font (headless CI) would draw empty
boxes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from harness.engine_name import EngineName
from harness.outcome import WORST_FIRST, Judgement, Status
from harness.report import agents
from harness.report.escape import html as escape
from harness.report.model import (
    CaseRuns,
    ClaimCell,
    ClaimRow,
    EngineGrid,
    Model,
    PrecedenceRow,
    SourceGrid,
    Sources,
    Verdict,
)
from harness.results import Record
from harness.timeline_model import Timeline

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
main{max-width:1400px;margin:0 auto;padding:24px}
h1{margin-top:0}h2{border-bottom:2px solid #d5d9e0;padding-bottom:4px;margin-top:40px}
table{border-collapse:collapse;margin:8px 0 16px;background:#fff}
th,td{border:1px solid #d5d9e0;padding:6px 8px;vertical-align:top;text-align:left;overflow-wrap:anywhere}
th{background:#eef0f4;overflow-wrap:normal;word-break:keep-all}
table.grid th{white-space:nowrap}
table.grid td{min-width:120px}
.pass,.holds{background:#e6f6ea}.known,.differs{background:#fff6d6}.fail,.unexpected{background:#fde8e8}
.error,.timeout,.crash,.api-fault,.install-error,.case-error,.harness-error{background:#f9d7d7;font-weight:600}
.not-modelled,.none{background:#f1f1f1;color:#777}
.counts span{display:block;white-space:nowrap}.counts small{display:block}
#filter{position:sticky;top:0;background:#f6f7f9;padding:8px 0;border-bottom:1px solid #d5d9e0;z-index:1}
#filter label{margin-right:16px}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#eef0f4;padding:0 3px;border-radius:3px}
section.case{background:#fff;border:1px solid #d5d9e0;border-radius:6px;padding:12px 16px;margin:16px 0}
section.case h3{margin:0 0 4px}
.meta{color:#555}
details{margin:4px 0}summary{cursor:pointer;font-weight:600}
table.transcript{width:100%;table-layout:fixed}
table.transcript td.changed{outline:2px solid #d9822b;outline-offset:-2px}
.label{white-space:nowrap;font:12px ui-monospace,Menlo,Consolas,monospace;width:170px}
.tag{display:inline-block;border-radius:3px;padding:0 5px;margin-right:4px;font-size:12px}
ol.notes{font-size:13px;color:#333}
table.timeline tr.window{background:#fff6d6}
"""


def _pre(text: str) -> str:
    return f"<pre>{escape(text)}</pre>"


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)


def _grid(g: EngineGrid) -> str:
    head = "".join(f"<th>{escape(p)}</th>" for p in g.callees)
    rows = []
    for caller in g.callers:
        tds = []
        for callee in g.callees:
            cell = g.cell(caller, callee)
            marks = ",".join(str(n.number) for n in g.notes_for(cell))
            sup = f"<sup>{marks}</sup>" if marks else ""
            if not cell.cases:
                tds.append('<td class="none">·</td>')
                continue
            links = ", ".join(f'<a href="#case-{escape(c)}">{escape(c)}</a>' for c in cell.cases)
            worst = cell.worst.value if cell.worst else "none"
            counted = "".join(f"<span>{n} {s.value}</span>" for s, n in cell.counts)
            tds.append(f'<td class="{worst} counts">{counted}<small>{sup}{links}</small></td>')
        rows.append(f"<tr><th>{escape(caller)}</th>{''.join(tds)}</tr>")
    notes = "".join(f'<li value="{n.number}">{escape(n.text)}</li>' for n in g.footnotes)
    outside = ""
    if g.outside:
        items = ", ".join(
            f'<a href="#case-{escape(r.case)}">{escape(r.case)}</a> <span class="tag {r.status}">{r.status}</span>'
            for r in g.outside
        )
        outside = f"<p>Outside the grid: {items}</p>"
    return (
        f'<h3 id="grid-{escape(g.engine.text())}">{escape(g.engine.text())}</h3>'
        f'<table class="grid"><tr><th>caller ↓ / callee →</th>{head}</tr>{"".join(rows)}</table>'
        + (f'<ol class="notes">{notes}</ol>' if notes else "")
        + outside
    )


def _verdict_cell(cell: ClaimCell, *, evidence: str = "") -> str:
    """A claim's (or a clash case's) verdict on one engine, with every observed difference; ``evidence``:
    what a clash case's run shows (``ran: user, plugin``, ``refused 2 calls``)."""
    if cell.verdict is Verdict.NONE:
        return '<td class="none">·</td>'
    css = "unexpected" if cell.unexpected else ("known" if cell.verdict is Verdict.DIFFERS else cell.verdict.value)
    body = "differs (unexpected)" if cell.unexpected else ("known difference" if css == "known" else cell.verdict.value)
    if evidence:
        body = f"<div><b>{escape(evidence)}</b></div>{body}"
    for o in cell.observations:
        why = f"known: {o.reason}" if o.known else "unexpected"
        body += (
            f"<div><small>{escape(o.case)} · <code>{escape(o.at)}</code> ({escape(why)})</small>"
            f"{_pre(o.observed if o.observed is not None else '(nothing)')}</div>"
        )
    if cell.stale:
        body += f"<div><small>stale expectation: {escape(', '.join(cell.stale))}</small></div>"
    return f'<td class="{css}">{body}</td>'


def _claims(rows: Sequence[ClaimRow], engines: Sequence[EngineName]) -> str:
    head = "".join(f"<th>{escape(e.text())}</th>" for e in engines)
    out = [
        f'<tr><th title="{escape(row.text)}">{escape(row.claim)}</th>'
        + "".join(_verdict_cell(row.cells[e]) for e in engines)
        + "</tr>"
        for row in rows
    ]
    return f'<table class="claims"><tr><th>claim</th>{head}</tr>{"".join(out)}</table>'


def _source_grid(g: SourceGrid) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in g.columns)
    rows = []
    for row in g.rows:
        tds = []
        for column in g.columns:
            cell = row.cells[column]
            if not cell.cases:
                tds.append('<td class="none">·</td>')
                continue
            links = ", ".join(f'<a href="#case-{escape(c)}">{escape(c)}</a>' for c in cell.cases)
            counted = "".join(f"<span>{n} {s.value}</span>" for s, n in cell.counts)
            worst = cell.worst.value if cell.worst else "none"
            tds.append(f'<td class="{worst} counts">{counted}<small>{links}</small></td>')
        rows.append(f"<tr><th>{escape(row.label)}</th>{''.join(tds)}</tr>")
    return (
        f'<h3 id="sources-{escape(g.engine.text())}">{escape(g.engine.text())}</h3>'
        f'<table class="grid sources"><tr><th>caller → callee</th>{head}</tr>{"".join(rows)}</table>'
    )


def _precedence(rows: Sequence[PrecedenceRow], engines: Sequence[EngineName]) -> str:
    head = "".join(f"<th>{escape(e.text())}</th>" for e in engines)
    out = []
    for row in rows:
        order = f"{escape(row.kind)}: " + escape(row.joiner).join(escape(s) for s in row.order)
        out.append(
            f'<tr><th>{order}</th><td><a href="#case-{escape(row.case)}">{escape(row.case)}</a></td>'
            + "".join(_verdict_cell(row.cells[e], evidence=row.evidence(e)) for e in engines)
            + "</tr>"
        )
    return f'<table class="precedence"><tr><th>defined in</th><th>case</th>{head}</tr>{"".join(out)}</table>'


def _sources(sources: Sources | None, engines: Sequence[EngineName]) -> str:
    """The sources-by-grid view per engine and the precedence table (as in the Markdown report)."""
    if sources is None:
        return ""
    grids = "".join(_source_grid(g) for g in sources.grids)
    table = (
        '<h3 id="precedence">Precedence as measured</h3><p>One row per clash case: the same name defined in several '
        "sources (for hooks, the handlers of several sources). defined in: a &gt; b, a wins by the documented "
        "precedence; a + b, merged (every hook handler runs, a deny rule of any source binds); a, b, no documented "
        "order. ran: the sources whose definitions ran, from the FROM-&lt;source&gt; markers they leave in the run's "
        "files; refused: the calls a permission case's rules refused. holds: as the case documents (for hooks: "
        "merged, a handler repeated across settings files run once); differs: what the engine did instead.</p>"
        f"{_precedence(sources.precedence, engines)}"
        if sources.precedence
        else ""
    )
    return (
        '<h2 id="sources">Sources</h2><p>Where the parts of a grid cell come from (the case file\'s '
        "<code>sources</code>): a case counts in the column of each source other than the project that one of its "
        f"parts comes from.</p>{grids}{table}"
    )


def _exchange(ex: Mapping[str, Any] | None) -> str:
    if ex is None:
        return "<em>(no such turn)</em>"
    out = []
    if "offered" in ex:
        tools = ex["offered"]
        out.append(f"<details><summary>offered {len(tools)} tools</summary>{_pre(', '.join(tools))}</details>")
    if "say" in ex:
        out.append(f"<div><b>say</b>{_pre(str(ex['say']))}</div>")
    if "call" in ex:
        call = ex["call"]
        out.append(f"<div><b>call {escape(str(call.get('name')))}</b>{_pre(_json(call.get('input')))}</div>")
        result = ex.get("result")
        flag = " (is_error)" if ex.get("is_error") else ""
        out.append(f"<div><b>result{flag}</b>{_pre(result if result is not None else '(no result)')}</div>")
    for problem in ex.get("offer_problems", ()):
        out.append(f'<div class="unexpected">{escape(str(problem))}</div>')
    return "".join(out)


def _transcripts(runs: CaseRuns) -> str:
    case_records = runs.records
    head = "".join(
        f'<th><span class="tag {r.status.value}">{r.status.value}</span>{escape(r.engine.text())}</th>'
        for r in case_records
    )
    rows: list[str] = []

    def row(label: str, values: list[Any], render: Any) -> None:
        first = values[0]
        tds = "".join(
            f'<td class="{"changed" if i and v != first else ""}">{render(v)}</td>' for i, v in enumerate(values)
        )
        rows.append(f'<tr><td class="label">{escape(label)}</td>{tds}</tr>')

    verdicts = []
    for r in case_records:
        lines = [r.fault.render()] if r.fault else []
        for f in r.findings:
            if f.judgement is Judgement.UNEXPECTED:
                lines.append(f"{f.at}: expected {f.expected}, got {f.observed!r}")
            elif f.judgement is Judgement.STALE:
                lines.append(f"{f.at}: stale known difference, {f.observed!r} no longer observed")
            else:
                lines.append(f"{f.at}: known difference ({f.reason}), observed {f.observed!r}")
        verdicts.append("\n".join(lines))
    row("verdict", verdicts, lambda v: _pre(v) if v else "<em>as documented</em>")
    keyed = runs.exchanges
    labels = list(dict.fromkeys(label for k in keyed for label in k))
    for label in labels:
        row(label, [k.get(label) for k in keyed], _exchange)
    prompts = [{p.get("step"): p for p in (r.transcript or {}).get("prompts", ())} for r in case_records]
    for step in sorted({s for p in prompts for s in p if s is not None}):
        row(f"prompt {step} result", [p.get(step) for p in prompts], lambda v: _pre(_json(v)) if v else "")
    files = [(r.transcript or {}).get("files", {}) for r in case_records]
    for name in sorted({n for f in files for n in f}):
        row(
            f"file {name}",
            [f.get(name) for f in files],
            lambda v: _pre(v if isinstance(v, str) else _json(v)) if v is not None else "<em>(not written)</em>",
        )
    width = "".join('<col style="width:auto">' for _ in case_records)
    return (
        f'<table class="transcript"><colgroup><col style="width:170px">{width}</colgroup>'
        f"<tr><th>field</th>{head}</tr>{''.join(rows)}</table>"
    )


def _case_section(runs: CaseRuns, *, cases_dir: str) -> str:
    case_id, case_records = runs.case, runs.records
    first = case_records[0]
    claims = ", ".join(first.claims)
    flags = ", ".join(first.flags) or "none"
    data = (
        f' data-results=" {escape(" ".join(f"{r.engine}={r.status.value}" for r in case_records))} "'
        f' data-claims=" {escape(" ".join(first.claims))} "'
    )
    return (
        f'<section class="case" id="case-{escape(case_id)}"{data}><h3>{escape(case_id)}</h3>'
        f'<div class="meta">{escape(first.combination or "outside the grid")} · claims {escape(claims or "none")}'
        f" · flags {escape(flags)}</div>"
        f'<div class="meta">fixture: <code>{escape(cases_dir)}/{escape(case_id)}/</code> in the suite</div>'
        f"<h4>Transcripts</h4>{_transcripts(runs)}</section>"
    )


def _filter(engines: Sequence[EngineName], claims: Sequence[str]) -> str:
    """Three selects; the script at the end of the page hides the case sections that do not match (all
    show without script)."""

    def select(name: str, label: str, values: Sequence[str]) -> str:
        options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
        return f'<label>{label} <select id="filter-{name}"><option value="">all</option>{options}</select></label>'

    statuses = [s.value for s in WORST_FIRST]
    return (
        '<div id="filter">'
        + select("status", "status", ["failing or error", *statuses])
        + select("engine", "engine", [e.text() for e in engines])
        + select("claim", "claim", claims)
        + '<span id="filter-count"></span></div>'
    )


_BAD = " ".join(s.value for s in Status if s.is_bad)
# A case shows when one of its (engine, status) results matches both the engine and the status chosen.
_FILTER_JS = (
    "(function(){var ids=['status','engine','claim'],bad='" + _BAD + "'.split(' ');"
    "function want(s,v){return v===''||(v==='failing or error'?bad.indexOf(s)>=0:s===v);}"
    "function apply(){var v={};ids.forEach(function(k){v[k]=document.getElementById('filter-'+k).value;});var n=0;"
    "document.querySelectorAll('section.case').forEach(function(s){"
    "var ok=s.dataset.results.trim().split(' ').some(function(p){var i=p.lastIndexOf('=');"
    "return (v.engine===''||p.slice(0,i)===v.engine)&&want(p.slice(i+1),v.status);});"
    "if(ok&&v.claim){ok=s.dataset.claims.indexOf(' '+v.claim+' ')>=0;}"
    "s.style.display=ok?'':'none';if(ok){n++;}});"
    "document.getElementById('filter-count').textContent=n+' cases shown';}"
    "var q=new URLSearchParams(location.search);ids.forEach(function(k){var e=document.getElementById('filter-'+k);"
    "if(q.get(k)!==null){e.value=q.get(k);}e.addEventListener('change',apply);});"
    "apply();})();"
)


def _attention(bad: Sequence[Record]) -> str:
    """Failures and errors first, each linked to its case."""
    if not bad:
        return "<p>No failures and no errors.</p>"
    items = []
    for r in bad:
        why = r.fault.message.splitlines()[0] if r.fault and r.fault.message else (r.failing_at or "")
        items.append(
            f'<li><span class="tag {r.status.value}">{r.status.value}</span> {escape(r.engine.text())} · '
            f'<a href="#case-{escape(r.case)}">{escape(r.case)}</a>: <code>{escape(why)}</code></li>'
        )
    return f"<ul>{''.join(items)}</ul>"


def _timeline(t: Timeline | None) -> str:
    """The timeline section: behaviour, first and last version, old and new strings side by side."""
    if t is None:
        return ""
    rows = []
    for row in t.rows:
        last = f"{row.window_end} (gone in {row.reverted_in})" if row.window_end else "—"
        fields = "".join(f"<div><code>{escape(case)}</code> <code>{escape(at)}</code></div>" for case, at in row.fields)
        css = ' class="window"' if row.window_end else ""
        rows.append(
            f"<tr{css}><th>{escape(row.behaviour)}</th><td>{escape(row.first)}</td><td>{escape(last)}</td>"
            f"<td>{escape(row.last_same)}</td><td><details><summary>{len(row.fields)} field(s)</summary>{fields}"
            f"</details></td><td>{_pre(row.old)}</td><td>{_pre(row.new)}</td></tr>"
        )
    return (
        f'<h2 id="timeline">Timeline</h2><p>From a scan of every release {escape(t.versions[0])} to '
        f"{escape(t.versions[-1])} ({len(t.versions)} versions, {t.cases} cases; results in "
        f"<code>{escape(t.source)}</code>): each behaviour that changed and the first release that shows it; a "
        "window came and went again. A row whose field the scan does not keep (a transcript field, a probe case) "
        "comes from the bisect that found it (<code>bisect/&lt;behaviour&gt;.jsonl</code>).</p>"
        '<table class="timeline"><tr><th>behaviour</th><th>first version</th><th>last version</th><th>before it</th>'
        f"<th>cases · fields</th><th>old</th><th>new</th></tr>{''.join(rows)}</table>"
    )


def render(model: Model, *, cases_dir: str = "cases", compatibility: str = "") -> str:
    """The page, from the model alone; ``cases_dir``: the name the fixture lines give the suite's cases folder;
    ``compatibility``: the compatibility section (report/compat.py), after the timeline."""
    records, engines, grids, rows, shown = model.records, model.engines, model.grids, model.claims, model.columns
    totals = "".join(
        f"<tr><th>{escape(g.engine.text())}</th>" + "".join(f"<td>{g.totals[s]}</td>" for s in shown) + "</tr>"
        for g in grids
    )
    sections = "".join(_case_section(runs, cases_dir=cases_dir) for runs in model.cases)
    index = " · ".join(f'<a href="#case-{escape(c)}">{escape(c)}</a>' for c in sorted(r.case for r in model.cases))
    claims = sorted({c for r in records for c in r.claims})
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>cc-harness conformance report</title><style>{_CSS}</style></head>
<body><main>
<h1>cc-harness conformance report</h1>
<p class="meta">Engines: {escape(", ".join(e.text() for e in engines))} · {len(model.cases)} cases ·
generated by <code>cc-harness report</code></p>
<h2 id="attention">Failures and errors</h2>
{_attention(model.attention)}
<h2 id="totals">Totals</h2>
<table><tr><th>engine</th>{"".join(f"<th>{s.value}</th>" for s in shown)}</tr>{totals}</table>
<h2 id="grids">Grids</h2>
{"".join(_grid(g) for g in grids)}
<h2 id="claims">Claims by engine</h2>
{_claims(rows, engines)}
{agents.html_section(model.agents)}
{_timeline(model.timeline)}
{compatibility}
{_sources(model.sources, engines)}
<h2 id="cases">Cases</h2>
{_filter(engines, claims)}
<p>{index}</p>
{sections}
<script>{_FILTER_JS}</script>
</main></body></html>
"""
