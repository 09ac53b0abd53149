"""Hostile cases: what a case does to escape, crash or exhaust the harness, and what the user then sees.

Each test is an attack a case (or a pull request adding one) can make; the run answers it with a status
and a one-line message naming the file, and the harness itself is never the victim.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness import results
from harness.case import load_case
from harness.engines import make_engine
from harness.outcome import Status
from harness.runner import run_case
from harness.scripted import ModelRequest, ScriptedModel
from tests.conftest import EXPECTATIONS, REPO, CaseWriter, write_files

SUITE_TOML = 'cases = "cases"\nengines = ["reference"]\npinned = ["2.1.332"]\nreport = "report.md"\n'

HELLO = """\
id: {id}
title: a hook does something hostile
documented_for: 2.1.332
run: {{permission_mode: bypass, timeout: 30}}
steps:
  - prompt: Say hello.
    turns:
      - say: Hello.
"""


def _prompt_hook(command: str) -> dict[str, str]:
    settings = {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}]}}
    return {".claude/settings.json": json.dumps(settings)}


def _suite(root: Path, cases: dict[str, str]) -> Path:
    write_files(root, {"cc-harness.toml": SUITE_TOML})
    write_files(root / "cases", cases)
    return root / "cc-harness.toml"


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *argv], cwd=REPO, capture_output=True, text=True, timeout=300, check=False
    )


def test_a_hook_that_kills_its_parent_kills_the_engine_not_the_harness(tmp_path: Path) -> None:
    """claude runs a hook's command as its own child (measured: the hook's $PPID is the claude process),
    so ``kill -9 $PPID`` ends the engine (a crash); it must never reach cc-harness."""
    files = {"k/case.yaml": HELLO.format(id="k"), **{f"k/{p}": t for p, t in _prompt_hook("kill -9 $PPID").items()}}
    suite = _suite(tmp_path, files)
    out = tmp_path / "r.jsonl"
    done = _cli("run", "--suite", str(suite), "--results", str(out))
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    (record,) = results.read(out).records
    assert record.status == Status.CRASH and record.fault is not None
    assert "killed by SIGKILL" in record.fault.message


def test_a_bash_call_that_kills_its_parent_kills_the_engine_not_the_harness(tmp_path: Path) -> None:
    """Measured on 2.1.252 and 2.1.332: a Bash command's $PPID is the claude process too."""
    case = HELLO.format(id="b").replace(
        "      - say: Hello.", "      - call: {name: Bash, input: {command: 'kill -9 $PPID'}}\n      - say: Hello."
    )
    suite = _suite(tmp_path, {"b/case.yaml": case, "b/.claude/settings.json": "{}"})
    out = tmp_path / "r.jsonl"
    done = _cli("run", "--suite", str(suite), "--results", str(out))
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    assert [r.status for r in results.read(out).records] == [Status.CRASH]


def test_hook_output_that_is_not_utf8_reads_as_claude_reads_it(
    write_case: CaseWriter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Measured on 2.1.252 and 2.1.332: stdout ``ok \\377 z`` reaches the model as ``ok \ufffd z``."""
    seen: list[str] = []
    respond = ScriptedModel.respond

    def spy(self: ScriptedModel, request: ModelRequest) -> list[dict[str, Any]]:
        seen.append(request.all_text())
        return respond(self, request)

    monkeypatch.setattr(ScriptedModel, "respond", spy)
    directory = write_case("bytes", HELLO.format(id="bytes"), _prompt_hook("printf 'ok \\377 z'"))
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault
    assert any("ok \ufffd z" in text for text in seen)


def test_hook_output_with_unmeasured_bytes_is_not_modelled(write_case: CaseWriter) -> None:
    directory = write_case("cut", HELLO.format(id="cut"), _prompt_hook("printf 'ok \\342\\202 z'"))
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.NOT_MODELLED and record.fault is not None
    assert "stdout that is not UTF-8" in record.fault.message
