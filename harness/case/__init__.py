"""The case format: a directory with a ``.claude/`` fixture and one ``case.yaml``."""

from harness.case.fixture import copy_fixture, copy_home
from harness.case.load import CASE_FILE, BrokenCase, discover_cases, load_case, load_or_broken, scan_cases
from harness.case.spec import (
    Call,
    Case,
    Combination,
    Context,
    Effect,
    Expect,
    Flags,
    NameChecks,
    Offered,
    RunOptions,
    Server,
    Sources,
    Step,
    TextChecks,
    TextMatch,
    Turn,
)

__all__ = [
    "CASE_FILE",
    "BrokenCase",
    "Call",
    "Case",
    "Combination",
    "Context",
    "Effect",
    "Expect",
    "Flags",
    "NameChecks",
    "Offered",
    "RunOptions",
    "Server",
    "Sources",
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
