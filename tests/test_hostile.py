"""Hostile cases: what a case does to escape, crash or exhaust the harness, and what the user then sees.

Each test is an attack a case (or a pull request adding one) can make; the run answers it with a status
and a one-line message naming the file, and the harness itself is never the victim.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from harness import results, tree
from harness.case import load_case
from harness.cli import main
from harness.engines import make_engine
from harness.errors import CaseFormatError
from harness.outcome import Status
from harness.runner import run_case
from harness.scripted import ModelRequest, ScriptedModel
from harness.yamlfile import read_yaml
from tests.conftest import EXPECTATIONS, PINNED, REPO, CaseWriter, write_files
from tests.hostile_case import HOSTILE_CASE, SUITE_TOML, prompt_hooks


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
    hook = prompt_hooks("kill -9 $PPID")
    files = {"k/case.yaml": HOSTILE_CASE.format(id="k"), **{f"k/{p}": t for p, t in hook.items()}}
    suite = _suite(tmp_path, files)
    out = tmp_path / "r.jsonl"
    done = _cli("run", "--suite", str(suite), "--results", str(out))
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    (record,) = results.read(out).records
    assert record.status == Status.CRASH and record.fault is not None
    assert "killed by SIGKILL" in record.fault.message


def test_a_bash_call_that_kills_its_parent_kills_the_engine_not_the_harness(tmp_path: Path) -> None:
    """Measured on 2.1.252 and 2.1.332: a Bash command's $PPID is the claude process too."""
    case = HOSTILE_CASE.format(id="b").replace(
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
    directory = write_case("bytes", HOSTILE_CASE.format(id="bytes"), prompt_hooks("printf 'ok \\377 z'"))
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault
    assert any("ok \ufffd z" in text for text in seen)


def test_hook_output_with_unmeasured_bytes_is_not_modelled(write_case: CaseWriter) -> None:
    directory = write_case("cut", HOSTILE_CASE.format(id="cut"), prompt_hooks("printf 'ok \\342\\202 z'"))
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.NOT_MODELLED and record.fault is not None
    assert "stdout that is not UTF-8" in record.fault.message


def test_a_case_file_that_is_not_utf8_fails_alone_and_only_when_selected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = _suite(tmp_path, {"good/case.yaml": HOSTILE_CASE.format(id="good"), "good/.claude/settings.json": "{}"})
    (tmp_path / "cases" / "bad").mkdir()
    (tmp_path / "cases" / "bad" / "case.yaml").write_bytes(b"id: bad\ntitle: caf\xe9\n")
    path = tmp_path / "r.jsonl"
    assert main(["run", "--suite", str(suite), "--case", "good", "--results", str(path)]) == 0
    assert [r.case for r in results.read(path).records] == ["good"]
    assert main(["run", "--suite", str(suite), "--results", str(path)]) == 1
    bad = {r.case: r for r in results.read(path).records}["bad"]
    assert bad.status is Status.CASE_ERROR and bad.fault is not None
    assert bad.fault.message == f"{tmp_path / 'cases' / 'bad' / 'case.yaml'}: line 2: not UTF-8 text (byte 0xe9)"
    capsys.readouterr()


#: A case whose ``effects:`` list is given twice (PyYAML kept the second and dropped the first).
TWICE = HOSTILE_CASE.format(id="twice") + (
    "effects:\n  - {path: a.txt, exists: true}\neffects:\n  - {path: b.txt, exists: false}\n"
)


@pytest.mark.parametrize("file", ["case", "expectations"])
def test_a_key_given_twice_is_an_error_naming_the_file_the_key_and_the_line(tmp_path: Path, file: str) -> None:
    text = TWICE
    if file == "expectations":
        text = "engine: claude@2.1.332\ndifferences:\n  c:\n    reason: x\n  c:\n    reason: y\n"
    path = tmp_path / f"{file}.yaml"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    line = len(lines) - 1 if file == "case" else 5  # the second ``effects:``, the second ``c:``
    with pytest.raises(CaseFormatError) as err:
        read_yaml(path)
    key = "effects" if file == "case" else "c"
    assert str(err.value).startswith(f"{path}: line {line}: the key {key!r} is given twice (lines ")


def test_a_case_with_a_key_given_twice_is_a_case_error(write_case: CaseWriter) -> None:
    text = TWICE
    directory = write_case("twice", text, {".claude/settings.json": "{}"})
    with pytest.raises(CaseFormatError) as err:
        load_case(directory)
    assert "the key 'effects' is given twice" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("kind", ["fifo", "char-device"])
def test_a_special_file_in_a_fixture_is_a_case_error_at_load(write_case: CaseWriter, kind: str) -> None:
    directory = write_case("special", HOSTILE_CASE.format(id="special"), {".claude/settings.json": "{}"})
    special = directory / "data" / kind
    special.parent.mkdir()
    if kind == "fifo":
        os.mkfifo(special)
    else:
        os.mknod(special, 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero: copied until the disk is full
    with pytest.raises(CaseFormatError) as err:
        load_case(directory)
    shown = "a FIFO" if kind == "fifo" else "a character device"
    assert str(err.value) == (
        f"{special}: (fixture): is {shown}, not a regular file: a fixture holds files, folders and links only"
    )


@pytest.mark.parametrize("project", ["../../../../../../../..", "/"])
def test_a_project_outside_the_cases_repository_is_refused(tmp_path: Path, project: str) -> None:
    suite = _suite(tmp_path, {"p/case.yaml": HOSTILE_CASE.format(id="p") + f"project: {project}\n"})
    with pytest.raises(CaseFormatError) as err:
        load_case(suite.parent / "cases" / "p")
    assert f"case.yaml: project: '{project}' " in str(err.value)


def test_a_fixture_tree_1200_levels_deep_is_copied_and_removed(
    write_case: CaseWriter, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deeper than Python's recursion limit (os.walk, rglob and rmtree recursed: RecursionError, and the
    private folder was left)."""
    directory = write_case("deep", HOSTILE_CASE.format(id="deep"), {".claude/settings.json": "{}"})
    deep = directory / "d"
    deep.mkdir()
    for _ in range(1200):  # os.makedirs recurses once per level too
        deep = deep / "d"
        deep.mkdir()
    (deep / "leaf.txt").write_text("x")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    try:
        record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    finally:
        tree.remove(directory / "d")  # pytest's own clean-up of tmp_path recurses too
    assert record.status == Status.PASS, record.fault and (record.fault.message + record.fault.detail[-3000:])
    assert list(scratch.iterdir()) == []


def test_keep_workdirs_skips_a_socket_and_keeps_the_status(
    write_case: CaseWriter, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A killed engine leaves its socket (tmp/cc-socks/<pid>.sock); copying it failed the case."""
    make_socket = "python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"left.sock\")'"
    directory = write_case("sock", HOSTILE_CASE.format(id="sock"), prompt_hooks(make_socket))
    scratch, kept = tmp_path / "scratch", tmp_path / "kept"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS, keep=kept)
    assert record.status == Status.PASS, record.fault
    assert list(scratch.iterdir()) == []
    (copy,) = kept.glob("*/sock")
    assert (copy / "work" / ".claude" / "settings.json").is_file() and not (copy / "work" / "left.sock").exists()


@pytest.mark.parametrize("engine", ["reference", "claude"])
def test_a_200_kb_prompt_reaches_the_engine(write_case: CaseWriter, engine: str) -> None:
    """Linux refuses an argument longer than 128 KiB ("Argument list too long"): the claude adapter writes
    a long prompt to the engine's stdin instead."""
    prompt = "Say hello. " + "x" * 200_000
    text = HOSTILE_CASE.format(id="long").replace("prompt: Say hello.", f"prompt: {prompt}")
    directory = write_case("long", text, {".claude/settings.json": "{}"})
    name = "reference" if engine == "reference" else f"claude@{PINNED[-1]}"
    record = run_case(load_case(directory), make_engine(name), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault


def _many_calls(n: int) -> str:
    turns = "".join("      - call: {name: Glob, input: {pattern: '*.txt'}}\n" for _ in range(n))
    return HOSTILE_CASE.format(id="many").replace("      - say: Hello.\n", turns + "      - say: Hello.\n")


def test_a_context_of_150_tool_calls_runs_to_its_end(write_case: CaseWriter) -> None:
    """The reference engine stopped at 100 model calls (a crash); claude was measured to 600 calls."""
    directory = write_case("many", _many_calls(150), {".claude/settings.json": "{}", "a.txt": "hi\n"})
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault


def test_a_context_past_the_measured_calls_is_not_modelled(write_case: CaseWriter) -> None:
    directory = write_case("many", _many_calls(601), {".claude/settings.json": "{}", "a.txt": "hi\n"})
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.NOT_MODELLED and record.fault is not None
    assert "a context of more than 601 model calls" in record.fault.message
