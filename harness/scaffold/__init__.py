"""``cc-harness init``: a starter suite for a repository's existing ``.claude/``.

It reads the project's definitions the way the reference engine reads them (``refengine.config``:
skills, agents, the hooks of ``.claude/settings.json``, approved ``.mcp.json`` servers) and writes a
configuration and one case per skill, agent and settings hook, each checking the one thing that makes
the definition work:

- a skill loads (``Launching skill: NAME``) and its body reaches the model's next request (a forked
  skill: its body opens a context of its own; a skill the model may not invoke: the call is refused);
- an agent is offered exactly the tools its ``tools:`` line names, and its instructions reach it;
- an approved ``.mcp.json`` server starts and a call of its first tool reaches it;
- a hook fires on a tool call its matcher matches, and not on one it does not (a hook on a prompt or
  session event: fires once the event happens).

Hooks are invisible in the conversation, so a hook case needs evidence. The user's hook is never
changed: the case adds a *witness*, a user-level hook (the case's own HOME folder) on the same event
and matcher that appends the payload it receives to ``.cc-harness/hook-payloads.jsonl``. Both engines
dispatch the user's handler and the witness from the same match, so the witness's file holds the
payload the user's hook got on each call that fired it (docs/init.md says why this, and not the
engine's debug log, which the reference engine does not write).

Nothing is ever overwritten: a case folder or a configuration that exists is left as it is, so running
``init`` again writes only what is new in ``.claude/``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import yaml

from harness.case.fixture import links_out
from harness.engine_name import EngineName
from harness.engines import cache, registry
from harness.errors import HarnessError, UsageError
from harness.refengine.config import load_project
from harness.refengine.config_model import ProjectConfig
from harness.refengine.profiles import Profile, profile_for
from harness.scaffold import setup_parts
from harness.scaffold.casefile import CASES, Planned, Report, case_file, dump, slug, unique
from harness.scaffold.definitions import agent_case, hook_files, mcp_case, model_line, skill_case, unapproved_servers
from harness.suite import OWN_FILE, Suite, results_folder
from harness.versions import newest


def init(root: Path, *, pinned: str | None, plugin_dirs: tuple[Path, ...] = (), home: Path | None = None) -> Report:
    """Write the starter suite for the repository at ``root``; what was written, kept and skipped.

    ``plugin_dirs``: plugin folders the team loads with ``--plugin-dir`` (plugins inside the repository are
    found without it)."""
    root = root.resolve()
    if not (root / ".claude").is_dir():
        raise UsageError(f"{root}: no .claude/ folder here: init scaffolds cases for an existing Claude Code setup")
    report = Report()
    suite = _own_suite(root)
    suite_pin = newest(suite.pinned) if suite else None
    if pinned:
        version, report.pinned_from = pinned, "--pinned"
    elif suite_pin:
        version, report.pinned_from = suite_pin, f"the newest pinned version of {suite.describe() if suite else ''}"
    else:
        version, report.pinned_from = default_pinned()
    report.pinned = version
    cases = suite.cases if suite else root / CASES
    planned: list[Planned] = []
    if suite is None:
        planned.append(Planned(path=root / OWN_FILE, text=_config(version), what="suite configuration"))
    if refused := links_out(root):
        # every case copies the repository (project: ../..), and the copy refuses each of these links: a case
        # written now could only be a case-error, so none is, and each link is named with what to do
        report.skipped += [
            f"{rel.as_posix()} -> {target}: links out of the repository, and a case's copy of the repository"
            " refuses such a link; init writes no case until it points inside the repository (or is replaced"
            " by a copy)"
            for rel, target in refused
        ]
    else:
        config = _read(root, report)
        planned += _cases(config, root=root, cases=cases, profile=profile_for(version), report=report)
        planned += setup_parts.plan(root, cases=cases, config=config, plugin_dirs=plugin_dirs, report=report,
                                    profile=profile_for(version))
        if home is not None:
            planned += setup_parts.home_cases(home, root=root, cases=cases, version=version, report=report)
        else:
            report.skipped.append(
                "your HOME (~/.claude): not read; --home ~/.claude makes cases of its skills and agents"
            )
    if (ignore := setup_parts.ignore_results(root, results_folder(suite, beside=root))) is not None:
        planned.append(ignore)
    for item in planned:
        # a case folder that exists is the user's: none of its files is written, not even a missing one
        owner = _case_folder(item.path, cases) or item.path
        if item.update or not owner.exists():
            report.written.append(item)
        elif owner not in report.kept:
            report.kept.append(owner)
    for item in report.written:
        item.path.parent.mkdir(parents=True, exist_ok=True)
        item.path.write_text(item.text, encoding="utf-8")
    for item in report.written:
        if item.hook_case:
            _add_own_marks(item.path, version=version, commands=item.commands, root=root)
    report.suite_file = suite.config_file if suite else root / OWN_FILE
    report.cases = cases
    return report


def default_pinned() -> tuple[str, str]:
    """The claude version a team most likely runs, and where it came from: ``claude --version`` on PATH, else
    the newest version in cc-harness's cache, else the newest published release."""
    claude = shutil.which("claude")
    if claude is not None:
        try:
            out = subprocess.run([claude, "--version"], capture_output=True, text=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired):
            out = None
        found = re.search(r"\b(\d+\.\d+\.\d+)\b", out.stdout) if out is not None else None
        if found:
            return found.group(1), f"the version of {claude}"
    cached = newest(i.version for i in cache.installs())
    if cached:
        return cached, "the newest version in the engine cache (no claude on PATH)"
    try:
        return registry.resolve("latest"), "the newest published release (no claude on PATH, none cached)"
    except HarnessError as exc:
        raise UsageError(f"init: name the claude version you run (--pinned 2.1.332): {exc}") from None


