"""Shared fixtures and helpers for the harness's own tests."""

from __future__ import annotations

import signal
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from harness import tree
from harness.case import Case, copy_fixture, discover_cases, load_case
from harness.engines import Engine, EngineRun
from harness.engines.install import ensure_installed
from harness.expectations import Expectations
from harness.scripted import ScriptedModel
from harness.suite import Suite

#: The repository root (where ``cases/``, ``snapshots/`` and ``docs/`` live).
REPO = Path(__file__).resolve().parent.parent
#: This repository's own conformance suite, as ``[tool.cc-harness]`` in pyproject.toml configures it.
SUITE = Suite.from_file(REPO / "pyproject.toml")
EXPECTATIONS = Expectations(root=SUITE.expectations)
PINNED = SUITE.pinned

CaseWriter = Callable[..., Path]
DeepTree = Callable[[Path, int], Path]


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """``-n`` without ``--dist`` schedules by ``xdist_group``, as ``--dist loadgroup`` would.

    The modules whose module-scoped fixtures run real engines mark themselves with one group each, so
    that fixture is built on one worker instead of on every worker. This is a hook, not ``--dist`` in
    addopts, because without pytest-xdist (``-p no:xdist``) ``--dist`` is an unrecognised argument.
    Runs before xdist's own hook, which turns ``-n`` with ``--dist no`` into ``--dist load``.
    """
    if getattr(config.option, "numprocesses", None) and config.option.dist == "no":
        config.option.dist = "loadgroup"


def pytest_configure(config: pytest.Config) -> None:
    # registered by xdist too; registered here so that ``-p no:xdist`` does not warn about the mark
    config.addinivalue_line("markers", "xdist_group(name): run every test of the group on the same xdist worker")


def write_files(root: Path, files: dict[str, str]) -> None:
    """Write each ``relative path: text`` of ``files`` under ``root``, the text dedented."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture
def write_case(tmp_path: Path) -> CaseWriter:
    """Write ``<tmp>/cases/<id>/case.yaml`` (and fixture files) and return the case directory."""

    def write(case_id: str, case_yaml: str, files: dict[str, str] | None = None) -> Path:
        directory = tmp_path / "cases" / case_id
        directory.mkdir(parents=True)
        (directory / "case.yaml").write_text(textwrap.dedent(case_yaml), encoding="utf-8")
        write_files(directory, files or {})
        return directory

    return write


@pytest.fixture
def deep_tree() -> Iterator[DeepTree]:
    """``make(under, levels)``: a chain of ``levels`` folders ``d/d/...`` under ``under``; returns the deepest.

    Removed at teardown, whatever the test's outcome: pytest removes old temporary folders with
    ``shutil.rmtree``, which recurses once per level, so a tree deeper than the recursion limit left in
    ``tmp_path`` makes a later session print a RecursionError for each."""
    made: list[Path] = []

    def make(under: Path, levels: int) -> Path:
        deep = under / "d"
        made.append(deep)
        deep.mkdir()
        for _ in range(levels - 1):  # os.makedirs recurses once per level too
            deep = deep / "d"
            deep.mkdir()
        return deep

    yield make
    for top in made:
        tree.remove(top)


class CopiedRun(NamedTuple):
    model: ScriptedModel
    result: EngineRun
    workdir: Path


def run_in_copy(directory: Path, engine: Engine, root: Path) -> CopiedRun:
    """Run the case at ``directory`` on ``engine`` in a private copy, as the runner does.

    The fixture is copied to ``<root>/work`` and the engine gets ``<root>/home``; afterwards every
    scripted turn must have been used (``ScriptedModel.finish``).
    """
    case = load_case(directory)
    workdir, home, tmp = root / "work", root / "home", root / "tmp"
    copy_fixture(case, workdir)
    home.mkdir(parents=True)
    tmp.mkdir()
    model = ScriptedModel(case=case)
    result = engine.run(case, workdir=workdir, home=home, tmp=tmp, model=model)
    model.finish()
    return CopiedRun(model, result, workdir)


@pytest.fixture(scope="session")
def committed_cases() -> list[Case]:
    """Every case committed under ``cases/``."""
    return list(discover_cases(SUITE.cases, catalogue=SUITE.catalogue))


@pytest.fixture(scope="session")
def claude_version() -> str:
    """The oldest pinned claude version, installed into the shared cache on first use."""
    version = PINNED[0]
    ensure_installed(version)
    return version


def default_signals() -> None:
    """``preexec_fn`` for a child a test signals: SIGINT, SIGTERM and SIGHUP at their defaults.

    A shell starts a background job (``pytest ... &`` in a script, with no job control) with SIGINT
    ignored, and a child inherits that; Python then installs no KeyboardInterrupt, so a SIGINT the test
    sends goes unanswered and the run just finishes."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def cases_in(path: Path) -> int:
    """How many case records a results file a run is writing holds so far (0 before it exists)."""
    return path.read_text(encoding="utf-8").count('"type": "case"') if path.is_file() else 0


def run_committed_cases(engine: str, cases: list[str], out: Path) -> None:
    """Run this repository's committed ``cases`` on ``engine`` as a user would (``cc-harness run``) and check
    that each ran, passed or is a known difference of that engine, and printed its committed snapshot (what the
    report's agents grid judges for an agent version, harness/reporting/recorded.py)."""
    import subprocess
    import sys

    from harness import results, snapshots
    from harness.outcome import Status

    selection = [arg for case in cases for arg in ("--case", case)]
    done = subprocess.run(
        [sys.executable, "-m", "harness", "run", "--engine", engine, *selection, "--results", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    records = results.read(out).records
    assert sorted(r.case for r in records) == sorted(cases), done.stdout[-3000:] + done.stderr[-3000:]
    by_id = {c.id: c for c in discover_cases(SUITE.cases, catalogue=SUITE.catalogue)}
    for record in records:
        assert record.engine.text() == engine
        assert record.status in (Status.PASS, Status.KNOWN), record.explain()
        assert snapshots.mismatch(SUITE.snapshots, by_id[record.case], record) is None
