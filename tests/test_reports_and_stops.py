"""Hostile results and hard stops: reports render records alone, results files survive every way a run ends.

A report is published (CI artefacts, pages), so nothing may reach it but what the records hold: not a
file a link in a case folder points to, not a folder a case id in a results file names. A results file
has one writer at a time, is never destroyed by the run that reuses it, and keeps every finished record
whether the run ends normally, on Ctrl-C, SIGTERM, SIGHUP or SIGKILL.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest

from harness import results, results_writer
from harness.cli import main
from harness.outcome import Fault, Status
from tests.conftest import REPO, cases_in, default_signals, write_files

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
    results_writer.write(saved, head=kept.head, records=[*kept.records, climbing])
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


#: Each case's Bash call takes a second, so that a signal lands while a case is running.
SLOW = """\
id: {id}
title: a slow Bash call, a hook that leaves a background process
run: {{permission_mode: bypass}}
steps:
  - prompt: Run the slow command with the Bash tool.
    turns:
      - call: {{name: Bash, input: {{command: "sleep 1; echo HELLO"}}, expect: {{result: {{contains: HELLO}}}}}}
      - say: done
"""
_BACKGROUND = {"type": "command", "command": "sleep 300 >/dev/null 2>&1 &"}
LINGER = json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [_BACKGROUND]}]}})


def _slow_suite(root: Path, count: int) -> Path:
    write_files(root, {"cc-harness.toml": SUITE_TOML})
    for i in range(count):
        write_files(
            root / "cases" / f"slow-{i}", {"case.yaml": SLOW.format(id=f"slow-{i}"), ".claude/settings.json": LINGER}
        )
    return root / "cc-harness.toml"


class _Run:
    """``python -m harness ARGV`` started in the background, every process it starts marked (a PATH entry)."""

    def __init__(self, tmp: Path, *argv: str) -> None:
        self.marker = f"/nonexistent-{uuid.uuid4().hex}"
        self.tmp = tmp / "tmpdir"
        self.tmp.mkdir()
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "PATH": f"{os.environ['PATH']}:{self.marker}",
            "TMPDIR": str(self.tmp),
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "harness", *argv],
            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            preexec_fn=default_signals,
        )  # fmt: skip

    def marked(self) -> list[str]:
        """The command lines of the live processes the run started (itself excluded)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == self.proc.pid:
                continue
            try:
                if self.marker.encode() in (entry / "environ").read_bytes():
                    found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                continue
        return found

    def wait_for(self, ready: Callable[[], bool], *, within: float = 240) -> None:
        deadline = time.monotonic() + within
        while not ready():
            assert self.proc.poll() is None, (
                f"the run ended first: {self.proc.stderr.read() if self.proc.stderr else ''}"
            )
            assert time.monotonic() < deadline, "the run never got there"
            time.sleep(0.05)

    def stop(self, sig: int) -> str:
        self.proc.send_signal(sig)
        _, err = self.proc.communicate(timeout=240)
        return err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=["SIGTERM", "SIGHUP", "SIGINT"])
def test_sigterm_and_sighup_end_a_run_as_ctrl_c_does(tmp_path: Path, sig: int) -> None:
    suite = _slow_suite(tmp_path / "suite", 6)
    path = tmp_path / "run.jsonl"
    run = _Run(tmp_path, "run", "--suite", str(suite), "-j", "1", "--results", str(path))
    run.wait_for(lambda: cases_in(path) >= 2)
    err = run.stop(sig)
    assert run.proc.returncode == 128 + sig, err
    saved = results.read(path)  # strict: header, records, a footer whose totals match
    assert not saved.complete and 2 <= len(saved.records) < 6
    assert all(r.status.value == "pass" for r in saved.records), [r.explain() for r in saved.records]
    assert f"interrupted: {len(saved.records)} finished case run(s) saved in {path}" in err
    assert run.marked() == []  # the hooks' `sleep 300 &` and every Bash call: gone
    assert list(run.tmp.iterdir()) == []  # every private folder removed


def test_sigterm_on_claude_leaves_no_engine_and_a_valid_file(tmp_path: Path, claude_version: str) -> None:
    path = tmp_path / "run.jsonl"
    engine = f"claude@{claude_version}"
    run = _Run(tmp_path, "run", "--engine", engine, "--case", "tool-tool-no-call", "--results", str(path))
    run.wait_for(lambda: any("claude" in line for line in run.marked()))
    err = run.stop(signal.SIGTERM)
    assert run.proc.returncode == 143, err
    saved = results.read(path)
    assert not saved.complete and len(saved.records) <= 1
    assert run.marked() == []
    assert list(run.tmp.iterdir()) == []


