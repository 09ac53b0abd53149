"""Cases about a team's own repository: ``project:`` takes the fixture from the repository that holds the
cases, ``home:`` lays out a user HOME. A run works in a private copy: the repository stays byte-identical,
also when the run writes through a symlink of the fixture, and a link that leaves the project is refused.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from harness.case import copy_fixture, load_case
from harness.engines import make_engine
from harness.outcome import Status
from harness.runner import run_case
from tests.conftest import EXPECTATIONS, PINNED, write_files

#: A hook that records every Bash command, a notes file reached through a link, and a shared .claude
#: folder that is itself a link (some teams keep it under config/).
REPO_FILES = {
    "config/claude/settings.json": """\
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
          {"type": "command", "command": "bash .claude/audit.sh"}
        ]}]}}
        """,
    "config/claude/audit.sh": 'cat >> "$CLAUDE_PROJECT_DIR/audit.log"; echo >> "$CLAUDE_PROJECT_DIR/audit.log"\n',
    "docs/notes.md": "first note\n",
    "README.md": "a team repository\n",
}
CASE = """\
id: {id}
title: the team's audit hook sees every Bash command, and a write through a link stays in the copy
project: ../..
run: {{permission_mode: bypass}}
steps:
  - prompt: Append a note with the Bash tool.
    turns:
      - call:
          name: Bash
          input: {{command: "echo second note >> notes/current.md && cat notes/current.md"}}
          expect: {{result: "first note\\nsecond note", is_error: false}}
      - say: Noted.
effects:
  - {{path: audit.log, content: {{contains: "echo second note >> notes/current.md"}}}}
  - {{path: docs/notes.md, content: "first note\\nsecond note\\n"}}
"""


def _digest(root: Path) -> dict[str, str]:
    """Every entry under ``root``: files by content and mode, links by target, folders by name."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                out[rel] = "-> " + os.readlink(path)
            elif path.is_file():
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest() + oct(path.stat().st_mode)
            else:
                out[rel + "/"] = "dir"
    return out


def _team_repo(root: Path, case_id: str) -> Path:
    write_files(root, REPO_FILES)
    (root / ".claude").symlink_to("config/claude")
    (root / "notes").mkdir()
    (root / "notes" / "current.md").symlink_to("../docs/notes.md")
    write_files(root, {f"claude-cases/{case_id}/case.yaml": CASE.format(id=case_id)})
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root / "claude-cases" / case_id


@pytest.mark.parametrize("engine", ["reference", "claude"])
def test_a_project_case_runs_in_a_copy_and_leaves_the_repository_byte_identical(
    engine: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    spec = "reference" if engine == "reference" else f"claude@{request.getfixturevalue('claude_version')}"
    directory = _team_repo(tmp_path / "team", "audit")
    before = _digest(tmp_path / "team")
    record = run_case(load_case(directory), make_engine(spec, default_version=PINNED[-1]), expectations=EXPECTATIONS)
    assert record.status is Status.PASS, record.explain()
    assert _digest(tmp_path / "team") == before
    assert record.transcript is not None
    # the write went through the copy's link into the copy's target
    assert sorted(record.transcript["files"]) == ["audit.log", "docs/notes.md"]


def test_a_link_out_of_the_project_is_refused_naming_it(tmp_path: Path) -> None:
    directory = _team_repo(tmp_path / "team", "audit")
    (tmp_path / "secret.txt").write_text("do not copy\n", encoding="utf-8")
    (tmp_path / "team" / "docs" / "leak.txt").symlink_to(tmp_path / "secret.txt")
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status is Status.CASE_ERROR and record.fault is not None
    assert f"{tmp_path / 'team' / 'docs' / 'leak.txt'}: (symlink): links outside the fixture" in record.fault.message


def test_ignored_files_and_other_cases_stay_out_of_the_copy(tmp_path: Path) -> None:
    directory = _team_repo(tmp_path / "team", "audit")
    write_files(tmp_path / "team", {".gitignore": "build/\n", "build/big.bin": "x" * 1000})
    write_files(tmp_path / "team", {"claude-cases/other/.claude/settings.json": "{}"})
    keep = tmp_path / "kept"
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS, keep=keep)
    assert record.status is Status.PASS, record.explain()
    work = keep / "reference" / "audit" / "work"
    assert (work / "README.md").is_file() and (work / ".claude" / "settings.json").is_file()
    assert not (work / "build").exists() and not (work / "claude-cases").exists()
    # links are made again inside the copy, pointing at the copy of their target
    for link, target in ((".claude", "config/claude"), ("notes/current.md", "docs/notes.md")):
        assert (work / link).is_symlink() and (work / link).resolve() == (work / target).resolve()


