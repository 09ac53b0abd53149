"""The ``cc-harness`` command: run cases, check a new engine version, diff engines, write reports.

Every command works on a suite: the one configured nearest the current folder (``[tool.cc-harness]``
in ``pyproject.toml``, or ``cc-harness.toml``), or the one ``--suite`` names. Exit status: 0 all well,
1 a failure or an error in the results, 2 a usage error (named in one line, no traceback), 128 + the
signal when Ctrl-C, SIGTERM or SIGHUP interrupted a run (130, 143, 129: the results file still holds every
finished case, and ``--reuse`` takes it, as it takes the file of a run that was killed).
"""

from __future__ import annotations

import argparse
import signal
from pathlib import Path

from harness import formats
from harness.batch import Interrupted, stops_like_ctrl_c
from harness.commands import bisect, cache, check, diff, explore, init, record, report, run, surface, timeline, trace
from harness.commands.common import console
from harness.errors import HarnessError

#: Each command module adds its parser, in the order ``--help`` lists them.
_COMMANDS = (
    run.add_parser,
    check.add_parser,
    diff.add_parser,
    report.add_parser,
    explore.add_parser,
    init.add_parser,
    record.add_parser,
    trace.add_parser,
    surface.add_parsers,
    bisect.add_parser,
    cache.add_parser,
    timeline.add_parser,
)


def build_parser() -> argparse.ArgumentParser:
    suite_help = "the suite's cc-harness.toml or pyproject.toml (default: found upward)"
    # --suite goes before or after the subcommand. A subcommand's own default would overwrite the value
    # given before it (argparse fills a subparser's defaults in last), so there it has none.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--suite", type=Path, default=argparse.SUPPRESS, help=suite_help)
    parser = argparse.ArgumentParser(prog="cc-harness", description=__doc__)
    parser.add_argument("--suite", type=Path, default=None, help=suite_help)
    parser.add_argument("--version", action="version", version=f"cc-harness {formats.installed_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    for add in _COMMANDS:
        add(sub, common)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        with stops_like_ctrl_c():
            return int(args.func(args))
    except Interrupted as exc:
        console.print(str(exc), markup=False)
        return 128 + exc.signum
    except KeyboardInterrupt as exc:
        console.print("interrupted", markup=False)
        return 128 + getattr(exc, "signum", signal.SIGINT)
    except HarnessError as exc:
        console.print(f"error: {exc}", style="red", markup=False)  # one line: greppable
        return 2
