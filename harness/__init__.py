"""cc-harness: conformance harness for Claude Code skills, subagents, tools and hooks.

The names below are the public API (docs/api.md): what a script or a plugin author needs to find a
suite, load its cases, run one on an engine and read the results. Everything else in the package is
internal and may change between releases.

Layout (each package is one part of the pipeline):

- ``harness.case``      the case format: JSON Schema, frozen dataclasses, loader.
- ``harness.scripted``  the scripted model: replays a case's turns, journals what it was offered.
- ``harness.refengine`` the reference engine: a small executable reading of the semantics.
- ``harness.engines``   adapters that run a case on an engine (reference, claude@VERSION), by family.
- ``harness.runner``    copies a case, runs it on an engine, builds the normalised transcript.
- ``harness.checks``    compares a transcript with the case's expectations.
- ``harness.compare`` / ``harness.baseline``  what differs between engines' records (check, diff).
- ``harness.report``    renders results: Markdown, HTML, JUnit, terminal.
- ``harness.pytest_plugin`` / ``harness.cli``  the two front doors.
"""

from __future__ import annotations

from harness.apifaults import ApiFaultPlan, InjectedFault
from harness.case import BrokenCase, Case, discover_cases, load_case, scan_cases
from harness.engine_name import EngineName
from harness.engines import Engine, expand, make_engine
from harness.errors import CaseFormatError, HarnessError, NotModelled, UsageError
from harness.expectations import Expectations
from harness.outcome import Fault, Finding, Judgement, Status
from harness.results import Record, Results, ResultsError, merge, read
from harness.runner import run_case
from harness.suite import Suite
from harness.versions import newest, version_key

__all__ = [
    "ApiFaultPlan",
    "BrokenCase",
    "Case",
    "CaseFormatError",
    "Engine",
    "EngineName",
    "Expectations",
    "Fault",
    "Finding",
    "HarnessError",
    "InjectedFault",
    "Judgement",
    "NotModelled",
    "Record",
    "Results",
    "ResultsError",
    "Status",
    "Suite",
    "UsageError",
    "discover_cases",
    "expand",
    "load_case",
    "make_engine",
    "merge",
    "newest",
    "read",
    "run_case",
    "scan_cases",
    "version_key",
]
