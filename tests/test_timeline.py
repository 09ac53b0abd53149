"""The timeline: changes and windows from a scan's records, the reports' section, the scan's resumption,
and the CI workflow's versions x shards merged into one timeline and one report.

The analysis is checked on made-up histories (a value per version); the workflow's merge runs its own
commands, taken from .github/workflows/timeline.yml, on two real pinned versions and two shards.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from harness import results, results_writer, timeline, timeline_scan
from harness.engine_name import EngineName
from harness.outcome import Fault, Finding, Judgement, Status
from harness.report import markdown
from harness.reporting import model_of
from harness.results import Record
from tests.conftest import REPO

AT = "steps[0].turns[0].call.expect.result"


def _run(version: str, observed: str | None, *, case: str = "c", error: bool = False) -> Record:
    """One scanned run: ``observed`` at AT (None: as documented); ``error``: no verdict."""
    if error:
        fault = Fault(status=Status.TIMEOUT, message="timed out")
        return Record(
            case=case, engine=EngineName.claude(version), status=Status.TIMEOUT, combination="", claims=(), flags=(),
            duration=1.0, fault=fault,
        )  # fmt: skip
    findings = (
        () if observed is None else (Finding(at=AT, judgement=Judgement.UNEXPECTED, expected="X", observed=observed),)
    )
    status = Status.FAIL if findings else Status.PASS
    return Record(
        case=case, engine=EngineName.claude(version), status=status, combination="", claims=(), flags=(), duration=1.0,
        findings=findings, transcript={"exchanges": []},
    )  # fmt: skip


def _history(values: dict[str, str | None], **kw: bool | str) -> list[Record]:
    return [_run(v, value, **kw) for v, value in values.items()]  # type: ignore[arg-type]


def test_one_change_names_the_last_same_and_the_first_different_version() -> None:
    runs = _history(
        {
            "2.1.278": None,
            "2.1.280": None,
            "2.1.281": "PreToolUse:Bash hook error: X",
            "2.1.282": "PreToolUse:Bash hook error: X",
        }
    )
    (change,) = timeline.changes(runs)
    assert (change.last_same, change.first_different, change.is_window) == ("2.1.280", "2.1.281", False)
    # the documented side names what the case expects (the findings' expected text)
    assert (change.old, change.new) == ("(as documented: X)", "PreToolUse:Bash hook error: X")


def test_a_behaviour_that_comes_and_goes_again_is_one_window() -> None:
    """Two ends that agree (2.1.300 and 2.1.306) hide the window 2.1.302..2.1.304 from a comparison of pins."""
    values = {f"2.1.{n}": ("NEW" if 302 <= n <= 304 else None) for n in range(300, 307)}
    (window,) = timeline.changes(_history(values))
    assert window.is_window
    assert (window.last_same, window.first_different, window.window_end, window.reverted_in) == (
        "2.1.301", "2.1.302", "2.1.304", "2.1.305",
    )  # fmt: skip
    assert timeline.describe_change(window) == "2.1.302 .. 2.1.304 (last before 2.1.301, gone again in 2.1.305)"


def test_a_run_without_a_verdict_is_a_gap_not_a_change() -> None:
    runs = [_run("2.1.300", None), _run("2.1.301", None, error=True), _run("2.1.302", None), _run("2.1.303", "NEW")]
    (change,) = timeline.changes(runs)
    assert (change.last_same, change.first_different) == ("2.1.302", "2.1.303")


def test_changes_that_share_a_behaviour_and_versions_are_one_row() -> None:
    runs = [
        *_history({"2.1.280": None, "2.1.281": "P: A"}, case="a"),
        *_history({"2.1.280": None, "2.1.281": "P: B"}, case="b"),
        *_history({"2.1.280": "old", "2.1.281": "new"}, case="z"),
    ]
    rows = timeline.rows(timeline.changes(runs), label=lambda c: "deny prefix" if c.case in "ab" else None)
    assert [(r.behaviour, r.first, len(r.fields)) for r in rows] == [
        ("deny prefix", "2.1.281", 2),
        (f"z · {AT}", "2.1.281", 1),
    ]


def test_the_markdown_report_ends_with_the_timeline_and_is_otherwise_unchanged() -> None:
    """The section is last and depends on the scan only, so a report from the same records is the same above it."""
    records = [_run("2.1.332", None)]
    scan = timeline.Timeline(
        source="scan.jsonl",
        versions=("2.1.280", "2.1.281"),
        cases=1,
        rows=tuple(timeline.rows(timeline.changes(_history({"2.1.280": None, "2.1.281": "P: A|B"})))),
    )
    plain, with_timeline = markdown.render(model_of(records)), markdown.render(model_of(records, timeline=scan))
    assert with_timeline.startswith(plain)
    section = with_timeline[len(plain) :]
    assert "## Timeline" in section and "2.1.280 to 2.1.281 (2 versions, 1" in section
    assert f"| c · {AT} | 2.1.281 | — | 2.1.280 |" in section
    assert "`(as documented: X)` | `P: A\\|B` |" in section


def test_the_note_labels_the_changes_whose_case_and_versions_it_names(tmp_path: Path) -> None:
    (tmp_path / "changes.yaml").write_text(
        "- behaviour: deny prefix\n  first: 2.1.281\n  cases: [a]\n  command: cc-harness bisect a\n"
        "- behaviour: came and went\n  first: 2.1.285\n  last: 2.1.290\n  cases: [a]\n  command: x\n"
    )
    label = timeline.note_labeller(timeline.read_note(tmp_path / "scan.jsonl"))
    edge = {"at": AT, "old": "", "new": ""}
    assert label(timeline.Change(case="a", last_same="2.1.280", first_different="2.1.281", **edge)) == "deny prefix"
    assert label(timeline.Change(case="b", last_same="2.1.280", first_different="2.1.281", **edge)) is None
    window = {"window_end": "2.1.290", "reverted_in": "2.1.291"}
    assert label(timeline.Change(case="a", last_same="2.1.284", first_different="2.1.285", **edge, **window)) == (
        "came and went"
    )
    assert label(timeline.Change(case="a", last_same="2.1.284", first_different="2.1.285", **edge)) is None


def test_a_scan_resumes_after_the_versions_it_finished(tmp_path: Path) -> None:
    head = results_writer.header(engines=["claude@2.1.280"], options={}, revision="")
    results_writer.write(timeline_scan.file_for(tmp_path, "2.1.280"), head=head, records=[_run("2.1.280", None)])
    killed = timeline_scan.file_for(tmp_path, "2.1.281")
    killed.write_text(timeline_scan.file_for(tmp_path, "2.1.280").read_text().splitlines()[0] + "\n")  # no footer
    assert timeline_scan.done(tmp_path, "2.1.280")
    assert not timeline_scan.done(tmp_path, "2.1.281") and not timeline_scan.done(tmp_path, "2.1.282")


def test_merged_scan_records_are_compact(tmp_path: Path) -> None:
    full = Record(**{**_run("2.1.280", "x").__dict__, "transcript": {"exchanges": [{"result": "y" * 1000}]}})
    head = results_writer.header(engines=["claude@2.1.280"], options={}, revision="")
    results_writer.write(timeline_scan.file_for(tmp_path, "2.1.280"), head=head, records=[full])
    out = tmp_path / "scan.jsonl"
    assert timeline_scan.merge_scan(timeline_scan.scan_files(tmp_path), out) == 1
    (record,) = results.read(out).records
    assert record.transcript is None and record.findings == full.findings


def _workflow_commands() -> tuple[str, str]:
    """The scan job's and the merge job's shell commands, as the workflow runs them."""
    jobs = yaml.safe_load((REPO / ".github" / "workflows" / "timeline.yml").read_text(encoding="utf-8"))["jobs"]
    scan = next(s["run"] for s in jobs["scan"]["steps"] if "cc-harness run" in s.get("run", ""))
    merge = next(s["run"] for s in jobs["merge"]["steps"] if "timeline merge" in s.get("run", ""))
    return scan, merge


def _workflow_step(command: str, *, cwd: Path, env: dict[str, str]) -> None:
    """Run one workflow step's shell command as the runner does (bash -euo pipefail); it must succeed."""
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.xdist_group("test_report_html")  # real pinned engines, like the HTML report's fixture
def test_versions_times_shards_merge_into_one_timeline_and_report(tmp_path: Path) -> None:
    """The workflow's own commands for 2 versions x 2 shards, then its merge: one timeline, one report with a
    column per version. cc-harness is this checkout (a shim on PATH); the cases are the three tool-hook ones."""
    scan, merge = _workflow_commands()
    shim = tmp_path / "bin" / "cc-harness"
    shim.parent.mkdir()
    suite = shlex.quote(str(REPO / "pyproject.toml"))
    shim.write_text(
        f'#!/bin/sh\ncommand=$1; shift\nexec {shlex.quote(sys.executable)} -m harness "$command" --suite {suite} "$@"\n'
    )
    shim.chmod(0o755)
    work = tmp_path / "ci"
    (work / "results").mkdir(parents=True)
    env = {**os.environ, "PATH": f"{shim.parent}:{os.environ['PATH']}", "PYTHONPATH": str(REPO), "CASES": "tool-hook-*"}
    versions = ("2.1.278", "2.1.332")
    for version in versions:
        for shard in ("1/2", "2/2"):
            command = scan.replace("${{ matrix.version }}", version).replace("${{ matrix.shard }}", shard)
            _workflow_step(command, cwd=work, env=env)
    files = sorted((work / "results").glob("claude-*.jsonl"))
    assert len(files) == 4
    _workflow_step(merge, cwd=work, env=env)
    merged = results.read(work / "results" / "timeline.jsonl").records
    assert {r.engine.text() for r in merged} == {f"claude@{v}" for v in versions}
    # the shards split the three cases 1 / 2 (by a hash of the case id)
    assert {r.case for r in merged} == {"tool-hook-around", "tool-hook-pretooluse-deny", "tool-hook-pretooluse-absent"}
    shown = (work / "results" / "timeline.txt").read_text()
    assert "2.1.332 (last same 2.1.278)  tool-hook-pretooluse-deny  steps[0].turns[0].call.expect.result" in shown
    report = (work / "results" / "TIMELINE-REPORT.md").read_text()
    assert "| claim | claude@2.1.278 | claude@2.1.332 |" in report
    assert "## Timeline" in report and "PreToolUse:Bash hook error: BLOCKED-BY-SETTINGS-HOOK" in report


