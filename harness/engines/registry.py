"""The claude versions published on the npm registry: release versions only, asked once a day.

``cc-harness check latest`` and a scan over a range of releases need the registry's list. npm answers
it (``npm view PACKAGE versions``); the answer is kept in the engine cache for a day so that a run of
many commands asks once, and an offline machine still has yesterday's list.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

from harness.engines.paths import PACKAGE, cache_root
from harness.errors import InstallError
from harness.versions import is_version, version_key

#: How long a fetched list is trusted before npm is asked again.
_MAX_AGE_SECONDS = 24 * 3600


def published_versions(*, root: Path | None = None, refresh: bool = False) -> list[str]:
    """Every release version (``MAJOR.MINOR.PATCH``, no pre-releases), oldest first."""
    cached = (root or cache_root()) / "registry-versions.json"
    if not refresh and cached.is_file() and time.time() - cached.stat().st_mtime < _MAX_AGE_SECONDS:
        return _releases(json.loads(cached.read_text(encoding="utf-8")))
    try:
        versions = _ask_npm()
    except InstallError:
        if cached.is_file():  # offline: yesterday's list beats none
            return _releases(json.loads(cached.read_text(encoding="utf-8")))
        raise
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(versions), encoding="utf-8")
    return _releases(versions)


def resolve(version: str, *, root: Path | None = None) -> str:
    """``latest`` as the newest published release; any other text unchanged."""
    if version != "latest":
        return version
    releases = published_versions(root=root)
    if not releases:
        raise InstallError(f"the npm registry lists no release version of {PACKAGE}")
    return releases[-1]


def latest_of(package: str) -> str:
    """The version npm installs for ``package@latest`` (its ``latest`` tag), asked now: ``check FAMILY@latest``
    of an agent other than claude, whose registry lists pre-releases and nightlies beside releases."""
    said = _npm_view(package, "version")
    version = said if isinstance(said, str) else None
    if version is None or not is_version(version):
        raise InstallError(f"npm view {package} version printed {said!r}, not a release version")
    return version


def _releases(versions: object) -> list[str]:
    if not isinstance(versions, list):
        return []
    return sorted((v for v in versions if isinstance(v, str) and is_version(v)), key=version_key)


def _ask_npm() -> list[object]:
    versions = _npm_view(PACKAGE, "versions")
    return versions if isinstance(versions, list) else [versions]


def _npm_view(package: str, field: str) -> object:
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError(f"npm is not on PATH: install Node.js and npm to ask for {package}'s versions")
    try:
        proc = subprocess.run(
            [npm, "view", package, field, "--json"], capture_output=True, text=True, timeout=120, check=False
        )
    except subprocess.TimeoutExpired:
        raise InstallError(f"npm view {package} {field} timed out") from None
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-5:])
        raise InstallError(f"npm view {package} {field} failed (exit {proc.returncode}):\n{tail}")
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise InstallError(f"npm view {package} {field} printed something that is not JSON") from None
