"""``cc-harness explore``: generated cases on reference@V and claude@V, their agreement and minimal cases."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from harness.commands.common import console, found_suite, stdout
from harness.engine_name import EngineName
from harness.errors import UsageError
from harness.suite import results_folder

if TYPE_CHECKING:
    from harness.explore.explorer import Exploration


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "explore",
        parents=[common],
        help="generated cases on reference@V and claude@V: agreement, disagreement classes, minimal cases",
        description="Exit status: 0 every generated case agreed, 1 disagreements (minimal cases written), 2 usage.",
    )
    p.add_argument("--version", default=None, help="claude version, e.g. 2.1.332 (required but with --rejudge)")
    p.add_argument("--budget", type=int, default=100, help="generated cases to run (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the same seed draws the same cases")
    p.add_argument("--shrink-budget", type=int, default=60, help="runs spent shrinking each disagreement class")
    p.add_argument("--shard", default="1/1", help="I/N: run only every N-th generated case, from the I-th")
    p.add_argument("--start", type=int, default=0, help="skip the first generated cases (finish an interrupted run)")
    p.add_argument(
        "--real-if-abstained", action="store_true",
        help="run claude@V on the cases the reference engine answers not-modelled too (no figure changes)",
    )
    p.add_argument(
        "--out", type=Path, default=None, help="results file and minimal cases (default: <results>/explore)"
    )
    p.add_argument(
        "--rejudge", type=Path, nargs="+", default=None, metavar="FILE",
        help="judge an earlier exploration's results files again: its cases on today's reference engine, against"
        " the real engine's records in the files (which are not run again)",
    )
    p.add_argument("--partial", action="store_true", help="--rejudge a run still going on the cases it finished")
    p.add_argument(
        "--store-cases", type=Path, nargs="+", default=None, metavar="FILE",
        help="write the case folders of results files recorded before the explorer kept them (cases/ beside each"
        " file), drawn from each file's seed: run it before the grammar changes",
    )
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    """Generated cases on reference@V and claude@V; agreement, disagreement classes, minimal cases."""
    from harness.explore.explorer import explore, rejudge, store_drawn_cases

    if args.store_cases:
        for path in args.store_cases:
            written = store_drawn_cases(path)
            stdout().print(f"{path}: {len(written)} case folder(s) written to {path.parent / 'cases'}", markup=False)
        return 0
    if args.rejudge:
        return _summary(rejudge(args.rejudge, partial=args.partial))
    if args.version is None:
        raise UsageError("explore: --version is required (or --rejudge FILE...)")
    return _summary(explore(
        version=args.version,
        budget=args.budget,
        seed=args.seed,
        out=args.out or results_folder(found_suite(args), beside=Path.cwd()) / "explore",
        shrink_budget=args.shrink_budget,
        shard=_shard(args.shard),
        start=args.start,
        real_if_abstained=args.real_if_abstained,
        progress=lambda o, n: console.print(
            f"{n + 1}/{args.budget} {o.case_id}: {o.verdict}"
            + (f" ({len(o.found)} disagreement(s))" if o.found and o.real is not None else ""),
            markup=False,
        ),
    ))


def _summary(exploration: Exploration) -> int:
    """The agreement line, the unjudged cases and the disagreement classes; 1 when there are classes."""
    out = stdout()
    verdicts = exploration.verdicts()
    generated = len(exploration.outcomes) + len(exploration.unjudged)
    out.print(
        f"{EngineName.claude(exploration.version)}, seed {exploration.seed}: {generated} generated cases,"
        f" agreement {exploration.agreement:.1%} ({verdicts['agree']} agree, {verdicts['not-modelled']}"
        f" not-modelled, {verdicts['false verdict']} false verdicts; {len(exploration.unjudged)} unjudged)",
        markup=False,
    )
    for case_id, why in sorted(exploration.unjudged.items()):
        out.print(f"  unjudged {case_id}: {why}", markup=False)
    for cls, count in exploration.false_classes().most_common():
        minimal = exploration.minimal.get(cls)
        out.print(f"  {count:4d}  {cls}" + (f"  -> {minimal}" if minimal else ""), markup=False)
    return 0 if not exploration.class_counts() else 1


def _shard(text: str) -> tuple[int, int]:
    i, _, n = text.partition("/")
    if not (i.isdigit() and n.isdigit() and 1 <= int(i) <= int(n)):
        raise UsageError(f"--shard {text!r}: expected I/N with 1 <= I <= N")
    return int(i), int(n)
