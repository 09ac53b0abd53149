"""``cc-harness init`` covers the whole setup: plugins (in the repository or ``--plugin-dir``), hooks of
``settings.local.json`` as a case-local layer, a ``no case:`` line for each part it leaves out, each hook
case checking only what its own hook does, ``results/`` in ``.gitignore``, a pinned version it picks
and names, and the snapshots pytest needs. Reference-engine runs only (the real engine's part is in
test_init.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from harness import scaffold, snapshots
from harness.case import load_case
from harness.cli import main
from harness.engine_name import EngineName
from harness.engines import cache, make_engine
from harness.engines.cache import Install
from harness.expectations import Expectations
from harness.outcome import Status
from harness.refengine import messages
from harness.runner import run_case
from tests.conftest import write_files

SUITE = '[tool.cc-harness]\ncases = "claude-cases"\nengines = ["reference"]\npinned = ["2.1.332"]\n'
SKILL = """\
---
name: {name}
description: Writes an {name}. Use when asked for one.
---

Write a short {name} with a title and next steps.
"""
SETTINGS = """{
  "permissions": {
    "allow": ["Bash(npm test:*)", "mcp__tickets__*"],
    "ask": ["Bash(git commit:*)", "Read(docs/**)"],
    "deny": ["Bash(git push:*)", "WebFetch(domain:example.com)", "WebFetch(domain:*.internal.example)",
             "Read(secrets/**)", "Edit(//etc/cc-harness-locked/**)", "Write(*.lock)", "mcp__billing"]
  },
  "hooks": {
    "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "bash .claude/hooks/start.sh"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "bash .claude/hooks/stop.sh"}]}]
  }
}
"""
LOCAL = (
    '{"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command",'
    ' "command": "echo local >> \\"$CLAUDE_PROJECT_DIR/local-hook.log\\""}]}]}}'
)


def _repo(root: Path, *, suite: str = SUITE) -> Path:
    write_files(
        root,
        {
            "pyproject.toml": suite,
            ".claude/settings.json": SETTINGS,
            ".claude/settings.local.json": LOCAL,
            ".claude/hooks/start.sh": "mkdir -p .claude/logs && echo started >> .claude/logs/session.log\n",
            ".claude/hooks/stop.sh": "mkdir -p .claude/logs && echo stopped >> .claude/logs/stop.log\n",
            "plugins/fleet-ops/.claude-plugin/plugin.json": '{"name": "fleet-ops"}\n',
            "plugins/fleet-ops/skills/incident-note/SKILL.md": SKILL.format(name="incident-note"),
            ".gitignore": ".claude/settings.local.json\n.env\n",
            ".env": "TOKEN=do-not-copy\n",
        },
    )
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def _reference(case_dir: Path) -> Status:
    with_nothing = Expectations(root=case_dir / "no-expectations")
    return run_case(load_case(case_dir), make_engine("reference@2.1.332"), expectations=with_nothing).status


def test_a_hook_case_checks_only_what_its_own_hook_writes(tmp_path: Path) -> None:
    """The SessionStart case once checked .claude/logs/stop.log, a file the Stop hook writes."""
    repo = _repo(tmp_path / "repo")
    assert main(["init", str(repo), "--no-snapshots"]) == 0
    cases = repo / "claude-cases"

    def marks(case: str) -> list[str]:
        effects = yaml.safe_load((cases / case / "case.yaml").read_text())["effects"]
        return [e["path"] for e in effects if not e["path"].startswith(".cc-harness/")]

    assert marks("hook-sessionstart-startup") == [".claude/logs/session.log"]
    assert marks("hook-stop-all") == [".claude/logs/stop.log"]


def test_plugins_local_settings_and_left_out_parts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path / "repo")
    outside = tmp_path / "elsewhere" / "standup-kit"
    write_files(
        outside,
        {
            ".claude-plugin/plugin.json": '{"name": "standup-kit"}\n',
            "skills/standup/SKILL.md": SKILL.format(name="standup"),
        },
    )
    assert main(["init", str(repo), "--no-snapshots", "--plugin-dir", str(outside)]) == 0
    out = capsys.readouterr().out
    cases = repo / "claude-cases"
    # a plugin of the repository, loaded from where it is; one from elsewhere, copied into its case
    inside = yaml.safe_load((cases / "plugin-fleet-ops" / "case.yaml").read_text())
    assert inside["run"]["flags"] == {"plugin_dirs": ["plugins/fleet-ops"]}
    assert (cases / "plugin-standup-kit" / "plugins" / "standup-kit" / "skills" / "standup" / "SKILL.md").is_file()
    for case in ("plugin-fleet-ops", "plugin-standup-kit"):
        assert _reference(cases / case) is Status.PASS, case
    # the git-ignored local settings: a copy in the case, and the notes say so
    local_case = cases / "hook-local-posttooluse-write"
    assert (local_case / ".claude" / "settings.local.json").read_text() == LOCAL
    assert "Case-local layer" in yaml.safe_load((local_case / "case.yaml").read_text())["notes"]
    # every part left out has its line, with the reason
    assert "no case: permission rule allow Bash(npm test:*): init writes no allow case: the call the rule lets" in out
    assert "no case: permission rule allow mcp__tickets__*: init writes no allow case" in out
    # a Read ask rule's probe, in bypass mode, is not measured: the line says so rather than naming the forms
    assert "no case: permission rule ask Read(docs/**): the reference engine cannot decide Read of docs/" in out
    assert "no case: permission rule deny Write(*.lock): init writes deny cases for Bash rules" in out
    assert "no case: permission rule deny mcp__billing: an MCP rule's case needs the server's tool names" in out
    # a deny or ask rule of a modelled form: a case whose call the rule refuses, passing as written
    in_denied_folder = messages.path_denied()
    written = {
        "rule-deny-git-push": ("Bash", "Permission to use Bash with command git push has been denied."),
        "rule-ask-git-commit": ("Bash", "Claude requested permissions to use Bash, but you haven't granted it yet."),
        "rule-deny-webfetch-example-com": ("WebFetch", "WebFetch denied access to domain:example.com."),
        "rule-deny-webfetch-internal-example": (
            "WebFetch", "WebFetch denied access to domain:cc-harness-probe.internal.example."),
        "rule-deny-read-secrets": ("Read", in_denied_folder),
        "rule-deny-edit-etc-cc-harness-locked": ("Edit", in_denied_folder),
    }
    for name, (tool, result) in written.items():
        case = yaml.safe_load((cases / name / "case.yaml").read_text())
        call = case["steps"][0]["turns"][0]["call"]
        assert (call["name"], call["expect"]) == (tool, {"result": result, "is_error": True}), name
        # every form init writes a case for is measured (an Edit under an absolute //path deny rule: rule_paths.py)
        assert _reference(cases / name) is Status.PASS, name
    assert not [line for line in out.splitlines() if "no case: permission rule deny Bash(git push" in line]
    assert sorted(p.name for p in cases.glob("rule-*")) == sorted(written)
    assert "no case: .env: secrets stay out of cases" in out
    assert "do-not-copy" not in "".join(p.read_text() for p in cases.rglob("*") if p.is_file())
    # results/ is ignored from now on; running init again adds nothing
    assert (repo / ".gitignore").read_text() == ".claude/settings.local.json\n.env\nresults/\n"
    assert main(["init", str(repo), "--no-snapshots"]) == 0
    assert (repo / ".gitignore").read_text().count("results/") == 1


def test_the_pinned_version_defaults_to_the_claude_on_path_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "bin" / "claude"
    write_files(tmp_path / "bin", {"claude": "#!/bin/sh\necho '2.1.257 (Claude Code)'\n"})
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    assert scaffold.default_pinned() == ("2.1.257", f"the version of {fake}")
    fake.unlink()
    cached = [Install(version=v, path=tmp_path, bytes=0, last_used=0.0, pinned=False) for v in ("2.1.252", "2.1.278")]
    monkeypatch.setattr(cache, "installs", lambda: cached)
    version, where = scaffold.default_pinned()
    assert version == "2.1.278" and "newest version in the engine cache" in where


def test_init_records_the_snapshots_pytest_needs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`pytest -n 2` right after init once failed every case with 'no snapshot yet'."""
    repo = tmp_path / "repo"
    write_files(repo, {"pyproject.toml": SUITE, ".claude/skills/greet/SKILL.md": SKILL.format(name="greeting")})
    assert main(["init", str(repo)]) == 0
    assert "pinned claude 2.1.332: the newest pinned version of" in capsys.readouterr().out
    saved = snapshots.read(repo / "snapshots", EngineName("reference"), "skill-greet")
    assert saved is not None and saved["exchanges"]
    argv = ["run", "--suite", str(repo / "pyproject.toml"), "--results", str(tmp_path / "r.jsonl")]
    assert main(argv) == 0
    assert "no snapshot yet" not in capsys.readouterr().out


