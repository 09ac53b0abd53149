"""A suite is configuration, not a checkout: where its cases, expectations and snapshots live.

A suite is found from ``[tool.cc-harness]`` in the nearest ``pyproject.toml``, or from a
``cc-harness.toml`` (the same keys at its top level), searched upward from a starting folder. Every
path in it is relative to that file's folder. The CLI and the pytest plugin each find the suite once
and pass it down; nothing below them derives a path from where cc-harness is installed.

    [tool.cc-harness]
    cases = "tests/claude-cases"        # one folder per case (default: cases)
    expectations = "expectations"       # known differences per engine version (default: expectations)
    snapshots = "snapshots"             # transcripts per engine (default: snapshots)
    claims = "CLAIMS.md"                # optional catalogue: cases must then name its claim ids
    engines = ["reference", "claude@2.1.332"]   # what run and pytest use when --engine is not given
    pinned = ["2.1.332"]                # the claude versions "pinned" stands for
    agents = ["qwen@0.24.4"]            # other agents' versions the report's agents grid shows (their snapshots)
    report = "docs/CONFORMANCE.md"      # the Markdown report cc-harness report writes and --check compares
    results = "results"                 # where run, check and diff write results files
    timeline = "docs/timeline/scan.jsonl"   # optional: a scan of every release; the reports gain its timeline
    surface = "docs/surface"            # optional: the pinned releases' surfaces and the coverage lists
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from harness.claims import Catalogue
from harness.engine_name import EngineName
from harness.errors import UsageError

_PYPROJECT = "pyproject.toml"
OWN_FILE = "cc-harness.toml"
_PATH_KEYS = ("cases", "expectations", "snapshots", "claims", "report", "results", "timeline", "surface")
_LIST_KEYS = ("engines", "pinned", "agents")
_KEYS = (*_PATH_KEYS, *_LIST_KEYS)
#: The results folder's name when the configuration names none. A copy or a search of a project skips a
#: folder of this name: it holds what runs wrote, not the project.
RESULTS_DEFAULT = "results"
_DEFAULTS = {
    "cases": "cases",
    "expectations": "expectations",
    "snapshots": "snapshots",
    "report": "cc-harness-report.md",
    "results": RESULTS_DEFAULT,
}


def results_folder(suite: Suite | None, *, beside: Path) -> Path:
    """The suite's results folder; without a suite, the default one in ``beside``."""
    return suite.results if suite is not None else (beside / RESULTS_DEFAULT).resolve()


class NoSuite(UsageError):
    """No configuration found: the message says where it looked and how to add one."""


