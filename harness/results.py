"""Results as data: one JSON Lines file per run (header, one record per case and engine, footer).

A record is written the moment its case finishes (``Writer.add``), so Ctrl-C or a crash of the
harness loses nothing that finished; the footer says whether the run completed or was interrupted.
Each record carries its typed status, findings and fault (harness/outcome.py), which every report
reads as they are.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import platform
import stat
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from harness import formats
from harness.case import BrokenCase, Case
from harness.engine_name import EngineName
from harness.errors import UsageError
from harness.outcome import WORST_FIRST, Fault, Finding, Judgement, Status


class ResultsError(UsageError, ValueError):
    """A results file is malformed: the message names the file and line."""


@dataclass(frozen=True, kw_only=True)
class Record:
    """One case on one engine: what happened, judged."""

    case: str
    engine: str
    status: Status
    combination: str
    claims: tuple[str, ...]
    flags: tuple[str, ...]
    duration: float
    findings: tuple[Finding, ...] = ()
    fault: Fault | None = None
    notes: tuple[str, ...] = ()
    """Where the reference engine knowingly departs from the real one during this run."""
    engine_seconds: float | None = field(default=None, compare=False)
    """The engine processes' own wall time within ``duration``; the rest is the harness's."""
    sources: str = ""
    """The case's ``sources`` (``plugin -> project``); empty for a case whose parts all come from the project
    (and in results files written before the field existed)."""
    transcript: dict[str, Any] | None = field(default=None, compare=False)

    @classmethod
    def of(
        cls,
        case: Case,
        *,
        engine: str,
        status: Status,
        duration: float,
        findings: tuple[Finding, ...] = (),
        fault: Fault | None = None,
        notes: tuple[str, ...] = (),
        transcript: dict[str, Any] | None = None,
        engine_seconds: float | None = None,
    ) -> Record:
        return cls(
            case=case.id,
            engine=engine,
            status=status,
            combination=str(case.combination or ""),
            claims=case.claims,
            flags=case.flags,
            duration=round(duration, 3),
            findings=findings,
            fault=fault,
            notes=notes,
            sources=str(case.sources or ""),
            transcript=transcript,
            engine_seconds=round(engine_seconds, 3) if engine_seconds is not None else None,
        )

    @classmethod
    def faulted(cls, case: Case | BrokenCase, *, engine: str, fault: Fault, duration: float = 0.0) -> Record:
        """A run with no verdict: the fault's status, and the case's metadata where it loaded."""
        if isinstance(case, Case):
            return cls.of(case, engine=engine, status=fault.status, duration=duration, fault=fault)
        return cls(
            case=case.id,
            engine=engine,
            status=fault.status,
            combination="",
            claims=(),
            flags=(),
            duration=round(duration, 3),
            fault=fault,
        )

    @property
    def failing_at(self) -> str | None:
        """The first case-file field that made this record fail."""
        bad = (Judgement.UNEXPECTED, Judgement.STALE)
        return next((f.at for f in self.findings if f.judgement in bad), None)

    def observed(self) -> tuple[tuple[str, str | None], ...]:
        """Every observed difference from the documented behaviour as (case-file field, what the engine did).

        Known and unexpected alike (an intermittent entry counts as observed: the engine may show it any
        run); a stale entry (listed but not observed) is not an observation."""
        return tuple((f.at, f.observed) for f in self.findings if f.differs)

    def explain(self) -> str:
        """A readable account of what went wrong (empty for a pass or a known difference)."""
        lines = []
        if self.fault is not None:
            lines.append(self.fault.render())
        lines += [f.render() for f in self.findings if f.judgement in (Judgement.UNEXPECTED, Judgement.STALE)]
        if lines and self.notes:
            lines += ["notes:", *(f"  - {n}" for n in self.notes)]
        return f"{self.case} on {self.engine} ({self.status.label}):\n" + "\n".join(lines) if lines else ""

    def reason(self) -> str:
        """Why this record is not a plain pass, in one line (empty for a pass): the fault's message, the
        first unexpected or stale finding, or the expectations file's reasons for a known difference."""
        if self.fault is not None:
            return self.fault.message.splitlines()[0] if self.fault.message else self.fault.status.value
        bad = [f for f in self.findings if f.judgement in (Judgement.UNEXPECTED, Judgement.STALE)]
        if bad:
            first = bad[0].render().splitlines()
            more = f" (+{len(bad) - 1} more)" if len(bad) > 1 else ""
            return f"{first[0]}: {' '.join(line.strip() for line in first[1:3])}{more}"
        return "; ".join(sorted({f.reason or f.at for f in self.findings if f.differs}))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "case": self.case,
            "engine": self.engine,
            "status": self.status.value,
            "combination": self.combination,
            "claims": list(self.claims),
            "flags": list(self.flags),
            "duration": self.duration,
            "findings": [f.to_json() for f in self.findings],
            "fault": self.fault.to_json() if self.fault else None,
            "notes": list(self.notes),
            "engine_seconds": self.engine_seconds,
            "transcript": self.transcript,
        }
        if self.sources:  # left out when empty, so records of project-only cases read as before
            out["sources"] = self.sources
        return out

    @classmethod
    def from_json(cls, item: dict[str, Any], *, where: str) -> Record:
        missing = [k for k in _REQUIRED if k not in item]
        if missing:
            raise ResultsError(f"{where}: case record lacks {', '.join(missing)}")
        unknown = sorted(set(item) - _FIELDS)
        if unknown:
            raise ResultsError(f"{where}: case record has unknown fields {', '.join(unknown)}")
        try:
            status = Status(item["status"])
        except ValueError:
            raise ResultsError(
                f"{where}: status {item['status']!r} is not one of {', '.join(s.value for s in Status)}"
            ) from None
        try:  # a name written by any version of the harness parses; a forged one (a path) does not
            engine = EngineName.parse(str(item["engine"])).text()
        except UsageError as exc:
            raise ResultsError(f"{where}: {exc}") from None
        for key in ("claims", "flags", "findings", "notes"):
            if not isinstance(item.get(key, []), list):
                raise ResultsError(f"{where}: {key} must be a list, got {type(item[key]).__name__}")
        if item.get("transcript") is not None and not isinstance(item["transcript"], dict):
            raise ResultsError(f"{where}: transcript must be an object or null")
        try:
            findings = tuple(Finding.from_json(f) for f in item.get("findings", ()))
            fault = Fault.from_json(item["fault"]) if item.get("fault") else None
        except (KeyError, ValueError, TypeError) as exc:
            raise ResultsError(f"{where}: malformed finding or fault: {exc!r}") from None
        return cls(
            case=str(item["case"]),
            engine=engine,
            status=status,
            combination=str(item["combination"]),
            claims=tuple(item["claims"]),
            flags=tuple(item["flags"]),
            duration=float(item["duration"]),
            findings=findings,
            fault=fault,
            notes=tuple(item.get("notes", ())),
            engine_seconds=item.get("engine_seconds"),
            sources=str(item.get("sources") or ""),
            transcript=item.get("transcript"),
        )


