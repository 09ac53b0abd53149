"""Hostile results and hard stops: reports render records alone, results files survive every way a run ends.

A report is published (CI artefacts, pages), so nothing may reach it but what the records hold: not a
file a link in a case folder points to, not a folder a case id in a results file names. A results file
has one writer at a time, is never destroyed by the run that reuses it, and keeps every finished record
whether the run ends normally, on Ctrl-C, SIGTERM, SIGHUP or SIGKILL.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

from harness import results
from harness.cli import main
from tests.conftest import REPO, write_files

SUITE_TOML = 'cases = "cases"\nengines = ["reference"]\npinned = ["2.1.332"]\nreport = "report.md"\n'
SECRET = "AKIA-s3cr3t-0f-the-report-machine"

PLAIN = """\
id: {id}
title: says hello
run: {{permission_mode: bypass}}
steps:
  - prompt: Say hello.
    turns:
      - say: Hello.
"""


def _suite(root: Path, case_ids: list[str]) -> Path:
    write_files(root, {"cc-harness.toml": SUITE_TOML})
    for case_id in case_ids:
        write_files(root / "cases" / case_id, {"case.yaml": PLAIN.format(id=case_id), ".claude/settings.json": "{}"})
    return root / "cc-harness.toml"


def _harness(*argv: str, env: dict[str, str] | None = None, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """``python -m harness ARGV`` in a process of its own (the worktree's package, whatever the folder)."""
    full = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "harness", *argv], cwd=cwd, env=full, capture_output=True, text=True, timeout=300
    )


def test_a_report_never_reads_what_a_link_or_a_case_id_points_to(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write_files(outside, {"secret.txt": f"outside-file-{SECRET}\n"})
    suite = _suite(tmp_path / "suite", ["leaky", "fine"])
    leaky = tmp_path / "suite" / "cases" / "leaky"
    (leaky / "environ").symlink_to("/proc/self/environ")
    (leaky / "leak.txt").symlink_to(outside / "secret.txt")
    saved = tmp_path / "run.jsonl"
    assert main(["run", "--suite", str(suite), "--results", str(saved)]) == 1  # leaky: case-error, links refused
    kept = results.read(saved)
    fine = next(r for r in kept.records if r.case == "fine")
    climbing = dataclasses.replace(fine, case="../" * 12 + str(outside).lstrip("/"))
    results.write(saved, head=kept.head, records=[*kept.records, climbing])
    out = tmp_path / "out"
    done = _harness(
        "report", "--suite", str(suite), "--results", str(saved), "--allow-partial",
        "--markdown", str(out / "r.md"), "--html", str(out / "r.html"), "--junit", str(out / "j.xml"),
        env={"AWS_SECRET_ACCESS_KEY": SECRET},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for name in ("r.md", "r.html", "j.xml"):
        text = (out / name).read_text(encoding="utf-8")
        assert SECRET not in text, name
        assert "leaky" in text, name  # the case is reported, from its record
