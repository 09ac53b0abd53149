"""Faults get their own exception and a message a person can act on; a red result means the engine changed.

The fake API serves injected faults (an error status, a hung, malformed or cut-off stream) and refuses
requests without the run's key; the adapters turn what happened into ApiFault, EngineTimeout or
EngineCrash naming the case file and the step. The real-engine tests run claude@2.1.332 (the newest
pinned version), one at a time.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anthropic
import pytest

from harness.apifaults import ApiFaultPlan, InjectedFault
from harness.engines import engine_sessions, stream_process
from harness.engines.claude import ClaudeEngine
from harness.engines.fakeapi import FakeMessagesAPI
from harness.engines.install import ensure_installed
from harness.engines.reference import ReferenceEngine
from harness.errors import ApiFault, EngineCrash, EngineTimeout, UsageError
from harness.model_request import ModelRequest
from tests.conftest import PINNED, CaseWriter, run_in_copy

pytestmark = pytest.mark.xdist_group("faults-real-engine")

NEWEST = PINNED[-1]

HELLO = """\
id: {id}
title: t
claims: [E1]
source: test
documented_for: 2.1.252
run: {{permission_mode: bypass, timeout: {timeout}}}
steps:
  - prompt: Say hello.
    turns:
      - say: Hello.
"""

#: Step 2 of a same-process pair runs a Bash command that outlasts the case's time limit.
SLOW_SECOND_STEP = """\
id: {id}
title: t
claims: [E1]
source: test
documented_for: 2.1.252
run: {{permission_mode: bypass, timeout: {timeout}}}
steps:
  - prompt: Say hello.
    turns:
      - say: Hello.
  - prompt: Run the slow command with the Bash tool.
    session: same
    turns:
      - call:
          name: Bash
          input: {{command: "{command}", description: Slow}}
          expect: {{result: done}}
      - say: Done.
"""

#: The second prompt's UserPromptSubmit hook kills the engine (its nearest ancestor named claude).
KILL_ON_SECOND_PROMPT = """\
id: {id}
title: t
claims: [E1]
source: test
documented_for: 2.1.252
run: {{permission_mode: bypass, timeout: 60}}
steps:
  - prompt: Say hello.
    turns:
      - say: Hello.
  - prompt: KILL-THE-ENGINE now.
    session: same
    turns:
      - say: Never asked.
"""
KILL_HOOK = """\
#!/bin/sh
grep -q KILL-THE-ENGINE || exit 0
p=$$
while [ "$p" -gt 1 ]; do
  if [ "$(cat /proc/$p/comm)" = claude ]; then kill -9 "$p"; exit 0; fi
  p=$(awk '{print $4}' /proc/$p/stat)
