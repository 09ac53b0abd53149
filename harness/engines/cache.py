"""The engine cache as a whole: what it holds, and pruning it to a size budget.

A timeline of releases needs dozens of installs of 200-400 MB each, more than a disk should keep at
once. ``prune`` removes the least recently used installs first (``install._mark_used`` touches a file
at each first use in a process) until the cache fits the budget; pinned versions are never removed,
even when they alone exceed it, since other runs and other people rely on them being there.

Only what cc-harness made is counted and removed: ``engines/claude-<V>`` folders and the leftovers
of installs (``.staging-``/``.broken-`` folders) whose installing process has died. A removal takes
the version's install lock, so a worker that is installing or checking that version is not pulled
from under.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from harness.engines.install import RECORD, USED, remove_stale_staging
from harness.engines.paths import cache_root
from harness.errors import UsageError
from harness.versions import is_version, version_key

_INSTALL = re.compile(r"^claude-(?P<version>[0-9]+\.[0-9]+\.[0-9]+)$")
_SIZE = re.compile(r"^(?P<number>[0-9]+(?:\.[0-9]+)?)\s*(?P<unit>[KMGT]?)(?:i?B)?$", re.IGNORECASE)


@dataclass(frozen=True, kw_only=True)
class Install:
    """One cached version."""

    version: str
    path: Path
    bytes: int
    last_used: float
    """When it was last used (seconds since the epoch): its use mark, else when it was installed."""
    pinned: bool


def parse_size(text: str) -> int:
    """``2G``, ``500M``, ``1.5GB``, ``800MiB`` or a plain byte count, as bytes (units are powers of 1024)."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise UsageError(f"not a size: {text!r} (expected e.g. 2G, 500M or a number of bytes)")
    scale = 1024 ** ("KMGT".find(match["unit"].upper()) + 1) if match["unit"] else 1
    return int(float(match["number"]) * scale)


def human(size: int) -> str:
    """A byte count for people: ``384.2 MB`` (powers of 1024, as ``parse_size`` reads them)."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"  # pragma: no cover - the loop returns


def _tree_bytes(path: Path) -> int:
    """Bytes of the files under ``path`` (symlinks not followed, files that vanish meanwhile skipped)."""
    total = 0
    for folder, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total


def _last_used(path: Path) -> float:
    for marker in (path / USED, path / RECORD, path):
        try:
            return marker.stat().st_mtime
        except OSError:
            continue
    return 0.0


def installs(*, root: Path | None = None, pinned: Iterable[str] = ()) -> list[Install]:
    """Every cached version, oldest version first."""
    engines = (root or cache_root()) / "engines"
    keep = set(pinned)
    found = []
    for entry in engines.iterdir() if engines.is_dir() else ():
        match = _INSTALL.match(entry.name)
        if match is None or not entry.is_dir() or not is_version(match["version"]):
            continue
        version = match["version"]
        found.append(
            Install(
                version=version,
                path=entry,
                bytes=_tree_bytes(entry),
                last_used=_last_used(entry),
                pinned=version in keep,
            )
        )
    return sorted(found, key=lambda i: version_key(i.version))


def _remove(install: Install) -> bool:
    """Remove one install under its lock; False when another process holds the lock (in use: kept).

    A cache that cannot be written (a read-only mount, another user's folder) is a one-line error naming it."""
    lock_path = install.path.parent / f"{install.path.name}.lock"
    try:
        with open(lock_path, "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            # renamed first (atomic): a reader never sees a half-deleted install as a cached one
            doomed = install.path.with_name(f"{install.path.name}.broken-{os.getpid()}")
            shutil.rmtree(doomed, ignore_errors=True)
            install.path.rename(doomed)
            shutil.rmtree(doomed, ignore_errors=True)
    except OSError as exc:
        raise UsageError(
            f"{install.path.parent}: cannot remove claude-{install.version} from the engine cache:"
            f" {exc.strerror or exc}"
        ) from None
    return True


def prune(
    *, max_bytes: int, pinned: Iterable[str], root: Path | None = None, keep: Iterable[str] = ()
) -> tuple[list[Install], list[Install]]:
    """Remove unpinned installs, least recently used first, until the cache holds at most ``max_bytes``.

    ``keep``: versions not to remove this time either (the one a scan is about to run). Returns
    (removed, kept)."""
    engines = (root or cache_root()) / "engines"
    if engines.is_dir():
        remove_stale_staging(engines)
    present = installs(root=root, pinned=pinned)
    spare = set(keep)
    total = sum(i.bytes for i in present)
    removed: list[Install] = []
    for install in sorted(present, key=lambda i: i.last_used):
        if total <= max_bytes:
            break
        if install.pinned or install.version in spare:
            continue
        if _remove(install):
            removed.append(install)
            total -= install.bytes
    gone = {i.version for i in removed}
    return removed, [i for i in present if i.version not in gone]


def key(versions: Iterable[str]) -> str:
    """A CI cache key that changes exactly when the set of claude versions a suite runs changes.

    The action (``action.yml``) caches the engine folder under it, so a pinned version is downloaded once,
    not on every run, and a new pin starts a new cache instead of growing the old one."""
    wanted = sorted({v for v in versions if is_version(v)}, key=version_key)
    return "cc-harness-engines-" + ("-".join(wanted) or "none")
