"""Harness overhead and suite wall time, measured side by side in one run.

1. One case through the harness (copy, seed HOME, fake API, stream-json parsing, transcript, checks)
   vs the bare ``claude -p`` command on the same fixture against the same fake API: the ratio is the
   harness's overhead.
2. The whole suite's wall time per engine (the reference engine and each pinned claude version).

Usage: python benchmarks/bench_engine.py [--case ID] [--repeat N] [--versions 2.1.252,2.1.332] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from harness.case import CASE_FILE, Case, discover_cases, load_case  # noqa: E402
from harness.engines import PINNED, make_engine  # noqa: E402
from harness.engines.claude import ClaudeEngine, seed_home  # noqa: E402
from harness.engines.fakeapi import FakeMessagesAPI  # noqa: E402
from harness.engines.install import ensure_installed  # noqa: E402
from harness.runner import run_case  # noqa: E402
from harness.scripted import ScriptedModel  # noqa: E402


def bare_run(case: Case, case_dir: Path, version: str) -> float:
    """Wall time of ``claude -p PROMPT`` alone on a copy of the fixture (setup not timed)."""
    binary = ensure_installed(version)
    with tempfile.TemporaryDirectory() as tmp:
        work, home = Path(tmp) / "work", Path(tmp) / "home"
        shutil.copytree(case_dir, work, ignore=shutil.ignore_patterns(CASE_FILE))
        home.mkdir()
        seed_home(home, workdir=work, trusted=case.run.trusted)
        model = ScriptedModel(case=case)
        model.begin_step(0)
        with FakeMessagesAPI(respond=model.respond) as api:
            env = {"PATH": os.environ["PATH"], "HOME": str(home), "ANTHROPIC_BASE_URL": api.base_url}
            env |= {"ANTHROPIC_API_KEY": api.api_key, "IS_SANDBOX": "1"}  # the fake API serves only its key
            env |= {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
            argv = [str(binary), "-p", case.steps[0].prompt, "--output-format", "stream-json", "--verbose"]
            if case.run.permission_mode == "bypass":
                argv.append("--dangerously-skip-permissions")
            started = time.perf_counter()
            subprocess.run(argv, cwd=work, env=env, capture_output=True, timeout=120, check=True)
            return time.perf_counter() - started


def harness_run(case: Case, version: str) -> float:
    """Wall time of ``run_case`` (the case is loaded beforehand, as ``bare_run``'s is)."""
    started = time.perf_counter()
    result = run_case(case, ClaudeEngine(engine_version=version))
    elapsed = time.perf_counter() - started
    if result.status == "error":
        raise SystemExit(result.explain())
    return elapsed


def suite_time(engine: str, jobs: int) -> tuple[float, int]:
    cases = list(discover_cases(REPO / "cases"))
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(lambda c: run_case(c, make_engine(engine)), cases))
    return time.perf_counter() - started, len(cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", default="skill-tool-allowed-tools")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--versions", default=",".join(PINNED))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    versions = [v for v in args.versions.split(",") if v]
    case_dir = REPO / "cases" / args.case
    case = load_case(case_dir)  # once: neither timing includes loading it

    print(f"1. one case ({args.case}) on claude@{versions[0]}, {args.repeat} runs each, interleaved")
    bare, full = [], []
    for _ in range(args.repeat):
        bare.append(bare_run(case, case_dir, versions[0]))
        full.append(harness_run(case, versions[0]))
    b, h = statistics.median(bare), statistics.median(full)
    print(f"   bare claude -p : median {b:.3f}s  (min {min(bare):.3f}s)")
    print(f"   through harness: median {h:.3f}s  (min {min(full):.3f}s)")
    print(f"   ratio harness / bare: {h / b:.2f}")

    print(f"2. whole suite, {args.jobs} jobs")
    for engine in ["reference", *(f"claude@{v}" for v in versions)]:
        seconds, count = suite_time(engine, args.jobs)
        print(f"   {engine:<16} {count} cases  {seconds:7.1f}s  ({seconds / count:.2f}s per case)")


if __name__ == "__main__":
    main()
