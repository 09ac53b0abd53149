"""Install claude ``VERSION`` into a cache shared by runs and workers.

What is installed: the platform's native package alone (``@anthropic-ai/claude-code-linux-x64@VERSION``,
the one ``@anthropic-ai/claude-code`` lists among its optional dependencies for this machine), with a
private npm cache that is deleted afterwards. The wrapper package only picks that binary, and
the harness runs the binary itself; npm's shared cache would keep a second, compressed copy of every
version (~120 MB each), which a cache holding a timeline of versions cannot afford.

Releases before ``NATIVE_FROM`` (2.1.110) have no native package: they ship ``cli.js`` inside
``@anthropic-ai/claude-code`` itself, a script run by Node.js (``#!/usr/bin/env node``). For those the
wrapper package is installed and its ``cli.js`` is the engine's executable (``binary_path``); everything
below (the size record, the ``--version`` check, the lock, staging, ``cache list/prune``) treats it as
it treats a native binary. ``node`` must be on PATH, at install time and when the engine runs.

Policy: one directory per version under the cache root; an install goes to a private temporary
directory and is renamed into place only once the binary answers ``--version``, under a file lock,
so concurrent workers never install twice and a failed install leaves nothing behind.

A cached binary is checked before its first use in each process: it exists, is executable, has the
size recorded at install time (``.cc-harness-install.json`` beside it) and answers ``--version``; a
broken one (a truncated download, a disk that filled up, a stray edit) is reinstalled. An install left
without a record by an older cc-harness is adopted once it answers ``--version``. Staging folders of
installs whose process died are removed under the lock. A failed install is remembered for the rest
of the process: later cases get the same InstallError at once instead of running npm again.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import platform
import re
import shutil
import subprocess
import threading
from pathlib import Path

from harness.engine_name import EngineName
from harness.engines.paths import PACKAGE, cache_root
from harness.engines.registry import published_versions
from harness.errors import InstallError
from harness.versions import is_version, version_key

#: The first release published as a native package (``@anthropic-ai/claude-code-linux-x64``), measured on
#: the npm registry: the platform packages start at 2.1.110; every release before it ships ``cli.js`` only.
NATIVE_FROM = (2, 1, 110)
#: What an install recorded about its binary, in the install directory.
RECORD = ".cc-harness-install.json"
#: Touched at each first use of an install in a process: the cache's least-recently-used order.
USED = ".cc-harness-used"
_STAGING = re.compile(r"^claude-(?P<version>[0-9.]+)\.(?:staging|broken)-(?P<pid>[0-9]+)$")

# Per process: install directories checked (their binary), and installs that failed (their error).
_checked: dict[Path, Path] = {}
_failed: dict[Path, InstallError] = {}
_memo = threading.Lock()


def _platform_package() -> str:
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    if machine is None or platform.system() != "Linux":
        raise InstallError(f"no native claude package for {platform.system()} {platform.machine()}")
    return f"claude-code-linux-{machine}"


def _engine_dir(version: str, *, root: Path | None = None) -> Path:
    """The cache directory that holds the install of ``version``."""
    return (root or cache_root()) / "engines" / EngineName.claude(version).dir


def is_native(version: str) -> bool:
    """Whether ``version`` ships as a native binary (from 2.1.110); older releases ship ``cli.js``."""
    return version_key(version) >= NATIVE_FROM


def _binary_in(directory: Path, version: str) -> Path:
    """The claude executable inside an install directory (the cached one or a staging one): the native
    binary, or the wrapper package's ``cli.js`` for a release before ``NATIVE_FROM``."""
    if not is_native(version):
        return directory / "node_modules" / "@anthropic-ai" / "claude-code" / "cli.js"
    return directory / "node_modules" / "@anthropic-ai" / _platform_package() / "claude"


def binary_path(version: str, *, root: Path | None = None) -> Path:
    return _binary_in(_engine_dir(version, root=root), version)


def ensure_installed(version: str, *, root: Path | None = None, timeout: float = 900) -> Path:
    """The path of the claude binary for ``version``, installing it first if needed (see the module doc)."""
    if not is_version(version):
        raise InstallError(f"not a version number: {version!r} (expected e.g. 2.1.252)")
    final = _engine_dir(version, root=root).absolute()
    with _memo:
        if final in _failed:
            earlier = _failed[final]
            raise InstallError(str(earlier), detail=earlier.detail, phase=earlier.phase)
        if final in _checked:
            return _checked[final]
    try:
        binary = _ensure(version, final, timeout=timeout)
    except InstallError as exc:
        with _memo:
            _failed[final] = exc
        raise
    with _memo:
        _checked[final] = binary
    _mark_used(final)
    return binary


def _mark_used(install: Path) -> None:
    """Record that ``install`` was used now (its mtime), for pruning the least recently used first."""
    with contextlib.suppress(OSError):  # a read-only cache still runs; it only loses its use order
        (install / USED).touch()


