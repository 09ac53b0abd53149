"""``cc-harness cache``: the engine cache, listed, pruned to a size budget, or named by a key for CI."""

from __future__ import annotations

import argparse
import time

from harness.commands.common import found_suite, stdout
from harness.engine_name import EngineName
from harness.engines import cache
from harness.errors import UsageError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("cache", parents=[common], help="the engine cache: list it, or prune it to a size budget")
    p.add_argument(
        "action", choices=["list", "prune", "key"], help="key: a cache key naming the claude versions the suite runs"
    )
    p.add_argument("--max-size", default=None, help="prune: the budget, e.g. 2G (least recently used go first)")
    p.add_argument("--keep-pinned", action="append", default=[], help="a version to keep besides the suite's pinned")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    suite = found_suite(args)
    pinned = list(suite.pinned) if suite else []
    pinned += [v for v in args.keep_pinned or [] if v not in pinned]
    out = stdout()
    if args.action == "key":
        if suite is None:
            raise UsageError("cache key: no suite here ([tool.cc-harness] in pyproject.toml, or cc-harness.toml)")
        # The versions the suite's engines name (claude@V) and the ones "pinned" stands for.
        named = [n.version for n in map(EngineName.parse, suite.engines) if n.family == "claude" and n.version]
        out.print(cache.key([*suite.pinned, *named]), markup=False)
        return 0
    if args.action == "prune":
        if args.max_size is None:
            raise UsageError("cache prune needs --max-size SIZE, e.g. --max-size 2G")
        removed, kept = cache.prune(max_bytes=cache.parse_size(args.max_size), pinned=pinned)
        for i in removed:
            out.print(f"removed claude-{i.version} ({cache.human(i.bytes)})", markup=False)
    else:
        kept = cache.installs(pinned=pinned)
    now = time.time()
    for i in kept:
        used = f"used {(now - i.last_used) / 3600:.1f} h ago"
        out.print(
            f"claude-{i.version:<10} {cache.human(i.bytes):>10}  {used}{'  pinned' if i.pinned else ''}", markup=False
        )
    out.print(f"total {cache.human(sum(i.bytes for i in kept))} in {len(kept)} versions", markup=False)
    return 0
