"""``cc-harness report``: the Markdown, HTML and JUnit reports from saved results (``--check``: is it stale)."""

from __future__ import annotations

import argparse
import difflib
import os
from pathlib import Path

from harness import results, timeline
from harness.case import Case, discover_cases, scan_cases
from harness.commands.common import cases_dir, console, stdout, suite_of, write
from harness.engine_name import EngineName
from harness.engines import check
from harness.errors import UsageError
from harness.expectations import Expectations
from harness.report import compat, escape, github, html, junit, markdown
from harness.report.model import Model
from harness.reporting import compatibility_of, model_of
from harness.reporting.agents import setup_rows
from harness.reporting.recorded import Recorded, recorded
from harness.suite import Suite
from harness.surface.contract import Contract

#: The contract reference, beside the surfaces: ``docs/surface/../contract.md``.
_CONTRACT = Path("..") / "contract.md"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "report",
        parents=[common],
        help="write the Markdown, HTML and JUnit reports from saved results (several files: shards, merged)",
        description="With --check, write nothing and exit 1 when the Markdown report differs from the results.",
    )
    p.add_argument("--results", type=Path, nargs="+", required=True, help="results files (shards of one run merge)")
    p.add_argument("--markdown", type=Path, default=None, help="Markdown report path (default: the suite's report)")
    p.add_argument("--html", type=Path, default=None, help="HTML report path (default: <results>/report.html)")
    p.add_argument("--junit", type=Path, default=None, help="JUnit XML path (default: <results>/junit.xml)")
    p.add_argument("--check", action="store_true", help="exit 1 when the Markdown report is stale; write nothing")
    p.add_argument("--allow-partial", action="store_true", help="replace the suite's report from a partial run")
    p.add_argument(
        "--cases-dir", type=Path, default=None, help="the suite's cases, to tell a partial run (default: the suite's)"
    )
    p.add_argument("--timeline", type=Path, default=None, help="a scan's results for the timeline (default: suite's)")
    p.add_argument(
        "--github",
        action="store_true",
        help="inside GitHub Actions: append a job summary to $GITHUB_STEP_SUMMARY and print an annotation per"
        " case that is not a pass",
    )
    p.set_defaults(func=_run)


def _partial(saved: results.Results, suite: Suite, cases_dir: Path) -> str | None:
    """Why these results do not cover the whole suite (None when they do)."""
    if not saved.complete:
        return "the run was interrupted"
    every = {f.id for f in scan_cases(cases_dir, catalogue=suite.catalogue)}
    for engine in sorted({r.engine for r in saved.records}):
        have = {r.case for r in saved.records if r.engine == engine}
        if missing := sorted(every - have):
            return f"{engine} has no record of {len(missing)} of the {len(every)} cases (e.g. {missing[0]})"
    return None


def _contract(suite: Suite, cases_dir: Path) -> Contract | None:
    """The contract model of the suite's pinned surfaces, or None without a surface folder or surfaces."""
    from harness.surface import contract, coverage
    from harness.surface.model import committed

    if suite.surface is None:
        return None
    surfaces = committed(suite.surface, list(suite.pinned))
    if not surfaces:
        return None
    cases = list(discover_cases(cases_dir, catalogue=suite.catalogue))
    return contract.build(surfaces, cases, coverage.read_lists(suite.surface), snapshots=suite.snapshots)


def _agents(suite: Suite, cases_dir: Path) -> tuple[tuple[Recorded, ...], dict[str, frozenset[str]]]:
    """The suite's other agents' records from the repository (``agents`` of its configuration), and each case's
    setup rows of the agents table."""
    cases = [c for c in discover_cases(cases_dir, catalogue=suite.catalogue) if isinstance(c, Case)]
    names = [check(EngineName.parse(a)) for a in suite.agents]
    agents = recorded(cases, names, snapshot_root=suite.snapshots, expectations=Expectations(root=suite.expectations))
    return agents, {c.id: setup_rows(c) for c in cases}


def _run(args: argparse.Namespace) -> int:
    suite = suite_of(args)
    saved = results.merge(list(args.results))
    records = saved.records
    if not records:
        raise UsageError(f"{', '.join(map(str, args.results))}: no case records to report on")
    target: Path = (args.markdown or suite.report).resolve()
    link = os.path.relpath(suite.claims, target.parent) if suite.claims else None
    scan_file = args.timeline or suite.timeline
    scan = timeline.load(scan_file, note=timeline.read_note(scan_file))
    contract = _contract(suite, cases_dir(args, suite))
    compatibility = compatibility_of(contract) if contract is not None else None
    compat_md: list[str] = []
    if compatibility is not None:
        cases_rel = os.path.relpath(cases_dir(args, suite), target.parent)
        reference = os.path.relpath(suite.surface / _CONTRACT, target.parent) if suite.surface else None

        def case_link(case_id: str) -> str:
            return f"{cases_rel}/{case_id}/case.yaml"

        compat_md = compat.markdown_lines(compatibility, link=case_link, reference=reference)
    agents, setup = _agents(suite, cases_dir(args, suite))
    model = model_of(records, catalogue=suite.catalogue, timeline=scan, agents=agents, setup=setup)
    text = markdown.render(model, catalogue_link=link, compatibility=compat_md)
    if args.check:
        committed = target.read_text(encoding="utf-8") if target.is_file() else ""
        if committed == text:
            stdout().print(f"{target} is up to date with {len(records)} records", markup=False)
            return 0
        diff = difflib.unified_diff(
            committed.splitlines(keepends=True), text.splitlines(keepends=True), str(target), "from results"
        )
        print(escape.terminal("".join(list(diff)[:200])), end="")  # plain: a diff must not be re-wrapped
        console.print(f"{target} is stale: regenerate it with cc-harness report --results ...", markup=False)
        return 1
    if target == suite.report and not args.allow_partial:
        why = _partial(saved, suite, cases_dir(args, suite))
        if why is not None:
            raise UsageError(
                f"not writing the suite's report {target} from a partial run ({why}); pass --markdown PATH to"
                " write elsewhere, or --allow-partial to replace it anyway"
            )
    html_path = args.html or suite.results / "report.html"
    junit_path = args.junit or suite.results / "junit.xml"
    write(target, text)
    compat_html = compat.html_section(compatibility, link=lambda c: f"#case-{c}") if compatibility is not None else ""
    write(html_path, html.render(model, cases_dir=cases_dir(args, suite).name, compatibility=compat_html))
    write(junit_path, junit.render(model))
    out = stdout()
    for label, path in (("markdown", target), ("html", html_path), ("junit", junit_path)):
        out.print(f"{label}: {path}", markup=False)
    if args.github:
        _github_output(model, suite, cases_dir(args, suite))
    return 0


def _github_output(model: Model, suite: Suite, cases_dir: Path) -> None:
    """The job summary into $GITHUB_STEP_SUMMARY and one annotation line per record that is not a pass."""
    summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
    if not summary_file:
        raise UsageError("report --github: GITHUB_STEP_SUMMARY is not set (it is, inside a GitHub Actions job)")
    # Annotation paths are relative to the repository root, which is where the runner looks for them.
    root = Path(os.environ.get("GITHUB_WORKSPACE") or Path.cwd()).resolve()

    def case_file(case_id: str) -> str:
        return os.path.relpath(cases_dir.resolve() / case_id / "case.yaml", root)

    with open(summary_file, "a", encoding="utf-8") as fh:
        fh.write(github.summary(model, title=f"cc-harness: {suite.describe()}"))
    for line in github.annotation_lines(model.records, case_file=case_file):
        print(escape.terminal(line))