@pytest.mark.xdist_group("faults-real-engine")
@pytest.mark.skipif(not any(Path(p, "npm").exists() for p in os.environ["PATH"].split(":")), reason="no npm")
def test_a_real_scan_prunes_as_it_goes_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two releases, one case, a cache budget of one byte: each version is installed, run and removed; a
    second scan finds both done and installs nothing. The change between them is the hook deny prefix."""
    from harness.case import discover_cases
    from harness.engines.cache import installs
    from tests.conftest import EXPECTATIONS, SUITE

    root = tmp_path / "cache"
    monkeypatch.setenv("CC_HARNESS_CACHE", str(root))
    (case,) = [c for c in discover_cases(SUITE.cases, catalogue=SUITE.catalogue) if c.id == "tool-hook-pretooluse-deny"]
    said: list[str] = []
    kw = {"folder": tmp_path / "scan", "expectations": EXPECTATIONS, "jobs": 1, "max_cache_bytes": 1, "pinned": ()}
    timeline_scan.scan(["2.1.280", "2.1.281"], [case], say=said.append, root=root, **kw)  # type: ignore[arg-type]
    assert [line.split(":")[0] for line in said] == ["2.1.280", "2.1.281"]
    assert "pruned 2.1.280" in said[0] and installs(root=root) == []
    timeline_scan.scan(["2.1.280", "2.1.281"], [case], say=said.append, root=root, **kw)  # type: ignore[arg-type]
    assert said[2:] == ["2.1.280: done before, skipped", "2.1.281: done before, skipped"]
    records = [r for f in timeline_scan.scan_files(tmp_path / "scan") for r in results.read(f).records]
    (change,) = timeline.changes(records)
    assert (change.last_same, change.first_different) == ("2.1.280", "2.1.281")
    assert change.new == "PreToolUse:Bash hook error: BLOCKED-BY-SETTINGS-HOOK"


def test_a_behaviour_the_scan_cannot_show_gets_its_row_from_its_bisect(tmp_path: Path) -> None:
    """A transcript field is not in the compact scan: the note's behaviour takes its versions from the note
    and its old and new values from the two probes of ``bisect/<behaviour>.jsonl`` either side of it."""
    scan = tmp_path / "scan.jsonl"
    head = results_writer.header(engines=["claude@2.1.280"], options={}, revision="")
    results_writer.write(scan, head=head, records=[_run("2.1.280", None), _run("2.1.281", None)])
    (tmp_path / "changes.yaml").write_text(
        "- behaviour: frame\n  first: 2.1.282\n  cases: [c]\n  command: cc-harness bisect c --field R\n"
        "- behaviour: unbisected\n  first: 2.1.290\n  cases: [c]\n  command: x\n"
    )
    frame = "[frame] " + "the frame says a great deal before it differs: " * 2

    def probe(version: str, reply: str) -> Record:
        record = _run(version, None)
        exchange = {"context": "main", "step": 1, "turn": 1, "result": reply}
        return dataclasses.replace(record, transcript={"exchanges": [exchange]})

    probes = [probe("2.1.278", frame + "HELLO"), probe("2.1.281", frame + "HELLO"), probe("2.1.282", frame + "HI")]
    bisect_head = results_writer.header(
        engines=[], options={"command": "bisect", "field": "steps[0].turns[0].result"}, revision=""
    )
    (tmp_path / "bisect").mkdir()
    results_writer.write(tmp_path / "bisect" / "frame.jsonl", head=bisect_head, records=probes)
    loaded = timeline.load(scan, note=timeline.read_note(scan))
    assert loaded is not None
    [row] = loaded.rows
    assert (row.behaviour, row.first, row.last_same, row.window_end) == ("frame", "2.1.282", "2.1.281", None)
    assert row.fields == (("c", "steps[0].turns[0].result"),)
    assert row.old.startswith("…") and row.old.endswith("differs: HELLO") and row.new.endswith("differs: HI")
    section = markdown.render(model_of([_run("2.1.332", None)], timeline=loaded))
    assert "| frame | 2.1.282 | — | 2.1.281 | `c` `steps[0].turns[0].result` |" in section


def test_the_committed_timeline_renders_in_markdown_with_its_windows_and_its_bisected_rows() -> None:
    scan = REPO / "docs" / "timeline" / "scan.jsonl"
    loaded = timeline.load(scan, note=timeline.read_note(scan))
    assert loaded is not None and loaded.versions[0] == "2.1.252" and loaded.versions[-1] == "2.1.332"
    assert len(loaded.versions) == 70, "every release of the range"
    section = markdown.render(model_of([_run("2.1.332", None)], timeline=loaded)).split("## Timeline", 1)[1]
    assert "From a scan of every release 2.1.252 to 2.1.332 (70 versions" in section
    assert "| hook_deny_reason_names_event | 2.1.281 | — | 2.1.280 |" in section
    assert "| auto_mode_classifier_refusal | 2.1.285 | 2.1.301 (gone in 2.1.302) | 2.1.284 |" in section
    frame = "| agent_result_hand_back_frame | 2.1.277 | — | 2.1.276 | `subagent-tool-inherit` `steps[0].turns[0]"
    assert frame in section, "a transcript field's row, from its bisect"
    assert "| plugin_skill_listing_shows_alias | 2.1.290 | — | 2.1.289 |" in section
