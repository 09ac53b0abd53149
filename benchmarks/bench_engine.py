"""What cc-harness costs on top of the engine, measured side by side in one run; figures for docs/performance.md.

    python -m benchmarks.bench_engine --versions 2.1.252,2.1.257,2.1.278,2.1.332 --jobs 2 --sample 24 --repeat 3 \
        --repeat-one 31 --check-version 2.1.331 --write docs/performance.md

1. **Harness / bare, one case.** ``claude -p`` on its own against the fake API (setup untimed) and the
   same case through ``run_case``, in back-to-back pairs (the first of a pair alternates), per version:
   the median of the pairs' ratios, and the harness's own time (its wall time less the engine process's).
2. **Harness / engine, a sample.** At least 20 cases covering single-prompt, multi-prompt, resumed,
   subagent, MCP and http-server cases, each run ``--repeat`` times: the run's wall time against the
   engine processes' own wall time, which the adapter measures around each process.
3. **The suite against its floor.** The floor is the sampled engine time per case times the number of
   cases, divided by the jobs: no harness could run the suite faster on this machine. The whole suite
   then runs through the harness with ``--jobs``, and the ratio is wall time / floor.
4. **The reference engine.** Every case on one job: median and p90 per case and the total, with the time
   spent in the processes it starts (Bash, command hooks, MCP servers, case servers) reported apart.
5. **cc-harness check for a version not in the cache,** end to end in a private cache: install, then run
   and compare; the run's floor is its engine processes' own time over the jobs.
6. **The least time .ci/run can take.** CI runs every case on every pinned version and on the reference
   engine; part 3's engine time for each pinned version plus part 4's whole suite, over the cores.

The suite is the one configured nearest the current folder (``--suite`` names another).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import cli, results, servers
from harness.case import Case, copy_fixture, discover_cases
from harness.engine_name import EngineName
from harness.engines import make_engine
from harness.engines.claude_launch import seed_home
from harness.engines.fakeapi import FakeMessagesAPI
from harness.engines.install import ensure_installed
from harness.expectations import Expectations
from harness.refengine import mcp_client
from harness.results import Record
from harness.runner import run_case
from harness.scripted import ScriptedModel
from harness.suite import Suite


def kind(case: Case) -> str:
    if case.servers:
        return "http-server"
    if case.fixture_file(".mcp.json") is not None:
        return "mcp"
    if any(s.session == "resume" for s in case.steps):
        return "resume"
    if len(case.steps) > 1:
        return "multi-prompt"
    if any(t.call and t.call.name in ("Agent", "Task") for s in case.steps for t in s.turns):
        return "subagent"
    return "single-prompt"


def sample(cases: list[Case], size: int) -> list[Case]:
    """Up to four cases of each kind first, then the rest in id order, ``size`` in all."""
    by_kind: dict[str, list[Case]] = {}
    for case in cases:
        by_kind.setdefault(kind(case), []).append(case)
    picked = [c for group in by_kind.values() for c in group[:4]]
    picked += [c for c in cases if c not in picked]
    return picked[:size]


def bare_run(case: Case, version: str) -> float:
    """Wall time of ``claude -p PROMPT`` alone on a copy of the fixture (setup not timed)."""
    binary = ensure_installed(version)
    with tempfile.TemporaryDirectory() as tmp:
        work, home = Path(tmp) / "work", Path(tmp) / "home"
        copy_fixture(case, work)
        home.mkdir()
        seed_home(home, workdir=work, trusted=case.run.trusted)
        model = ScriptedModel(case=case)
        model.begin_step(0)
        with FakeMessagesAPI(respond=model.respond) as api:
            env = {"PATH": os.environ["PATH"], "HOME": str(home), "ANTHROPIC_BASE_URL": api.base_url}
            env |= {"ANTHROPIC_API_KEY": api.api_key, "IS_SANDBOX": "1", "TMPDIR": tmp}
            env |= {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
            argv = [str(binary), "-p", case.steps[0].prompt, "--output-format", "stream-json", "--verbose"]
            if case.run.permission_mode == "bypass":
                argv.append("--dangerously-skip-permissions")
            started = time.perf_counter()
            subprocess.run(argv, cwd=work, env=env, capture_output=True, timeout=120, check=True)
            return time.perf_counter() - started


@dataclass(frozen=True)
class Pair:
    bare: float
    harness: float
    own: float
    """The harness run's wall time less its engine process's: what the harness itself adds."""


def paired_run(case: Case, version: str, expectations: Expectations, *, bare_first: bool) -> Pair:
    """One bare run and one run through the harness, back to back, in the order given."""
    if bare_first:
        bare = bare_run(case, version)
        record = through_harness(case, EngineName.claude(version), expectations)
    else:
        record = through_harness(case, EngineName.claude(version), expectations)
        bare = bare_run(case, version)
    return Pair(bare=bare, harness=record.duration, own=record.duration - (record.engine_seconds or 0.0))


def engine_time(records: list[Record]) -> float:
    """The engine processes' own wall time in these records, summed."""
    return sum(r.engine_seconds or 0.0 for r in records)