def test_home_copies_only_skills_and_agents_into_a_shared_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    write_files(repo, {"pyproject.toml": SUITE, ".claude/settings.json": "{}\n"})
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    user = tmp_path / "me" / ".claude"
    write_files(
        user,
        {
            "skills/standup/SKILL.md": SKILL.format(name="standup"),
            "agents/scribe.md": "---\nname: scribe\ndescription: Takes notes.\ntools: Read\n---\n\nYou take notes.\n",
            ".credentials.json": '{"token": "do-not-copy"}',
            "projects/x/session.jsonl": "{}\n",
            "settings.json": "{}\n",
        },
    )
    assert main(["init", str(repo), "--no-snapshots", "--home", str(user)]) == 0
    out = capsys.readouterr().out
    cases = repo / "claude-cases"
    assert sorted(p.relative_to(cases / "home").as_posix() for p in (cases / "home").rglob("*") if p.is_file()) == [
        ".claude/agents/scribe.md",
        ".claude/skills/standup/SKILL.md",
    ]
    for name in (".credentials.json", "projects", "settings.json"):
        assert f"no case: ~/.claude/{name}: not copied" in out
    for case in ("user-skill-standup", "user-agent-scribe"):
        assert yaml.safe_load((cases / case / "case.yaml").read_text())["home"] == "../home"
        assert _reference(cases / case) is Status.PASS, case