_REQUIRED = ("case", "engine", "status", "combination", "claims", "flags", "duration")
_FIELDS = frozenset(Record.__dataclass_fields__)


def suite_revision(root: Path) -> str:
    """The git revision of the folder holding the suite, ``+dirty`` when its files changed since."""
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain"], capture_output=True, text=True)
    except OSError:
        return "unknown"
    rev = out.stdout.strip() or "unknown"
    return rev + ("+dirty" if out.returncode == 0 and dirty.stdout.strip() else "")


def header(*, engines: list[str], options: dict[str, Any], revision: str) -> dict[str, Any]:
    return {
        "format": formats.RESULTS.current,
        "engines": engines,
        "suite_revision": revision,
        "platform": f"{platform.system()} {platform.machine()} python {platform.python_version()}",
        "options": options,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def totals(records: Iterable[Record]) -> dict[Status, int]:
    """How many records have each status, worst first (every status present, zeros included)."""
    counts = Counter(r.status for r in records)
    return {s: counts.get(s, 0) for s in WORST_FIRST}


def describe_totals(records: Iterable[Record]) -> str:
    """``3 fail, 1 timeout, 100 pass``: the statuses that occur, worst first."""
    t = totals(records)
    return ", ".join(f"{n} {s.value}" for s, n in t.items() if n) or "no records"


class Writer:
    """Writes a results file as the run goes: header, each record the moment it finishes, footer on ``close``.

    One writer at a time: the file is locked (``flock``) for the writer's life, and a second writer is
    refused with a message naming the run that holds it. The file is replaced atomically: the header
    and any records ``begin`` carries over (from the file itself, for ``--reuse F --results F``) go to a
    new file beside it, which is then renamed over the old one, so at every moment the path holds either
    the old file whole or the new one with every finished record. Each record is one ``write`` of a
    whole line, so a run killed even by SIGKILL leaves its finished records readable (``read(...,
    partial=True)``). A write that fails (a full disk) cuts the file back to its last whole line, keeps
    the records in memory, and is reported by ``failure``; the run goes on.

    Used as a context manager, an exception (Ctrl-C included) still closes the file with a footer
    that marks the run interrupted, so every finished record stays readable."""

    def __init__(self, path: Path, *, head: dict[str, Any]) -> None:
        self.path = path
        self.records: list[Record] = []
        self._failure: str | None = None
        self._unsaved = 0
        self._head = head
        self._lock = threading.Lock()
        self._created = not path.exists()
        self._held = _claim(path)
        self._fd: int | None = None
        self._begun = self._closed = False
        self._good = 0  # the file's length up to its last whole line

    @property
    def failure(self) -> str | None:
        """Why the file stopped taking records (``path: cannot write: No space left on device (2 finished
        record(s) not saved)``), if it did."""
        if self._failure is None:
            return None
        return f"{self._failure} ({self._unsaved} finished record(s) not saved)"

    def begin(self, carried: Iterable[Record] = ()) -> None:
        """Put the header and ``carried`` records (taken from another run) in place of the file."""
        with self._lock:
            if self._begun:
                return
            self._begun = True
            fd, temporary = _sibling(self.path)
            try:
                os.fchmod(fd, stat.S_IMODE(os.fstat(self._held).st_mode))  # the file's mode, not mkstemp's 0600
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a fresh file: nobody else can hold it
                self._fd = fd
                self._line({"type": "header", **self._head})
                for record in carried:
                    self.records.append(record)
                    self._line({"type": "case", **record.to_json()})
                if self._failure is None:
                    os.replace(temporary, self.path)
            finally:
                if self._failure is not None or self._fd is None:  # the old file stays as it was
                    os.close(fd)
                    self._fd = None
                    Path(temporary).unlink(missing_ok=True)
            os.close(self._held)  # the new file's lock now guards the path
            self._held = -1

    def add(self, record: Record) -> None:
        """Save a finished record (after ``close``, as when the run was stopped, it is dropped)."""
        self.begin()
        with self._lock:
            if self._closed:
                return
            self.records.append(record)
            self._line({"type": "case", **record.to_json()})

    def close(self, *, interrupted: bool = False) -> None:
        self.begin()
        with self._lock:
            if self._closed:
                return
            self._closed = True
            counts = {s.value: n for s, n in totals(self.records).items()}
            self._line({"type": "footer", "totals": counts, "complete": not interrupted})
            if self._fd is not None:
                os.close(self._fd)  # releases the lock
                self._fd = None

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if not self._begun and kind is not None:  # an error before the run began: the old file stays as it was
            if self._created:
                self.path.unlink(missing_ok=True)
            os.close(self._held)
            self._held = -1
            self._closed = True
            return
        self.close(interrupted=kind is not None)

    def _line(self, item: dict[str, Any]) -> None:
        """One whole line in one write; on a failure, the file is cut back to its last whole line."""
        if self._failure is not None or self._fd is None:
            self._unsaved += item.get("type") == "case"
            return
        # backslashreplace: a stray undecodable file name must not cost the run its results
        data = (json.dumps(item, ensure_ascii=False) + "\n").encode("utf-8", errors="backslashreplace")
        try:
            done = 0
            while done < len(data):
                done += os.write(self._fd, data[done:])
        except OSError as exc:
            self._failure = f"{self.path}: cannot write: {exc.strerror or exc}"
            self._unsaved += item.get("type") == "case"
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._good)
            return
        self._good += len(data)