def through_harness(case: Case, engine: EngineName, expectations: Expectations) -> Record:
    record = run_case(case, make_engine(engine), expectations=expectations)
    if record.status.is_error:
        raise SystemExit(record.explain())
    return record


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class ProcessClock:
    """Wall time spent waiting for processes the reference engine starts (benchmark-only instrumentation)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._lock = threading.Lock()

    def timed(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                with self._lock:
                    self.seconds += time.perf_counter() - started

        return wrapper

    @contextmanager
    def watching(self) -> Iterator[None]:
        patched = [
            (subprocess, "run"),
            (mcp_client.McpConnection, "wait"),  # a server's start-up
            (mcp_client.McpConnection, "call"),
            (mcp_client.McpConnection, "close"),  # and its exit, once its stdin is closed
            (servers, "_read_port"),
        ]
        saved = [(owner, name, getattr(owner, name)) for owner, name in patched]
        for owner, name, fn in saved:
            setattr(owner, name, self.timed(fn))
        try:
            yield
        finally:
            for owner, name, fn in saved:
                setattr(owner, name, fn)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", type=Path, default=None)
    parser.add_argument("--versions", default="2.1.252,2.1.332")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sample", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each sampled case (part 2)")
    parser.add_argument(
        "--repeat-one", type=int, default=11, help="runs of part 1's case each way: one case's ratio needs many"
    )
    parser.add_argument("--case", default="tool-hook-pretooluse-deny", help="the single-prompt case of part 1")
    parser.add_argument("--check-version", default=None, help="a version to check from an empty cache (part 5)")
    parser.add_argument("--parts", default="1,2,3,4,5,6", help="which parts to run, e.g. 1,4 (3 needs 2's floor)")
    parser.add_argument("--write", type=Path, default=None, help="write the figures as a Markdown page")
    args = parser.parse_args()
    suite = Suite.from_file(args.suite) if args.suite else Suite.discover(Path.cwd())
    expectations = Expectations(root=suite.expectations)
    cases = list(discover_cases(suite.cases, catalogue=suite.catalogue))
    versions = [v for v in args.versions.split(",") if v]
    started = time.monotonic()
    lines: list[str] = []

    def say(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    parts = {int(p) for p in args.parts.split(",") if p}
    floor_per_case: dict[str, float] = {}
    if 1 in parts:
        one = next(c for c in cases if c.id == args.case)
        say(f"## 1. One case, bare engine against the harness ({one.id}, {args.repeat_one} pairs, interleaved)\n")
        say(
            "The engine's own time varies from run to run by more than the harness adds, so each pair runs the"
            " two ways back to back (which goes first alternates) and the ratio is the median of the pairs'"
            " ratios. What the harness adds on its own is its wall time less the engine process's.\n"
        )
        say(
            "| version | bare `claude -p` (median) | through the harness (median) | ratio (median of pairs) |"
            " harness's own time (median) |"
        )
        say("|---|---|---|---|---|")
        for version in versions:
            pairs = [paired_run(one, version, expectations, bare_first=i % 2 == 0) for i in range(args.repeat_one)]
            b = statistics.median(p.bare for p in pairs)
            h = statistics.median(p.harness for p in pairs)
            ratio = statistics.median(p.harness / p.bare for p in pairs)
            own = statistics.median(p.own for p in pairs)
            say(f"| {version} | {b:.3f} s | {h:.3f} s | {ratio:.3f} | {own * 1000:.0f} ms |")

    if parts & {2, 3}:
        picked = sample(cases, args.sample)
        kinds = sorted({kind(c) for c in picked})
        say(f"\n## 2. A sample of {len(picked)} cases ({', '.join(kinds)}), {args.repeat} runs each\n")
        say("| version | harness wall (sum of medians) | engine processes (sum of medians) | ratio |")
        say("|---|---|---|---|")
        for version in versions:
            walls, engines = [], []
            for case in picked:
                runs = [through_harness(case, EngineName.claude(version), expectations) for _ in range(args.repeat)]
                walls.append(statistics.median(r.duration for r in runs))
                engines.append(statistics.median(r.engine_seconds or 0.0 for r in runs))
            floor_per_case[version] = sum(engines) / len(engines)
            say(f"| {version} | {sum(walls):.2f} s | {sum(engines):.2f} s | {sum(walls) / sum(engines):.3f} |")

    suite_engine: dict[str, float] = {}
    if 3 in parts:
        say(f"\n## 3. The whole suite ({len(cases)} cases) on one version, {args.jobs} jobs, against its floor\n")
        say(
            "The floor is the sampled engine time per case (part 2) times the cases, over the jobs. The engine"
            " processes' own time in this very run, over the jobs, is the floor measured instead of sampled.\n"
        )
        say(
            "| version | floor (sampled engine time per case x cases / jobs) | wall time | ratio |"
            " engine processes in this run / jobs | ratio |"
        )
        say("|---|---|---|---|---|---|")
        for version in versions:
            floor = floor_per_case[version] * len(cases) / args.jobs
            begun = time.perf_counter()
            engine = EngineName.claude(version)
            with ThreadPoolExecutor(max_workers=args.jobs) as pool:
                records = list(pool.map(lambda c, e=engine: through_harness(c, e, expectations), cases))
            wall = time.perf_counter() - begun
            suite_engine[version] = engine_time(records)
            measured = suite_engine[version] / args.jobs
            ratios = f"{wall / floor:.3f} | {measured:.1f} s | {wall / measured:.3f}"
            say(f"| {version} | {floor:.1f} s | {wall:.1f} s | {ratios} |")

    reference_suite = None
    if 4 in parts:
        reference_suite = reference_part(cases, expectations, say=say)

    if args.check_version and 5 in parts:
        check_part(args.check_version, jobs=args.jobs, say=say)

    if 6 in parts:
        ci_floor_part(suite, suite_engine, reference_suite, cases=len(cases), say=say)

    if args.write:
        args.write.write_text(page(lines, args=args, minutes=(time.monotonic() - started) / 60), encoding="utf-8")


def reference_part(cases: list[Case], expectations: Expectations, *, say: Callable[[str], None]) -> float:
    """Part 4; returns the whole suite's time on one job, the processes it started (hooks, servers) included."""
    say(f"\n## 4. The reference engine, {len(cases)} cases on one job\n")
    clock = ProcessClock()
    per_case = []
    with clock.watching():
        begun = time.perf_counter()
        for case in cases:
            before = clock.seconds
            t = time.perf_counter()
            through_harness(case, "reference", expectations)
            per_case.append(time.perf_counter() - t - (clock.seconds - before))
        total = time.perf_counter() - begun
    say("| per case, median | per case, p90 | whole suite | of which in processes it started |")
    say("|---|---|---|---|")
    say(
        f"| {statistics.median(per_case) * 1000:.1f} ms | {percentile(per_case, 0.9) * 1000:.1f} ms |"
        f" {total - clock.seconds:.2f} s (+ {clock.seconds:.2f} s in processes) | {clock.seconds:.2f} s |"
    )
    return total


