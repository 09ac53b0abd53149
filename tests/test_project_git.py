"""The working copy of a git repository is a git repository: one commit of the copied files, the same id
on every copy, git's ignore rules as in the team's repository, and ``.git/`` never among the run's files.
A team's skill with a ``!`git status``` line failed in every project case ("not a git repository")."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from harness import workfiles
from harness.case import copy_fixture, load_case
from harness.case.workgit import BRANCH, MESSAGE
from harness.engines import make_engine
from harness.outcome import Status
from harness.refengine.errors import NotModelled
from harness.refengine.profiles import profile_for
from harness.refengine.search_tools import run_glob, run_grep
from harness.refengine.tool_model import ToolEnvironment
from harness.runner import run_case
from tests.conftest import EXPECTATIONS, PINNED, write_files

CASE = """\
id: status
title: git status runs in the working copy of a git repository
project: ../..
run: {permission_mode: bypass}
steps:
  - prompt: Show the status.
    turns:
      - call:
          name: Bash
          input: {command: "echo y > new.txt && echo x > run.log && git status --short && git log --format=%an -1"}
          expect: {result: "?? new.txt\\ncc-harness", is_error: false}
      - say: One new file.
"""


def _repo(root: Path, *, git: bool = True) -> Path:
    write_files(root, {"README.md": "team\n", ".gitignore": "*.log\n", ".claude/settings.json": "{}\n",
                       "claude-cases/status/case.yaml": CASE})
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root / "claude-cases" / "status"


def _git(work: Path, *argv: str) -> str:
    return subprocess.run(["git", *argv], cwd=work, capture_output=True, text=True, check=True).stdout.strip()


def test_a_copy_of_a_git_project_is_a_repository_with_one_fixed_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = load_case(_repo(tmp_path / "team"))
    # the user's own git settings do not reach the copy's commit
    user_config = tmp_path / "gitconfig"
    user_config.write_text("[init]\n\tdefaultBranch = trunk\n[commit]\n\tgpgsign = true\n", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user_config))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Somebody Else")
    first, second = tmp_path / "one", tmp_path / "two"
    assert copy_fixture(case, first) == ()
    copy_fixture(case, second)
    assert _git(first, "rev-parse", "HEAD") == _git(second, "rev-parse", "HEAD")
    assert _git(first, "log", "--format=%an %ae %ad %s", "--date=iso") == (
        f"cc-harness cc-harness@localhost 2000-01-01 00:00:00 +0000 {MESSAGE}"
    )
    assert _git(first, "branch", "--show-current") == BRANCH
    assert _git(first, "status", "--porcelain") == ""
    assert _git(first, "ls-files").split("\n") == [".claude/settings.json", ".gitignore", "README.md"]
    assert not (first / ".git" / "hooks").exists()  # no template: the same .git/ whatever git is installed


def test_a_copy_of_a_folder_outside_git_is_no_repository(tmp_path: Path) -> None:
    case = load_case(_repo(tmp_path / "team", git=False))
    copy_fixture(case, tmp_path / "work")
    assert (tmp_path / "work" / "README.md").is_file()
    assert not (tmp_path / "work" / ".git").exists()


def test_git_runs_in_the_copy_and_its_folder_is_not_among_the_runs_files(tmp_path: Path) -> None:
    directory = _repo(tmp_path / "team")
    record = run_case(load_case(directory), make_engine("reference", default_version=PINNED[-1]),
                      expectations=EXPECTATIONS)
    assert record.status is Status.PASS, record.explain()
    assert record.transcript is not None
    assert sorted(record.transcript["files"]) == ["new.txt", "run.log"]


def test_the_snapshot_leaves_out_only_the_top_folder_it_is_told(tmp_path: Path) -> None:
    write_files(tmp_path, {".git/HEAD": "ref\n", "sub/.git/HEAD": "ref\n", "a.txt": "a\n"})
    assert sorted(workfiles.snapshot(tmp_path, skip=".git")) == ["a.txt", "sub/.git/HEAD"]
    assert sorted(workfiles.snapshot(tmp_path)) == [".git/HEAD", "a.txt", "sub/.git/HEAD"]


def _search_env(tmp_path: Path) -> ToolEnvironment:
    work, home = tmp_path / "work", tmp_path / "home"
    write_files(work, {"src/a.txt": "NEEDLE\n"})
    home.mkdir()
    subprocess.run(["git", "init", "-q", "--template=", str(work)], check=True)
    (work / ".git" / "NOTE").write_text("NEEDLE in git's folder\n", encoding="utf-8")
    return ToolEnvironment(workdir=work, env={"HOME": str(home)}, profile=profile_for(PINNED[-1]))


def test_reference_grep_leaves_the_git_folder_out_and_glob_lists_it(tmp_path: Path) -> None:
    """As measured on every pin (cases/project-copy-search-git-folder)."""
    env = _search_env(tmp_path)
    assert run_grep({"pattern": "NEEDLE"}, env).content == "Found 1 file\nsrc/a.txt"
    assert run_glob({"pattern": "**/NOTE"}, env).content == ".git/NOTE"


@pytest.mark.parametrize(
    "extra",
    [".gitignore", "work/.git/info/exclude", "home/.gitconfig", "work/sub/.git/HEAD"],
)
def test_reference_search_with_ignore_patterns_it_never_measured_is_not_modelled(tmp_path: Path, extra: str) -> None:
    env = _search_env(tmp_path)
    target = tmp_path / (extra if "/" in extra else f"work/{extra}")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("*.txt\n", encoding="utf-8")
    with pytest.raises(NotModelled):
        run_grep({"pattern": "NEEDLE"}, env)
    with pytest.raises(NotModelled):
        run_grep({"pattern": "NEEDLE", "path": ".git"}, _search_env(tmp_path / "again"))
