"""``cc-harness init``: a starter suite for an existing ``.claude/`` that passes as written.

A fixture repository with every kind of definition init scaffolds (a plain, a forked, a conditional
and a model-disabled skill; an agent with a ``tools:`` line and one without; hooks on tool, prompt and
session events, and two init cannot probe; an approved MCP server) gets its suite, which then passes
on the reference engine and on the real pinned claude with no edits. Running init again changes
nothing, and never touches a case a person edited. The example team repository gets the same.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from harness import results
from harness.case import load_case
from harness.cli import main
from harness.engines.install import ensure_installed
from tests.conftest import PINNED, REPO, write_files

#: one worker runs the real engine for the whole module under ``pytest -n``
pytestmark = pytest.mark.xdist_group("test_init")

VERSION = PINNED[-1]
SETTINGS = """{
  "enabledMcpjsonServers": ["tickets"],
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "bash .claude/hooks/log.sh pre"}]},
      {"matcher": "mcp__tickets__.*", "hooks": [{"type": "command", "command": "true"}]}
    ],
    "PostToolUse": [
      {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "bash .claude/hooks/log.sh post"}]}
    ],
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "bash .claude/hooks/log.sh prompt"}]}],
    "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "true"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "true"}]}],
    "Notification": [{"hooks": [{"type": "command", "command": "true"}]}]
  }
}
"""
FIXTURE = {
    ".claude/skills/greet/SKILL.md": """\
        ---
        name: greet
        description: Greets the user. Use when asked to greet someone.
        ---

        Greet the user warmly and mention the project name ACME.
        Arguments: $ARGUMENTS
        """,
    ".claude/skills/summarise/SKILL.md": """\
        ---
        name: summarise
        description: Summarises the repository in a forked context.
        context: fork
        ---

        Summarise the repository README in three bullet points.
        """,
    ".claude/skills/deploy/SKILL.md": """\
        ---
        name: deploy
        description: Deploys the service. Only a person may start it.
        disable-model-invocation: true
        ---

        Run the deployment script.
        """,
    ".claude/skills/notes-helper/SKILL.md": """\
        ---
        name: notes-helper
        description: Helps with the notes folder.
        paths: notes/**
        ---

        Keep every note under 80 characters per line.
        """,
    ".claude/agents/reader.md": """\
        ---
        name: reader
        description: Reads files and reports. Use to look things up.
        tools: Read, Glob
        ---

        You are a careful reader. Quote what you find.
        """,
    ".claude/agents/helper.md": """\
        ---
        name: helper
        description: A general helper.
        ---

        You help with anything asked.
        """,
    ".claude/hooks/log.sh": """\
        #!/bin/bash
        cat > /dev/null
        echo "$1" >> "$CLAUDE_PROJECT_DIR/hook.log"
        """,
    ".claude/settings.json": SETTINGS,
    ".mcp.json": """\
        {"mcpServers": {
          "tickets": {"type": "stdio", "command": "python3", "args": ["tools/tickets_server.py"]}
        }}
        """,
    "tools/tickets_server.py": (REPO / "examples" / "team-repo" / "tools" / "tickets_server.py").read_text(),
    "README.md": "# ACME\n",
    "notes/todo.md": "TODO: nothing\n",
}
EXPECTED_CASES = {
    "skill-greet", "skill-summarise", "skill-deploy", "skill-notes-helper", "agent-reader", "agent-helper",
    "hook-pretooluse-bash", "hook-posttooluse-write-edit", "hook-userpromptsubmit-all",
    "hook-sessionstart-startup", "hook-stop-all", "mcp-tickets",
}


def _digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.parts
    }


def _git(repo: Path) -> None:
    subprocess.run(["git", "init", "-q", str(repo)], check=True)


def _run_all(suite: Path, out: Path, *cases: str) -> list[results.Record]:
    selection = [arg for c in cases for arg in ("--case", c)]
    code = main(["run", "--suite", str(suite), "--engine", f"reference,claude@{VERSION}", "-j", "2",
                 "--results", str(out), *selection])
    records = results.read(out).records
    assert code == 0, "\n".join(r.explain() for r in records if r.status.is_bad)
    return records


@pytest.fixture(scope="module")
def fixture_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ensure_installed(VERSION)
    repo = tmp_path_factory.mktemp("init") / "acme"
    write_files(repo, FIXTURE)
    (repo / ".claude" / "hooks" / "log.sh").chmod(0o755)
    _git(repo)
    return repo


def test_init_writes_a_suite_that_passes_on_reference_and_the_pinned_claude(
    fixture_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", str(fixture_repo), "--pinned", VERSION]) == 0
    out = capsys.readouterr().out
    assert "wrote  cc-harness.toml  (suite configuration)" in out
    assert "no case: PreToolUse hook on 'mcp__tickets__.*': no harmless probe call" in out
    assert "no case: Notification hook: init scaffolds hooks on" in out
    cases = fixture_repo / "claude-cases"
    assert {p.name for p in cases.iterdir()} == EXPECTED_CASES
    for case in cases.iterdir():
        notes = yaml.safe_load((case / "case.yaml").read_text())["notes"]
        assert "What it checks:" in notes and "How to extend it:" in notes, case.name
    witness = yaml.safe_load((cases / "hook-pretooluse-bash" / "home" / ".claude" / "settings.json").read_text())
    assert witness["hooks"]["PreToolUse"][0]["matcher"] == "Bash"
    assert (fixture_repo / ".claude" / "settings.json").read_text() == SETTINGS  # the user's hooks as they are

    # init recorded each case's snapshot on both engines: a run judges them as pytest does (exit 1 on a difference)
    snapshots = fixture_repo / "snapshots"
    assert {p.stem for p in (snapshots / f"claude-{VERSION}").iterdir()} == EXPECTED_CASES
    assert "no snapshot yet" not in out
    # The repository's Notification hook is measured not to fire in print mode (hook_surface.QUIET_EVENTS): the
    # reference engine runs the cases instead of abstaining on the whole repository for it.
    skipped = [line for line in out.splitlines() if line.startswith("snapshot: ")]
    assert not any("Notification" in line for line in skipped), skipped
    records = _run_all(fixture_repo / "cc-harness.toml", tmp_path / "run.jsonl")
    assert "no snapshot yet" not in capsys.readouterr().out
    assert {r.engine.text() for r in records} == {"reference", f"claude@{VERSION}"}
    assert {(r.case, r.engine.text(), r.status.value) for r in records} == {
        (c, e, s) for c in EXPECTED_CASES for e, s in (("reference", "pass"), (f"claude@{VERSION}", "pass"))
    }
    hook_run = next(r for r in records if r.case == "hook-pretooluse-bash" and r.engine.family == "claude")
    assert hook_run.transcript is not None
    payloads = hook_run.transcript["files"][".cc-harness/hook-payloads.jsonl"]
    assert [(p["hook_event_name"], p["tool_name"]) for p in payloads] == [("PreToolUse", "Bash")]
    # the user's own hooks ran too: on the prompt, on Bash, and after the Write probe
    assert sorted(hook_run.transcript["files"]["hook.log"].split()) == ["post", "pre", "prompt"]


def test_running_init_again_changes_nothing_and_keeps_edited_cases(
    fixture_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not (fixture_repo / "cc-harness.toml").is_file():
        assert main(["init", str(fixture_repo), "--pinned", VERSION, "--no-snapshots"]) == 0
    edited = fixture_repo / "claude-cases" / "skill-greet" / "case.yaml"
    edited.write_text(edited.read_text().replace("The greet skill is loaded.", "Greeted."))
    (fixture_repo / "claude-cases" / "hook-stop-all" / "home" / ".claude" / "settings.json").unlink()
    before = _digest(fixture_repo)
    capsys.readouterr()
    assert main(["init", str(fixture_repo), "--pinned", VERSION, "--no-snapshots"]) == 0
    assert _digest(fixture_repo) == before
    out = capsys.readouterr().out
    assert "nothing to write: every definition already has its case" in out
    assert "kept   claude-cases/skill-greet  (exists: your version stays)" in out


def test_init_on_the_team_repository_adds_cases_that_pass_beside_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "acme-service"
    shutil.copytree(REPO / "examples" / "team-repo", repo, ignore=shutil.ignore_patterns("results", "__pycache__"))
    _git(repo)
    before = _digest(repo)
    assert main(["init", str(repo), "--no-snapshots"]) == 0  # the pinned version comes from its pyproject.toml
    out = capsys.readouterr().out
    assert "cc-harness.toml" not in out  # its [tool.cc-harness] table is the suite
    new = {"skill-release-notes", "agent-reviewer", "hook-pretooluse-bash", "mcp-tickets"}
    assert {p.name for p in (repo / "claude-cases").iterdir()} == {*new, *(p.split("/")[1] for p in before
                                                                           if p.startswith("claude-cases/"))}
    assert all(_digest(repo).get(p) == h for p, h in before.items()), "init changed a file of the team's"
    _run_all(repo / "pyproject.toml", tmp_path / "run.jsonl", *sorted(new))
    again = _digest(repo)
    assert main(["init", str(repo), "--no-snapshots"]) == 0 and _digest(repo) == again


def test_an_mcp_server_the_settings_rule_out_is_named_and_an_unapproved_one_is_tried(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Print mode starts a server of .mcp.json that no setting approves (mcp-json-unapproved-servers-*), so init
    treats it as any server; one the settings rule out gets a line saying so."""
    servers = {"tickets": {"command": "python3", "args": ["tools/tickets_server.py"]},
               "legacy": {"command": "python3", "args": ["tools/legacy_server.py"]}}
    write_files(tmp_path, {
        ".claude/settings.json": '{"disabledMcpjsonServers": ["legacy"]}\n',
        ".mcp.json": json.dumps({"mcpServers": servers}),
    })
    assert main(["init", str(tmp_path), "--pinned", VERSION, "--no-snapshots"]) == 0
    out = capsys.readouterr().out
    assert "no case: MCP server legacy: .mcp.json declares it but the settings rule it out" in out
    assert "no case: MCP server tickets: could not list its tools" in out  # tried: its script is not there


def test_cases_deeper_in_the_repository_still_copy_the_whole_repository(tmp_path: Path) -> None:
    write_files(tmp_path, {
        "pyproject.toml": '[tool.cc-harness]\ncases = "tests/claude"\npinned = ["2.1.332"]\n',
        ".claude/skills/greet/SKILL.md": FIXTURE[".claude/skills/greet/SKILL.md"],
    })
    assert main(["init", str(tmp_path), "--no-snapshots"]) == 0
    case = load_case(tmp_path / "tests" / "claude" / "skill-greet")
    assert case.project == tmp_path.resolve()


def test_init_needs_a_claude_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", str(tmp_path), "--pinned", VERSION]) == 2
    assert "no .claude/ folder here" in capsys.readouterr().err
    assert not os.listdir(tmp_path)