def check_part(version: str, *, jobs: int, say: Callable[[str], None]) -> None:
    say(f"\n## 5. `cc-harness check {version}` from an empty engine cache\n")
    cache = Path(tempfile.mkdtemp(prefix="cch-bench-cache-"))
    os.environ["CC_HARNESS_CACHE"] = str(cache)
    try:
        begun = time.perf_counter()
        ensure_installed(version)
        install = time.perf_counter() - begun
        begun = time.perf_counter()
        out = Path(tempfile.mkdtemp(prefix="cch-bench-")) / "check.jsonl"
        code = cli.main(["check", version, "--jobs", str(jobs), "--results", str(out)])
        run = time.perf_counter() - begun
    finally:
        del os.environ["CC_HARNESS_CACHE"]
        shutil.rmtree(cache, ignore_errors=True)
    engine = engine_time(results.read(out).records)
    say(
        f"The run's floor is its engine processes' own time over the jobs ({engine:.1f} s / {jobs}): no harness"
        " can run these cases on this machine in less.\n"
    )
    say("| install | run and compare | total | exit status | the run's floor | run / floor |")
    say("|---|---|---|---|---|---|")
    floor = engine / jobs
    say(f"| {install:.1f} s | {run:.1f} s | {install + run:.1f} s | {code} | {floor:.1f} s | {run / floor:.3f} |")


