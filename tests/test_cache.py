"""The engine cache as a whole: cc-harness cache list and prune, with a size budget.

Installs here are made-up folders with sparse binaries of the sizes real ones have (a real install is
200-400 MB; the truncated-binary reinstall with a real npm is tested in test_install.py), so a cache of
seven versions costs no disk and no network.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

import pytest

from harness.cli import main
from harness.engines import cache
from harness.engines.install import USED, binary_path
from tests.conftest import PINNED, REPO

MB = 1024 * 1024


def _install(root: Path, version: str, *, size: int, used: float) -> Path:
    """A cached install of ``version`` whose binary is ``size`` bytes, last used at ``used``."""
    binary = binary_path(version, root=root)
    binary.parent.mkdir(parents=True)
    with binary.open("wb") as f:
        f.truncate(size)  # sparse: the size is apparent, the disk stays free
    marker = binary.parents[3] / USED
    marker.touch()
    os.utime(marker, (used, used))
    return binary.parents[3]


@pytest.fixture
def timeline_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The four pinned versions (500 MB each) and three others (300 MB each), used oldest first: 300, 301, 302."""
    root = tmp_path / "cache"
    now = time.time()
    for version in PINNED:
        _install(root, version, size=500 * MB, used=now - 7200)  # pinned and least recently used of all
    for n, version in enumerate(("2.1.300", "2.1.301", "2.1.302")):
        _install(root, version, size=300 * MB, used=now - 3600 + n * 60)
    monkeypatch.setenv("CC_HARNESS_CACHE", str(root))
    monkeypatch.chdir(REPO)
    return root


def _cached(root: Path) -> list[str]:
    return [i.version for i in cache.installs(root=root)]


def test_prune_to_2g_keeps_the_pinned_versions_and_removes_the_rest(
    timeline_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cache", "prune", "--max-size", "2G"]) == 0
    out = capsys.readouterr().out
    assert _cached(timeline_cache) == list(PINNED)  # 2000 MB of pinned versions fit in 2048; nothing else does
    assert [line.split()[1] for line in out.splitlines() if line.startswith("removed")] == [
        "claude-2.1.300",
        "claude-2.1.301",
        "claude-2.1.302",
    ]
    assert "total 2.0 GB in 4 versions" in out
    assert not [p.name for p in (timeline_cache / "engines").iterdir() if ".broken-" in p.name]


def test_pinned_versions_stay_even_over_budget(timeline_cache: Path) -> None:
    removed, kept = cache.prune(max_bytes=100 * MB, pinned=PINNED, root=timeline_cache)
    assert sorted(i.version for i in removed) == ["2.1.300", "2.1.301", "2.1.302"]
    assert [i.version for i in kept] == list(PINNED) and all(i.pinned for i in kept)


def test_the_least_recently_used_go_first(timeline_cache: Path) -> None:
    """Budget for the pinned four and one more: the most recently used of the others stays."""
    removed, _ = cache.prune(max_bytes=2000 * MB + 300 * MB, pinned=PINNED, root=timeline_cache)
    assert [i.version for i in removed] == ["2.1.300", "2.1.301"]
    assert "2.1.302" in _cached(timeline_cache)


def test_an_install_in_use_is_kept_and_the_next_one_goes(timeline_cache: Path) -> None:
    """A version whose install lock another process holds (installing or checking it) is not removed."""
    lock = (timeline_cache / "engines" / "claude-2.1.300.lock").open("w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        removed, _ = cache.prune(max_bytes=2000 * MB + 300 * MB, pinned=PINNED, root=timeline_cache)
    finally:
        lock.close()
    assert [i.version for i in removed] == ["2.1.301", "2.1.302"]
    assert "2.1.300" in _cached(timeline_cache)


def test_list_shows_sizes_use_and_pins(timeline_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cache", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["claude-2.1.252", "500.0", "MB"] and lines[0].endswith("pinned")
    assert any(line.startswith("claude-2.1.300") and not line.endswith("pinned") for line in lines)
    assert lines[-1] == "total 2.8 GB in 7 versions"


@pytest.mark.parametrize(
    ("text", "size"),
    [("2G", 2 * 1024 * MB), ("500M", 500 * MB), ("1.5GB", 1536 * MB), ("800MiB", 800 * MB), ("42", 42)],
)
def test_sizes_read_as_people_write_them(text: str, size: int) -> None:
    assert cache.parse_size(text) == size


def test_a_size_that_is_not_one_is_a_usage_error(timeline_cache: Path) -> None:
    assert main(["cache", "prune", "--max-size", "two gigs"]) == 2
