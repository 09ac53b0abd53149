"""The case format: a directory with a ``.claude/`` fixture and one ``case.yaml``."""

from harness.case.discover import BrokenCase, discover_cases, load_or_broken, scan_cases
from harness.case.fixture import copy_fixture, copy_home
from harness.case.load import load_case
from harness.case.matchers import EventCheck, TextChecks, TextMatch
from harness.case.paths import CASE_FILE
from harness.case.spec import Case, Context, Flags, Server, Step, Turn

__all__ = [
    "CASE_FILE",
    "BrokenCase",
    "Case",
    "Context",
    "EventCheck",
    "Flags",
    "Server",
    "Step",
    "TextChecks",
    "TextMatch",
    "Turn",
    "copy_fixture",
    "copy_home",
    "discover_cases",
    "load_case",
    "load_or_broken",
    "scan_cases",
]
