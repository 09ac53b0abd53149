"""``cc-harness record``: real sessions become cases that replay and pass, on the real engine.

Sessions come from the real engine: the team repository's own cases (a hook that refuses a command, a
skill, a subagent) and a two-prompt case are run on the newest pinned claude, their working folders
kept, and ``record`` reads the session transcript the engine wrote there (and its subagent
sidechain). Each recorded case then runs on the same version and passes. The live path runs the engine
through the recording proxy in front of a loopback fake upstream (a scripted model behind the fake
Messages API); no key, no authorization value and no ``--scrub`` string reaches the files it writes.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from harness.case import load_case
from harness.cli import main
from harness.engines.claude import ClaudeEngine
from harness.engines.claude_launch import seed_home
from harness.engines.fakeapi import FakeMessagesAPI
from harness.engines.install import ensure_installed
from harness.outcome import Status
from harness.record.command import secrets
from harness.record.exchanges import answer_blocks, read_exchanges
from harness.record.proxy import RecordingProxy
from harness.record.writer import Scrubber, expectation
from harness.runner import run_case
from harness.scripted import ScriptedModel
from tests.conftest import EXPECTATIONS, PINNED, REPO, write_files

#: one worker runs the engine for the whole module under ``pytest -n``
pytestmark = pytest.mark.xdist_group("test_record")

VERSION = PINNED[-1]
TEAM = REPO / "examples" / "team-repo"
TWO_PROMPTS = """\
id: two-prompts
title: two prompts in one running session
project: ../..
run: {permission_mode: bypass}
steps:
  - prompt: Say where the build stands.
    turns:
      - call:
          name: Bash
          input: {command: echo build ok}
          expect: {result: build ok}
      - say: The build is fine.
  - prompt: Now read the changelog.
    session: same
    turns:
      - call:
          name: Read
          input: {file_path: CHANGELOG.md}
          expect: {result: {contains: TICKET-42}}
      - say: The changelog names TICKET-42.
"""
#: a session that loaded a plugin (--plugin-dir) and a skill of the user's ~/.claude
LOADED = """\
id: loaded
title: a plugin's skill and a user skill in one session
project: ../..
home: home
run: {permission_mode: bypass, flags: {plugin_dirs: [plugins/fleet-ops]}}
steps:
  - prompt: Write an incident note, then a standup update.
    turns:
      - call:
          name: Skill
          input: {skill: "fleet-ops:incident-note"}
          expect: {result: "Launching skill: fleet-ops:incident-note"}
      - call:
          name: Skill
          input: {skill: standup}
          expect: {result: "Launching skill: standup"}
      - say: Both written.
"""
SKILL = "---\nname: {name}\ndescription: Writes a {name}. Use when asked for one.\n---\n\nWrite a short {name}.\n"
PLUGIN = {".claude-plugin/plugin.json": '{"name": "fleet-ops"}\n',
          "skills/incident-note/SKILL.md": SKILL.format(name="incident-note")}
SOURCES = ("audit-hook", "release-notes-skill", "reviewer-agent", "two-prompts", "loaded")
API_KEY = "sk-ant-api03-cc-harness-test-key-do-not-save"
TOKEN = "tok-cc-harness-test-bearer"
SECRET = "Login no longer times out"


def _team_copy(root: Path) -> Path:
    repo = root / "acme-service"
    shutil.copytree(TEAM, repo, ignore=shutil.ignore_patterns("results", "snapshots", "__pycache__"))
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each source case run once on claude@VERSION: its session file, in the kept working folders."""
    ensure_installed(VERSION)
    root = tmp_path_factory.mktemp("sessions")
    repo = _team_copy(root)
    write_files(repo / "claude-cases", {"two-prompts/case.yaml": TWO_PROMPTS, "loaded/case.yaml": LOADED,
                                        "loaded/home/.claude/skills/standup/SKILL.md": SKILL.format(name="standup"),
                                        **{f"loaded/plugins/fleet-ops/{k}": v for k, v in PLUGIN.items()}})
    write_files(root / "elsewhere" / "fleet-ops", PLUGIN)  # where the team member keeps the plugin
    kept = root / "kept"
    out = {"repo": repo}
    for case_id in SOURCES:
        record = run_case(load_case(repo / "claude-cases" / case_id), ClaudeEngine(engine_version=VERSION),
                          expectations=EXPECTATIONS, keep=kept)
        assert record.status is Status.PASS, record.explain()
        [session] = (kept / f"claude-{VERSION}" / case_id / "home" / ".claude" / "projects").glob("*/*.jsonl")
        out[case_id] = session
    for source in ("two-prompts", "loaded"):  # sources, not part of the suite under test
        shutil.rmtree(repo / "claude-cases" / source)
    return out


