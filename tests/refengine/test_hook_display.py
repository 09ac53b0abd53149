"""MessageDisplay as the reference engine fires it (hook_display.py): what the committed cases measure, and
not-modelled just outside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.engines.reference import ReferenceEngine
from harness.errors import NotModelled
from tests.conftest import CaseWriter, run_in_copy

CASE = """\
id: d
title: t
combination: hook
claims: [H8]
source: seed 000
documented_for: 2.1.332
run: {{permission_mode: bypass, trusted: true}}
steps:
  - prompt: Go.
    turns:
      - say: FIRST
        call: {{name: Bash, input: {{command: echo HELLO}}}}
      - call: {{name: Agent, input: {{subagent_type: helper, description: H, prompt: Say HELPED.,
                                      run_in_background: false}}}}
      - say: {last}
{contexts}"""
HELPER = "---\nname: helper\ndescription: H.\n{hooks}---\nSay HELPED.\n"
CONTEXTS = "contexts:\n  helper:\n    opens_with: Say HELPED.\n    turns: [{say: HELPED}]\n"
RECORD = """d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])"); echo "$d" >> shown.txt"""


def _case(write_case: CaseWriter, *, handlers: list[dict[str, object]], matcher: str | None = None,
          last: str = "LAST", where: str = "settings") -> Path:
    rule: dict[str, object] = {"hooks": handlers, **({"matcher": matcher} if matcher is not None else {})}
    hooks = {"MessageDisplay": [rule]}
    files = {".claude/agents/helper.md": HELPER.format(hooks="hooks: " + json.dumps(hooks) + "\n"
                                                       if where == "agent" else "")}
    if where == "settings":
        files[".claude/settings.json"] = json.dumps({"hooks": hooks})
    return write_case("d", CASE.format(last=last, contexts=CONTEXTS), files=files)


def _command(line: str) -> dict[str, object]:
    return {"type": "command", "command": line}


def _display(text: str) -> dict[str, object]:
    output = {"hookSpecificOutput": {"hookEventName": "MessageDisplay", "displayContent": text}}
    return _command(f"echo '{json.dumps(output)}'")


def test_each_main_thread_message_with_text_fires_once(write_case: CaseWriter, tmp_path: Path) -> None:
    run = run_in_copy(_case(write_case, handlers=[_command(RECORD)]), ReferenceEngine(version="2.1.332"), tmp_path)
    assert (tmp_path / "work" / "shown.txt").read_text(encoding="utf-8") == "FIRST\nLAST\n"  # not HELPED
    assert run.result.steps[0].result == "LAST"


def test_display_content_for_the_last_message_is_printed(write_case: CaseWriter, tmp_path: Path) -> None:
    run = run_in_copy(_case(write_case, handlers=[_display("SHOWN")]), ReferenceEngine(version="2.1.252"), tmp_path)
    assert run.result.steps[0].result == "SHOWN"


def test_exit_2_and_json_outputs_change_nothing(write_case: CaseWriter, tmp_path: Path) -> None:
    handlers = [_command("echo NO >&2; exit 2"), _command("""echo '{"decision": "block", "reason": "NO"}'"""),
                _command("""echo '{"continue": false, "stopReason": "NO"}'""")]
    run = run_in_copy(_case(write_case, handlers=handlers), ReferenceEngine(version="2.1.332"), tmp_path)
    assert run.result.steps[0].result == "LAST"


@pytest.mark.parametrize(("setup", "named"), [
    ({"handlers": [_display("A"), _display("B")]}, "different displayContent"),
    ({"handlers": [_command("true")], "matcher": "Bash"}, "matcher 'Bash'"),
    ({"handlers": [{"type": "http", "url": "http://127.0.0.1:9/x"}]}, "not a command"),
    ({"handlers": [_command("true")], "where": "agent"}, "outside a settings file"),
])
def test_what_no_case_measures_is_not_modelled(write_case: CaseWriter, tmp_path: Path, setup: dict[str, object],
                                               named: str) -> None:
    with pytest.raises(NotModelled, match=named):
        run_in_copy(_case(write_case, **setup), ReferenceEngine(version="2.1.332"), tmp_path)  # type: ignore[arg-type]
