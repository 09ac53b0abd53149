"""The case format: a directory with a ``.claude/`` fixture and one ``case.yaml``."""

from harness.case.fixture import copy_fixture
from harness.case.load import CASE_FILE, discover_cases, load_case
from harness.case.spec import (
    Call,
    Case,
    Combination,
    Context,
    Effect,
    Expect,
    NameChecks,
    Offered,
    RunOptions,
    Server,
    Step,
    TextChecks,
    TextMatch,
    Turn,
)

__all__ = [
    "CASE_FILE",
    "Call",
    "Case",
    "Combination",
    "Context",
    "Effect",
    "Expect",
    "NameChecks",
    "Offered",
    "RunOptions",
    "Server",
    "Step",
    "TextChecks",
    "TextMatch",
    "Turn",
    "copy_fixture",
    "discover_cases",
    "load_case",
]
