"""``cc-harness report`` from real saved results: Markdown grid and claims, --check, JUnit, bad input."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from harness import results
from harness.case.spec import PARTS
from harness.cli import main
from harness.outcome import WORST_FIRST, Finding, Judgement, Status
from harness.report import junit, markdown
from harness.report.model import SYMBOL
from harness.reporting import model_of
from harness.reporting.grid import COLUMNS, cell_name

#: one worker builds ``saved`` (two real engines) for the whole module under ``pytest -n``
pytestmark = pytest.mark.xdist_group("test_report")

ENGINES = ("claude@2.1.252", "claude@2.1.332")
#: Cases from the suite covering an impossible cell, a hook cell and a status that differs by version.
CASES = ("tool-*", "skill-tool-allowed-tools-approval")


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "run.jsonl"
    argv = ["run", "--engine", ",".join(ENGINES), "--results", str(path)]
    for glob in CASES:
        argv += ["--case", glob]
    main(argv)
    return path


@pytest.fixture(scope="module")
def records(saved: Path) -> list[results.Record]:
    return results.read(saved).records


def _grid_section(text: str, engine: str) -> str:
    start = text.index(f"\n### {engine}\n")
    ends = [i for i in (text.find("\n### ", start + 1), text.find("\n## ", start + 1)) if i != -1]
    return text[start : min(ends, default=len(text))]


def test_every_record_is_real(records: list[results.Record]) -> None:
    assert {r.engine.text() for r in records} == set(ENGINES)
    assert not any(r.status.is_error for r in records), [r.explain() for r in records if r.status.is_error]
    assert all(r.transcript and r.transcript["exchanges"] for r in records)


def test_grid_cells_count_their_cases_by_status_worst_first(records: list[results.Record]) -> None:
    text = markdown.render(model_of(records))
    for engine in ENGINES:
        section = _grid_section(text, engine)
        rows = {line.split("|")[1].strip(" *"): line for line in section.splitlines() if line.startswith("| **")}
        assert set(rows) == set(PARTS)
        for caller in PARTS:
            cells = [c.strip() for c in rows[caller].split("|")[2:-1]]
            for callee, cell in zip(COLUMNS, cells, strict=True):
                mine = [r for r in records if r.engine.text() == engine and r.combination == cell_name(caller, callee)]
                if not mine:
                    assert cell == "·"
                    continue
                statuses = [r.status for r in mine]
                expected = " · ".join(f"{SYMBOL[s]} {statuses.count(s)} {s}" for s in WORST_FIRST if s in statuses)
                assert cell.split("<sup>")[0] == expected, (engine, caller, callee, cell)


def test_impossible_cells_get_a_footnote_naming_their_cases(records: list[results.Record]) -> None:
    section = _grid_section(markdown.render(model_of(records)), ENGINES[0])
    impossible = sorted(r.case for r in records if r.engine.text() == ENGINES[0] and "impossible" in r.flags)
    assert impossible, "the selection has impossible cases (tool -> *)"
    notes = [line for line in section.splitlines() if re.match(r"^\d+\. ", line)]
    named = [c for line in notes if "impossible" in line for c in impossible if c in line]
    assert sorted(set(named)) == impossible
    tool_row = next(line for line in section.splitlines() if line.startswith("| **tool**"))
    assert "<sup>" in tool_row


def test_claims_table_says_holds_or_differs_with_the_observed_string(records: list[results.Record]) -> None:
    text = markdown.render(model_of(records))
    table = text[text.index("## Claims by engine") :]
    rows = {line.split("|")[1].strip(" *"): line for line in table.splitlines() if line.startswith("| **")}
    assert rows, "no claim rows parsed"
    for claim, line in rows.items():
        cells = [c.strip() for c in line.split("|")[2:-1]]
        for engine, cell in zip(ENGINES, cells, strict=True):
            mine = [r for r in records if r.engine.text() == engine and claim in r.claims]
            observed = [o for r in mine for o in r.observed()]
            if not mine:
                assert cell == "·"
            elif observed:
                assert "differs" in cell, (claim, engine, cell)
                first = sorted((r.case, at, got or "") for r in mine for at, got in r.observed())[0][2]
                assert first.replace("\n", "⏎")[:40].replace("|", "\\|") in cell
            else:
                assert "holds" in cell, (claim, engine, cell)


def test_markdown_is_deterministic(records: list[results.Record]) -> None:
    text = markdown.render(model_of(records))
    assert markdown.render(model_of(list(reversed(records)))) == text
    assert not re.search(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", text), "no timestamps in the committed report"


def test_two_entries_at_one_field_list_in_one_order_whatever_the_findings_order(
    records: list[results.Record],
) -> None:
    """An intermittent race listed twice at one field (the file empty, or absent): which one a run showed
    decides the findings' order, and the committed report must not change with it."""
    empty = Finding(at="effects[0].content", judgement=Judgement.KNOWN, expected="x", observed="", reason="empty")
    absent = Finding(
        at="effects[0].content", judgement=Judgement.INTERMITTENT, expected=None, observed=None, reason="absent"
    )
    one, *rest = records
    texts = {
        markdown.render(model_of([replace(one, status=Status.KNOWN, findings=order), *rest]))
        for order in ((empty, absent), (absent, empty))
    }
    assert len(texts) == 1
    (text,) = texts
    empty_at = text.index("observed `` — known difference: empty")
    assert empty_at < text.index("observed (nothing) — known difference: absent")