def test_reusing_the_results_file_it_writes_keeps_every_record(tmp_path: Path) -> None:
    suite = _suite(tmp_path / "suite", ["one", "two", "three"])
    path = tmp_path / "run.jsonl"
    assert main(["run", "--suite", str(suite), "--results", str(path)]) == 0
    before = results.read(path).records
    assert main(["run", "--suite", str(suite), "--reuse", str(path), "--results", str(path)]) == 0
    after = results.read(path)
    assert after.complete and [r.to_json() for r in after.records] == [r.to_json() for r in before]
    assert [r.duration for r in after.records] == [r.duration for r in before]  # reused, not run again


def test_a_killed_runs_finished_records_are_reused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = _slow_suite(tmp_path / "suite", 6)
    killed, again = tmp_path / "killed.jsonl", tmp_path / "again.jsonl"
    run = _Run(tmp_path, "run", "--suite", str(suite), "-j", "1", "--results", str(killed))
    run.wait_for(lambda: cases_in(killed) >= 2)
    run.stop(signal.SIGKILL)
    assert main(["report", "--suite", str(suite), "--results", str(killed)]) == 2  # a report still refuses it
    finished = results.read(killed, partial=True).records
    assert len(finished) >= 2
    assert main(["run", "--suite", str(suite), "--reuse", str(killed), "--results", str(again)]) == 0
    assert f"note: {killed} has no footer (the run that wrote it was killed)" in capsys.readouterr().err
    redone = {r.case: r for r in results.read(again).records}
    assert len(redone) == 6
    assert all(redone[r.case].to_json() == r.to_json() for r in finished)


