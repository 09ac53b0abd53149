"""``cc-harness record``, both ways: from a session transcript, or live through the recording proxy."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.engine_name import EngineName
from harness.engines.claude_launch import seed_home
from harness.errors import UsageError
from harness.record import loaded
from harness.record.cassette import Cassette
from harness.record.cassette import read as read_cassette
from harness.record.cassette import write as write_cassette
from harness.record.exchanges import read_exchanges
from harness.record.model import Recording
from harness.record.proxy import ANTHROPIC_API, RecordingProxy
from harness.record.session import claude_dir, find_session, read_session
from harness.record.writer import MIN_SECRET, Scrubber, default_id, write_case

__all__ = ["ANTHROPIC_API", "Recorded", "Target", "describe", "from_cassette", "from_session", "live", "secrets"]

#: Environment variables whose values are credentials: scrubbed wherever they show up.
_SECRET_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "AWS_SECRET_ACCESS_KEY")

#: Said of every live recording: what the private HOME means for the session and its case.
_PRIVATE_HOME_NOTE = (
    "the live run had a private HOME (your ~/.claude.json, ~/.claude and ~/.cache untouched): user-level skills,"
    " agents and settings were not loaded, so the case needs none"
)


@dataclass(frozen=True, kw_only=True)
class Target:
    """Where the case goes and what it is built on."""

    cases: Path
    """The folder of cases the new case is written into."""
    project: Path | None
    """The repository the case's working copy is a copy of (``project:``), None for none."""
    case_id: str | None
    #: Where a live recording's cassette goes when --cassette is not given (the suite's results folder).
    results: Path
    force: bool = False


@dataclass(frozen=True, kw_only=True)
class Recorded:
    case_file: Path
    recording: Recording
    cassette: Path | None = None
    exit_status: int = 0


def secrets(extra: Sequence[str], env: dict[str, str] | None = None) -> Scrubber:
    """The ``--scrub`` values (as given) and every credential of the environment (long enough to be one:
    a placeholder like ``x`` would scrub every x of the case)."""
    env = dict(os.environ) if env is None else env
    found = (env[k] for k in _SECRET_ENV if len(env.get(k, "")) >= MIN_SECRET)
    return Scrubber(secrets=(*extra, *found))


def from_session(
    session: str | None, *, folder: Path, target: Target, scrub: Scrubber, plugin_dirs: Sequence[Path] = ()
) -> Recorded:
    """A case from a session file (an id, a path, or None: the newest session of ``folder``), carrying the
    plugins and user skills and agents the session loaded (record/loaded.py)."""
    path = find_session(session, project=folder, state=claude_dir())
    rec = read_session(path)
    # <HOME>/.claude/projects/<project>/<session>.jsonl: that ~/.claude is where the session's user files are
    state = path.resolve().parents[2] if len(path.resolve().parents) > 2 else None
    user = rec.home / ".claude" if rec.home else None
    if state is not None and (state / "projects").is_dir():
        user = state
    rec, copies = loaded.carry(rec, project=target.project, plugin_dirs=plugin_dirs, user=user)
    case_file = _write(rec, target, scrub)
    loaded.place(copies, case_folder=case_file.parent)
    return Recorded(case_file=case_file, recording=rec)


def live(
    argv: Sequence[str], *, upstream: str, folder: Path, target: Target, scrub: Scrubber, cassette: Path | None
) -> Recorded:
    """Run ``argv`` (the engine) in ``folder`` through a recording proxy to ``upstream``; a case from it."""
    if not argv:
        raise UsageError("record --upstream: name the engine command after --, e.g. -- claude -p 'Fix the build'")
    # a private HOME: the engine writes ~/.claude.json, ~/.claude/projects and ~/.cache as it runs, and a
    # recording must leave the user's own HOME as it was (credentials come from the environment's key)
    with tempfile.TemporaryDirectory(prefix="cch-record-home-") as private, RecordingProxy(
        upstream=upstream, scrub=scrub
    ) as proxy:
        home = Path(private)
        seed_home(home, workdir=folder, trusted=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
        env.update(HOME=str(home), ANTHROPIC_BASE_URL=proxy.base_url)
        try:
            status = subprocess.run(list(argv), cwd=folder, env=env, check=False).returncode
        except FileNotFoundError:
            raise UsageError(f"{argv[0]}: no such command") from None
        every = Scrubber(secrets=(*scrub.secrets, *(s for s in proxy.secrets_seen if len(s) >= MIN_SECRET)))
        tmp = os.environ.get("TMPDIR")
        # saved() scrubbed each exchange already
        tape = Cassette(argv=tuple(argv), home=home, tmp=Path(tmp) if tmp else None, exchanges=tuple(proxy.saved()))
    rec = _recording(tape, folder)
    case_id = target.case_id or (default_id(rec) if rec.steps else "recording")
    # the cassette first: a run that gives no case still leaves what was exchanged, to look at (and replay)
    path = cassette or target.results / "recordings" / f"{case_id}.jsonl"
    write_cassette(path, tape, scrub=every)
    case_file = _write(rec, dataclasses.replace(target, case_id=case_id), every)
    return Recorded(case_file=case_file, recording=rec, cassette=path, exit_status=status)


def from_cassette(path: Path, *, folder: Path, target: Target, scrub: Scrubber) -> Recorded:
    """The case a live recording wrote, again, from its cassette (no engine run, no network)."""
    rec = _recording(read_cassette(path), folder)
    case_id = target.case_id or (default_id(rec) if rec.steps else "recording")
    return Recorded(case_file=_write(rec, dataclasses.replace(target, case_id=case_id), scrub), recording=rec)


def _recording(tape: Cassette, folder: Path) -> Recording:
    rec = read_exchanges(tape.exchanges, workdir=folder, home=tape.home, tmp=tape.tmp, argv=list(tape.argv))
    return dataclasses.replace(rec, notes=(*rec.notes, _PRIVATE_HOME_NOTE))


def _write(rec: Recording, target: Target, scrub: Scrubber) -> Path:
    case_id = target.case_id or default_id(rec)
    return write_case(
        rec, cases=target.cases, case_id=case_id, project_root=target.project, scrub=scrub, force=target.force
    )


def describe(done: Recorded) -> list[str]:
    """What was written, for the terminal."""
    rec = done.recording
    turns = sum(len(s.turns) for s in rec.steps) + sum(len(c.turns) for c in rec.contexts)
    lines = [
        f"wrote {done.case_file}: {len(rec.steps)} prompt(s), {turns} scripted turn(s),"
        f" {len(rec.contexts)} context(s), from {rec.source}"
    ]
    if done.cassette is not None:
        lines.append(f"exchanges saved in {done.cassette}")
    lines += [f"note: {n}" for n in rec.notes]
    engine = EngineName.claude(rec.version).text() if rec.version else "claude@VERSION"
    lines.append(f"next: cc-harness run --engine {engine} --case {done.case_file.parent.name}")
    return lines
