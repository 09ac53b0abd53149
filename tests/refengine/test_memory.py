"""Memory as the reference engine models it: the opening block and a folder's CLAUDE.md, in the words each
release uses (measured on 2.1.252 to 2.1.332; the cases memory-opening-block and memory-nested-folder)."""

from __future__ import annotations

import datetime
from pathlib import Path

from harness.refengine import memory
from harness.refengine.profiles import profile_for
from tests.conftest import write_files

INTRO = ("Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These "
         "instructions OVERRIDE any default behavior and you MUST follow them exactly as written.")


def _fixture(tmp_path: Path) -> tuple[Path, Path]:
    work, home = tmp_path / "work", tmp_path / "home"
    write_files(home, {".claude/CLAUDE.md": "User: U.\n"})
    write_files(work, {"CLAUDE.md": "Project: P.\nSee @docs/a.md\n", "docs/a.md": "Imported: I.\n",
                       ".claude/rules/team.md": "Rule: R.\n", "CLAUDE.local.md": "Local: L.\n",
                       ".claude/rules/scoped.md": "---\npaths:\n  - src/**\n---\nScoped: S.\n",
                       "sub/CLAUDE.md": "Nested: N.\n", "sub/x.txt": "x\n", "sub/y.txt": "y\n", "src/a.py": "1\n"})
    return work, home


def test_the_opening_block_lists_the_files_in_the_measured_order(tmp_path: Path) -> None:
    work, home = _fixture(tmp_path)
    model = memory.load(work, home)
    assert model.problem is None
    sections = [
        f"Contents of {home}/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nUser: U.",
        f"Contents of {work}/CLAUDE.md (project instructions, checked into the codebase):\n\n"
        "Project: P.\nSee @docs/a.md",
        f"Contents of {work}/docs/a.md (project instructions, checked into the codebase):\n\nImported: I.",
        f"Contents of {work}/.claude/rules/team.md (project instructions, checked into the codebase):\n\nRule: R.",
        f"Contents of {work}/CLAUDE.local.md (user's private project instructions, not checked in):\n\nLocal: L.",
    ]
    body = INTRO + "\n\n" + "\n\n".join(sections)
    assert memory.opening_block(model.opening, profile_for("2.1.332"))["text"] == \
        f"<system-reminder>\n{body}\n</system-reminder>"
    old = memory.opening_block(model.opening, profile_for("2.1.252"))["text"]
    today = datetime.date.today().isoformat()
    assert old == ("<system-reminder>\nAs you answer the user's questions, you can use the following context:\n"
                   f"# claudeMd\n{body}\n# currentDate\nToday's date is {today}.\n\n      IMPORTANT: this context "
                   "may or may not be relevant to your tasks. You should not respond to this context unless it is "
                   "highly relevant to your task.\n</system-reminder>\n\n")
    assert memory.opening_block(model.opening, profile_for("2.1.267"))["text"] == old
    assert memory.opening_block(model.opening, profile_for("2.1.268"))["text"] != old


def test_a_folder_claude_md_and_a_scoped_rule_load_once_on_the_first_read_they_cover(tmp_path: Path) -> None:
    work, home = _fixture(tmp_path)
    model = memory.load(work, home)
    loaded: set[Path] = set()
    assert [f.text for f in memory.on_read(model, loaded, work / "sub" / "x.txt", work)] == ["Nested: N."]
    assert memory.on_read(model, loaded, work / "sub" / "y.txt", work) == []
    assert memory.on_read(model, loaded, work / "docs" / "a.md", work) == []
    (rule,) = memory.on_read(model, loaded, work / "src" / "a.py", work)
    assert rule.text == "Scoped: S."  # the frontmatter left out
    assert memory.deferred_text(rule, profile_for("2.1.332")) == \
        f"<system-reminder>\nContents of {work}/.claude/rules/scoped.md:\n\nScoped: S.\n\n</system-reminder>"
    assert memory.deferred_text(rule, profile_for("2.1.306")) == \
        f"Contents of {work}/.claude/rules/scoped.md:\n\nScoped: S.\n\n"
    assert memory.deferred_text(rule, profile_for("2.1.307")).startswith("<system-reminder>")


def test_no_memory_files_is_no_memory(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    assert not memory.load(tmp_path / "work", tmp_path / "home").present


def test_a_folder_s_own_rules_load_under_it_and_scope_from_it(tmp_path: Path) -> None:
    # measured on 2.1.252 to 2.1.332 (memory-nested-rules)
    work, home = tmp_path / "work", tmp_path / "home"
    write_files(work, {"sub/.claude/rules/n.md": "Nested rule: A.\n",
                       "sub/.claude/rules/s.md": "---\npaths:\n  - lib/**\n---\nNested scoped: S.\n",
                       "lib/b.py": "1\n", "sub/x.txt": "x\n", "sub/lib/a.py": "2\n"})
    model = memory.load(work, home)
    assert model.problem is None and model.opening == ()
    loaded: set[Path] = set()
    assert memory.on_read(model, loaded, work / "lib" / "b.py", work) == []
    assert [f.text for f in memory.on_read(model, loaded, work / "sub" / "x.txt", work)] == ["Nested rule: A."]
    assert [f.text for f in memory.on_read(model, loaded, work / "sub" / "lib" / "a.py", work)] == ["Nested scoped: S."]


def test_an_import_in_an_unscoped_rule_stays_text(tmp_path: Path) -> None:
    # measured on 2.1.252 to 2.1.332 (memory-rules-import)
    work, home = tmp_path / "work", tmp_path / "home"
    write_files(work, {".claude/rules/team.md": "Team: T.\nSee @docs/x.md\n", "docs/x.md": "X\n"})
    model = memory.load(work, home)
    assert [f.text for f in model.opening] == ["Team: T.\nSee @docs/x.md"]
