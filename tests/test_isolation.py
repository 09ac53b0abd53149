"""A run contacts nothing but loopback, and never writes into cases/."""

from __future__ import annotations

import hashlib
import ipaddress
import re
import shutil
from pathlib import Path

import pytest

from harness.case import discover_cases, load_case
from harness.engines import make_engine
from harness.engines.claude import ClaudeEngine
from harness.runner import run_case
from tests.conftest import EXPECTATIONS, REPO

_INET = re.compile(r'connect\(\d+, \{sa_family=AF_INET6?, sin6?_port=htons\((\d+)\),[^"]*"([0-9a-fA-F.:]+)"')


def _tree_digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() + oct(p.stat().st_mode)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    } | {str(p.relative_to(root)) + "/": "dir" for p in root.rglob("*") if p.is_dir()}


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed (.ci/run installs it)")
def test_the_real_engine_contacts_only_loopback(tmp_path: Path, claude_version: str) -> None:
    log = tmp_path / "connect.log"
    engine = ClaudeEngine(
        engine_version=claude_version, wrapper=("strace", "-f", "-qq", "-e", "trace=connect", "-o", str(log))
    )
    case = load_case(REPO / "cases" / "subagent-tool-inherit")
    run = run_case(case, engine, expectations=EXPECTATIONS)
    assert run.status.is_error is False, run.explain()
    calls = log.read_text().splitlines()
    inet = [m.groups() for line in calls if (m := _INET.search(line))]
    assert inet, "no TCP connect seen: the engine did not reach the fake API at all"
    for port, host in inet:
        address = ipaddress.ip_address(host)
        assert address.is_loopback, f"the engine connected to {address}:{port}"


@pytest.mark.parametrize("engine", ["reference", "claude"])
def test_a_run_never_writes_into_cases(engine: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    spec = "reference" if engine == "reference" else f"claude@{request.getfixturevalue('claude_version')}"
    cases_dir = tmp_path / "cases"  # a private copy, so concurrent edits to cases/ cannot disturb the test
    shutil.copytree(REPO / "cases", cases_dir, symlinks=True)
    before = _tree_digest(cases_dir)
    # the cases that write the most: hook markers, payload logs, files made by Bash, forks
    chosen = [c for c in discover_cases(cases_dir) if c.effects][:6]
    assert chosen, "no case with effects to exercise"
    for case in chosen:
        run = run_case(case, make_engine(spec), expectations=EXPECTATIONS)
        assert run.status.is_error is False, run.explain()
    assert _tree_digest(cases_dir) == before