def _case_folder(path: Path, cases: Path) -> Path | None:
    """The case folder ``path`` is in (None for a file outside the folder of cases)."""
    try:
        return cases / path.relative_to(cases).parts[0]
    except ValueError:
        return None


def _own_suite(root: Path) -> Suite | None:
    """The suite configured in ``root`` itself (one found in a parent folder belongs to another project)."""
    found = Suite.find(root)
    return found if found is not None and found.root == root else None


def _config(version: str) -> str:
    return (
        "# The cc-harness suite for this repository's Claude Code setup (.claude/, .mcp.json).\n"
        "# Written by cc-harness init; it is yours to edit (init never rewrites it). Keys: docs/your-setup.md.\n"
        f'cases = "{CASES}"\n'
        f'engines = ["reference", "{EngineName.claude(version)}"]\n'
        f'pinned = ["{version}"]\n'
    )


def _read(root: Path, report: Report) -> ProjectConfig:
    """The project's definitions as the reference engine reads them, user level left out (an empty HOME)."""
    with tempfile.TemporaryDirectory(prefix="cch-init-home-") as home:
        config = load_project(workdir=root, home=Path(home), trusted=True)
    report.warnings += list(config.warnings)
    report.warnings += [f"{p.path}: {p.problem}" for p in config.settings_problems]
    return config


def _cases(config: ProjectConfig, *, root: Path, cases: Path, profile: Profile, report: Report) -> Iterator[Planned]:
    taken: set[str] = set()

    def folder(kind: str, name: str) -> Path:
        case_id = unique(slug(f"{kind}-{name}"), taken)
        return cases / case_id

    for skill in config.skills.values():
        case = skill_case(skill, root=root, profile=profile, report=report)
        if case is not None:
            yield case_file(folder("skill", skill.name), case, root=root, what=f"skill {skill.name}")
    for agent in config.agents.values():
        if not agent.builtin and not agent.user_level:
            case = agent_case(agent, profile=profile)
            yield case_file(folder("agent", agent.name), case, root=root, what=f"agent {agent.name}")
            if agent.model and agent.model != "inherit":  # inherit names no model of its own
                report.skipped.append(model_line(agent.name, agent.model))
    settings = root / ".claude" / "settings.json"
    local = root / ".claude" / "settings.local.json"
    for rule in config.hooks:
        if Path(rule.origin) not in (settings, local):
            report.skipped.append(f"{rule.event} hook of {rule.origin}: only the repository's settings are read")
            continue
        mine = Path(rule.origin) == local
        hook_folder = folder("hook", f"{'local-' if mine else ''}{rule.event}-{rule.matcher or 'all'}")
        yield from hook_files(rule, folder=hook_folder, root=root, report=report, profile=profile,
                               local=local if mine else None)
    if local.is_file() and not any(Path(r.origin) == local for r in config.hooks):
        report.skipped.append(
            ".claude/settings.local.json: it sets no hook (init scaffolds its hooks, each case carrying a copy of"
            " the file as a case-local layer); its permissions are listed below"
        )
    for name in unapproved_servers(root, config):
        # print mode starts every server of .mcp.json that no filter setting rules out, approved or not
        # (mcp-json-unapproved-servers-*): one left out here was ruled out by the settings
        report.skipped.append(
            f"MCP server {name}: .mcp.json declares it but the settings rule it out (disabledMcpjsonServers,"
            " deniedMcpServers or allowedMcpServers), so no engine starts it"
        )
    for server in config.mcp_servers.values():
        case = mcp_case(server, root=root, report=report)
        if case is not None:
            yield case_file(folder("mcp", server.name), case, root=root, what=f"MCP server {server.name}")