done
"""
KILL_SETTINGS = {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "sh .claude/kill.sh"}]}]}}


@pytest.fixture(scope="module")
def newest() -> str:
    ensure_installed(NEWEST)
    return NEWEST


def _running(tag: str) -> list[str]:
    """``ps`` lines of live (not zombie) processes whose command line holds ``tag`` (``-ww``: the whole line;
    without it ``ps`` under pytest cut lines at 80 columns, and a tag past them was never seen)."""
    ps = subprocess.run(["ps", "-ww", "-eo", "pid=,stat=,args="], capture_output=True, text=True, check=True).stdout
    return [line for line in ps.splitlines() if tag in line and not line.split()[1].startswith("Z")]


class _LimitOnceReady(threading.Timer):
    """run.timeout's timer that fires once the limit has passed *and* ``ready()`` holds: the engine is in the
    state the test is about (a hung stream served, a retry made, step 2's command running). On a loaded
    machine the engine can need longer than a small limit just to start, and the limit alone was a race."""

    def __init__(self, interval: float, function: Callable[[], None], ready: Callable[[], bool]) -> None:
        super().__init__(interval, function)
        self.ready = ready

    def run(self) -> None:
        self.finished.wait(self.interval)
        give_up = time.monotonic() + 300  # never hold a broken test for ever
        while not self.finished.is_set() and not self.ready() and time.monotonic() < give_up:
            self.finished.wait(0.1)
        if not self.finished.is_set():
            self.function()
        self.finished.set()


@pytest.fixture
def limit_once(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[], bool]], None]:
    """``limit_once(ready)``: a real engine process's run.timeout passes only once ``ready()`` holds too."""

    def install(ready: Callable[[], bool]) -> None:
        monkeypatch.setattr(stream_process, "limit_timer", lambda interval, function: _LimitOnceReady(
            interval, function, ready))

    return install


@pytest.fixture
def apis(monkeypatch: pytest.MonkeyPatch) -> list[FakeMessagesAPI]:
    """Every fake Messages API an engine adapter starts, to see what it served while the engine runs."""
    started: list[FakeMessagesAPI] = []

    class Seen(FakeMessagesAPI):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            started.append(self)

    monkeypatch.setattr(engine_sessions, "FakeMessagesAPI", Seen)
    return started


def _served(apis: list[FakeMessagesAPI], count: int) -> Callable[[], bool]:
    return lambda: bool(apis) and len(apis[-1].served) >= count


# --- the plan and its text form ---------------------------------------------------------------------


def test_the_text_form_reads_every_kind_and_range() -> None:
    plan = ApiFaultPlan.parse("529@1, 500@*,malformed@2-3,drop@4+,hang@9")
    assert plan.faults == (
        InjectedFault(kind="status", status=529, first=1, last=1),
        InjectedFault(kind="status", status=500, first=1, last=None),
        InjectedFault(kind="malformed", first=2, last=3),
        InjectedFault(kind="drop", first=4, last=None),
        InjectedFault(kind="hang", first=9, last=9),
    )
    assert str(plan) == "529@1,500@*,malformed@2-3,drop@4+,hang@9"
    assert ApiFaultPlan.parse(str(plan)) == plan
    # the first fault that covers a request is the one served
    assert plan.for_request(1) == plan.faults[0]
    assert plan.for_request(2) == plan.faults[1]
    assert ApiFaultPlan.parse("drop@2").for_request(1) is None


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("529", "expected KIND@WHICH"),
        ("overload@1", "expected KIND@WHICH"),
        ("200@1", "an injected status is an error status, 400 to 599"),
        ("500@0", "requests are numbered from 1"),
        ("500@3-2", "requests are numbered from 1"),
    ],
)
def test_a_plan_that_cannot_be_read_names_the_item(text: str, says: str) -> None:
    with pytest.raises(UsageError) as err:
        ApiFaultPlan.parse(f"529@1,{text}")
    assert f"API fault {text!r} in '529@1,{text}'" in str(err.value)
    assert says in str(err.value)


# --- the fake API serves faults and checks the key ----------------------------------------------------


def _hello(request: ModelRequest) -> list[dict[str, Any]]:
    return [{"type": "text", "text": "hello"}]


def _client(api: FakeMessagesAPI, **kwargs: Any) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=api.base_url, api_key=api.api_key, max_retries=0, **kwargs)


def _ask(client: anthropic.Anthropic) -> str:
    with client.messages.stream(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}]) as stream:
        message = stream.get_final_message()
    block = message.content[0]
    assert block.type == "text"
    return block.text


def test_a_status_fault_is_served_with_the_apis_error_type_and_recorded() -> None:
    with FakeMessagesAPI(respond=_hello, faults=ApiFaultPlan.parse("529@1")) as api:
        with pytest.raises(anthropic.APIStatusError) as err:
            _ask(_client(api))
        assert _ask(_client(api)) == "hello"  # request 2 gets the scripted turn the fault did not consume
    assert err.value.status_code == 529
    assert err.value.body == {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "injected by cc-harness: 529@1 (request 1)"},
    }
    assert [(s.request, str(s.fault)) for s in api.served] == [(1, "529@1")]
    assert [(e.status, e.fault) for e in api.journal] == [(529, "529@1 (request 1)"), (200, None)]