def test_a_skills_frontmatter_hook_gets_a_no_case_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = tmp_path / "repo"
    hook = "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - {type: command, command: 'true'}\n"
    hooked = SKILL.format(name="release-notes").replace("---\n\n", hook + "---\n\n")
    write_files(repo, {"pyproject.toml": SUITE, ".claude/skills/release-notes/SKILL.md": hooked})
    assert main(["init", str(repo), "--no-snapshots"]) == 0
    out = capsys.readouterr().out
    assert "no case: skill release-notes: its frontmatter PreToolUse hook: the skill's case loads the skill" in out
    assert (repo / "claude-cases" / "skill-release-notes" / "case.yaml").is_file()


def test_a_rule_left_out_because_of_another_says_which(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Read(secrets/**) deny rule, a form init writes cases for, was once left out with the reason 'init writes
    deny cases for ... Read/Edit rules for a folder': the reference engine could not decide its probe because of
    an unmodelled rule beside it, and the line did not say so."""
    repo = tmp_path / "repo"
    settings = '{"permissions": {"deny": ["Read(./src/*.py)", "Read(secrets/**)"]}}\n'
    write_files(repo, {"pyproject.toml": SUITE, ".claude/settings.json": settings})
    assert main(["init", str(repo), "--no-snapshots"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "permission rule deny Read(secrets/**)" in line]
    assert len(lines) == 1 and "init writes deny cases for" not in lines[0]
    why = "cannot decide Read of secrets/cc-harness-probe.txt with these rules (not modelled: path rule ./src/*.py"
    assert why in lines[0]


def test_a_dot_slash_name_rule_leaves_the_other_rules_their_cases(tmp_path: Path) -> None:
    """One Read(./.env) deny rule once took every Write/Edit probe (and the Read(secrets/**) rule's case) out of the
    reference engine's reach; ./name is measured now (cases/rule-read-dot-slash-name-deny)."""
    repo = tmp_path / "repo"
    settings = '{"permissions": {"deny": ["Read(./.env)", "Read(secrets/**)"]}}\n'
    write_files(repo, {"pyproject.toml": SUITE, ".claude/settings.json": settings})
    assert main(["init", str(repo), "--no-snapshots"]) == 0
    assert _reference(repo / "claude-cases" / "rule-deny-read-secrets") is Status.PASS


def test_a_bash_rule_beside_a_pretooluse_hook_on_bash_checks_the_refusal_only(tmp_path: Path) -> None:
    """A team's guard hook on Bash refused `git push --force` with its own message before the deny rule
    Bash(git push --force:*) did (claude 2.1.332), and init's case expected the rule's message: it failed on claude
    right after init. A Read folder rule is read before any hook, so its case keeps the engine's message."""
    repo = tmp_path / "repo"
    hook = {"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .claude/hooks/guard.py"}]}
    settings = {"permissions": {"deny": ["Bash(git push --force:*)", "Read(secrets/**)"]},
                "hooks": {"PreToolUse": [hook]}}
    write_files(repo, {"pyproject.toml": SUITE, ".claude/settings.json": json.dumps(settings),
                       ".claude/hooks/guard.py": "import sys\nsys.exit(0)\n"})
    assert main(["init", str(repo), "--no-snapshots"]) == 0
    cases = repo / "claude-cases"
    bash = yaml.safe_load((cases / "rule-deny-git-push-force" / "case.yaml").read_text())
    assert bash["steps"][0]["turns"][0]["call"]["expect"] == {"is_error": True}
    assert "may refuse the call first with its own message" in bash["notes"]
    read = yaml.safe_load((cases / "rule-deny-read-secrets" / "case.yaml").read_text())
    assert read["steps"][0]["turns"][0]["call"]["expect"] == {"result": messages.path_denied(), "is_error": True}
    # without the hook, the Bash rule's case names the engine's message
    plain = tmp_path / "plain"
    write_files(plain, {"pyproject.toml": SUITE,
                        ".claude/settings.json": json.dumps({"permissions": settings["permissions"]})})
    assert main(["init", str(plain), "--no-snapshots"]) == 0
    bash = yaml.safe_load((plain / "claude-cases" / "rule-deny-git-push-force" / "case.yaml").read_text())
    assert bash["steps"][0]["turns"][0]["call"]["expect"]["result"] == messages.bash_denied_by_rule("git push --force")


def test_memory_rules_and_nested_claude_folders_get_no_case_lines(tmp_path: Path) -> None:
    """A monorepo's CLAUDE.md with @ imports, its .claude/rules/ and a package's own .claude/ were passed over
    without a word."""
    from harness.scaffold.setup_parts import memory_parts

    repo = tmp_path / "mono"
    write_files(
        repo,
        {
            "CLAUDE.md": "# Shop\n@docs/conventions.md\nRun make test.\n",
            ".claude/rules/api.md": "API errors carry a code.\n",
            "packages/api/.claude/skills/api-docs/SKILL.md": SKILL.format(name="api-docs"),
            "node_modules/x/.claude/settings.json": "{}\n",
        },
    )
    lines = memory_parts(repo, cases=repo / "claude-cases")
    assert lines[0].startswith("CLAUDE.md (and the files it imports: docs/conventions.md): init writes no case")
    assert lines[1].startswith(".claude/rules (.claude/rules/api.md): init writes no case for rule files")
    assert lines[2].startswith("packages/api/.claude: a .claude/ folder below the repository's root")
    assert len(lines) == 3  # node_modules is not searched


def test_an_mcp_server_that_cannot_start_says_why(tmp_path: Path) -> None:
    """A server whose python lacked the mcp package was left out as 'could not list its tools' with nothing of
    what the server printed."""
    from harness.refengine.config_model import McpServerDef
    from harness.scaffold.casefile import Report
    from harness.scaffold.definitions import mcp_case

    script = "import sys; sys.stderr.write('ModuleNotFoundError: No module named mcp\\n'); sys.exit(1)"
    server = McpServerDef(name="dispatch", command="python3", args=("-c", script), env={})
    report = Report()
    assert mcp_case(server, root=tmp_path, report=report) is None
    [line] = report.skipped
    assert line.startswith("MCP server dispatch: could not list its tools (")
    assert "its stderr ends: ModuleNotFoundError: No module named mcp" in line


def test_an_agents_model_key_gets_a_no_case_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An agent's model: haiku was passed over: its case does not check the request's model, and nothing said so."""
    repo = tmp_path / "repo"
    agent = "---\nname: tester\ndescription: Runs tests.\ntools: Bash, Read\nmodel: haiku\n---\nRun the tests.\n"
    write_files(repo, {"pyproject.toml": SUITE, ".claude/agents/tester.md": agent})
    assert main(["init", str(repo), "--no-snapshots"]) == 0
    out = capsys.readouterr().out
    assert "no case: agent tester: its model: haiku: the agent's case does not check it" in out
    assert "offered: {model: {contains: haiku}}" in out
    assert _reference(repo / "claude-cases" / "agent-tester") is Status.PASS