def ci_floor_part(
    suite: Suite, suite_engine: dict[str, float], reference: float | None, *, cases: int, say: Callable[[str], None]
) -> None:
    """Part 6: the least time ``.ci/run`` can take here, from the engine runs it must make.

    CI runs every case once on every pinned version (pytest's case tests take two, the soak test one, the
    conformance run the rest, each reusing the others' records) and on the reference engine; that many
    engine processes, packed perfectly onto the machine's cores, take at least their own time over the
    cores, before a single harness test runs."""
    cores = os.cpu_count() or 1
    say(f"\n## 6. The least time `.ci/run` can take on {cores} cores\n")
    say(
        f"`.ci/run` runs each of the {cases} cases once on every pinned version and on the reference engine (part"
        " 3's engine time per version; part 4's whole suite for the reference engine). Their sum over the cores"
        " is the least time the job can take, before any harness test and with perfect packing.\n"
    )
    say("| engine | engine processes, whole suite |")
    say("|---|---|")
    total = sum(suite_engine.get(v, 0.0) for v in suite.pinned)
    for version in suite.pinned:
        seconds = suite_engine.get(version)
        measured = "not measured (add it to --versions)" if seconds is None else f"{seconds:.1f} s"
        say(f"| claude@{version} | {measured} |")
    if reference is not None:
        total += reference
        say(f"| reference (part 4: the whole suite on one job, its processes included) | {reference:.1f} s |")
    say("")
    partial = "" if set(suite.pinned) <= set(suite_engine) else " (a lower bound: not every pinned version measured)"
    say(f"Sum {total:.1f} s; over {cores} cores: **{total / cores:.0f} s{partial}**.")


def page(lines: list[str], *, args: argparse.Namespace, minutes: float) -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor(),
    )
    command = (
        f"python -m benchmarks.bench_engine --versions {args.versions} --jobs {args.jobs} --sample {args.sample}"
        f" --repeat {args.repeat} --repeat-one {args.repeat_one}"
        + (f" --check-version {args.check_version}" if args.check_version else "")
        + (f" --parts {args.parts}" if args.parts != "1,2,3,4,5,6" else "")
        + f" --write {args.write}"
    )
    head = [
        "# Performance",
        "",
        "<!-- Generated by benchmarks/bench_engine.py: do not edit by hand. -->",
        "",
        "What cc-harness adds to the engine's own time, measured side by side in one run: a case through the",
        "harness against the bare `claude -p`, the harness's wall time against the engine processes' wall time",
        "(the adapter times each process), the whole suite against its floor, the reference engine per case,",
        "and `cc-harness check` from an empty cache. Regenerate with:",
        "",
        f"    {command}",
        "",
        f"Machine: {os.cpu_count()} cores ({cpu}), {platform.system()} {platform.machine()},"
        f" Python {platform.python_version()}; load average at the end {os.getloadavg()[0]:.1f};"
        f" the run took {minutes:.0f} min.",
        "",
    ]
    return "\n".join(head + lines) + "\n"


if __name__ == "__main__":
    main()
