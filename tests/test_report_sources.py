"""The reports' sources view and precedence table, from records made here (no engine runs)."""

from __future__ import annotations

import json
from pathlib import Path

from harness import results
from harness.engine_name import EngineName
from harness.outcome import Finding, Judgement, Status
from harness.report import html, markdown
from harness.reporting import model_of
from harness.reporting.sources import precedence_rows, ran_markers, source_columns, source_grid

ENGINES = ("reference", "claude@2.1.332")


def _record(case: str, engine: str, *, combination: str = "", sources: str = "", status: Status = Status.PASS,
            files: dict[str, str] | None = None, observed: str | None = None) -> results.Record:
    findings = () if observed is None else (
        Finding(at="effects[0].content", judgement=Judgement.KNOWN, expected="FROM-USER", observed=observed,
                reason="measured"),)
    name = EngineName.parse(engine)
    return results.Record(case=case, engine=name, status=status, combination=combination, claims=("L1",),
                          flags=(), duration=0.0, findings=findings, sources=sources,
                          transcript={"files": files or {}, "exchanges": []})


def _records() -> list[results.Record]:
    out = []
    for engine in ENGINES:
        known = engine != "reference"
        out += [
            _record("plain", engine, combination="skill -> tool"),
            _record("plugin-fork", engine, combination="skill -> subagent", sources="plugin -> project"),
            _record("user-hook", engine, combination="skill -> hook", sources="user -> builtin"),
            _record("clash-skill", engine, combination="skill -> hook", sources="user+project+plugin",
                    status=Status.KNOWN if known else Status.PASS,
                    files={"skills.txt": "FROM-PLUGIN\nFROM-PROJECT\n" if known else "FROM-PLUGIN\nFROM-USER\n"},
                    observed="FROM-PLUGIN\nFROM-PROJECT\n" if known else None),
            _record("clash-hooks", engine, combination="tool -> hook", sources="builtin -> user+project+plugin",
                    files={"hooks.txt": "FROM-PLUGIN\nFROM-PROJECT\nFROM-USER\nSAME-HANDLER\nSAME-HANDLER\n"}),
        ]
    return out


def test_a_record_counts_in_the_column_of_each_source_but_the_project() -> None:
    assert source_columns("") == ("project",)
    assert source_columns("plugin -> project") == ("plugin",)
    assert source_columns("builtin -> user+project+plugin") == ("user", "plugin")
    assert source_columns("project -> builtin") == ("project",)


def test_the_sources_grid_splits_each_cell_by_source() -> None:
    grid = source_grid(_records(), engine=EngineName.claude("2.1.332"), columns=("project", "user", "plugin"))
    rows = {(r.caller, r.callee): r for r in grid.rows}
    assert set(rows) == {("skill", "tool"), ("skill", "subagent"), ("skill", "hook"), ("tool", "hook")}
    hook = rows[("skill", "hook")].cells
    assert hook["user"].cases == ("clash-skill", "user-hook") and hook["plugin"].cases == ("clash-skill",)
    assert hook["user"].describe(symbols=False) == "1 known · 1 pass" and hook["project"].cases == ()


def test_the_precedence_table_shows_what_ran_from_the_markers() -> None:
    rows = precedence_rows(_records(), engines=[EngineName.parse(e) for e in ENGINES])
    assert [(r.kind, r.case, r.order) for r in rows] == [  # by the clashing part, then case id
        ("skill", "clash-skill", ("user", "project", "plugin")),
        ("hook", "clash-hooks", ("user", "project", "plugin")),
    ]
    skill, hooks = rows
    reference, claude = EngineName("reference"), EngineName.claude("2.1.332")
    assert skill.ran == {reference: "user, plugin", claude: "project, plugin"}
    assert skill.cells[reference].verdict == "holds" and skill.cells[claude].verdict == "differs"
    assert hooks.ran[reference] == "project, user, plugin; SAME-HANDLER x2"


def test_a_clash_outside_the_grid_is_named_by_what_its_runs_did(tmp_path: Path) -> None:
    def outside(case: str, engine: str, transcript: dict[str, object]) -> results.Record:
        name = EngineName.parse(engine)
        return results.Record(case=case, engine=name, status=Status.PASS, combination="", claims=("L10",),
                              flags=(), duration=0.0, sources="user+project+plugin" if "mcp" in case
                              else "cli+local+project", transcript=transcript)

    mcp: dict[str, object] = {"files": {"calls.txt": "recorded by FROM-PROJECT\n"},
           "exchanges": [{"call": {"name": "mcp__marker__record"}}], "prompts": []}
    deny: dict[str, object] = {"files": {}, "exchanges": [{"call": {"name": "Bash"}}],
            "prompts": [{"permission_denials": [{"tool_name": "Bash"}, {"tool_name": "Bash"}]}]}
    records = [outside(c, e, t) for e in ENGINES for c, t in (("clash-mcp", mcp), ("perm-deny", deny))]
    rows = {r.case: r for r in precedence_rows(records, engines=[EngineName.parse(e) for e in ENGINES])}
    reference = EngineName("reference")
    assert rows["clash-mcp"].kind == "MCP server" and rows["clash-mcp"].evidence(reference) == "ran: project"
    assert rows["perm-deny"].kind == "permission rule" and rows["perm-deny"].evidence(reference) == "refused 2 calls"
    text = markdown.render(model_of(records))
    assert "| MCP server: user, project, plugin | `clash-mcp` | ran: project · ✅ holds |" in text
    assert "| permission rule: cli + local + project | `perm-deny` | refused 2 calls · ✅ holds |" in text
    assert "<b>refused 2 calls</b>" in html.render(model_of(records))


def test_markers_are_read_from_files_only() -> None:
    record = _record("c", "reference", files={"a.txt": "nothing here"})
    assert ran_markers(record) == "(none)"


def test_markdown_and_html_render_both_views_deterministically(tmp_path: Path) -> None:
    records = _records()
    text = markdown.render(model_of(records))
    assert "## Sources" in text and "### claude@2.1.332 by source" in text
    # reference's skill -> hook: nothing from the project alone, two cases with a user part, one with a plugin part
    assert "| **skill → hook** | · | ✅ 2 pass | ✅ 1 pass |" in text
    assert "| skill: user > project > plugin | `clash-skill` | ran: user, plugin · ✅ holds |" in text
    assert "ran: project, plugin · 🟡 differs: `FROM-PLUGIN⏎FROM-PROJECT⏎`" in text
    assert markdown.render(model_of(list(reversed(records)))) == text
    page = html.render(model_of(records))
    assert '<h2 id="sources">' in page and "<b>ran: project, plugin</b>" in page
    assert html.render(model_of(list(reversed(records)))) == page


def test_a_report_without_sources_has_no_sources_section() -> None:
    records = [_record("plain", e, combination="skill -> tool") for e in ENGINES]
    assert "## Sources" not in markdown.render(model_of(records))


def test_records_written_before_the_field_read_as_project(tmp_path: Path) -> None:
    record = _record("plain", "reference", combination="skill -> tool")
    item = record.to_json()
    assert "sources" not in item  # a project-only record reads and writes as before
    assert results.Record.from_json(json.loads(json.dumps(item)), where="x").sources == ""
    with_sources = _record("p", "reference", sources="plugin -> project").to_json()
    assert results.Record.from_json(with_sources, where="x").sources == "plugin -> project"
