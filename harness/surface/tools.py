"""Built-in tools: the ``tools`` of the ``system/init`` event claude prints in stream-json, from a run of
an empty fixture (``surface-probe/``) against the loopback fake Messages API, as every case runs."""

from __future__ import annotations

import tempfile
from pathlib import Path

from harness.case import load_case
from harness.engine_name import EngineName
from harness.engines import make_engine
from harness.errors import HarnessError
from harness.expectations import Expectations
from harness.runner import run_case

_PROBE = Path(__file__).parent / "surface-probe"


def init_tools(version: str) -> set[str]:
    """The tools claude@``version`` lists in its init event with no configuration; raises when the run
    did not give one (the record's fault named)."""
    with tempfile.TemporaryDirectory(prefix="cch-surface-") as empty:
        name = EngineName.claude(version)
        engine = make_engine(name)
        record = run_case(load_case(_PROBE), engine, expectations=Expectations(root=Path(empty)))
    prompts = (record.transcript or {}).get("prompts") or []
    tools = prompts[0].get("init_tools") if prompts else None
    if not tools:
        why = record.fault.message if record.fault else f"status {record.status.value}, no init event"
        raise HarnessError(f"{name}: the surface probe listed no tools ({why})")
    return set(tools)
