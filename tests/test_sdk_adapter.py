"""The Agent SDK adapter leaves the harness's ``os.environ`` alone, gives the engine the allowlisted
environment only, and reports injected API faults as the CLI adapter does.

Needs the ``claude-agent-sdk`` package (PyPI); runs the oldest pinned version.
"""

from __future__ import annotations

import os
import threading
import uuid
from pathlib import Path

import pytest

from harness.apifaults import ApiFaultPlan
from harness.errors import ApiFault
from harness.processes import COOKIE
from tests.conftest import CaseWriter, run_in_copy

pytest.importorskip("claude_agent_sdk")

from harness.engines.sdk import SdkEngine

pytestmark = pytest.mark.xdist_group("faults-real-engine")

CASE = """\
id: {id}
title: t
claims: [E3]
source: test
documented_for: 2.1.252
run: {{permission_mode: bypass, timeout: 60}}
steps:
  - prompt: Save the environment with the Bash tool.
    turns:
      - call:
          name: Bash
          input: {{command: env > engine-env.txt && echo SAVED, description: Save the environment}}
          expect: {{result: SAVED}}
      - say: Saved.
"""


def test_the_harness_environment_is_never_emptied_and_never_reaches_the_engine(
    write_case: CaseWriter, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, claude_version: str
) -> None:
    secret = f"s3cret-{uuid.uuid4().hex}"
    monkeypatch.setenv("CC_HARNESS_TEST_SECRET", secret)
    seen: list[int] = []
    stripped: list[int] = []
    done = threading.Event()

    def watch() -> None:  # another thread of the harness, building an engine environment meanwhile
        while not done.is_set():
            size = len(os.environ)
            seen.append(size)
            if os.environ.get("CC_HARNESS_TEST_SECRET") != secret:
                stripped.append(size)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        run = run_in_copy(
            write_case("environ", CASE.format(id="environ")), SdkEngine(engine_version=claude_version), tmp_path / "run"
        )
    finally:
        done.set()
        watcher.join()
    assert len(seen) > 100, "the watching thread barely ran"
    assert stripped == []
    engine_env = dict(
        line.split("=", 1) for line in (run.workdir / "engine-env.txt").read_text().splitlines() if "=" in line
    )
    assert secret not in (run.workdir / "engine-env.txt").read_text()
    assert engine_env["CLAUDE_CODE_ENTRYPOINT"] == "sdk-py"  # what the SDK itself sets gets through
    assert engine_env[COOKIE]  # the run's cookie too
    assert "CC_HARNESS_SDK_KEEP" not in engine_env and "CC_HARNESS_SDK_BINARY" not in engine_env


def test_an_injected_fault_is_an_api_fault_through_the_sdk(
    write_case: CaseWriter, tmp_path: Path, claude_version: str
) -> None:
    directory = write_case("sdkfault", CASE.format(id="sdkfault"))
    engine = SdkEngine(engine_version=claude_version, api_faults=ApiFaultPlan.parse("malformed@*"))
    with pytest.raises(ApiFault) as err:
        run_in_copy(directory, engine, tmp_path / "run")
    message = str(err.value)
    assert message.startswith(
        f"{directory / 'case.yaml'}: step 1 of 1: the fake Messages API served injected faults: a stream with a"
        " malformed event (data that is not JSON) to requests 1, 2"
    )
    # the SDK shows no exit status after the last result; the engine's own error result says what it saw
    assert f"sdk@{claude_version} then ended after 1 of 1 result (the last an error: 'API Error: " in message


@pytest.mark.parametrize(
    ("mode", "sdk_mode"),
    [("bypass", "bypassPermissions"), ("default", "default"), ("acceptEdits", "acceptEdits"), ("plan", "plan"),
     ("dontAsk", "dontAsk"), ("auto", "auto")],
)
def test_the_case_permission_mode_reaches_the_sdk(
    write_case: CaseWriter, tmp_path: Path, mode: str, sdk_mode: str
) -> None:
    from harness.case import load_case

    text = CASE.format(id=f"mode-{mode.lower()}").replace("permission_mode: bypass", f"permission_mode: {mode}")
    case = load_case(write_case(f"mode-{mode.lower()}", text))
    options = SdkEngine(engine_version="2.1.332")._options(
        case, start=[str(tmp_path / "claude")], workdir=tmp_path, env={}, resume=None, debug_log=tmp_path / "d",
        stderr=[],
    )
    assert options.permission_mode == sdk_mode  # acceptEdits ran as default before: a silent wrong mode
