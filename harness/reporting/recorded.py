"""Another agent's records rebuilt from the repository alone, for the reports' agents grid.

Running every case on every agent version would make CI's job hours long; what an agent version printed is
already committed, as its snapshots (recorded by ``run --accept`` or ``pytest --snapshot-update``). So a
record here is either
- **not-modelled**, with the adapter's reasons, for a case its tables cannot say to the agent, or one an Agent
  SDK adapter cannot script (approvals, planned API faults): the same check the adapter makes before it starts
  the agent, so no run is needed to know it; or
- the committed snapshot judged by today's case and the engine's expectations file (pass, known or fail,
  exactly as a run that printed it would be judged),
and a case with neither is counted as not recorded (never run on that version, or a run with no verdict,
which is never accepted as a snapshot). A change of a case, an expectations file or an adapter's tables thus
shows in the committed report; a change of the agent itself shows in the live runs (tests/test_agent_families.py
runs one case per family).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness import snapshots
from harness.case import Case, copy_fixture, copy_home
from harness.checks import DEBUG_LOG_AT
from harness.engine_name import EngineName
from harness.engines import make_engine
from harness.engines.approvals import not_scripted
from harness.engines.base import Engine
from harness.engines.sdk import SdkEngine
from harness.engines.sdk_ts import SdkTsEngine
from harness.engines.translated import TranslatedEngine
from harness.errors import CaseFormatError, NotModelled
from harness.expectations import Expectations, judged
from harness.results import Record


@dataclass(frozen=True, kw_only=True)
class Recorded:
    """One agent version's records from the repository, and the cases it has no record of."""

    engine: EngineName
    records: tuple[Record, ...]
    unrecorded: tuple[str, ...]


def _unsayable(engine: Engine, case: Case) -> str | None:
    """Why the adapter cannot say ``case``, in the words its run gives (None: it can)."""
    if isinstance(engine, SdkEngine | SdkTsEngine):  # the checks the Agent SDK adapters make before a run
        reasons = not_scripted(case, engine.name)
        return reasons[0] if reasons else None  # approvals.not_scripted_here raises with the first
    if not isinstance(engine, TranslatedEngine):
        return None
    reasons = _untranslatable(engine, case)
    return f"{engine.name}: {'; '.join(reasons)}" if reasons else None  # as TranslatedEngine.run says it


def _untranslatable(engine: TranslatedEngine, case: Case) -> list[str]:
    """The translating adapter's reasons it cannot say ``case`` (empty: it can), on a private copy of the fixture."""
    with tempfile.TemporaryDirectory(prefix=f"cch-{case.id}-") as root:
        work, home = Path(root) / "work", Path(root) / "home"
        copy_fixture(case, work)
        home.mkdir()
        copy_home(case, home)
        return engine.tables.unexpressible(case, work, home)


def not_modelled(case: Case, engine: Engine) -> Record | None:
    """``case`` as not-modelled on ``engine``, with the adapter's reasons, when the adapter cannot say it (a
    case-error when its fixture cannot be copied; None when it can): known without a run, so no snapshot is ever
    recorded for such a case."""
    try:
        message = _unsayable(engine, case)
    except CaseFormatError as exc:  # a fixture no run may copy (a link out of the case): this case alone fails
        return Record.faulted(case, engine=engine.name, fault=exc.fault(phase="load"))
    if message is not None:
        fault = NotModelled(message, phase="run").fault(phase="run")
        return Record.faulted(case, engine=engine.name, fault=fault)
    return None


def record_of(case: Case, engine: Engine, *, snapshot_root: Path, expectations: Expectations) -> Record | None:
    """``case`` on ``engine`` from the repository: not-modelled with the adapter's reasons, else its committed
    snapshot judged; None when it has neither."""
    name = engine.name
    if (unsayable := not_modelled(case, engine)) is not None:
        return unsayable
    shown = snapshots.read(snapshot_root, name, case.id)
    if shown is None:
        return None
    # The debug log is not part of a snapshot: its checks, and the known differences found in it, are judged by
    # live runs only (listed here, they would be taken for stale).
    listed = [k for k in expectations.listed(name, case.id) if k.at != DEBUG_LOG_AT]
    findings, status = judged(
        case,
        shown,
        listed,
        debug_log=None,
        settle_intermittent=True,
        script_detail=str(shown.get("script_error", "")),
    )
    return Record.of(case, engine=name, status=status, duration=0.0, findings=findings)


def recorded(
    cases: Sequence[Case], engines: Iterable[EngineName], *, snapshot_root: Path, expectations: Expectations
) -> tuple[Recorded, ...]:
    """Each engine's records of ``cases`` from the repository (see the module's docstring)."""
    out = []
    for name in engines:
        engine = make_engine(name)
        records, missing = [], []
        for case in cases:
            record = record_of(case, engine, snapshot_root=snapshot_root, expectations=expectations)
            if record is None:
                missing.append(case.id)
            else:
                records.append(record)
        out.append(Recorded(engine=name, records=tuple(records), unrecorded=tuple(missing)))
    return tuple(out)
