"""``cc-harness check FAMILY@V``: the engine a check names, the npm package ``latest`` is asked of, and the
baseline of an agent other than claude (its own newest version with committed snapshots)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from harness import baseline
from harness.cli import main
from harness.commands.check import target
from harness.engine_name import EngineName
from harness.engines import families, registry
from harness.errors import UsageError


def test_a_version_alone_is_claude_and_family_at_version_is_that_family() -> None:
    assert target("2.1.332") == EngineName.claude("2.1.332")
    assert target("claude@2.1.332") == EngineName.claude("2.1.332")
    assert target("qwen@0.24.4") == EngineName("qwen", "0.24.4")
    assert target("codex@0.171.0") == EngineName("codex", "0.171.0")


def test_family_at_latest_asks_npm_for_that_familys_package(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def latest_of(package: str) -> str:
        asked.append(package)
        return "9.8.7"

    monkeypatch.setattr(registry, "latest_of", latest_of)
    assert target("qwen@latest") == EngineName("qwen", "9.8.7")
    assert target("opencode@latest") == EngineName("opencode", "9.8.7")
    assert asked == ["@qwen-code/qwen-code", "opencode-ai"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("reference@2.1.332", "reference is not installed from npm"),
        ("sdk@0.1.0", "sdk is not installed from npm"),
        ("qwen@not-a-version", "not a version number: 'not-a-version'"),
        ("qwenn@0.24.4", "did you mean qwen@0.24.4?"),
    ],
)
def test_what_check_cannot_run_is_a_one_line_usage_error(text: str, said: str) -> None:
    with pytest.raises(UsageError, match=said.replace("?", r"\?").replace("(", r"\(")):
        target(text)


def test_check_of_an_unknown_family_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "reference@2.1.332", "--case", "tool-tool-no-call"]) == 2
    assert "not installed from npm" in capsys.readouterr().err


@pytest.mark.parametrize(("family", "module"), [("sdk-ts", "sdk_ts"), ("qwen", "qwen"), ("opencode", "opencode"),
                                                ("codex", "codex")])
def test_each_agent_family_names_the_package_its_adapter_installs(family: str, module: str) -> None:
    adapter = importlib.import_module(f"harness.engines.{module}")
    assert families.family_of(EngineName(family, "1.0.0")).package == adapter.PACKAGE


def test_an_agents_baseline_is_its_own_newest_version_with_snapshots(tmp_path: Path) -> None:
    for folder in ("qwen-0.24.4", "qwen-0.25.0", "claude-2.1.332"):
        (tmp_path / folder).mkdir()
    (tmp_path / "qwen-0.24.4" / "a.json").write_text("{}", encoding="utf-8")
    (tmp_path / "claude-2.1.332" / "a.json").write_text("{}", encoding="utf-8")
    pinned = ["0.24.4", "0.25.0"]
    # 0.25.0 has no snapshot: the newest qwen with one is 0.24.4, never a claude version
    assert baseline.chosen_version("0.26.0", against=None, pinned=pinned, snapshot_root=tmp_path, family="qwen") == (
        "0.24.4"
    )
    assert baseline.chosen_version("0.24.4", against=None, pinned=[], snapshot_root=tmp_path, family="qwen") == (
        "0.24.4"
    )
    assert baseline.newest_pinned(["2.1.332"], snapshot_root=tmp_path, family="qwen") is None