@pytest.mark.parametrize("source", SOURCES)
def test_a_recorded_session_replays_and_passes_on_the_version_that_wrote_it(
    sessions: dict[str, Path], source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = sessions["repo"]
    case_id = f"rec-{source}"
    argv = ["record", "--session", str(sessions[source]), "--suite", str(repo / "pyproject.toml"), "--id", case_id]
    if source == "loaded":
        argv += ["--plugin-dir", str(repo.parent / "elsewhere" / "fleet-ops")]
    assert main(argv) == 0
    assert f"wrote {repo / 'claude-cases' / case_id / 'case.yaml'}" in capsys.readouterr().out
    case = load_case(repo / "claude-cases" / case_id)
    assert case.documented_for == VERSION and case.project == repo.resolve()
    if source == "reviewer-agent":  # the subagent's sidechain became its context
        [context] = case.contexts
        assert context.name == "reviewer" and (context.opens_with or "").startswith("REVIEW TASK")
        assert [t.call.name for t in context.turns if t.call] == ["Grep"]
    if source == "two-prompts":
        assert [s.session for s in case.steps] == ["new", "same"]
    if source == "loaded":  # the plugin and the user's skill came into the case: they replay, not "Unknown skill"
        folder = repo / "claude-cases" / case_id
        assert case.run.flags.plugin_dirs == ("plugins/fleet-ops",)
        assert (folder / "plugins" / "fleet-ops" / "skills" / "incident-note" / "SKILL.md").is_file()
        assert case.home is not None and case.home.resolve() == (folder / "home").resolve()
        assert (folder / "home" / ".claude" / "skills" / "standup" / "SKILL.md").is_file()
        assert sorted(p.relative_to(folder / "home").as_posix() for p in (folder / "home").rglob("*") if p.is_file()) \
            == [".claude/skills/standup/SKILL.md"]  # that skill only: no settings, credentials or history
    if source == "audit-hook":
        refused = case.steps[0].turns[2].call
        assert refused is not None and refused.expect is not None and refused.expect.is_error is True

    replay = run_case(case, ClaudeEngine(engine_version=VERSION), expectations=EXPECTATIONS)
    assert replay.status is Status.PASS, replay.explain()


def test_without_a_session_id_record_takes_the_newest_session_of_the_folder(
    sessions: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    session = sessions["two-prompts"]
    state = session.parents[2]  # <home>/.claude
    cwd = json.loads(next(line for line in session.read_text().splitlines() if '"cwd"' in line))["cwd"]
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(state))
    out = sessions["repo"].parent / "latest-cases"
    assert main(["record", "--project", cwd, "--cases-dir", str(out), "--id", "latest"]) == 0
    assert f"from session {session.stem}" in capsys.readouterr().out
    written = yaml.safe_load((out / "latest" / "case.yaml").read_text(encoding="utf-8"))
    assert [s["prompt"] for s in written["steps"]] == ["Say where the build stands.", "Now read the changelog."]


def test_volatile_text_becomes_an_anchored_regex_and_plain_text_stays_exact() -> None:
    assert expectation("Found 1 file\nsrc/service.py") == "Found 1 file\nsrc/service.py"
    result = expectation("done (1.5 s)\nagentId: <id-1> (use SendMessage with to: '<id-1>')\n<usage>tokens: 9</usage>")
    assert isinstance(result, dict)
    pattern = result["regex"]
    assert pattern.startswith(r"\A") and pattern.endswith(r"\Z")
    other_run = "done (1.5 s)\nagentId: <id-3> (use SendMessage with to: '<id-3>')\n<usage>tokens: 1234</usage>"
    assert re.search(pattern, other_run) and not re.search(pattern, other_run.replace("done", "failed"))


def test_credentials_of_the_environment_are_scrubbed_and_a_placeholder_is_not() -> None:
    scrub = secrets(["ACME-HOST"], env={"ANTHROPIC_API_KEY": API_KEY, "ANTHROPIC_AUTH_TOKEN": "x"})
    assert scrub.text(f"key {API_KEY} on ACME-HOST, x marks") == "key <scrubbed> on <scrubbed>, x marks"


def test_the_proxy_streams_what_the_upstream_sends_and_keeps_no_credential(tmp_path: Path) -> None:
    """The proxy alone, with an SDK-style client: SSE passes through, headers with credentials are not saved."""
    case_dir = tmp_path / "c"
    write_files(case_dir, {"case.yaml": "id: c\ntitle: t\nsteps:\n  - prompt: Hi.\n    turns:\n      - say: Hello.\n"})
    model = ScriptedModel(case=load_case(case_dir))
    model.begin_step(0)
    body = {"model": "m", "stream": True, "tools": [{"name": "Bash"}], "messages": [{"role": "user", "content": "Hi."}]}
    with FakeMessagesAPI(respond=model.respond, api_key=API_KEY) as upstream, RecordingProxy(
        upstream=upstream.base_url, scrub=Scrubber(secrets=("Hello",))
    ) as proxy:
        host, port = proxy.base_url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        headers = {"x-api-key": API_KEY, "authorization": f"Bearer {TOKEN}", "content-type": "application/json"}
        conn.request("POST", "/v1/messages", body=json.dumps(body), headers=headers)
        answer = conn.getresponse()
        streamed = answer.read().decode()
    assert answer.status == 200 and "event: message_start" in streamed and '"text":"Hello."' in streamed
    [saved] = proxy.saved()
    text = json.dumps(saved.to_json())
    assert API_KEY not in text and TOKEN not in text and "Hello" not in text
    assert "x-api-key" not in saved.headers and "authorization" not in saved.headers
    assert answer_blocks(saved.answer) == [{"type": "text", "text": "<scrubbed>."}]
    recording = read_exchanges([saved], workdir=tmp_path, home=None, tmp=None, argv=["claude", "-p", "Hi."])
    assert [s.prompt for s in recording.steps] == ["Hi."]


def test_record_live_through_the_proxy_writes_a_case_that_passes_and_no_secret(tmp_path: Path) -> None:
    """``cc-harness record --upstream URL -- claude -p ...`` against a loopback fake upstream."""
    binary = ensure_installed(VERSION)
    repo = _team_copy(tmp_path)
    source = load_case(repo / "claude-cases" / "release-notes-skill")
    model = ScriptedModel(case=source)
    model.begin_step(0)
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    seed_home(home, workdir=repo, trusted=True)
    state_before = (home / ".claude.json").read_text()
    cassette = tmp_path / "cassette.jsonl"
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "TMPDIR": str(tmp),
        "PYTHONPATH": str(REPO),  # this checkout: the installed cc-harness may be another one
        "ANTHROPIC_API_KEY": API_KEY,
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "MCP_CONNECTION_NONBLOCKING": "false",
        "IS_SANDBOX": "1",  # bypass as root
    }
    # The upstream checks the key the engine sends through the proxy, as Anthropic's API would.
    with FakeMessagesAPI(respond=model.respond, api_key=API_KEY) as upstream:
        argv = [
            sys.executable, "-m", "harness", "record", "--upstream", upstream.base_url, "--suite",
            str(repo / "pyproject.toml"), "--project", str(repo), "--id", "proxied", "--scrub", SECRET,
            "--cassette", str(cassette), "--", str(binary), "-p", source.steps[0].prompt,
            "--dangerously-skip-permissions",
        ]
        done = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    model.finish()  # the engine asked the upstream for every scripted turn
    # the engine ran in a private HOME: the caller's HOME is as it was (it once got ~/.claude/projects/...)
    assert (home / ".claude.json").read_text() == state_before
    assert sorted(p.name for p in home.iterdir()) == [".claude.json"]
    assert "private HOME" in done.stdout
    case_file = repo / "claude-cases" / "proxied" / "case.yaml"
    for path in (case_file, cassette):
        text = path.read_text(encoding="utf-8")
        assert API_KEY not in text and SECRET not in text, path
        assert "x-api-key" not in text and '"authorization"' not in text, path
    assert "<scrubbed>" in case_file.read_text(encoding="utf-8")
    assert len(cassette.read_text().splitlines()) >= len(source.steps[0].turns)
    # the cassette reads back into the same case, with no engine and no upstream
    again = ["record", "--suite", str(repo / "pyproject.toml"), "--project", str(repo), "--id", "from-cassette"]
    assert main([*again, "--scrub", SECRET, "--cassette", str(cassette)]) == 0
    replayed = yaml.safe_load((repo / "claude-cases" / "from-cassette" / "case.yaml").read_text(encoding="utf-8"))
    live = yaml.safe_load(case_file.read_text(encoding="utf-8"))
    assert {**replayed, "id": None} == {**live, "id": None}
    shutil.rmtree(repo / "claude-cases" / "from-cassette")

    (repo / "audit.log").unlink()  # written by the team's hook during the live run
    case = load_case(case_file.parent)
    assert case.documented_for == VERSION and case.run.permission_mode == "bypass"
    turns = yaml.safe_load(case_file.read_text())["steps"][0]["turns"]
    assert [t.get("call", {}).get("name") for t in turns] == ["Skill", "Bash", "Bash", None]
    replay = run_case(case, ClaudeEngine(engine_version=VERSION), expectations=EXPECTATIONS)
    assert replay.status is Status.PASS, replay.explain()
