"""The engine cache: a cached binary is checked before its first use in a process, and a broken one
is reinstalled; stale staging folders go; a failed install is tried once per process.

"A process" is real here: each step that must be a first use runs ``ensure_installed`` in a fresh
Python process against a temporary cache root (CC_HARNESS_CACHE), with a real ``npm install``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.engines.install import RECORD, binary_path, ensure_installed
from harness.errors import InstallError
from tests.conftest import REPO

pytestmark = pytest.mark.xdist_group("faults-real-engine")

VERSION = "2.1.252"


def _first_use(root: Path) -> str:
    """What ``ensure_installed`` returns (or raises) in a new process using the cache at ``root``."""
    code = textwrap.dedent(f"""
        from harness.engines.install import ensure_installed
        from harness.errors import InstallError
        try:
            print(ensure_installed({VERSION!r}))
        except InstallError as exc:
            print("InstallError:", exc)
    """)
    env = {**os.environ, "CC_HARNESS_CACHE": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=600, check=True
    )
    return done.stdout.strip()


def _dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


@pytest.mark.skipif(not any(Path(p, "npm").exists() for p in os.environ["PATH"].split(":")), reason="no npm")
def test_a_truncated_binary_is_reinstalled_and_stale_staging_folders_go(tmp_path: Path) -> None:
    binary = binary_path(VERSION, root=tmp_path)
    assert _first_use(tmp_path) == str(binary)  # a real npm install into the empty cache
    size = binary.stat().st_size
    install = tmp_path / "engines" / f"claude-{VERSION}"
    assert json.loads((install / RECORD).read_text()) == {"size": size}
    # only this platform's native package: no wrapper package, no npm cache left in the install
    assert [p.name for p in (install / "node_modules" / "@anthropic-ai").iterdir()] == [binary.parent.name]
    assert not (install / ".npm-cache").exists()

    engines = tmp_path / "engines"
    stale = engines / f"claude-{VERSION}.staging-{_dead_pid()}"
    live = engines / f"claude-{VERSION}.staging-{os.getpid()}"  # an install under way in this process
    for folder in (stale, live):
        (folder / "node_modules").mkdir(parents=True)
    with binary.open("r+b") as f:
        f.truncate(size // 2)

    assert _first_use(tmp_path) == str(binary)
    assert binary.stat().st_size == size
    answer = subprocess.run([str(binary), "--version"], capture_output=True, text=True, check=True)
    assert VERSION in answer.stdout
    assert not stale.exists()
    assert live.exists()
    assert sorted(p.name for p in engines.iterdir()) == sorted(
        [f"claude-{VERSION}", f"claude-{VERSION}.lock", live.name]
    )


def test_a_broken_binary_is_named_when_it_cannot_be_reinstalled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = binary_path(VERSION, root=tmp_path)
    binary.parent.mkdir(parents=True)
    binary.write_bytes(b"\x7fELF truncated")  # no execute bit
    monkeypatch.setenv("PATH", str(tmp_path / "no-npm-here"))
    with pytest.raises(InstallError) as err:
        ensure_installed(VERSION, root=tmp_path)
    assert str(err.value) == (
        "npm is not on PATH: install Node.js and npm to fetch claude engines"
        f" (reinstalling because the cached binary {binary} is not executable)"
    )


def test_a_failed_install_is_reported_once_per_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """npm install runs once; the second case gets the same InstallError at once. 2.1.24 was never published;
    the cache's list of releases (written here, as a stale one would be) names it, so npm is asked."""
    import shutil

    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("no npm")
    shim = tmp_path / "bin" / "npm"
    shim.parent.mkdir()
    calls = tmp_path / "npm-calls.log"
    shim.write_text(f'#!/bin/sh\necho "$@" >> {calls}\nexec {npm} "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim.parent}:{os.environ['PATH']}")
    root = tmp_path / "cache"
    root.mkdir()
    (root / "registry-versions.json").write_text(json.dumps(["2.1.23", "2.1.24", "2.1.25"]))
    with pytest.raises(InstallError) as first:
        ensure_installed("2.1.24", root=root)
    with pytest.raises(InstallError) as second:
        ensure_installed("2.1.24", root=root)
    message = str(first.value)  # npm 10 says "npm error notarget ...", older ones "npm ERR! notarget ..."
    assert message.startswith("npm install @anthropic-ai/claude-code@2.1.24 failed (exit 1): npm ")
    assert message.endswith("notarget No matching version found for @anthropic-ai/claude-code@2.1.24.")
    assert "ETARGET" in first.value.detail
    assert (str(second.value), second.value.detail) == (str(first.value), first.value.detail)
    assert len([c for c in calls.read_text().splitlines() if c.startswith("install")]) == 1
    assert sorted(p.name for p in (root / "engines").iterdir()) == ["claude-2.1.24.lock"]  # nothing left behind


def test_a_version_that_is_no_release_is_refused_before_npm_installs_anything(tmp_path: Path) -> None:
    """The platform package has a placeholder 0.0.0 without a binary: the registry's release list says no first."""
    (tmp_path / "registry-versions.json").write_text(json.dumps(["2.1.252", "2.1.332", "2.1.333-beta.1"]))
    with pytest.raises(InstallError) as err:
        ensure_installed("0.0.0", root=tmp_path)
    assert str(err.value) == (
        "@anthropic-ai/claude-code@0.0.0 is not a published release (the npm registry lists 2, the newest 2.1.332;"
        " cc-harness timeline versions lists a range)"
    )
    assert sorted(p.name for p in (tmp_path / "engines").iterdir()) == ["claude-0.0.0.lock"]
