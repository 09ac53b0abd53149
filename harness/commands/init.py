"""``cc-harness init``: a starter suite for an existing ``.claude/``: a configuration, a case per part, snapshots."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from harness.commands.common import stdout
from harness.engines import registry


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "init",
        parents=[common],
        help="write a starter suite for an existing .claude/: a configuration and one case per skill, agent and hook",
        description="Never overwrites: a configuration or case folder that exists is kept, so init can run again.",
    )
    p.add_argument("dir", nargs="?", type=Path, default=Path("."), help="the repository (default: here)")
    p.add_argument(
        "--pinned",
        default=None,
        help="the claude version you run, e.g. 2.1.332 (or latest); default: the suite's, else the version of"
        " claude on PATH, else the newest cached, else the newest published (init says which)",
    )
    p.add_argument(
        "--plugin-dir",
        type=Path,
        action="append",
        default=[],
        help="a plugin folder the team loads with --plugin-dir (repeatable; plugins in the repository are found)",
    )
    p.add_argument(
        "--home",
        type=Path,
        default=None,
        help="a user's ~/.claude: its skills and agents are copied into a shared HOME layout, each with a case"
        " (never credentials, settings or history)",
    )
    p.add_argument("--no-snapshots", action="store_true", help="write the cases only; do not run them")
    p.add_argument("--jobs", type=int, default=2, help="cases run at once while recording snapshots (default 2)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    """A starter suite for the repository's setup: a configuration, a case per part, and their snapshots."""
    from harness import scaffold

    pinned = registry.resolve(args.pinned) if args.pinned else None
    done = scaffold.init(args.dir, pinned=pinned, plugin_dirs=tuple(args.plugin_dir), home=args.home)
    out = _Printer(stdout())
    out.print(f"pinned claude {done.pinned}: {done.pinned_from} (--pinned VERSION names another)", markup=False)
    for item in done.written:
        out.print(f"wrote  {_shown(item.path, args.dir)}  ({item.what})", markup=False)
    for path in done.kept:
        out.print(f"kept   {_shown(path, args.dir)}  (exists: your version stays)", markup=False)
    for why in done.skipped:
        out.print(f"no case: {why}", markup=False)
    for warning in done.warnings:
        out.print(f"warning: {warning}", markup=False)
    new_cases = [item for item in done.written if item.path.name == "case.yaml"]
    if not done.written:
        out.print("nothing to write: every definition already has its case", markup=False)
        return 0
    if not new_cases:  # only the configuration or .gitignore: nothing to record, nothing new to check
        out.print("no new case: every part of the setup has its case, or a 'no case:' line says why", markup=False)
        return 0
    if args.no_snapshots:
        out.print("next: cc-harness run --accept or pytest --snapshot-update -n 2 records the snapshots", markup=False)
        return 0
    out.print("recording the new cases' snapshots (each case on the suite's engines) ...", markup=False)
    problems = scaffold.record_snapshots(done, jobs=args.jobs)
    for problem in problems:
        out.print(f"snapshot: {problem.text}", markup=False)
    if failed := [p for p in problems if p.failed]:
        out.print(
            f"next: {len(failed)} run(s) above recorded no snapshot, and pytest fails them: fix the setup or the"
            " case, then pytest --snapshot-update 'CASE/case.yaml::ENGINE' records each", markup=False,
        )
        return 0
    out.print(f"next: pytest -n 2 (or cc-harness run) checks them; see {done.suite_file}", markup=False)
    return 0


class _Printer:
    """init's output, every line escaped: most lines name a part of the repository (a skill, an agent, a link,
    a server's stderr), and such a name may hold a newline or a terminal escape code."""

    def __init__(self, console: Console) -> None:
        self._console = console

    def print(self, line: str, *, markup: bool = False) -> None:
        from harness.scaffold.casefile import escaped  # the scaffold's imports are heavy: only once init runs

        self._console.print(escaped(line), markup=markup, highlight=False)


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)