def _ensure(version: str, final: Path, *, timeout: float) -> Path:
    binary = _binary_in(final, version)
    if _problem(final, version) is None:
        return binary
    final.parent.mkdir(parents=True, exist_ok=True)
    with open(final.parent / f"{final.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be installing the same version
        remove_stale_staging(final.parent, version)
        problem = _problem(final, version)  # checked again: that worker may have finished meanwhile
        if problem is None:
            return binary
        if problem == "legacy":
            _write_record(final, binary)  # installed by an older cc-harness, and it answers: adopt it
            return binary
        _discard(final)
        _check_published(version, root=final.parent.parent)
        staging = final.parent / f"{final.name}.staging-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        try:
            _npm_install(version, staging, timeout=timeout)
            _check_binary(_binary_in(staging, version), version)
            _write_record(staging, _binary_in(staging, version))
            staging.rename(final)
        except InstallError as exc:
            if problem != "missing":  # say why a cached install was replaced at all
                raise InstallError(f"{exc} (reinstalling because the cached binary {problem})") from None
            raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return binary


def _check_published(version: str, *, root: Path) -> None:
    """Refuse a version that is no release of the package: the platform package has placeholders (its
    ``0.0.0`` installs, without a binary) that would otherwise fail later with a less helpful message."""
    try:
        releases = published_versions(root=root)
    except InstallError:  # no list (offline, first use): npm will say whether the version exists
        return
    if releases and version not in releases:
        raise InstallError(
            f"{PACKAGE}@{version} is not a published release (the npm registry lists {len(releases)}, the newest"
            f" {releases[-1]}; cc-harness timeline versions lists a range)",
            phase="install",
        )


def _problem(final: Path, version: str) -> str | None:
    """What is wrong with the install in ``final``: None (usable), ``missing``, ``legacy`` (usable, but
    installed without a record), or why it is broken, for a message."""
    binary = _binary_in(final, version)
    if not binary.is_file():
        return "missing"
    if not os.access(binary, os.X_OK):
        return f"{binary} is not executable"
    recorded = _recorded_size(final)
    size = binary.stat().st_size
    if recorded is not None and size != recorded:
        return f"{binary} is {size} bytes, {recorded} when installed"
    try:
        _check_binary(binary, version)
    except InstallError as exc:
        return str(exc)
    return "legacy" if recorded is None else None


def _recorded_size(final: Path) -> int | None:
    try:
        size = json.loads((final / RECORD).read_text(encoding="utf-8"))["size"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return size if isinstance(size, int) else None


def _write_record(directory: Path, binary: Path) -> None:
    """Record the binary's size, written whole (a reader never sees half a record)."""
    partial = directory / f"{RECORD}.{os.getpid()}"
    partial.write_text(json.dumps({"size": binary.stat().st_size}), encoding="utf-8")
    partial.replace(directory / RECORD)


def _discard(final: Path) -> None:
    """Move a broken install out of the way (rename is atomic for concurrent readers), then delete it."""
    if not final.exists():
        return
    broken = final.with_name(f"{final.name}.broken-{os.getpid()}")
    shutil.rmtree(broken, ignore_errors=True)
    final.rename(broken)
    shutil.rmtree(broken, ignore_errors=True)


def remove_stale_staging(engines: Path, version: str | None = None) -> None:
    """Delete the staging (and discarded) folders of ``version`` (None: of any) whose installing process is dead."""
    for entry in engines.iterdir():
        match = _STAGING.match(entry.name)
        if match and version in (None, match["version"]) and not _alive(int(match["pid"])):
            shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def platform_spec(version: str) -> str:
    """The npm package that holds this platform's binary of ``version`` (before 2.1.110: its ``cli.js``)."""
    if not is_native(version):
        return f"{PACKAGE}@{version}"
    return f"@anthropic-ai/{_platform_package()}@{version}"


def _npm_install(version: str, prefix: Path, *, timeout: float) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError("npm is not on PATH: install Node.js and npm to fetch claude engines")
    if not is_native(version) and shutil.which("node") is None:
        raise InstallError(
            f"node is not on PATH: claude {version} (a release before 2.1.110) ships cli.js, run by Node.js;"
            " install Node.js to run it",
            phase="install",
        )
    prefix.mkdir(parents=True)
    npm_cache = prefix / ".npm-cache"
    cmd = [
        npm,
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--no-package-lock",
        "--cache",
        str(npm_cache),
        "--prefix",
        str(prefix),
        platform_spec(version),
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise InstallError(f"npm install {platform_spec(version)} timed out after {timeout:.0f}s") from None
    finally:
        shutil.rmtree(npm_cache, ignore_errors=True)
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        raise InstallError(
            f"npm install {platform_spec(version)} failed (exit {proc.returncode}): {_npm_reason(lines)}",
            detail="npm's output (last 15 lines):\n" + "\n".join(lines[-15:]),
            phase="install",
        )


def _npm_reason(lines: list[str]) -> str:
    """The line of npm's output that says why (``npm error notarget No matching version found ...``)."""
    errors = [line for line in lines if re.match(r"npm (error|ERR!)", line) and not re.search(r" code \S+$", line)]
    return (errors or lines or ["(no output)"])[0].strip()


def _check_binary(binary: Path, version: str) -> None:
    if not binary.is_file():
        what = "native binary" if is_native(version) else "cli.js"
        raise InstallError(f"{PACKAGE}@{version} installed, but its {what} is missing: {binary}")
    if not is_native(version) and shutil.which("node") is None:
        raise InstallError(f"node is not on PATH: claude {version} ships cli.js, run by Node.js (before 2.1.110)")
    try:
        proc = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60, check=False)
    except subprocess.TimeoutExpired:
        raise InstallError(f"{binary} --version did not answer within 60 s") from None
    except OSError as exc:  # not executable, not an executable format (a truncated file)
        raise InstallError(f"{binary} --version cannot run: {exc}") from None
    if version not in proc.stdout:
        said = proc.stdout.strip() or proc.stderr.strip()[-300:]
        raise InstallError(f"{binary} --version printed {said!r} (exit {proc.returncode}), expected {version}")
