"""A program that opens a session transcript makes the run not-modelled; one that does not changes nothing."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from harness.refengine.errors import NotModelled
from harness.refengine.transcript_reads import Watch


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "projects" / "-work"
    (folder / "s1" / "subagents").mkdir(parents=True)
    (folder / "s1.jsonl").write_text('{"type": "user"}\n')
    (folder / "s1" / "subagents" / "agent-a1.jsonl").write_text('{"type": "user"}\n')
    return folder


@pytest.mark.parametrize("command", ["cat s1.jsonl", "wc -l s1/subagents/agent-a1.jsonl"])
def test_a_program_that_opens_a_transcript_is_not_modelled(tmp_path: Path, command: str) -> None:
    folder = _folder(tmp_path)
    with Watch(folder, who="the Stop hook") as watch:
        subprocess.run(["sh", "-c", command], cwd=folder, check=True, capture_output=True)
    with pytest.raises(NotModelled, match="the Stop hook opened the session transcript"):
        watch.check()


@pytest.mark.parametrize("command", ["ls -la . s1/subagents", "echo s1.jsonl > /dev/null", "true"])
def test_a_program_that_only_names_or_lists_it_changes_nothing(tmp_path: Path, command: str) -> None:
    folder = _folder(tmp_path)
    with Watch(folder, who="the Stop hook") as watch:
        subprocess.run(["sh", "-c", command], cwd=folder, check=True, capture_output=True)
    watch.check()


def test_before_any_transcript_exists_nothing_is_watched(tmp_path: Path) -> None:
    with Watch(tmp_path / "absent", who="the SessionStart hook") as watch:
        subprocess.run(["true"], check=True)
    watch.check()
