"""Releases before 2.1.110 ship cli.js (run by Node.js) instead of a native binary; 2.1.19 and older have
no ``--debug-file``; their first request is a session-title side call. cc-harness runs them as it runs
the native ones: the thresholds, the adapter's argv, a debug log case on a release without one, and a
real install and run of 2.1.63 (a small package) in the shared cache."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from harness.case import Case
from harness.engines.claude import ClaudeEngine
from harness.engines.claude_launch import DEBUG_FILE_FROM, has_debug_file, prepare
from harness.engines.install import NATIVE_FROM, RECORD, binary_path, ensure_installed, is_native, platform_spec
from harness.errors import InstallError, NotObservable
from harness.run_outcome import outcome_of
from harness.runner import run_case
from harness.scripted import ScriptedModel
from tests.conftest import EXPECTATIONS

OLD = "2.1.63"


def _case(cases: list[Case], case_id: str) -> Case:
    return next(c for c in cases if c.id == case_id)


def test_the_thresholds_are_the_measured_first_versions() -> None:
    assert (NATIVE_FROM, DEBUG_FILE_FROM) == ((2, 1, 110), (2, 1, 20))
    assert [is_native(v) for v in ("2.1.0", "2.1.109", "2.1.110", "2.1.332")] == [False, False, True, True]
    assert [has_debug_file(v) for v in ("2.1.0", "2.1.19", "2.1.20", "2.1.25")] == [False, False, True, True]
    assert platform_spec("2.1.109") == "@anthropic-ai/claude-code@2.1.109"
    assert platform_spec("2.1.110") == "@anthropic-ai/claude-code-linux-x64@2.1.110"
    assert binary_path("2.1.109", root=Path("/c")) == Path(
        "/c/engines/claude-2.1.109/node_modules/@anthropic-ai/claude-code/cli.js"
    )
    assert binary_path("2.1.110", root=Path("/c")).name == "claude"


def test_the_adapter_passes_debug_file_only_for_a_debug_log_case_and_never_before_2_1_20(
    committed_cases: list[Case], tmp_path: Path
) -> None:
    def argv(case_id: str, version: str) -> list[str]:
        case = _case(committed_cases, case_id)
        engine = ClaudeEngine(engine_version=version)
        group = [(0, case.steps[0])]
        return engine._argv(Path("claude"), case, group, resume=None, debug_log=tmp_path / "d.log", workdir=tmp_path)

    checks_the_log = "silent-hook-event-typo"  # debug_log: {...}
    assert _case(committed_cases, checks_the_log).debug_log is not None
    assert "--debug-file" not in argv(checks_the_log, "2.1.19")
    logged = argv(checks_the_log, "2.1.20")
    assert logged[logged.index("--debug-file") + 1] == str(tmp_path / "d.log")
    # a case that does not read the log does not make the engine write it (it costs the engine time)
    assert "--debug-file" not in argv("tool-hook-pretooluse-deny", "2.1.332")


def test_the_adapter_tells_the_scripted_model_where_the_main_thread_needs_tools(committed_cases: list[Case]) -> None:
    case = _case(committed_cases, "tool-hook-pretooluse-deny")
    for version, needs in (("2.1.0", True), ("2.1.109", True), ("2.1.110", False), ("2.1.332", False)):
        model = ScriptedModel(case=case)
        prepare(case, model, engine=f"claude@{version}", version=version)
        assert model.main_needs_tools is needs, version


def test_a_debug_log_case_on_a_release_without_debug_file_has_no_verdict(committed_cases: list[Case]) -> None:
    """Not an empty log judged as the engine's failure: not-modelled, naming the option; nothing installed."""
    case = _case(committed_cases, "silent-hook-event-typo")
    assert case.debug_log is not None
    starts = r"claude@2\.1\.19 has no --debug-file \(the option starts at claude 2\.1\.20\)"
    with pytest.raises(NotObservable, match=starts):
        prepare(case, ScriptedModel(case=case), engine="claude@2.1.19", version="2.1.19")
    record = run_case(case, ClaudeEngine(engine_version="2.1.19"), expectations=EXPECTATIONS)
    assert record.status == "not-modelled"
    assert record.fault is not None and "has no --debug-file" in record.fault.message
    assert not outcome_of(record).judged  # a bisect skips the version, as it skips a timeout


def test_node_missing_is_an_install_error_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """npm is found (a stand-in that only fails to list versions), node is not."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text("#!/bin/sh\nexit 1\n")
    (bin_dir / "npm").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(InstallError, match=r"^node is not on PATH: claude 2\.1\.63 \(a release before 2\.1\.110\)"):
        ensure_installed(OLD, root=tmp_path / "cache")
    assert not (tmp_path / "cache" / "engines" / f"claude-{OLD}").exists()


@pytest.mark.xdist_group("faults-real-engine")
@pytest.mark.skipif(shutil.which("npm") is None or shutil.which("node") is None, reason="no npm or node")
def test_a_cli_js_release_installs_into_the_shared_cache_and_runs_a_committed_case(
    committed_cases: list[Case],
) -> None:
    binary = ensure_installed(OLD)
    assert binary == binary_path(OLD) and binary.name == "cli.js" and os.access(binary, os.X_OK)
    install = binary.parents[3]
    assert json.loads((install / RECORD).read_text()) == {"size": binary.stat().st_size}
    assert not (install / "node_modules" / "@anthropic-ai" / "claude-code-linux-x64").exists()
    record = run_case(
        _case(committed_cases, "tool-hook-pretooluse-deny"), ClaudeEngine(engine_version=OLD), expectations=EXPECTATIONS
    )
    assert record.status == "pass", record.explain()
    # a background subagent's output file is scratch: it stays in the run's own folder, not /tmp/claude-<uid>
    scratch = Path("/tmp") / f"claude-{os.getuid()}"
    before = sorted(scratch.iterdir()) if scratch.is_dir() else []
    record = run_case(
        _case(committed_cases, "subagent-tool-inherit"), ClaudeEngine(engine_version=OLD), expectations=EXPECTATIONS
    )
    assert record.status == "pass", record.explain()
    assert (sorted(scratch.iterdir()) if scratch.is_dir() else []) == before
