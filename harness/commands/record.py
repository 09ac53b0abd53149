"""``cc-harness record``: a real session as a case, from a session transcript or live through a recording proxy."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from harness.commands.common import found_suite, stdout
from harness.errors import UsageError
from harness.suite import results_folder


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "record",
        parents=[common],
        help="turn a real session into a case: from a session transcript, or live through a recording proxy",
        description=(
            "cc-harness record [--session ID|FILE]: the newest session of this folder (or the one named) from"
            " ~/.claude/projects. cc-harness record --upstream URL -- claude -p PROMPT: run the engine through a"
            " loopback proxy that forwards to URL (default $ANTHROPIC_BASE_URL, else Anthropic's API) and saves"
            " each exchange in a cassette. cc-harness record --cassette FILE: the case again from a saved cassette."
            " API keys and authorization headers never reach a file; --scrub removes more."
        ),
    )
    p.add_argument("--session", default=None, help="session id, or a session .jsonl file (default: the newest here)")
    p.add_argument("--upstream", default=None, help="record live through a proxy to this Messages API URL")
    p.add_argument("--project", type=Path, default=None, help="the repository the session ran in (default: here)")
    p.add_argument("--id", default=None, help="the new case's id (default: recorded-<first words of the prompt>)")
    p.add_argument("--cases-dir", type=Path, default=None, help="write the case here (default: the suite's cases)")
    p.add_argument("--scrub", action="append", default=[], help="a string that must not reach any file (repeatable)")
    p.add_argument(
        "--cassette",
        type=Path,
        default=None,
        help="where the proxy saves the exchanges; without a command: the case again from a saved cassette",
    )
    p.add_argument("--force", action="store_true", help="replace a case of the same id")
    p.add_argument(
        "--plugin-dir",
        action="append",
        type=Path,
        default=[],
        help="a plugin folder the session loaded (--plugin-dir of claude; repeatable): the case loads it too",
    )
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- the engine command to record live")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    """A real session as a case: from a session transcript, or live through a recording proxy."""
    from harness.record import command

    suite = found_suite(args)
    if args.cases_dir is not None:
        cases = args.cases_dir.resolve()
    elif suite is not None:
        cases = suite.cases
    else:
        raise UsageError("record: no suite here to write the case into; pass --cases-dir DIR (or run cc-harness init)")
    folder = (args.project or Path.cwd()).resolve()
    project = args.project or (suite.root if suite else folder)
    results_dir = results_folder(suite, beside=cases.parent)
    target = command.Target(cases=cases, project=project, case_id=args.id, results=results_dir, force=args.force)
    scrub = command.secrets(args.scrub)
    argv = args.command[1:] if args.command[:1] == ["--"] else args.command
    if argv or args.upstream:
        upstream = args.upstream or os.environ.get("ANTHROPIC_BASE_URL") or command.ANTHROPIC_API
        done = command.live(argv, upstream=upstream, folder=folder, target=target, scrub=scrub, cassette=args.cassette)
    elif args.cassette is not None and args.session is None:  # a live recording again, from what it saved
        done = command.from_cassette(args.cassette, folder=folder, target=target, scrub=scrub)
    else:
        done = command.from_session(
            args.session, folder=folder, target=target, scrub=scrub, plugin_dirs=args.plugin_dir
        )
    for line in command.describe(done):
        stdout().print(line, markup=False)
    return 0 if done.exit_status == 0 else 1
