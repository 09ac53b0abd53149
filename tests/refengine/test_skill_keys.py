"""The plugin-manifest keys, fallback and background in a skill's frontmatter (skill_keys.py): modelled as
changing nothing only in the value forms and settings measured (skill-key-manifest-*, 2.1.252 to 2.1.332)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.refengine.config import load_project
from tests.conftest import write_files


def _unmodelled(tmp_path: Path, frontmatter: str, extra: dict[str, str] | None = None) -> tuple[str, ...]:
    work, home = tmp_path / "work", tmp_path / "home"
    home.mkdir(parents=True)
    skill = f"---\nname: x\ndescription: X.\n{frontmatter}---\nBody.\n"
    write_files(work, {".claude/skills/x/SKILL.md": skill, **(extra or {})})
    return load_project(workdir=work, home=home, trusted=True).unmodelled


@pytest.mark.parametrize("frontmatter", [
    "keywords: [explore]\n", "outputStyles: EXPLORE\n", "themes: []\n", "dependencies: []\n",
    "fallback: EXPLORE\n", "fallback: true\n", "mcpServers: {}\n", "experimental: {}\n", "background: true\n",
    "context: fork\nbackground: true\n", "context: fork\nbackground: 'true'\n",
    "author: EXPLORE\nhomepage: EXPLORE\nrepository: EXPLORE\ndefaultEnabled: false\n",
])
def test_measured_forms_change_nothing(tmp_path: Path, frontmatter: str) -> None:
    assert _unmodelled(tmp_path, frontmatter) == ()


@pytest.mark.parametrize(("frontmatter", "reason"), [
    ("mcpServers: {srv: {command: x}}\n", "mcpServers"),
    ("agents: [reviewer]\n", "agents"),
    ("themes: {dark: {}}\n", "themes"),
    ("keywords: [[a]]\n", "keywords"),
    ("context: fork\nbackground: false\n", "background: False on a context: fork skill"),
    ("context: fork\nbackground: 1\n", "background: 1 on a context: fork skill"),
    ("frobnicate: true\n", "frontmatter key frobnicate"),
])
def test_unmeasured_forms_are_not_modelled(tmp_path: Path, frontmatter: str, reason: str) -> None:
    problems = _unmodelled(tmp_path, frontmatter)
    assert any(reason in p for p in problems), problems


def test_fallback_beside_an_mcp_server_is_not_modelled(tmp_path: Path) -> None:
    server = {"command": "python3", "args": ["server.py"]}
    extra = {".mcp.json": json.dumps({"mcpServers": {"marker": server}}),
             ".claude/settings.json": json.dumps({"enabledMcpjsonServers": ["marker"]})}
    assert _unmodelled(tmp_path / "a", "keywords: [a]\n", extra) == ()
    problems = _unmodelled(tmp_path / "b", "fallback: true\n", extra)
    assert any("fallback beside an MCP server" in p for p in problems), problems