@pytest.mark.parametrize("kind", ["malformed", "drop"])
def test_a_broken_stream_breaks_the_official_client(kind: str) -> None:
    with FakeMessagesAPI(respond=_hello, faults=ApiFaultPlan.parse(f"{kind}@1")) as api:
        with pytest.raises(Exception) as err:
            _ask(_client(api))
        assert _ask(_client(api)) == "hello"
    assert not isinstance(err.value, AssertionError)
    assert [s.request for s in api.served] == [1]
    assert api.served[0].fault.kind == kind


def test_a_hung_stream_stops_the_client_and_ends_with_the_server() -> None:
    before = set(threading.enumerate())
    with (
        FakeMessagesAPI(respond=_hello, faults=ApiFaultPlan.parse("hang@1")) as api,
        pytest.raises(Exception) as err,
    ):
        _ask(_client(api, timeout=1.0))
    assert "timed out" in str(err.value)
    assert api.served[0].describe() == "a stream that stops after message_start and never ends to request 1"
    # the handler that held the stream open returns once the server shuts down
    handlers = [t for t in set(threading.enumerate()) - before if "process_request_thread" in t.name]
    for thread in handlers:
        thread.join(timeout=2)
    assert [t for t in handlers if t.is_alive()] == []


def _post(api: FakeMessagesAPI, headers: dict[str, str]) -> int:
    body = json.dumps({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}).encode()
    request = urllib.request.Request(
        f"{api.base_url}/v1/messages", data=body, method="POST", headers={"content-type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def test_only_the_runs_key_reaches_the_scripted_model() -> None:
    asked: list[ModelRequest] = []

    def respond(request: ModelRequest) -> list[dict[str, Any]]:
        asked.append(request)
        return _hello(request)

    with FakeMessagesAPI(respond=respond) as api, FakeMessagesAPI(respond=respond) as other:
        assert api.api_key != other.api_key  # a key per run
        assert api.api_key.startswith("sk-cc-harness-")
        stray = [
            _post(api, {}),
            _post(api, {"x-api-key": "sk-cc-harness-offline"}),  # the constant key of earlier versions
            _post(api, {"x-api-key": other.api_key}),
            _post(api, {"authorization": "Bearer wrong"}),
        ]
        assert asked == []
        assert _post(api, {"x-api-key": api.api_key}) == 200
        assert _post(api, {"authorization": f"Bearer {api.api_key}"}) == 200
    assert stray == [401, 401, 401, 401]
    assert len(asked) == 2
    assert [(e.path, e.status, e.refused) for e in api.refused] == [("/v1/messages", 401, True)] * 4
    # refused requests are not numbered: a fault plan counts only what reaches the model
    assert api.served == []


# --- the claude adapter classifies how a process ended -------------------------------------------------


def test_an_error_status_the_engine_recovers_from_is_still_an_api_fault(
    write_case: CaseWriter, tmp_path: Path, newest: str
) -> None:
    directory = write_case("retried", HELLO.format(id="retried", timeout=60))
    engine = ClaudeEngine(engine_version=newest, api_faults=ApiFaultPlan.parse("529@1"))
    with pytest.raises(ApiFault) as err:
        run_in_copy(directory, engine, tmp_path / "run")
    assert str(err.value) == (
        f"{directory / 'case.yaml'}: step 1 of 1: the fake Messages API served injected faults: HTTP 529"
        f" overloaded_error to request 1; claude@{newest} then retried and finished normally (a run served an"
        " injected fault gets no verdict)"
    )


def test_an_error_status_on_every_request_is_an_api_fault_though_it_ends_in_a_timeout(
    write_case: CaseWriter, tmp_path: Path, newest: str, apis: list[FakeMessagesAPI],
    limit_once: Callable[[Callable[[], bool]], None],
) -> None:
    limit_once(_served(apis, 3))  # the limit passes once the engine has retried twice
    directory = write_case("overloaded", HELLO.format(id="overloaded", timeout=8))
    engine = ClaudeEngine(engine_version=newest, api_faults=ApiFaultPlan.parse("500@*"))
    with pytest.raises(ApiFault) as err:
        run_in_copy(directory, engine, tmp_path / "run")
    message = str(err.value)
    assert message.startswith(
        f"{directory / 'case.yaml'}: step 1 of 1: the fake Messages API served injected faults: HTTP 500 api_error"
        " to requests 1, 2, "
    )
    assert message.endswith(f"claude@{newest} then did not finish within the 8 s limit (run.timeout) and was killed")


def test_a_malformed_event_on_every_request_is_an_api_fault_naming_the_event(
    write_case: CaseWriter, tmp_path: Path, newest: str
) -> None:
    directory = write_case("malformed", HELLO.format(id="malformed", timeout=60))
    engine = ClaudeEngine(engine_version=newest, api_faults=ApiFaultPlan.parse("malformed@*"))
    with pytest.raises(ApiFault) as err:
        run_in_copy(directory, engine, tmp_path / "run")
    message = str(err.value)
    assert f"{directory / 'case.yaml'}: step 1 of 1: the fake Messages API served injected faults:" in message
    assert "a stream with a malformed event (data that is not JSON) to requests 1, 2" in message
    assert f"claude@{newest} then exited with status 1 after 1 of 1 result (the last an error: " in message
    assert "Could not parse message into JSON" in err.value.detail  # the engine's stderr


def test_a_hung_stream_is_an_api_fault_not_a_timeout(
    write_case: CaseWriter, tmp_path: Path, newest: str, apis: list[FakeMessagesAPI],
    limit_once: Callable[[Callable[[], bool]], None],
) -> None:
    limit_once(_served(apis, 1))  # the limit passes once the hung stream was served
    directory = write_case("hung", HELLO.format(id="hung", timeout=5))
    engine = ClaudeEngine(engine_version=newest, api_faults=ApiFaultPlan.parse("hang@1"))
    with pytest.raises(ApiFault) as err:
        run_in_copy(directory, engine, tmp_path / "run")
    assert str(err.value) == (
        f"{directory / 'case.yaml'}: step 1 of 1: the fake Messages API served injected faults: a stream that stops"
        f" after message_start and never ends to request 1; claude@{newest} then did not finish within the 5 s"
        " limit (run.timeout) and was killed"
    )


def test_an_engine_killed_during_step_two_of_a_same_process_pair_is_a_crash(
    write_case: CaseWriter, tmp_path: Path, newest: str
) -> None:
    directory = write_case(
        "killed",
        KILL_ON_SECOND_PROMPT.format(id="killed"),
        {".claude/kill.sh": KILL_HOOK, ".claude/settings.json": json.dumps(KILL_SETTINGS)},
    )
    with pytest.raises(EngineCrash) as err:
        run_in_copy(directory, ClaudeEngine(engine_version=newest), tmp_path / "run")
    assert str(err.value) == (
        f"{directory / 'case.yaml'}: step 2 of 2: claude@{newest} was killed by SIGKILL after 1 of 2 results;"
        " stderr is empty"
    )


@pytest.mark.parametrize("engine_name", ["reference", "claude"])
def test_a_timeout_names_the_step_and_the_limit_and_leaves_nothing_running(
    engine_name: str, write_case: CaseWriter, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    tag = f"30.{uuid.uuid4().int % 10**9}"  # 30.123456789 s: a command line no other process has
    # (claude refuses a Bash ``sleep N`` of its own: it asks for run_in_background instead)
    command = f"python3 -c 'import sys, time; time.sleep(float(sys.argv[1]))' {tag}"
    directory = write_case("slow", SLOW_SECOND_STEP.format(id="slow", timeout=6, command=command))
    if engine_name == "reference":
        engine: Any = ReferenceEngine()
        shown = "reference"
    else:
        engine = ClaudeEngine(engine_version=request.getfixturevalue("newest"))
        shown = engine.name
        # the limit passes once step 2's command runs (on a loaded machine step 1 alone can take 6 s)
        request.getfixturevalue("limit_once")(lambda: bool(_running(tag)))
    with pytest.raises(EngineTimeout) as err:
        run_in_copy(directory, engine, tmp_path / "run")
    message = str(err.value)
    assert message.startswith(
        f"{directory / 'case.yaml'}: step 2 of 2: {shown} did not finish within the 6 s limit (run.timeout)"
    )
    if engine_name == "reference":  # the adapter names what it killed
        # bash -c execs a lone command: the process killed is python3 itself
        assert (
            f"killed 1 process(es) it started: python3 -c import sys, time; time.sleep(float(sys.argv[1])) {tag}"
            in message
        )
    assert _running(tag) == []


def test_a_bash_call_whose_child_drops_the_cookie_times_out_on_time(write_case: CaseWriter, tmp_path: Path) -> None:
    """A child that leaves the run's environment and session still holds Bash's output open: the timeout
    must come at the limit, not after the adapter's grace, and leave nothing running."""
    tag = f"30.{uuid.uuid4().int % 10**9}"
    command = f"env -u CC_HARNESS_RUN setsid sleep {tag}"
    directory = write_case("slow", SLOW_SECOND_STEP.format(id="slow", timeout=3, command=command))
    started = time.monotonic()
    with pytest.raises(EngineTimeout) as err:
        run_in_copy(directory, ReferenceEngine(), tmp_path / "run")
    took = time.monotonic() - started
    assert "did not finish within the 3 s limit (run.timeout)" in str(err.value)
    assert took < 3 + 3, f"reported after {took:.1f} s"
    assert _running(tag) == []


def test_the_reference_engine_stops_a_hook_that_sleeps(write_case: CaseWriter, tmp_path: Path) -> None:
    tag = f"3600.{uuid.uuid4().int % 10**9}"
    settings = {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": f"sleep {tag}"}]}]}}
    directory = write_case("hook", HELLO.format(id="hook", timeout=3), {".claude/settings.json": json.dumps(settings)})
    with pytest.raises(EngineTimeout) as err:
        run_in_copy(directory, ReferenceEngine(), tmp_path / "run")
    # the hook's own timeout is run.timeout too: whether the watchdog or the hook's timeout kills the sleep
    # first is a race, the verdict is not
    assert str(err.value).startswith(
        f"{directory / 'case.yaml'}: step 1 of 1: reference did not finish within the 3 s limit (run.timeout)"
    )
    assert _running(f"sleep {tag}") == []


def test_a_nonzero_exit_after_a_successful_result_is_a_crash(
    write_case: CaseWriter, tmp_path: Path, newest: str
) -> None:
    """The real engine answers; a wrapper then exits 3, as an engine that failed on its way out would."""
    directory = write_case("exit3", HELLO.format(id="exit3", timeout=60))
    engine = ClaudeEngine(engine_version=newest, wrapper=("sh", "-c", '"$@"; echo "failed on exit" >&2; exit 3', "sh"))
    with pytest.raises(EngineCrash) as err:
        run_in_copy(directory, engine, tmp_path / "run")
    assert str(err.value) == (
        f"{directory / 'case.yaml'}: step 1 of 1: claude@{newest} exited with status 3 after 1 of 1 result;"
        " stderr ends: 'failed on exit'"
    )
    assert err.value.detail == "stderr (last 2000 characters):\nfailed on exit"


def test_output_that_is_not_stream_json_is_a_crash(write_case: CaseWriter, tmp_path: Path, newest: str) -> None:
    directory = write_case("garbled", HELLO.format(id="garbled", timeout=60))
    engine = ClaudeEngine(engine_version=newest, wrapper=("sh", "-c", 'echo "Illegal instruction"; exec "$@"', "sh"))
    with pytest.raises(EngineCrash) as err:
        run_in_copy(directory, engine, tmp_path / "run")
    assert str(err.value) == (
        f"{directory / 'case.yaml'}: step 1 of 1: claude@{newest} printed what its adapter cannot read:"
        " a stdout line is not JSON: 'Illegal instruction'"
    )