def _claim(path: Path) -> int:
    """Lock ``path`` for writing (created empty if absent); a path that is no regular file, or that another
    run holds, is a one-line error."""
    while True:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)  # as open(): the umask decides
        except IsADirectoryError:
            raise ResultsError(f"{path}: is a folder, not a results file") from None
        except OSError as exc:
            raise ResultsError(f"{path}: cannot write the results file: {exc.strerror or exc}") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise ResultsError(f"{path}: not a regular file: a results file must be a file of its own")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise ResultsError(
                f"{path}: another run{f' (pid {holder})' if holder else ''} is writing this results file;"
                " wait for it, or pass another --results"
            ) from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the file was replaced while we waited for its lock: lock the new one


def _holder(fd: int) -> int | None:
    """The pid that holds an flock on the file open at ``fd`` (from ``/proc/locks``), if it can be told."""
    st = os.fstat(fd)
    device = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        lines = Path("/proc/locks").read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if len(parts) > 5 and parts[1] == "FLOCK" and parts[5] == device and parts[4].isdigit():
            return int(parts[4])
    return None


def _sibling(path: Path) -> tuple[int, str]:
    """A new file beside ``path`` (same folder, so it can be renamed over it)."""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise ResultsError(f"{path}: cannot write a results file in {path.parent}: {exc.strerror or exc}") from None
    return fd, name


