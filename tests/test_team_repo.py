"""A team's repository, end to end, from a normal install: the way a user meets cc-harness.

A wheel of this checkout is built and installed (not editable) into a fresh virtual environment; the
example team repository (``examples/team-repo``) is copied to a temporary folder and made a git work
tree; there, plain ``pytest -n 2`` runs its cases on the reference engine and its pinned claude
version, and ``cc-harness run``, ``check`` and ``report`` succeed. The team's files and the
environment's site-packages are byte-identical afterwards: every run works in private copies.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO

#: one worker builds the environment for the whole module under ``pytest -n``
pytestmark = pytest.mark.xdist_group("test_team_repo")

EXAMPLE = REPO / "examples" / "team-repo"


def _digest(root: Path) -> dict[str, str]:
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
        for name in dirs:
            out[str((Path(folder) / name).relative_to(root)) + "/"] = "dir"
    return out


def _checkout_copy(dest: Path) -> Path:
    """The files of this checkout as git sees them (committed or not), without .git or build output."""
    names = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in filter(None, names):
        source = REPO / os.fsdecode(raw)
        if source.is_file():
            target = dest / os.fsdecode(raw)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return dest


#: The release tag the test build is made from: the version cc-harness reports comes from it, nowhere else.
TAG = "v9.8.7"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with cc-harness installed from a release build; its bin folder.

    The build is what the release workflow does on a tag: this checkout committed and tagged in a copy,
    ``python -m build`` (sdist, then the wheel from the sdist), ``twine check --strict`` on both."""
    root = tmp_path_factory.mktemp("install")
    source = _checkout_copy(root / "source")
    git = ["git", "-C", str(source), "-c", "user.name=release", "-c", "user.email=release@example.invalid"]
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "release"], ["tag", TAG]):
        subprocess.run([*git, *argv], check=True, capture_output=True)
    dist = root / "dist"
    subprocess.run([sys.executable, "-m", "build", "-o", str(dist), str(source)], check=True, capture_output=True)
    built = sorted(dist.iterdir())
    twine = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, built)], capture_output=True, text=True
    )
    assert twine.returncode == 0, twine.stdout + twine.stderr
    [wheel] = dist.glob(f"cc_harness-{TAG[1:]}-py3-none-any.whl")
    assert (dist / f"cc_harness-{TAG[1:]}.tar.gz").is_file(), built
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
    pip = root / "venv" / "bin" / "pip"
    subprocess.run([str(pip), "install", "-q", str(wheel)], check=True, capture_output=True)
    return root / "venv" / "bin"


@pytest.fixture
def team(tmp_path: Path) -> Path:
    repo = tmp_path / "acme-service"
    shutil.copytree(EXAMPLE, repo, ignore=shutil.ignore_patterns("results", "__pycache__", ".pytest_cache"))
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo


def _run(bin_dir: Path, argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTHON"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    # pytest caches rewritten plugin modules as .pyc in site-packages; that is pytest's, not ours
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False)


