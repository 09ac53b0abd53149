"""The cc-harness pytest plugin: each case file of the suite is collected, one test per engine.

Registered by the ``pytest11`` entry point, so installing cc-harness is all it takes: in a repository
whose ``pyproject.toml`` has a ``[tool.cc-harness]`` table (or that holds a ``cc-harness.toml``), plain
``pytest`` collects ``<cases>/<id>/case.yaml`` as ``<cases>/<id>/case.yaml::<engine>`` tests, so
``-k``, ``--lf``, ``-n auto`` and ``--junitxml`` work as for any test. Without a suite the plugin only
registers its options and markers.

Each test runs its case in the setup phase and judges it in the call phase, so an outcome maps onto
pytest's own: a fault (timeout, crash, API fault, install error, broken case, harness bug) is an
*error*; an unexpected difference, or a transcript that differs from its snapshot, is a *failure*
(with syrupy's diff); a known difference is *xfail*; not-modelled (the reference engine abstains, or the
release cannot show what the case checks) is a *skip*.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.location import PyTestLocation
from syrupy.terminal import disable_color

from harness import older_pinned, results_writer, snapshots
from harness.accept import is_todo
from harness.case import CASE_FILE, BrokenCase, Case, load_or_broken
from harness.engine_name import EngineName
from harness.engines import expand
from harness.expectations import Expectations
from harness.outcome import Judgement, Status
from harness.results import Record
from harness.runner import run_named
from harness.selection import Selection
from harness.suite import Suite
from harness.versions import newest, version_key

_SUITE = pytest.StashKey[Suite | None]()
_EXPECTATIONS = pytest.StashKey[Expectations]()
_ENGINES = pytest.StashKey[list[EngineName]]()
_NARROWED = pytest.StashKey[set[str]]()
_WRITER = pytest.StashKey[results_writer.Writer]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cc-harness", "cc-harness: Claude Code conformance cases")
    group.addoption(
        "--engine",
        default=None,
        help="comma-separated engines: reference, reference@V, claude@V, pinned (default: the suite's engines);"
        " claude@V:changed runs an older pinned version only on the cases whose behaviour there may differ from"
        " the newest pinned version's, pinned:changed does so for every older pinned version",
    )
    group.addoption("--case", action="append", default=[], help="run only cases whose id matches (glob)")
    group.addoption("--claim", action="append", default=[], help="run only cases that check this claim id")
    group.addoption("--combination", action="append", default=[], help="run only this cell, e.g. skill->tool")
    group.addoption("--shard", default=None, help="run only shard I of N (I/N), assigned by case id")
    group.addoption(
        "--cc-suite", default=None, help="the suite's configuration file or folder (default: found from rootdir)"
    )
    group.addoption("--keep-workdirs", default=None, help="keep each run's working copy and HOME under this dir")
    group.addoption(
        "--cc-results",
        default=None,
        metavar="DIR",
        help="also write each case run's record to DIR/pytest-<worker>.jsonl (for cc-harness report)",
    )


def pytest_configure(config: pytest.Config) -> None:
    for line in (
        "combination(caller, callee): the grid cell a cc-harness case covers",
        "claim(id): a claim id a cc-harness case checks",
        "engine(name): the engine a cc-harness case runs on",
    ):
        config.addinivalue_line("markers", line)
    option = config.getoption("--cc-suite")
    suite = Suite.from_file(Path(option)) if option else Suite.find(config.rootpath)
    config.stash[_SUITE] = suite
    if suite is None:
        return
    # snapshot files are named by case id, not by test name, on purpose (one file per case and engine)
    config.addinivalue_line("filterwarnings", "ignore:(?s).*Can not relate snapshot name:UserWarning")
    config.stash[snapshots.SNAPSHOT_ROOT] = suite.snapshots
    config.stash[_EXPECTATIONS] = Expectations(root=suite.expectations)
    names, config.stash[_NARROWED] = older_pinned.split(
        config.getoption("--engine") or suite.engines, pinned=suite.pinned
    )
    config.stash[_ENGINES] = expand(names, pinned=suite.pinned)
    xdist_controller = getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput")
    if (folder := config.getoption("--cc-results")) and not xdist_controller:  # workers run the tests
        worker = getattr(config, "workerinput", {}).get("workerid", "main")
        head = results_writer.header(
            engines=[e.text() for e in config.stash[_ENGINES]],
            options={"command": "pytest", "suite": suite.describe(), "worker": worker},
            revision=results_writer.suite_revision(suite.root),
        )
        config.stash[_WRITER] = results_writer.Writer(Path(folder) / f"pytest-{worker}.jsonl", head=head)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: unknown to a session without it
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``--dist loadgroup``, case tests are scheduled one by one, not grouped by the version in their
    engine's name (harness/pytest_xdist.py says why); any other ``--dist`` is xdist's own."""
    if config.option.dist != "loadgroup" or config.stash.get(_SUITE, None) is None:
        return None
    from harness.pytest_xdist import CaseTestsApart  # imports xdist, which only an xdist session has loaded

    return CaseTestsApart(config, log)