@dataclass(frozen=True, kw_only=True)
class Results:
    """What one or more results files hold."""

    head: dict[str, Any]
    records: list[Record]
    complete: bool
    """Every file's run finished (none was interrupted)."""
    notes: tuple[str, ...] = ()
    """What ``partial=True`` let through: a file whose run was killed before its footer."""


def read(path: Path, *, partial: bool = False) -> Results:
    """The header and records of a results file (several files: see ``merge``).

    Strict on purpose: a report built from a truncated or hand-edited file would be silently wrong,
    so every problem raises ``ResultsError`` naming the file and line. ``partial``: a file whose run was
    killed (no footer; a last line cut short) is read for its finished records, with a note saying so
    (what ``--reuse`` takes)."""
    try:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read results file: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ResultsError(f"{path}: not UTF-8 text: {exc}") from None
    head: dict[str, Any] | None = None
    foot: dict[str, Any] | None = None
    records: list[Record] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            if partial and n == len(lines) and not text.endswith("\n"):  # the write a kill cut short
                break
            raise ResultsError(f"{where}: not JSON: {exc}") from None
        if not isinstance(item, dict):
            raise ResultsError(f"{where}: expected a JSON object, got {type(item).__name__}")
        if foot is not None:
            raise ResultsError(f"{where}: line after the footer")
        kind = item.pop("type", None)
        if kind == "header":
            if head is not None or records:
                raise ResultsError(f"{where}: the header must be the first line, and only one")
            try:  # no results migration exists yet: a known format is read as it is
                formats.RESULTS.version_of(item.get("format"), where=where)
            except formats.FormatError as exc:
                raise ResultsError(str(exc)) from None
            head = item
        elif kind == "case":
            if head is None:
                raise ResultsError(f"{where}: case record before the header")
            records.append(Record.from_json(item, where=where))
        elif kind == "footer":
            foot = item
        else:
            raise ResultsError(f"{where}: unknown line type {kind!r} (expected header, case or footer)")
    if head is None:
        raise ResultsError(f"{path}: no header line: not a cc-harness results file")
    ordered = sorted(records, key=lambda r: (r.engine, r.case))
    if foot is None:
        if partial:
            note = f"{path} has no footer (the run that wrote it was killed): its {len(records)} finished records count"
            return Results(head=head, records=ordered, complete=False, notes=(note,))
        raise ResultsError(f"{path}: no footer line: the run that wrote it was killed (truncated file)")
    counted = {s.value: n for s, n in totals(records).items()}
    if foot.get("totals") != counted:
        raise ResultsError(f"{path}: footer totals {foot.get('totals')} do not match the records {counted}")
    return Results(head=head, records=ordered, complete=bool(foot.get("complete", True)))


def merge(paths: list[Path], *, partial: bool = False) -> Results:
    """Shards' results as one run: records keyed by (engine, case); a duplicate is an error.

    ``partial``: files of killed runs count too (see ``read``)."""
    if not paths:
        raise ResultsError("no results file given")
    heads: list[dict[str, Any]] = []
    seen: dict[tuple[str, str], tuple[Record, Path]] = {}
    complete = True
    notes: list[str] = []
    for p in paths:
        part = read(p, partial=partial)
        notes += part.notes
        heads.append(part.head)
        complete = complete and part.complete
        for r in part.records:
            key = (r.engine, r.case)
            if key in seen:
                raise ResultsError(f"{p}: {r.case} on {r.engine} is also in {seen[key][1]}")
            seen[key] = (r, p)
    merged = dict(heads[0])
    merged["engines"] = sorted({e for h in heads for e in h.get("engines", ())})
    merged["shards"] = [h.get("options", {}).get("shard") for h in heads]
    records = sorted((r for r, _ in seen.values()), key=lambda r: (r.engine, r.case))
    return Results(head=merged, records=records, complete=complete, notes=tuple(notes))


def write(path: Path, *, head: dict[str, Any], records: Iterable[Record]) -> None:
    """A complete results file holding ``records`` (for records rebuilt or merged rather than run)."""
    with Writer(path, head=head) as writer:
        writer.begin(records)
