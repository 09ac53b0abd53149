"""init's last lines say what comes next in each outcome: no ``next:`` when no case was written, and a
``next:`` that counts the runs that recorded no snapshot when some failed (pytest fails those)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import scaffold
from harness.cli import main
from harness.scaffold import SnapshotProblem
from tests.conftest import PINNED, write_files

VERSION = PINNED[-1]

SKILL = """\
---
name: greet
description: Greets
---
Say GREETINGS.
"""


def _repo(root: Path) -> Path:
    write_files(root, {".claude/skills/greet/SKILL.md": SKILL})
    return root


def test_no_next_line_when_only_the_gitignore_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path / "team")
    assert main(["init", str(repo), "--pinned", VERSION, "--no-snapshots"]) == 0
    (repo / ".gitignore").write_text("", encoding="utf-8")  # the team dropped results/ from it since
    capsys.readouterr()
    assert main(["init", str(repo), "--pinned", VERSION, "--no-snapshots"]) == 0
    out = capsys.readouterr().out
    assert "wrote  .gitignore" in out and "kept   claude-cases/skill-greet" in out
    assert out.strip().splitlines()[-1] == (
        "no new case: every part of the setup has its case, or a 'no case:' line says why"
    )
    assert "next:" not in out and "recording" not in out


def test_nothing_written_ends_with_nothing_to_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path / "team")
    assert main(["init", str(repo), "--pinned", VERSION, "--no-snapshots"]) == 0
    capsys.readouterr()
    assert main(["init", str(repo), "--pinned", VERSION, "--no-snapshots"]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == "nothing to write: every definition already has its case"
    assert "next:" not in out


@pytest.mark.parametrize(
    ("problems", "last"),
    [
        ([], "next: pytest -n 2 (or cc-harness run) checks them; see "),
        ([SnapshotProblem("skill-greet on reference: not-modelled, pytest skips it (why)", False)],
         "next: pytest -n 2 (or cc-harness run) checks them; see "),
        ([SnapshotProblem("skill-greet on reference: not-modelled, pytest skips it (why)", False),
          SnapshotProblem(f"skill-greet on claude@{VERSION}: fail, no snapshot recorded (why)", True)],
         "next: 1 run(s) above recorded no snapshot, and pytest fails them: fix the setup or the case, then"
         " pytest --snapshot-update 'CASE/case.yaml::ENGINE' records each"),
    ],
)
def test_the_next_line_follows_what_recording_the_snapshots_gave(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    problems: list[SnapshotProblem], last: str,
) -> None:
    monkeypatch.setattr(scaffold, "record_snapshots", lambda report, jobs: problems)
    assert main(["init", str(_repo(tmp_path / "team")), "--pinned", VERSION]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith(last)
    assert lines[-1 - len(problems):-1] == [f"snapshot: {p.text}" for p in problems]