def case_engines(config: pytest.Config) -> list[str]:
    """The engines this session runs each case on (``--engine``, else the suite's); empty without a suite."""
    engines: list[EngineName] = config.stash.get(_ENGINES, [])
    return [e.text() for e in engines]


def _narrowed_versions(config: pytest.Config) -> set[str]:
    """The older pinned versions this session runs only on the cases that may differ (``claude@V:changed``)."""
    found: set[str] = config.stash.get(_NARROWED, set())
    return set(found)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    writer = session.config.stash.get(_WRITER, None)
    if writer is not None:
        writer.close(interrupted=exitstatus == pytest.ExitCode.INTERRUPTED)


def pytest_report_header(config: pytest.Config) -> list[str]:
    suite = config.stash.get(_SUITE, None)
    if suite is None:
        return []
    engines = config.stash[_ENGINES]
    found: set[str] = config.stash[_NARROWED]
    narrowed = sorted(found, key=version_key)
    shown = ", ".join(e.text() + (older_pinned.SUFFIX if e.version in narrowed else "") for e in engines)
    lines = [f"cc-harness suite: {suite.describe()}; engines: {shown}"]
    if narrowed:
        lines.append(
            f"{older_pinned.SUFFIX}: {', '.join(narrowed)} run only the cases whose behaviour there may differ"
            f" from {newest(suite.pinned)}'s (the others are deselected; harness/older_pinned.py says why)"
        )
    return lines


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> CaseFile | None:
    suite = parent.config.stash.get(_SUITE, None)
    if suite is None or file_path.name != CASE_FILE or file_path.parent.parent.resolve() != suite.cases:
        return None
    return CaseFile.from_parent(parent, path=file_path)


class CaseFile(pytest.File):
    """One case file; its tests are the engines of the run."""

    def collect(self) -> list[CaseTest]:
        suite = self.config.stash[_SUITE]
        assert suite is not None
        found = load_or_broken(self.path.parent, catalogue=suite.catalogue)
        return [
            CaseTest.from_parent(self, name=engine.text(), engine=engine, found=found)
            for engine in self.config.stash[_ENGINES]
        ]


def _case_test() -> None:
    """Stands in for a test function: the case test's body is ``CaseTest.runtest``."""


