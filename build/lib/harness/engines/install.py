"""Install ``@anthropic-ai/claude-code@VERSION`` into a cache shared by runs and workers.

Policy: one directory per version under the cache root; an install goes to a private temporary
directory and is renamed into place only once the binary answers ``--version``, under a file lock,
so concurrent workers never install twice and a failed install leaves nothing behind.
"""

from __future__ import annotations

import fcntl
import os
import platform
import re
import shutil
import subprocess
from pathlib import Path

from harness.errors import InstallError

PACKAGE = "@anthropic-ai/claude-code"
_VERSION = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+$")


def cache_root() -> Path:
    """``$CC_HARNESS_CACHE``, else ``$XDG_CACHE_HOME/cc-harness``, else ``~/.cache/cc-harness``."""
    if env := os.environ.get("CC_HARNESS_CACHE"):
        return Path(env)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "cc-harness"


def _platform_package() -> str:
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    if machine is None or platform.system() != "Linux":
        raise InstallError(f"no native claude package for {platform.system()} {platform.machine()}")
    return f"claude-code-linux-{machine}"


def is_version(v: str) -> bool:
    """Whether ``v`` is a version number claude is published under, e.g. ``2.1.252``."""
    return _VERSION.fullmatch(v) is not None


def _engine_dir(version: str, *, root: Path | None = None) -> Path:
    """The cache directory that holds the install of ``version``."""
    return (root or cache_root()) / "engines" / f"claude-{version}"


def _binary_in(directory: Path) -> Path:
    """The claude binary inside an install directory (the cached one or a staging one)."""
    return directory / "node_modules" / "@anthropic-ai" / _platform_package() / "claude"


def binary_path(version: str, *, root: Path | None = None) -> Path:
    return _binary_in(_engine_dir(version, root=root))


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def ensure_installed(version: str, *, root: Path | None = None, timeout: float = 900) -> Path:
    """The path of the claude binary for ``version``, installing it first if needed."""
    if not is_version(version):
        raise InstallError(f"not a version number: {version!r} (expected e.g. 2.1.252)")
    final = _engine_dir(version, root=root)
    binary = _binary_in(final)
    if binary.is_file():
        return binary
    final.parent.mkdir(parents=True, exist_ok=True)
    with open(final.parent / f"claude-{version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be installing the same version
        if binary.is_file():
            return binary
        staging = final.parent / f"claude-{version}.staging-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        try:
            _npm_install(version, staging, timeout=timeout)
            _check_binary(_binary_in(staging), version)
            staging.rename(final)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return binary


def _npm_install(version: str, prefix: Path, *, timeout: float) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError("npm is not on PATH: install Node.js and npm to fetch claude engines")
    prefix.mkdir(parents=True)
    cmd = [
        npm,
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--prefix",
        str(prefix),
        f"{PACKAGE}@{version}",
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise InstallError(f"npm install {PACKAGE}@{version} timed out after {timeout:.0f}s") from None
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-15:])
        raise InstallError(f"npm install {PACKAGE}@{version} failed (exit {proc.returncode}):\n{tail}")


def _check_binary(binary: Path, version: str) -> None:
    if not binary.is_file():
        raise InstallError(f"{PACKAGE}@{version} installed, but its native binary is missing: {binary}")
    proc = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60, check=False)
    if version not in proc.stdout:
        raise InstallError(f"{binary} --version printed {proc.stdout.strip()!r}, expected {version}")
