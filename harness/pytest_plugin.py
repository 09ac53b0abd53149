"""pytest plugin: every case x engine is a test, with a syrupy snapshot of its transcript.

Options select engines (``--engine reference,claude@2.1.252``), cases (``--case``), claim ids
(``--claim``) and grid cells (``--combination skill->tool``). Each test carries the markers
``combination``, ``claim`` and ``engine``. A known difference (listed in the engine's expectations
file) is reported as xfail; an unexpected or stale one fails with the case-file field, expected and got.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from harness import snapshots
from harness.case import Case
from harness.engines import expand, make_engine
from harness.runner import run_case
from harness.selection import Selection


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cc-harness")
    group.addoption(
        "--engine",
        default="reference",
        help="comma-separated engines: reference, reference@VERSION, claude@VERSION, pinned (default: reference)",
    )
    group.addoption("--case", action="append", default=[], help="run only cases whose id matches (glob)")
    group.addoption("--claim", action="append", default=[], help="run only cases that check this claim id")
    group.addoption("--combination", action="append", default=[], help="run only this cell, e.g. skill->tool")
    group.addoption("--shard", default=None, help="run only shard I of N (I/N), assigned by case id")
    group.addoption("--cases-dir", default=None, help="directory of cases (default: <rootdir>/cases)")
    group.addoption("--keep-workdirs", default=None, help="keep each run's working copy and HOME under this dir")


def pytest_configure(config: pytest.Config) -> None:
    snapshots.SNAPSHOT_ROOT[:] = [Path(config.rootpath) / "snapshots"]
    # snapshot files are named by case id, not by test name, on purpose (one file per case and engine)
    config.addinivalue_line("filterwarnings", "ignore:.*Can not relate snapshot name:UserWarning")


def _cases_dir(config: pytest.Config) -> Path:
    opt = config.getoption("--cases-dir")
    return Path(opt) if opt else Path(config.rootpath) / "cases"


def selected_cases(config: pytest.Config) -> list[Case]:
    select = Selection.from_options(
        case=config.getoption("--case"),
        claim=config.getoption("--claim"),
        combination=config.getoption("--combination"),
        shard=config.getoption("--shard"),
    )
    return select(_cases_dir(config))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "cc_case" not in metafunc.fixturenames:
        return
    config = metafunc.config
    params = []
    cases = selected_cases(config)  # once: the same cases run on every engine
    for engine in expand(config.getoption("--engine")):
        for case in cases:
            marks = [pytest.mark.claim(*case.claims), pytest.mark.engine(engine)]
            if case.combination:
                marks.append(pytest.mark.combination(case.combination.caller, case.combination.callee))
            params.append(pytest.param((engine, case), id=f"{engine}:{case.id}", marks=marks))
    metafunc.parametrize("cc_case", params)


@pytest.fixture
def transcript_snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(snapshots.TranscriptSnapshot)


def run_and_judge(cc_case: tuple[str, Case], snapshot: SnapshotAssertion, config: pytest.Config) -> None:
    """Run the case, compare with its snapshot, then fail/xfail on its documented expectations."""
    engine_name, case = cc_case
    keep = config.getoption("--keep-workdirs")
    result = run_case(case, make_engine(engine_name), keep=Path(keep) if keep else None)
    if result.status == "error" or result.transcript is None:
        pytest.fail(result.explain(), pytrace=False)
    intermittent = result.verdict is not None and result.verdict.intermittent
    # an intermittent case's transcript changes from run to run: its snapshot records one of its outcomes
    same_as_snapshot = intermittent or snapshot == result.transcript
    if result.status == "fail":
        pytest.fail(result.explain(), pytrace=False)
    assert same_as_snapshot, f"{case.id} on {engine_name}: transcript differs from its snapshot"
    if result.status == "known":
        assert result.verdict is not None
        reasons = "; ".join(f"{k.at}: {k.reason}" for _, k in result.verdict.known)
        pytest.xfail(f"known difference on {engine_name}: {reasons}")


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [f"cc-harness engines: {', '.join(expand(config.getoption('--engine')))}"]
