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
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from harness import results, transcript, tree, workfiles
from harness.case import load_case
from harness.cli import main
from harness.engines import make_engine
from harness.errors import CaseFormatError, EngineTimeout
from harness.model_request import ModelRequest
from harness.outcome import Status
from harness.runner import run_case
from harness.scripted import ScriptedModel
from harness.yamlfile import read_yaml
from tests.conftest import EXPECTATIONS, PINNED, REPO, CaseWriter, DeepTree, write_files
from tests.hostile_case import HOSTILE_CASE, SUITE_TOML, prompt_hooks

pytest_plugins = ["pytester"]


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
    write_case: CaseWriter, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deep_tree: DeepTree
) -> None:
    """Deeper than Python's recursion limit (os.walk, rglob and rmtree recursed: RecursionError, and the
    private folder was left)."""
    directory = write_case("deep", HOSTILE_CASE.format(id="deep"), {".claude/settings.json": "{}"})
    (deep_tree(directory, 1201) / "leaf.txt").write_text("x")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault and (record.fault.message + record.fault.detail[-3000:])
    assert list(scratch.iterdir()) == []


SEARCHES = """\
id: {id}
title: Glob and Grep in a tree deeper than Python's recursion limit
documented_for: 2.1.332
run: {{permission_mode: bypass, timeout: 30}}
steps:
  - prompt: Find the leaf.
    turns:
      - call:
          name: Agent
          input:
            description: Find the leaf
            prompt: "SEARCH TASK: find the leaf."
            subagent_type: search
            run_in_background: false
      - say: Found.
contexts:
  search:
    opens_with: "SEARCH TASK"
    turns:
      - call: {{name: Glob, input: {{pattern: '**/leaf.txt'}}, expect: {{is_error: false}}}}
      - call: {{name: Grep, input: {{pattern: LEAF}}, expect: {{is_error: false}}}}
      - say: Found.
"""
SEARCH_AGENT = """\
---
name: search
description: Finds files and text in the project.
tools: Read, Grep, Glob
---

You look things up in the project.
"""


def test_glob_and_grep_in_a_tree_1200_levels_deep_answer(write_case: CaseWriter, deep_tree: DeepTree) -> None:
    """The reference engine's Glob and Grep walked with os.walk, which recurses once per level."""
    files = {".claude/settings.json": "{}", ".claude/agents/search.md": SEARCH_AGENT}
    directory = write_case("search", SEARCHES.format(id="search"), files)
    (deep_tree(directory, 1200) / "leaf.txt").write_text("LEAF\n")
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault and (record.fault.message + record.fault.detail[-3000:])
    assert record.transcript is not None
    searches = ("Glob", "Grep")
    glob, grep = (e["result"] for e in record.transcript["exchanges"] if e.get("call", {}).get("name") in searches)
    leaf = "/".join(["d"] * 1200 + ["leaf.txt"])
    assert (glob, grep) == (leaf, f"Found 1 file\n{leaf}")


def test_a_deep_tree_is_removed_when_its_test_fails(pytester: pytest.Pytester) -> None:
    """What a failing test leaves in tmp_path is removed by pytest's rmtree later, with a RecursionError."""
    pytester.makeconftest("from tests.conftest import deep_tree  # noqa: F401\n")
    pytester.makepyfile(
        test_inner="""
        def test_fails(deep_tree, tmp_path):
            deep_tree(tmp_path, 1200)
            assert False
        """
    )
    pytester.runpytest_inprocess("-p", "no:xdist", "-p", "no:cacheprovider").assert_outcomes(failed=1)
    left = [folder for folder, _dirs, _files in tree.walk(pytester.path) if len(folder.parts) > 100]
    assert left == []


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


def test_a_200_mb_sparse_file_the_run_leaves_is_never_read_whole(write_case: CaseWriter) -> None:
    """Every file of the working copy was read whole: 200 MB took the peak from 85 MB to 494 MB (and the
    run from 12 s to 112 s). Only its head is read now, and the transcript shows it cut, with its size."""
    warm = write_case("warm", HOSTILE_CASE.format(id="warm"), prompt_hooks("true"))
    run_case(load_case(warm), make_engine("reference"), expectations=EXPECTATIONS)  # imports are not the run's
    directory = write_case("sparse", HOSTILE_CASE.format(id="sparse"), prompt_hooks("truncate -s 200M big.bin"))
    tracemalloc.start()
    try:
        record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert record.status == Status.PASS, record.fault
    assert peak < 16 * 2**20, f"peak {peak / 2**20:.0f} MiB"  # measured: 3 MiB, and 427 MiB when read whole
    assert record.transcript is not None
    shown = record.transcript["files"]["big.bin"]
    assert shown == "\0" * transcript.MAX_FILE_CHARS + f"... <{200 * 2**20} bytes>"


def test_reading_the_working_copy_stops_at_the_runs_time_limit(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a")
    assert set(workfiles.snapshot(tmp_path, deadline=time.monotonic() + 60)) == {"a.txt"}
    with pytest.raises(EngineTimeout, match=r"within the run's time limit \(run.timeout\)"):
        workfiles.snapshot(tmp_path, deadline=time.monotonic() - 1)


def test_a_large_file_the_run_rewrote_with_the_same_bytes_is_not_changed(write_case: CaseWriter) -> None:
    """Larger than what is kept of a file: the run's change is told by size, else by a digest of the whole."""
    size = workfiles.HEAD_BYTES + 10
    rewrite = f"python3 -c \"import pathlib; p = pathlib.Path('same.bin'); p.write_bytes(p.read_bytes())\" && " \
        f"python3 -c \"import pathlib; pathlib.Path('tail.bin').write_bytes(b'x' * {size - 1} + b'z')\""
    files = {**prompt_hooks(rewrite), "same.bin": "x" * size, "tail.bin": "x" * size}
    directory = write_case("rewrite", HOSTILE_CASE.format(id="rewrite"), files)
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault
    assert record.transcript is not None
    assert list(record.transcript["files"]) == ["tail.bin"]


def test_a_file_the_run_left_unreadable_is_shown_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``chmod 0`` by a hook (root reads it anyway: the refusal a user meets is made here)."""
    (tmp_path / "secret.txt").write_text("s")
    opened = Path.open

    def refuse(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path.name == "secret.txt":
            raise PermissionError(13, "Permission denied", str(path))
        return opened(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refuse)
    (state,) = workfiles.snapshot(tmp_path).values()
    assert not state.readable and state.size == 1
    norm = transcript.Normaliser(workdir=tmp_path, home=tmp_path)
    assert transcript._file_value("secret.txt", state, norm, unordered=False) == "<unreadable, 1 bytes>"


def test_a_file_too_large_to_read_within_the_time_limit_is_a_timeout_of_the_run(write_case: CaseWriter) -> None:
    """End to end: a hook leaves a sparse 1 TiB file (instant to make, minutes to read); reading the working
    copy after the run stops at ``run.timeout`` and the run is a timeout naming that reading, not a hang."""
    case = HOSTILE_CASE.format(id="huge").replace("timeout: 30", "timeout: 3")
    directory = write_case("huge", case, prompt_hooks("truncate -s 1T huge.bin"))
    started = time.monotonic()
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    took = time.monotonic() - started
    assert record.status == Status.TIMEOUT, (record.status, record.fault)
    assert record.fault is not None
    assert "reading the files the run left in the working copy did not finish" in record.fault.message
    assert took < 30, f"the run took {took:.0f} s: its reading was not held to the 3 s limit"