def test_report_check_passes_when_current_and_fails_when_stale(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md = tmp_path / "CONFORMANCE.md"
    argv = ["report", "--results", str(saved), "--markdown", str(md)]
    assert main([*argv, "--html", str(tmp_path / "r.html"), "--junit", str(tmp_path / "j.xml")]) == 0
    assert main([*argv, "--check"]) == 0
    md.write_text(md.read_text(encoding="utf-8").replace("| ✅ 1 pass", "| ❌ 1 fail", 1), encoding="utf-8")
    capsys.readouterr()
    assert main([*argv, "--check"]) == 1
    captured = capsys.readouterr()
    assert "is stale" in captured.err and "-| **" in captured.out  # a unified diff of the stale lines
    md.unlink()
    assert main([*argv, "--check"]) == 1


def test_junit_counts_match_the_records(records: list[results.Record]) -> None:
    root = ET.fromstring(junit.render(model_of(records)))
    assert [s.get("name") for s in root.findall("testsuite")] == list(ENGINES)
    for suite in root.findall("testsuite"):
        mine = [r for r in records if r.engine.text() == suite.get("name")]
        t = results.totals(mine)
        assert int(suite.get("tests", -1)) == len(mine) == len(suite.findall("testcase"))
        assert int(suite.get("failures", -1)) == t[Status.FAIL] == len(suite.findall("testcase/failure"))
        assert len(suite.findall("testcase/skipped")) == t[Status.KNOWN] + t[Status.NOT_MODELLED]
        failing = {c.get("name") for c in suite.findall("testcase") if c.find("failure") is not None}
        assert failing == {r.case for r in mine if r.status == "fail"}


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda lines: [*lines[:2], "{not json", *lines[2:]], ":3: not JSON"),
        (lambda lines: lines[:-1], "no footer line"),
        (lambda lines: [lines[0], json.dumps({"type": "case", "case": "x"}), *lines[1:]], ":2: case record lacks"),
        (lambda lines: lines[1:], "case record before the header"),
        (lambda lines: [*lines[:-1], json.dumps({"type": "footer", "totals": {}})], "footer totals"),
    ],
)
def test_malformed_results_are_named_by_file_and_line(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], mangle: object, message: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    lines = saved.read_text(encoding="utf-8").splitlines()
    bad.write_text("\n".join(mangle(lines)) + "\n", encoding="utf-8")  # type: ignore[operator]
    assert main(["report", "--results", str(bad), "--markdown", str(tmp_path / "x.md")]) == 2
    err = capsys.readouterr().err
    assert f"error: {bad}" in err and message in err
    assert not (tmp_path / "x.md").exists()


def test_the_same_record_in_two_files_is_an_error(saved: Path) -> None:
    with pytest.raises(results.ResultsError, match=re.escape(str(saved))):
        results.merge([saved, saved])