HOME_CASE = """\
id: {id}
title: a user-level skill is found next to the project's
home: home
run: {{permission_mode: bypass}}
steps:
  - prompt: Use the greet skill.
    turns:
      - call: {{name: Skill, input: {{skill: greet}}, expect: {{result: "Launching skill: greet"}}}}
      - offered: {{context: {{include: [USER-LEVEL-GREETING]}}}}
        say: USER-LEVEL-GREETING
effects:
  - {{path: home, exists: false}}
"""


@pytest.mark.parametrize("engine", ["reference", "claude"])
def test_a_home_folder_is_laid_into_the_runs_home_and_not_into_the_working_copy(
    engine: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    spec = "reference" if engine == "reference" else f"claude@{request.getfixturevalue('claude_version')}"
    root = tmp_path / "cases" / "user-skill"
    write_files(
        root,
        {
            "case.yaml": HOME_CASE.format(id="user-skill"),
            "home/.claude/skills/greet/SKILL.md": "---\ndescription: Greets.\n---\nSay USER-LEVEL-GREETING.\n",
            "home/.claude.json": '{"numStartups": 3}',
        },
    )
    record = run_case(load_case(root), make_engine(spec, default_version=PINNED[-1]), expectations=EXPECTATIONS)
    assert record.status is Status.PASS, record.explain()


def test_a_home_state_file_that_is_not_json_is_named_at_load(tmp_path: Path) -> None:
    root = tmp_path / "cases" / "bad-home"
    write_files(root, {"case.yaml": HOME_CASE.format(id="bad-home"), "home/.claude.json": "{nope"})
    with pytest.raises(Exception, match=r"bad-home/home/\.claude\.json: \(file\): not JSON"):
        load_case(root)


def _shared_home_repo(root: Path) -> Path:
    """Two cases of one repository sharing its HOME layout: one names it, one links to it."""
    write_files(
        root, {"home/.claude/skills/greet/SKILL.md": "---\ndescription: Greets.\n---\nSay USER-LEVEL-GREETING.\n"}
    )
    named = HOME_CASE.format(id="named").replace("home: home", "home: ../../home")
    write_files(root / "claude-cases", {"named/case.yaml": named, "linked/case.yaml": HOME_CASE.format(id="linked")})
    (root / "claude-cases" / "linked" / "home").symlink_to("../../home")
    return root / "claude-cases"


def test_cases_share_a_home_layout_of_their_repository(tmp_path: Path) -> None:
    """A symlink `home -> ../../home` was refused as 'not a folder inside the case' (it is, as a link)."""
    cases = _shared_home_repo(tmp_path / "team")
    for case in ("named", "linked"):
        record = run_case(load_case(cases / case), make_engine("reference"), expectations=EXPECTATIONS)
        assert record.status is Status.PASS, record.explain()
        work = tmp_path / f"work-{case}"
        copy_fixture(load_case(cases / case), work)
        assert not any(work.iterdir()), f"{case}: the HOME layout is not part of the working copy"
    # the user's own HOME, or any folder outside the repository, is still refused
    write_files(
        tmp_path / "team" / "claude-cases",
        {"outside/case.yaml": HOME_CASE.format(id="outside").replace("home: home", f"home: {tmp_path}")},
    )
    with pytest.raises(Exception, match=r"outside/case.yaml: home: .* outside the case .* and its repository"):
        load_case(tmp_path / "team" / "claude-cases" / "outside")


def test_a_link_from_the_case_into_its_repository_is_followed(tmp_path: Path) -> None:
    cases = _shared_home_repo(tmp_path / "team")
    write_files(
        tmp_path / "team",
        {"fixtures/shared/.claude/skills/greet/SKILL.md": "---\ndescription: Greets.\n---\nSay USER-LEVEL-GREETING.\n"},
    )
    case = cases / "linked"
    (case / "home").unlink()
    (case / "home").mkdir()
    (case / ".claude").symlink_to("../../fixtures/shared/.claude")
    record = run_case(load_case(case), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status is Status.PASS, record.explain()


LOCAL_CASE = """\
id: {id}
title: the local settings allow a command the project's settings leave to ask
project: ../..
{include}run: {{permission_mode: default}}
steps:
  - prompt: Run the probe.
    turns:
      - call: {{name: Bash, input: {{command: touch made.txt}}, expect: {{is_error: false}}}}
      - say: done
"""


def test_ignored_files_are_named_in_the_record_and_include_copies_them(tmp_path: Path) -> None:
    """A local-override case once failed with 'This command requires approval' and not a word about why."""
    root = tmp_path / "team"
    write_files(
        root,
        {
            ".gitignore": ".claude/settings.local.json\n.env\nresults/\n",
            ".claude/settings.json": "{}\n",
            ".claude/settings.local.json": '{"permissions": {"allow": ["Bash(touch made.txt)"]}}\n',
            ".env": "TOKEN=x\n",
            "results/run.jsonl": "{}\n",
            "claude-cases/plain/case.yaml": LOCAL_CASE.format(id="plain", include=""),
            "claude-cases/local/case.yaml": LOCAL_CASE.format(
                id="local", include="include: [.claude/settings.local.json]\n"
            ),
        },
    )
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    plain = run_case(load_case(root / "claude-cases" / "plain"), make_engine("reference"), expectations=EXPECTATIONS)
    assert plain.status is Status.FAIL
    note = next(n for n in plain.notes if n.startswith("left out of the working copy as git ignores them"))
    assert note.endswith(": .claude/settings.local.json, .env, results/")
    assert "left out of the working copy" in plain.explain()
    local = run_case(load_case(root / "claude-cases" / "local"), make_engine("reference"), expectations=EXPECTATIONS)
    assert local.status is Status.PASS, local.explain()
    assert any(n.endswith(": .env, results/") for n in local.notes)


def test_a_link_to_an_ignored_file_inside_the_project_brings_its_target(tmp_path: Path) -> None:
    """A link that stays inside the repository is followed even when git ignores what it points at: the copy
    once held the link and not its target (a link to nothing)."""
    root = tmp_path / "team"
    write_files(root, {".gitignore": "vendor/\n", ".claude/settings.json": "{}\n", "vendor/tool.md": "vendored\n",
                       "vendor/kit/a.md": "kit\n", "vendor/other.md": "not linked\n",
                       "claude-cases/audit/case.yaml": CASE.format(id="audit")})
    (root / ".claude" / "tool.md").symlink_to("../vendor/tool.md")
    (root / ".claude" / "kit").symlink_to("../vendor/kit")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    work = tmp_path / "work"
    copy_fixture(load_case(root / "claude-cases" / "audit"), work)
    assert (work / ".claude" / "tool.md").is_symlink() and (work / ".claude" / "tool.md").read_text() == "vendored\n"
    assert (work / ".claude" / "tool.md").resolve() == (work / "vendor" / "tool.md").resolve()
    assert (work / ".claude" / "kit" / "a.md").read_text() == "kit\n"
    assert not (work / "vendor" / "other.md").exists()  # what no link points at stays out
