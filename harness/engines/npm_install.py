"""Install an agent from npm into the engine cache once per machine: under a lock, into a staging folder that
is renamed into place only once the installed program answers ``--version``, with what it answered recorded.

Used by the adapters of agents other than claude (whose installer, ``install.py``, also reads the registry).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.engines.paths import cache_root
from harness.errors import InstallError

_RECORD = ".cc-harness-install.json"


@dataclass(frozen=True)
class NpmInstall:
    """One agent's install: ``folder`` under the cache's engines/, the npm specs to install, and ``verify``,
    which runs the staged install and returns what to record (raising InstallError if it cannot run)."""

    folder: str
    specs: tuple[str, ...]
    verify: Callable[[Path], dict[str, Any]]
    #: Files that must exist in a finished install (relative to it).
    needs: tuple[str, ...] = ()
    #: Whether a finished install is still whole, given its record (e.g. a binary of the recorded size).
    whole: Callable[[Path, dict[str, Any]], bool] | None = None


_checked: dict[str, Path] = {}
_memo = threading.Lock()


def ensure(install: NpmInstall, *, timeout: float = 900) -> Path:
    """The finished install folder, installing it first if no finished install is recorded."""
    with _memo:
        if install.folder in _checked:
            return _checked[install.folder]
    final = cache_root() / "engines" / install.folder
    if not recorded(final, install):
        final.parent.mkdir(parents=True, exist_ok=True)
        with open(final.parent / f"{install.folder}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be installing the same version
            if not recorded(final, install):
                _install(install, final, timeout=timeout)
    with _memo:
        _checked[install.folder] = final
    return final


def recorded(final: Path, install: NpmInstall) -> dict[str, Any] | None:
    """What a finished install recorded, or None if there is none or it is no longer whole."""
    try:
        record = json.loads((final / _RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or not all((final / need).exists() for need in install.needs):
        return None
    if install.whole is not None and not install.whole(final, record):
        return None
    return record


def _install(install: NpmInstall, final: Path, *, timeout: float) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError(f"npm is not on PATH: install Node.js and npm to fetch {install.specs[0]}")
    shutil.rmtree(final, ignore_errors=True)
    staging = final.with_name(f"{final.name}.staging-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    spec = install.specs[0]
    cmd = [npm, "install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", "--engine-strict=false"]
    cmd += ["--cache", str(staging / ".npm-cache"), "--prefix", str(staging), *install.specs]
    try:
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise InstallError(f"npm install {spec} timed out after {timeout:.0f}s", phase="install") from None
        if proc.returncode != 0:
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            raise InstallError(
                f"npm install {spec} failed (exit {proc.returncode}): {(lines or ['(no output)'])[-1]}",
                detail="\n".join(lines[-15:]),
                phase="install",
            )
        shutil.rmtree(staging / ".npm-cache", ignore_errors=True)
        record = install.verify(staging)
        (staging / _RECORD).write_text(json.dumps(record), encoding="utf-8")
        staging.rename(final)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def version_of(argv: list[str], spec: str) -> str:
    """The first line a staged program prints for ``argv`` (its ``--version``); InstallError if it cannot."""
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InstallError(f"{spec} installed, but {argv[-2]} --version cannot run: {exc}") from None
    if proc.returncode != 0 or not proc.stdout.strip():
        raise InstallError(f"{spec}: --version printed {proc.stdout.strip()[:200]!r} (exit {proc.returncode})")
    return proc.stdout.strip().splitlines()[0]