@dataclass(frozen=True, kw_only=True)
class Suite:
    root: Path
    """The folder of the configuration file; relative paths start here."""
    config_file: Path | None
    cases: Path
    expectations: Path
    snapshots: Path
    claims: Path | None
    engines: tuple[str, ...]
    pinned: tuple[str, ...]
    report: Path
    results: Path
    agents: tuple[str, ...] = ()
    """Other agents' versions (``qwen@0.24.4``) whose committed snapshots the report's agents grid judges."""
    timeline: Path | None = None
    """A scan's results file (cc-harness timeline scan): the reports' timeline section is built from it."""
    surface: Path | None = None
    """The folder of the pinned releases' surfaces (``claude-V.json``) and the coverage gate's lists."""

    @classmethod
    def discover(cls, start: Path) -> Suite:
        """The suite configured nearest ``start`` (itself, then each parent folder)."""
        found = cls.find(start)
        if found is None:
            raise NoSuite(
                f"no cc-harness suite configured in {start.resolve()} or above: add a [tool.cc-harness] table"
                f' to {_PYPROJECT} (or a {OWN_FILE}), e.g. cases = "tests/claude-cases"; see docs/your-setup.md'
            )
        return found

    @classmethod
    def find(cls, start: Path) -> Suite | None:
        for folder in (start.resolve(), *start.resolve().parents):
            own = folder / OWN_FILE
            if own.is_file():
                return cls.from_file(own)
            project = folder / _PYPROJECT
            if project.is_file() and _table(project) is not None:
                return cls.from_file(project)
        return None

    @classmethod
    def from_file(cls, path: Path) -> Suite:
        """A suite from a ``cc-harness.toml`` or a ``pyproject.toml`` with a ``[tool.cc-harness]`` table
        (or a folder holding one of them)."""
        if path.is_dir():
            found = next((path / n for n in (OWN_FILE, _PYPROJECT) if (path / n).is_file()), None)
            if found is None:
                raise NoSuite(f"{path}: neither {OWN_FILE} nor {_PYPROJECT} here")
            path = found
        table = _table(path)
        if table is None:
            raise NoSuite(f"{path}: no [tool.cc-harness] table")
        where = f"{path}: [tool.cc-harness]" if path.name == _PYPROJECT else str(path)
        return cls.from_table(table, root=path.parent.resolve(), config_file=path.resolve(), where=where)

    @classmethod
    def from_table(cls, table: dict[str, Any], *, root: Path, config_file: Path | None, where: str) -> Suite:
        for key in table:
            if key not in _KEYS:
                close = difflib.get_close_matches(key, _KEYS, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else f" (known keys: {', '.join(_KEYS)})"
                raise UsageError(f"{where}: unknown key {key!r}{hint}")
        paths: dict[str, Path | None] = {}
        for key in _PATH_KEYS:
            value = table.get(key, _DEFAULTS.get(key))
            if value is not None and not isinstance(value, str):
                raise UsageError(f"{where}: {key} must be a path string, got {type(value).__name__}")
            paths[key] = (root / value).resolve() if value is not None else None
        lists: dict[str, tuple[str, ...]] = {}
        for key in _LIST_KEYS:
            value = table.get(key, ["reference"] if key == "engines" else [])
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                raise UsageError(f"{where}: {key} must be a list of strings")
            lists[key] = tuple(value)
        _check_names(where, engines=lists["engines"], pinned=lists["pinned"], agents=lists["agents"])
        cases, expectations, snapshots = paths["cases"], paths["expectations"], paths["snapshots"]
        report, results = paths["report"], paths["results"]
        assert cases and expectations and snapshots and report and results  # they have defaults
        return cls(
            root=root,
            config_file=config_file,
            cases=cases,
            expectations=expectations,
            snapshots=snapshots,
            claims=paths["claims"],
            engines=lists["engines"],
            pinned=lists["pinned"],
            agents=lists["agents"],
            report=report,
            results=results,
            timeline=paths["timeline"],
            surface=paths["surface"],
        )

    @cached_property
    def catalogue(self) -> Catalogue | None:
        """The claims catalogue, when the suite names one (read once)."""
        return Catalogue.load(self.claims) if self.claims is not None else None

    def describe(self) -> str:
        """For headers and error messages: where the suite is configured."""
        return str(self.config_file) if self.config_file else str(self.root)


def _table(path: Path) -> dict[str, Any] | None:
    """The cc-harness table of a config file (None for a pyproject.toml without one)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    if path.name != _PYPROJECT:  # a cc-harness.toml (or any other name --suite gives): the keys at top level
        return data
    tool = data.get("tool")
    table = tool.get("cc-harness") if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise UsageError(f"{path}: [tool.cc-harness] must be a table")
    return table



def _check_names(
    where: str, *, engines: tuple[str, ...], pinned: tuple[str, ...], agents: tuple[str, ...] = ()
) -> None:
    """The form of each engine name and pinned version (whether a family exists is asked when an engine is
    made); an error names the file and the key."""
    key = "engines"
    try:
        for engine in engines:
            if engine != "pinned":
                EngineName.parse(engine)
        key = "pinned"
        for version in pinned:
            EngineName.claude(version)
        key = "agents"
        for agent in agents:
            if EngineName.parse(agent).version is None:
                raise UsageError(f"{agent!r} names no version (family@VERSION)")
    except UsageError as exc:
        raise UsageError(f"{where}: {key}: {exc}") from None
