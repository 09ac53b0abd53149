"""Soak: the whole suite on the reference engine and on a real claude version, four cases at a time, then
nothing of it is left on the machine.

The real version is the oldest pinned one this session's case tests do not run (``--engine``), on the
cases whose behaviour there may differ from the newest pinned version's (as ``claude@V:changed`` takes
them, harness/older_pinned.py), so that its runs are new work, not a repeat; with ``--cc-results DIR``
its records are kept there beside the case tests' (as ``soak-<engine>.jsonl``), and ``cc-harness run
--reuse`` takes them instead of running those cases again. When the case tests run every pinned version,
the soak runs the newest one again, on every case.

The runs get a TMPDIR of their own, so every private folder (and the engines' scratch, which goes into
each run's private TMPDIR) is under one folder the test can watch: afterwards it is empty, no process
refers to it, the shared scratch folder ``$TMPDIR/claude-<uid>`` gained nothing, ``cases/`` and the
user's ``~/.claude*`` are unchanged, and each reference transcript is its committed snapshot, which a run apart
from this one recorded (and which the session's reference case tests, a third run, compare with too). A
second reference run of the whole suite here would only repeat that comparison (two runs equal to one
snapshot are equal to each other) at the cost of every case again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from harness import results, snapshots
from harness.case import Case
from harness.engine_name import EngineName
from harness.older_pinned import OlderPinned, git_edited
from harness.pytest_plugin import case_engines
from harness.versions import newest, version_key
from tests.conftest import EXPECTATIONS, PINNED, REPO, SUITE, write_files
from tests.hostile_case import HOSTILE_CASE, SUITE_TOML, prompt_hooks

#: one worker for the whole module under ``pytest -n`` (it runs four cases at a time itself)
pytestmark = pytest.mark.xdist_group("test_soak")


def _digest(*roots: Path) -> dict[str, str]:
    out = {}
    for root in roots:
        if root.is_file():
            out[str(root)] = hashlib.sha256(root.read_bytes()).hexdigest()
        for folder, _, files in os.walk(root):
            for name in files:
                path = Path(folder) / name
                out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "?"
    return out


def _processes_referring_to(folder: Path) -> list[str]:
    """Every process whose command line, working directory or environment names ``folder``."""
    needle = str(folder).encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes()
            cwd = os.readlink(entry / "cwd").encode()
        except OSError:
            continue  # gone, or not ours to read
        if needle in cmdline or needle in environ or needle in cwd:
            shown = cmdline.replace(b"\0", b" ").decode(errors="replace")[:200]
            found.append(f"{entry.name}: {shown}")
    return found


def _scratch() -> Path:
    return Path(tempfile.gettempdir()) / f"claude-{os.getuid()}"


def real_engine(config: pytest.Config, cases: list[Case]) -> tuple[str, list[str]]:
    """The oldest pinned claude version the session's case tests do not run, with the cases that may differ
    there; else the newest pinned one, with every case."""
    tested = set(case_engines(config))
    untested = [v for v in sorted(PINNED, key=version_key) if f"claude@{v}" not in tested]
    if not untested or untested[0] == newest(PINNED):
        return f"claude@{newest(PINNED)}", [c.id for c in cases]
    changed = OlderPinned(
        pinned=PINNED, snapshot_root=SUITE.snapshots, expectations=EXPECTATIONS, edited=git_edited(SUITE.cases)
    )
    return f"claude@{untested[0]}", [c.id for c in cases if changed.reason(c, untested[0]) is not None]


def test_the_suite_four_at_a_time_leaves_nothing_behind(
    tmp_path: Path, pytestconfig: pytest.Config, committed_cases: list[Case]
) -> None:
    private = tmp_path / "tmpdir"
    private.mkdir()
    env = {**os.environ, "TMPDIR": str(private)}
    home = Path.home()
    watched = [REPO / "cases", home / ".claude", home / ".claude.json"]
    before, scratch_before = _digest(*watched), set(os.listdir(_scratch())) if _scratch().is_dir() else set()
    real, real_cases = real_engine(pytestconfig, committed_cases)
    runs = [("reference", [c.id for c in committed_cases]), (real, real_cases)]
    for engine, ids in runs:
        path = tmp_path / f"{engine}.jsonl"
        argv = [sys.executable, "-m", "harness", "run", "--engine", engine, "-j", "4", "--results", str(path)]
        if len(ids) < len(committed_cases):
            argv += [f"--case={case_id}" for case_id in ids]
        done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=1800, check=False)
        assert done.returncode in (0, 1), done.stderr[-3000:]
        saved = results.read(path)
        assert saved.complete and sorted(r.case for r in saved.records) == sorted(ids)
        errors = [r.explain() for r in saved.records if r.status.is_error]
        assert not errors, "\n\n".join(errors[:5])

    assert _processes_referring_to(private) == []
    assert list(private.iterdir()) == []
    assert (set(os.listdir(_scratch())) if _scratch().is_dir() else set()) == scratch_before
    assert _digest(*watched) == before
    by_id = {c.id: c for c in committed_cases}
    reference = results.read(tmp_path / "reference.jsonl").records
    differ = [m for r in reference if (m := snapshots.mismatch(SUITE.snapshots, by_id[r.case], r))]
    assert differ == [], "\n".join(differ[:5])

    keep = pytestconfig.getoption("--cc-results", None)
    if keep and real not in case_engines(pytestconfig):  # never a record twice
        shutil.copyfile(tmp_path / f"{real}.jsonl", Path(keep) / f"soak-{EngineName.parse(real).dir}.jsonl")


def _escapes(tag: str) -> dict[str, str]:
    """Hooks that drop the cookie, leave the session, double-fork, print bytes that are not UTF-8; and a
    case whose hook kills its parent."""
    escape = prompt_hooks(
        f"env -u CC_HARNESS_RUN setsid nohup sleep {tag} >/dev/null 2>&1 &",
        f"setsid bash -c 'exec -c sleep {tag}' >/dev/null 2>&1 &",
        f"(env -i setsid sh -c 'exec sleep {tag}' &) >/dev/null 2>&1",
        "printf 'ok \\377 z'",
    )
    killer = prompt_hooks("kill -9 $PPID")
    return {
        "cc-harness.toml": SUITE_TOML,
        "cases/escape/case.yaml": HOSTILE_CASE.format(id="escape"),
        **{f"cases/escape/{p}": t for p, t in escape.items()},
        "cases/killer/case.yaml": HOSTILE_CASE.format(id="killer"),
        **{f"cases/killer/{p}": t for p, t in killer.items()},
    }


def test_a_case_whose_hooks_try_every_escape_leaves_nothing_behind(tmp_path: Path) -> None:
    tag = f"300.{uuid.uuid4().int % 10**9}"
    suite = tmp_path / "suite"
    write_files(suite, _escapes(tag))
    private = tmp_path / "tmpdir"
    private.mkdir()
    env = {**os.environ, "TMPDIR": str(private)}
    home = Path.home()
    watched = [suite, REPO / "cases", home / ".claude", home / ".claude.json"]
    before = _digest(*watched)
    path = tmp_path / "r.jsonl"
    engines = f"reference,claude@{PINNED[-1]}"
    argv = [sys.executable, "-m", "harness", "run", "--suite", str(suite / "cc-harness.toml"), "--engine", engines,
            "-j", "2", "--results", str(path)]
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 1, done.stderr[-3000:]  # the killer case is a crash on both engines
    by_run = {(r.case, r.engine.text()): r.status.value for r in results.read(path).records}
    assert by_run == {
        ("escape", "reference"): "pass", ("escape", f"claude@{PINNED[-1]}"): "pass",
        ("killer", "reference"): "crash", ("killer", f"claude@{PINNED[-1]}"): "crash",
    }
    ps = subprocess.run(["ps", "-ww", "-eo", "pid=,stat=,args="], capture_output=True, text=True, check=True).stdout
    assert [line for line in ps.splitlines() if tag in line and not line.split()[1].startswith("Z")] == []
    assert _processes_referring_to(private) == []
    assert list(private.iterdir()) == []
    assert _digest(*watched) == before