def test_the_installed_package_is_not_this_checkout(installed: Path, tmp_path: Path) -> None:
    where = _run(installed, ["python", "-c", "import harness; print(harness.__file__)"], cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert "site-packages" in where.stdout and str(REPO) not in where.stdout
    version = _run(installed, ["cc-harness", "--version"], cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"cc-harness {TAG[1:]}", "the version does not come from the git tag"


def test_a_team_repo_runs_its_cases_with_pytest_run_check_and_report(
    installed: Path, team: Path, tmp_path: Path
) -> None:
    site = next((installed.parent / "lib").glob("python3*/site-packages"))
    before_repo, before_site = _digest(team), _digest(site)
    out = tmp_path / "out"

    tests = _run(installed, ["pytest", "-n", "2", "-p", "no:cacheprovider", "-q"], cwd=team)
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]
    assert "8 passed" in tests.stdout and "8 snapshots passed" in tests.stdout

    run = _run(installed, ["cc-harness", "run", "--results", str(out / "run.jsonl")], cwd=team)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "8 runs: 8 pass" in run.stdout

    check = _run(installed, ["cc-harness", "check", "2.1.332", "--results", str(out / "check.jsonl")], cwd=team)
    assert check.returncode == 0, check.stdout[-4000:] + check.stderr[-2000:]
    assert "4 cases compared: 0 changed" in check.stdout

    paths = ["--markdown", str(out / "r.md"), "--html", str(out / "r.html"), "--junit", str(out / "j.xml")]
    report = _run(installed, ["cc-harness", "report", "--results", str(out / "run.jsonl"), *paths], cwd=team)
    assert report.returncode == 0, report.stderr
    assert "| reference | 4 | 0 | 0 |" in (out / "r.md").read_text(encoding="utf-8")

    assert _digest(team) == before_repo, "a run wrote into the team's repository"
    assert _digest(site) == before_site, "a run wrote into site-packages"


# --- The GitHub Action (action.yml), its steps run here the way the runner would run them -------------------

ACTION = REPO / "action.yml"
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _evaluate(expression: str, context: dict[str, Any]) -> Any:
    """The expression forms action.yml uses; anything else fails the test, so the action cannot outgrow it."""
    if "&&" in expression:
        return all(_evaluate(part.strip(), context) for part in expression.split("&&"))
    if expression == "always()":
        return True
    if "==" in expression:
        left, right = (side.strip() for side in expression.split("=="))
        return _evaluate(left, context) == right.strip("'")
    head, _, rest = expression.partition(".")
    if head in ("inputs", "github"):
        return context[head][rest]
    if head == "steps":
        step, _, output = rest.partition(".outputs.")
        return context["steps"].get(step, {}).get(output, "")
    raise AssertionError(f"action.yml uses an expression the local runner does not know: {expression}")


def _fill(text: str, context: dict[str, Any]) -> str:
    return _EXPRESSION.sub(lambda m: str(_evaluate(m.group(1), context)), text)


def _run_action(
    inputs: dict[str, str], *, bin_dir: Path, workspace: Path, scratch: Path
) -> tuple[list[tuple[str, subprocess.CompletedProcess[str]]], Path]:
    """Each ``run:`` step of action.yml in order, as bash -eo pipefail with the runner's files; ``uses:`` steps
    are the runner's (setup-python, cache, upload) and stand for themselves here. Returns the steps run and
    the job summary file."""
    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    given = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    assert set(inputs) <= set(given), f"unknown inputs {set(inputs) - set(given)}"
    context: dict[str, Any] = {"inputs": given | inputs, "github": {"action_path": str(REPO)}, "steps": {}}
    summary = scratch / "step-summary.md"
    summary.write_text("", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTHON", "GITHUB_"))}
    env |= {"PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", "PYTHONDONTWRITEBYTECODE": "1"}
    env |= {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_WORKSPACE": str(workspace)}
    ran: list[tuple[str, subprocess.CompletedProcess[str]]] = []
    failed = False
    for index, step in enumerate(action["runs"]["steps"]):
        condition = step.get("if")
        if not (_evaluate(condition, context) if condition else not failed) or "uses" in step:
            continue
        assert "${{" not in step["run"], f"step {index}: an expression inside a script can inject shell code"
        outputs = scratch / f"output-{index}"
        outputs.write_text("", encoding="utf-8")
        step_env = env | {k: _fill(str(v), context) for k, v in step.get("env", {}).items()}
        step_env["GITHUB_OUTPUT"] = str(outputs)
        cwd = workspace / _fill(step.get("working-directory", "."), context)
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=cwd,
            env=step_env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        ran.append((step.get("name", step.get("id", str(index))), done))
        failed = failed or done.returncode != 0
        if "id" in step:
            pairs = (line.split("=", 1) for line in outputs.read_text(encoding="utf-8").splitlines() if "=" in line)
            context["steps"][step["id"]] = dict(pairs)
    return ran, summary


def test_the_action_runs_a_team_suite_writes_its_summary_and_annotates_the_failing_case(
    installed: Path, team: Path, tmp_path: Path
) -> None:
    # One of the team's cases documents something its setup does not do: the action must say so, on that file.
    case = team / "claude-cases" / "audit-hook" / "case.yaml"
    case.write_text(
        case.read_text(encoding="utf-8").replace("expect: {result: build ok,", "expect: {result: <b>build</b> ok?,")
    )
    [wheel] = installed.parent.parent.glob("dist/*.whl")
    ran, summary = _run_action({"cc-harness": str(wheel)}, bin_dir=installed, workspace=team, scratch=tmp_path)
    names = [name for name, _ in ran]
    assert names == [
        "Install cc-harness",
        "The engine cache key",
        "Run the cases",
        "Reports, job summary and annotations",
        "The verdict",
    ], names
    by_name = dict(ran)
    assert by_name["Install cc-harness"].stdout.strip().endswith(f"cc-harness {TAG[1:]}")
    assert by_name["The engine cache key"].returncode == 0
    report = by_name["Reports, job summary and annotations"]
    assert report.returncode == 0, report.stdout[-3000:] + report.stderr[-3000:]
    assert by_name["The verdict"].returncode == 1, "a failing case must fail the step"

    annotations = [line for line in report.stdout.splitlines() if line.startswith("::")]
    assert len(annotations) == 2, report.stdout  # the broken case, on each of the suite's two engines
    for engine in ("reference", "claude@2.1.332"):
        [line] = [a for a in annotations if f"title=audit-hook on {engine}%3A fail::" in a]
        assert line.startswith("::error file=claude-cases/audit-hook/case.yaml,"), line
        assert "<b>build</b> ok?" in line  # the annotation is plain text; the runner shows it as such

    text = summary.read_text(encoding="utf-8")
    assert "| reference | " in text and "| claude@2.1.332 | " in text
    assert "### Not a pass" in text and "`audit-hook`" in text
    assert "<b>" not in text and "&lt;b&gt;build&lt;/b&gt; ok?" in text  # the summary is rendered: no raw HTML
    results = team / "cc-harness-results"
    assert {p.name for p in results.iterdir()} >= {"run.jsonl", "report.md", "report.html", "junit.xml"}