def _add_own_marks(case_file: Path, *, version: str, commands: tuple[str, ...], root: Path) -> None:
    """Add to a hook's case the files its own commands write, as a reference run of the case shows them.

    The witness proves the engine matched the hook's event and matcher; a file the user's command writes
    proves a command of theirs ran, and keeps failing the case if their entry is later changed or broken.
    Every hook of the repository fires in the run, so a file counts only when this hook's command, or a
    script of the repository it runs, names it (a SessionStart case must not check what the Stop hook
    writes). A name that looks made of a date or an id is left out: it would differ on the next run."""
    from harness.case import load_case
    from harness.engines import make_engine
    from harness.expectations import Expectations
    from harness.runner import run_case

    with tempfile.TemporaryDirectory(prefix="cch-init-") as nowhere:
        record = run_case(load_case(case_file.parent), make_engine(EngineName("reference", version)),
                          expectations=Expectations(root=Path(nowhere)))
    if record.status.value != "pass" or record.transcript is None:
        return
    own = [
        name for name, value in record.transcript["files"].items()
        if not name.startswith(".cc-harness/") and value != {"removed": True} and not _VOLATILE_NAME.search(name)
        and Path(name).name in _command_text(commands, root)
    ]
    if not own:
        return
    data = yaml.safe_load(case_file.read_text(encoding="utf-8"))
    data["effects"] = [*data.get("effects", []), *({"path": name, "exists": True} for name in own)]
    data["notes"] += "\n" + textwrap.fill(
        f"Marks of the hooks' own commands: a reference run of this case when init wrote it left {', '.join(own)},"
        " which no probe call writes (a hook command did), so effects: checks that it exists.",
        width=100, break_long_words=False, break_on_hyphens=False,
    )
    notes = data.pop("notes")
    case_file.write_text(dump({**data, "notes": notes}), encoding="utf-8")


def _command_text(commands: tuple[str, ...], root: Path) -> str:
    """A hook's commands and the text of every repository file they name (the scripts they run)."""
    parts = list(commands)
    for word in " ".join(commands).split():
        name = word.strip("\"'").replace("$CLAUDE_PROJECT_DIR/", "").replace("${CLAUDE_PROJECT_DIR}/", "")
        path = (root / name).resolve()
        if root in path.parents and path.is_file() and path.stat().st_size < 1_000_000:
            parts.append(path.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


#: A file name with a date, a long number or a hex id in it: not the same on the next run.
_VOLATILE_NAME = re.compile(r"\d{4,}|[0-9a-f]{8,}|\d{2}[-_:]\d{2}")


class SnapshotProblem(NamedTuple):
    """A run of a new case that recorded no snapshot: ``failed`` (pytest fails it) or not-modelled (skipped)."""

    text: str
    failed: bool


def record_snapshots(report: Report, *, jobs: int = 2) -> list[SnapshotProblem]:
    """Run each case init wrote on the suite's engines and record its snapshot, so ``pytest`` is green right
    after init; one line per run that recorded nothing, with its status and reason (a case of a hook that is
    broken fails here, as it would under pytest: init does not hide it)."""
    from concurrent.futures import ThreadPoolExecutor

    from harness import snapshots
    from harness.case import load_or_broken
    from harness.engines import expand
    from harness.expectations import Expectations
    from harness.outcome import Status
    from harness.runner import run_named

    assert report.suite_file is not None
    suite = Suite.from_file(report.suite_file)
    folders = sorted({item.path.parent for item in report.written if item.path.name == "case.yaml"})
    engines = expand(list(suite.engines), pinned=suite.pinned)
    expectations = Expectations(root=suite.expectations)
    default = newest(suite.pinned)

    def one(job: tuple[Path, EngineName]) -> SnapshotProblem | None:
        folder, engine = job
        found = load_or_broken(folder, catalogue=suite.catalogue)
        record = run_named(found, engine, expectations=expectations, default_version=default)
        path = snapshots.path_for(suite.snapshots, engine, found.id)
        if record.status in (Status.PASS, Status.KNOWN) and record.transcript is not None:
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(snapshots.dump(record.transcript), encoding="utf-8")
            return None
        if record.status is Status.NOT_MODELLED:
            return SnapshotProblem(f"{found.id} on {engine}: not-modelled, pytest skips it ({record.reason()})", False)
        return SnapshotProblem(
            f"{found.id} on {engine}: {record.status.value}, no snapshot recorded ({record.reason()})", True
        )

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        lines = list(pool.map(one, [(f, e) for f in folders for e in engines]))
    return [line for line in lines if line]