def test_a_second_writer_of_a_results_file_is_refused_naming_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = _suite(tmp_path / "suite", ["one"])
    path = tmp_path / "run.jsonl"
    with results_writer.Writer(path, head={"engines": []}) as first:
        first.begin()
        assert main(["run", "--suite", str(suite), "--results", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"error: {path}: another run (pid {os.getpid()}) is writing this results file" in err
    assert results.read(path).records == []  # the first writer's file, whole


def test_a_run_of_some_cases_never_replaces_the_whole_runs_default_file(tmp_path: Path) -> None:
    suite = _suite(tmp_path / "suite", ["one", "two"])
    folder = tmp_path / "suite" / "results"
    assert main(["run", "--suite", str(suite)]) == 0
    whole = folder / "run-reference.jsonl"
    before = whole.read_bytes()
    assert main(["run", "--suite", str(suite), "--case", "one"]) == 0
    assert main(["run", "--suite", str(suite), "--shard", "1/1"]) == 0
    assert whole.read_bytes() == before
    assert [r.case for r in results.read(folder / "run-reference.partial.jsonl").records] == ["one"]
    assert (folder / "run-reference.shard-1-of-1.jsonl").is_file()


#: A Bash call whose output sets the window title, clears the screen, holds markup and characters XML forbids.
HOSTILE_OUTPUT = """\
id: hostile
title: prints escape sequences
run: {permission_mode: bypass}
steps:
  - prompt: Run it with the Bash tool.
    turns:
      - call:
          name: Bash
          input: {command: "printf '\\\\033]0;pwned\\\\007\\\\033[2J<script>alert(1)</script>\\\\001\\\\302\\\\233'"}
          expect: {result: GOODBYE}
      - say: done
"""


def test_what_a_case_prints_is_escaped_for_each_medium(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_files(tmp_path / "suite", {"cc-harness.toml": SUITE_TOML})
    write_files(tmp_path / "suite" / "cases" / "hostile", {"case.yaml": HOSTILE_OUTPUT, ".claude/settings.json": "{}"})
    suite, saved = tmp_path / "suite" / "cc-harness.toml", tmp_path / "run.jsonl"
    assert main(["run", "--suite", str(suite), "--results", str(saved)]) == 1
    [record] = results.read(saved).records
    assert record.transcript is not None
    assert "\x1b]0;pwned" in record.transcript["exchanges"][0]["result"]  # the record keeps what was printed
    shown = capsys.readouterr()
    for stream in (shown.out, shown.err):
        assert "\x1b]" not in stream and "\x1b[2J" not in stream and "\x01" not in stream and "\x9b" not in stream
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in shown.out  # shown, not acted on
    # A fault message with markup, in a results file as anyone may write one.
    crash = dataclasses.replace(
        record,
        case="crashed",
        status=Status.CRASH,
        findings=(),
        fault=Fault(status=Status.CRASH, message="<script>alert(2)</script> \x01", detail="", phase="run"),
    )
    results_writer.write(saved, head=results.read(saved).head, records=[record, crash])
    out = tmp_path / "out"
    assert main([
        "report", "--suite", str(suite), "--results", str(saved), "--allow-partial",
        "--markdown", str(out / "r.md"), "--html", str(out / "r.html"), "--junit", str(out / "j.xml"),
    ]) == 0  # fmt: skip
    junit = (out / "j.xml").read_text(encoding="utf-8")
    ElementTree.fromstring(junit)  # well-formed: no character XML 1.0 forbids
    assert "\\x01" in junit and "\\x1b]0;pwned" in junit
    page = (out / "r.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)" in page and "\x1b" not in page
    md = (out / "r.md").read_text(encoding="utf-8")
    assert "<script>alert(2)" not in md and "&lt;script&gt;alert(2)" in md and "\x1b" not in md


@contextlib.contextmanager
def _tmpfs(folder: Path, *options: str) -> Iterator[Path]:
    """A small tmpfs mounted at ``folder`` (a full disk, a read-only folder); the test is skipped where this
    machine lets no mount be made (not root, no CAP_SYS_ADMIN)."""
    folder.mkdir(parents=True, exist_ok=True)
    mount = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(folder)], capture_output=True)
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mount.stderr.decode(errors='replace').strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_full_disk_under_results_is_one_line_after_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = _suite(tmp_path / "suite", [f"case-{i}" for i in range(10)])  # ~6 KB of records
    with _tmpfs(tmp_path / "full", "size=4k") as full:  # one page: the header and a few records fit
        path = full / "r.jsonl"
        assert main(["run", "--suite", str(suite), "--results", str(path)]) == 2
        shown = capsys.readouterr()
        assert "results: " in shown.out and "(10 runs: 10 pass)" in shown.out  # the summary still printed
        saved = results.read(path, partial=True)  # no cut last line
        lost = 10 - len(saved.records)
        assert 0 < lost < 10 and path.read_bytes().endswith(b"\n")
        assert f"error: {path}: cannot write: No space left on device ({lost} finished record(s) not saved)" in (
            shown.err
        )
        assert "Traceback" not in shown.err


def test_a_read_only_cache_is_one_line_from_cache_prune(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with _tmpfs(tmp_path / "cache", "size=1m") as cache:
        write_files(cache / "engines" / "claude-9.9.9", {"claude": "not an engine\n"})
        subprocess.run(["mount", "-o", "remount,ro", str(cache)], check=True)
        monkeypatch.setenv("CC_HARNESS_CACHE", str(cache))
        assert main(["cache", "prune", "--max-size", "0"]) == 2
    err = capsys.readouterr().err
    assert f"error: {cache / 'engines'}: cannot remove claude-9.9.9 from the engine cache: Read-only file system" in err


def test_results_naming_a_folder_or_a_system_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = _suite(tmp_path / "suite", ["one"])
    for target, words in ((tmp_path, "is a folder, not a results file"), (Path("/proc/version"), "cannot write")):
        assert main(["run", "--suite", str(suite), "--results", str(target)]) == 2
        err = capsys.readouterr().err
        assert f"error: {target}: {words}" in err and "Traceback" not in err


def test_a_broken_expectations_file_is_named_before_a_case_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = _suite(tmp_path / "suite", ["one"])
    broken = tmp_path / "suite" / "expectations" / "reference.yaml"
    write_files(broken.parent, {broken.name: "engine: reference\ndifferences:\n  one:\n    - at: [unclosed\n"})
    path = tmp_path / "r.jsonl"
    assert main(["run", "--suite", str(suite), "--results", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"error: {broken}: (file): cannot be read as YAML: " in err and len(err.strip().splitlines()) == 1
    assert not path.exists()  # nothing ran, nothing was written


def test_an_engine_version_that_is_a_path_is_refused_at_the_edge(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["run", "--engine", "claude@../../etc", "--case", "tool-tool-no-call"],
        ["check", "2.1.332", "--against", "../../etc", "--case", "tool-tool-no-call"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "'../../etc' is no version number" in err and len(err.strip().splitlines()) == 1


def test_a_second_signal_stops_now_and_leaves_nothing_running(tmp_path: Path) -> None:
    write_files(tmp_path / "suite", {"cc-harness.toml": SUITE_TOML})
    long = SLOW.format(id="long").replace("sleep 1; echo HELLO", "sleep 60; echo HELLO")
    write_files(tmp_path / "suite" / "cases" / "long", {"case.yaml": long, ".claude/settings.json": "{}"})
    path = tmp_path / "run.jsonl"
    run = _Run(tmp_path, "run", "--suite", str(tmp_path / "suite" / "cc-harness.toml"), "--results", str(path))
    run.wait_for(lambda: any("sleep 60" in line for line in run.marked()))
    run.proc.send_signal(signal.SIGTERM)
    time.sleep(1)  # the first signal waits for the running case; the second stops it
    started = time.monotonic()
    err = run.stop(signal.SIGTERM)
    assert run.proc.returncode == 143, err
    assert time.monotonic() - started < 30, "the second signal did not stop the running case"
    saved = results.read(path)
    assert not saved.complete and saved.records == []  # a case cut short is no result
    assert run.marked() == [] and list(run.tmp.iterdir()) == []
