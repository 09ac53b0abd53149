"""A team's repository, end to end, from a normal install: the way a user meets cc-harness.

A wheel of this checkout is built and installed (not editable) into a fresh virtual environment; the
example team repository (``examples/team-repo``) is copied to a temporary folder and made a git work
tree; there, plain ``pytest -n 2`` runs its cases on the reference engine and its pinned claude
version, and ``cc-harness run``, ``check`` and ``report`` succeed. The team's files and the
environment's site-packages are byte-identical afterwards: every run works in private copies.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

#: one worker builds the environment for the whole module under ``pytest -n``
pytestmark = pytest.mark.xdist_group("test_team_repo")

EXAMPLE = REPO / "examples" / "team-repo"


def _digest(root: Path) -> dict[str, str]:
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
        for name in dirs:
            out[str((Path(folder) / name).relative_to(root)) + "/"] = "dir"
    return out


def _checkout_copy(dest: Path) -> Path:
    """The files of this checkout as git sees them (committed or not), without .git or build output."""
    names = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in filter(None, names):
        source = REPO / os.fsdecode(raw)
        if source.is_file():
            target = dest / os.fsdecode(raw)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return dest


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with cc-harness installed from a wheel; its bin folder."""
    root = tmp_path_factory.mktemp("install")
    source = _checkout_copy(root / "source")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(root / "dist"), str(source)],
        check=True,
        capture_output=True,
    )
    [wheel] = (root / "dist").glob("cc_harness-*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
    pip = root / "venv" / "bin" / "pip"
    subprocess.run([str(pip), "install", "-q", str(wheel)], check=True, capture_output=True)
    return root / "venv" / "bin"


@pytest.fixture
def team(tmp_path: Path) -> Path:
    repo = tmp_path / "acme-service"
    shutil.copytree(EXAMPLE, repo, ignore=shutil.ignore_patterns("results", "__pycache__", ".pytest_cache"))
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


def _run(bin_dir: Path, argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTHON"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    # pytest caches rewritten plugin modules as .pyc in site-packages; that is pytest's, not ours
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False)


def test_the_installed_package_is_not_this_checkout(installed: Path, tmp_path: Path) -> None:
    where = _run(installed, ["python", "-c", "import harness; print(harness.__file__)"], cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert "site-packages" in where.stdout and str(REPO) not in where.stdout
    version = _run(installed, ["cc-harness", "--version"], cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("cc-harness "), version.stderr


def test_a_team_repo_runs_its_cases_with_pytest_run_check_and_report(
    installed: Path, team: Path, tmp_path: Path
) -> None:
    site = next((installed.parent / "lib").glob("python3*/site-packages"))
    before_repo, before_site = _digest(team), _digest(site)
    out = tmp_path / "out"

    tests = _run(installed, ["pytest", "-n", "2", "-p", "no:cacheprovider", "-q"], cwd=team)
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]
    assert "8 passed" in tests.stdout and "8 snapshots passed" in tests.stdout

    run = _run(installed, ["cc-harness", "run", "--results", str(out / "run.jsonl")], cwd=team)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "8 runs: 8 pass" in run.stdout

    check = _run(installed, ["cc-harness", "check", "2.1.332", "--results", str(out / "check.jsonl")], cwd=team)
    assert check.returncode == 0, check.stdout[-4000:] + check.stderr[-2000:]
    assert "4 cases compared: 0 changed" in check.stdout

    paths = ["--markdown", str(out / "r.md"), "--html", str(out / "r.html"), "--junit", str(out / "j.xml")]
    report = _run(installed, ["cc-harness", "report", "--results", str(out / "run.jsonl"), *paths], cwd=team)
    assert report.returncode == 0, report.stderr
    assert "| reference | 4 | 0 | 0 |" in (out / "r.md").read_text(encoding="utf-8")

    assert _digest(team) == before_repo, "a run wrote into the team's repository"
    assert _digest(site) == before_site, "a run wrote into site-packages"