class CaseTest(pytest.Function):
    """One case on one engine. A ``Function`` so that syrupy and xdist treat it as any other test."""

    def __init__(self, *, found: Case | BrokenCase, engine: EngineName, **kwargs: Any) -> None:
        super().__init__(callobj=_case_test, **kwargs)
        self.found = found
        self.case_id = found.id
        self.engine = engine
        self.record: Record | None = None
        self.add_marker(pytest.mark.engine(self.name))
        if isinstance(found, Case):
            self.add_marker(pytest.mark.claim(*found.claims))
            if found.combination:
                self.add_marker(pytest.mark.combination(found.combination.caller, found.combination.callee))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"{self.case_id} on {self.engine}"

    def setup(self) -> None:
        """Run the case (a fault is an error of this phase, as a fixture's failure would be)."""
        keep = self.config.getoption("--keep-workdirs")
        suite = self.config.stash[_SUITE]
        assert suite is not None
        self.record = run_named(
            self.found,
            self.engine,
            expectations=self.config.stash[_EXPECTATIONS],
            keep=Path(keep) if keep else None,
            default_version=newest(suite.pinned),
        )
        if (writer := self.config.stash.get(_WRITER, None)) is not None:
            writer.add(self.record)
        if self.record.status is Status.NOT_MODELLED:
            pytest.skip(self.record.fault.message if self.record.fault else "not modelled")
        if self.record.status.is_error:
            # in setup, a failure is reported as an error; pytrace=False: the fault says it all
            pytest.fail(self.record.explain(), pytrace=False)

    def runtest(self) -> None:
        """Judge the run: the snapshot first (so --snapshot-update records it), then the case's verdict."""
        record = self.record
        assert record is not None and record.transcript is not None
        intermittent = not snapshots.compared(self.found, record)
        # an intermittent case's transcript changes from run to run (as a case with one_of says of itself):
        # its snapshot records one of its outcomes, and is not compared; it is still recorded, as the baseline
        # that ``cc-harness check`` judges through the case's checks (without it, check reports the case as
        # changed on every version)
        update = bool(self.config.option.update_snapshots)
        snapshot_problem = None if intermittent and not update else self._snapshot_problem(record)
        if record.status is Status.FAIL:
            raise CaseFailure(record.explain() + (f"\n\n{snapshot_problem}" if snapshot_problem else ""))
        if snapshot_problem:
            raise CaseFailure(snapshot_problem)
        if todo := [f for f in record.findings if f.judgement is not Judgement.UNEXPECTED and is_todo(f.reason)]:
            # accepted by --accept, never explained: the difference is known to the file, not to a person
            where = self.config.stash[_EXPECTATIONS].file_for(self.engine)
            raise CaseFailure(
                f"{self.case_id} on {self.engine}: {where} lists {', '.join(f.at for f in todo)} with"
                " reason: TODO; write why this engine version differs (or fix the case)"
            )
        if record.status is Status.KNOWN:
            reasons = "; ".join(
                f"{f.at}: {f.reason}"
                for f in record.findings
                if f.judgement in (Judgement.KNOWN, Judgement.INTERMITTENT)
            )
            pytest.xfail(f"known difference on {self.engine}: {reasons}")

    def _snapshot_problem(self, record: Record) -> str | None:
        """None when the transcript equals its snapshot (or was just recorded); else what a person needs."""
        assert record.transcript is not None
        update = bool(self.config.option.update_snapshots)
        path = snapshots.path_for(self.config.stash[snapshots.SNAPSHOT_ROOT], self.engine, self.case_id)
        if not update and not path.is_file():
            return (
                f"no snapshot yet for {self.case_id} on {self.engine} ({path} does not exist);"
                f" record what this engine printed with:\n    pytest --snapshot-update '{self.nodeid}'"
            )
        snapshot = SnapshotAssertion(
            session=self.config._syrupy,  # type: ignore[attr-defined]  # syrupy's per-session state
            extension_class=snapshots.TranscriptSnapshot,
            test_location=PyTestLocation(self),
            update_snapshots=update,
        )
        if snapshot == record.transcript:
            return None
        # colours only where pytest itself writes them (not in a pipe, a CI log or JUnit XML)
        plain = self.config.option.no_colors or not self.config.get_terminal_writer().hasmarkup
        with disable_color() if plain else contextlib.nullcontext():
            diff = "\n".join(snapshot.get_assert_diff(diff_mode=self.config.option.diff_mode))
        return (
            f"{self.case_id} on {self.engine}: the transcript differs from its snapshot {path}"
            f" (- snapshot, + this run); if the engine's new behaviour is right, record it with:\n"
            f"    pytest --snapshot-update '{self.nodeid}'\n{diff}"
        )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:  # type: ignore[override]
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CaseFailure(AssertionError):
    """The engine differs from the case or from its snapshot: a test failure."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Apply --case, --claim, --combination and --shard, and narrow the ``:changed`` versions; what they
    leave out is reported as deselected."""
    suite = config.stash.get(_SUITE, None)
    if suite is None:
        return
    select = Selection.from_options(
        case=config.getoption("--case"),
        claim=config.getoption("--claim"),
        combination=config.getoption("--combination"),
        shard=config.getoption("--shard"),
    )
    narrowed = config.stash[_NARROWED]
    if not select.narrows and not narrowed:
        return
    changed = older_pinned.OlderPinned(
        pinned=suite.pinned,
        snapshot_root=suite.snapshots,
        expectations=config.stash[_EXPECTATIONS],
        edited=older_pinned.git_edited(suite.cases) if narrowed else frozenset(),
    )
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        taken = not isinstance(item, CaseTest) or select.takes(item.found)
        if taken and isinstance(item, CaseTest) and item.engine.version in narrowed:
            why = changed.reason(item.found, item.engine.version or "")
            taken = why is not None
            item.user_properties.append(("runs because", why))
        (keep if taken else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
