"""PostToolBatch as the reference engine fires it (hook_batch.py): what the committed cases measure, and
not-modelled just outside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.engines.reference import ReferenceEngine
from harness.errors import NotModelled
from tests.conftest import CaseWriter, run_in_copy

CASE = """\
id: b
title: t
combination: tool -> hook
claims: [H8]
source: seed 000
documented_for: 2.1.332
run: {{permission_mode: {mode}, trusted: true}}
steps:
  - prompt: Go.
    turns:
      - call: {{name: Bash, input: {{command: {command}}}}}
      - say: LAST
"""
RECORD = ("""python3 -c "import json, sys; print(' '.join(c['tool_name'] + '=' + str(c['tool_response'])"""
          """ for c in json.load(sys.stdin)['tool_calls']))" >> batches.txt""")


def _case(write_case: CaseWriter, *, handlers: list[dict[str, object]], matcher: str | None = None,
          mode: str = "bypass", command: str = "echo HELLO") -> Path:
    rule: dict[str, object] = {"hooks": handlers, **({"matcher": matcher} if matcher is not None else {})}
    files = {".claude/settings.json": json.dumps({"hooks": {"PostToolBatch": [rule]}})}
    return write_case("b", CASE.format(mode=mode, command=command), files=files)


def _command(line: str) -> dict[str, object]:
    return {"type": "command", "command": line}


def test_a_message_with_a_call_fires_it_once_with_the_result(write_case: CaseWriter, tmp_path: Path) -> None:
    run = run_in_copy(_case(write_case, handlers=[_command(RECORD)]), ReferenceEngine(version="2.1.332"), tmp_path)
    assert (tmp_path / "work" / "batches.txt").read_text(encoding="utf-8") == "Bash=HELLO\n"
    assert run.result.steps[0].result == "LAST"


def test_a_refused_call_fires_it_with_the_text_the_model_got(write_case: CaseWriter, tmp_path: Path) -> None:
    """Measured by hook-event-posttoolbatch-refused on every pin: a call refused in default mode fires the hook,
    its ``tool_response`` the refusal the model is given."""
    directory = _case(write_case, handlers=[_command(RECORD)], mode="default", command="touch made.txt")
    run = run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path)
    refusal = run.model.exchanges[0].result
    assert run.model.exchanges[0].is_error and refusal
    assert (tmp_path / "work" / "batches.txt").read_text(encoding="utf-8") == f"Bash={refusal}\n"
    assert not (tmp_path / "work" / "made.txt").exists()


@pytest.mark.parametrize(("setup", "named"), [
    ({"handlers": [_command("echo NO >&2; exit 2")]}, "ends with exit 2"),
    ({"handlers": [_command("""echo '{"decision": "block", "reason": "NO"}'""")]}, "decision=block"),
    ({"handlers": [_command("true")], "matcher": "Bash"}, "matcher 'Bash'"),
    ({"handlers": [{"type": "http", "url": "http://127.0.0.1:9/x"}]}, "not a command"),
])
def test_what_no_case_measures_is_not_modelled(write_case: CaseWriter, tmp_path: Path, setup: dict[str, object],
                                               named: str) -> None:
    with pytest.raises(NotModelled, match=named):
        run_in_copy(_case(write_case, **setup), ReferenceEngine(version="2.1.332"), tmp_path)  # type: ignore[arg-type]
