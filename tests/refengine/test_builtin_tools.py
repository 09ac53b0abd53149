"""The built-in tools of tools.py on small real files: the answers measured on 2.1.252 to 2.1.332."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from harness.refengine.errors import NotModelled
from harness.refengine.notebook import run_notebook_edit
from harness.refengine.profiles import profile_for
from harness.refengine.search_tools import glob_matcher, run_glob, run_grep
from harness.refengine.tool_model import ToolEnvironment
from harness.refengine.tools import run_edit, run_read, run_write
from tests.conftest import write_files

NOTE = "(file state is current in your context \u2014 no need to Read it back)"


def env_for(workdir: Path, version: str = "2.1.332") -> ToolEnvironment:
    return ToolEnvironment(workdir=workdir, env={}, profile=profile_for(version))


def dated(root: Path, years: dict[str, int]) -> None:
    """Give each file its own modification time (both search tools sort by it)."""
    for name, year in years.items():
        stamp = (year - 1970) * 365 * 86400
        os.utime(root / name, (stamp, stamp))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_files(tmp_path, {
        "src/app.py": 'import os\n\n\ndef main():\n    # TODO: parse args\n    print("hello")\n',
        "src/util.py": 'def helper(x):\n    return x * 2\n\n\ndef other():\n    return "TODO later"\n',
        "docs/guide.md": "# Guide\n\nTODO: write the guide\n",
        ".config/tool.py": "TODO hidden\n",
    })
    dated(tmp_path, {"docs/guide.md": 2021, "src/app.py": 2022, ".config/tool.py": 2023, "src/util.py": 2024})
    return tmp_path


# -- Glob -------------------------------------------------------------------------------------------


def test_glob_lists_oldest_first_relative_to_the_working_directory(project: Path) -> None:
    result = run_glob({"pattern": "**/*.py"}, env_for(project))
    assert result.content == "src/app.py\n.config/tool.py\nsrc/util.py"
    assert result.is_error is None


def test_a_glob_without_a_slash_matches_names_at_any_depth_and_braces_work(project: Path) -> None:
    assert run_glob({"pattern": "*.py"}, env_for(project)).content == "src/app.py\n.config/tool.py\nsrc/util.py"
    assert run_glob({"pattern": "*.{md,py}", "path": "src"}, env_for(project)).content == "src/app.py\nsrc/util.py"
    assert glob_matcher("src/*.py")("src/app.py") and not glob_matcher("src/*.py")("src/deep/app.py")


def test_glob_without_matches_and_with_a_bad_path(project: Path) -> None:
    assert run_glob({"pattern": "**/*.rs"}, env_for(project)).content == "No files found"
    missing = run_glob({"pattern": "*", "path": "missing-dir"}, env_for(project))
    assert missing.is_error is True
    assert missing.content == \
        f"Directory does not exist: missing-dir. Note: your current working directory is {project}."
    old = run_glob({"pattern": "*", "path": "src/app.py"}, env_for(project, "2.1.257"))
    assert old.content == "<tool_use_error>Path is not a directory: src/app.py</tool_use_error>"


def test_glob_outside_the_working_copy_is_not_modelled(project: Path) -> None:
    with pytest.raises(NotModelled):
        run_glob({"pattern": "*", "path": ".."}, env_for(project))


# -- Grep -------------------------------------------------------------------------------------------


def test_grep_lists_files_newest_first(project: Path) -> None:
    result = run_grep({"pattern": "TODO"}, env_for(project))
    assert result.content == "Found 4 files\nsrc/util.py\n.config/tool.py\nsrc/app.py\ndocs/guide.md"
    assert run_grep({"pattern": "def", "type": "py"}, env_for(project)).content == \
        "Found 2 files\nsrc/util.py\nsrc/app.py"
    assert run_grep({"pattern": "todo", "-i": True, "glob": "*.md"}, env_for(project)).content == \
        "Found 1 file\ndocs/guide.md"


def test_grep_content_lines_name_the_file_unless_the_search_was_one_file(project: Path) -> None:
    env = env_for(project)
    assert run_grep({"pattern": "TODO", "glob": "*.md", "output_mode": "content"}, env).content == \
        "docs/guide.md:3:TODO: write the guide"
    assert run_grep({"pattern": "def", "path": "src/util.py", "output_mode": "content"}, env).content == \
        "1:def helper(x):\n5:def other():"
    assert run_grep({"pattern": "TODO", "glob": "*.md", "output_mode": "content", "-n": False}, env).content == \
        "docs/guide.md:TODO: write the guide"


def test_grep_context_lines_and_group_separators(project: Path) -> None:
    result = run_grep({"pattern": "return", "path": "src", "output_mode": "content", "-C": 1}, env_for(project))
    assert result.content == ('src/util.py-1-def helper(x):\nsrc/util.py:2:    return x * 2\nsrc/util.py-3-\n--\n'
                              'src/util.py-5-def other():\nsrc/util.py:6:    return "TODO later"')
    at_end = run_grep({"pattern": "TODO", "path": "docs/guide.md", "output_mode": "content", "context": 1},
                      env_for(project))
    assert at_end.content == "2-\n3:TODO: write the guide"


def test_grep_count_counts_lines_and_adds_a_total(project: Path) -> None:
    # Four lines of util.py hold an "e" (eight in all): ripgrep's --count counts lines.
    result = run_grep({"pattern": "e", "path": "src/util.py", "output_mode": "count"}, env_for(project))
    assert result.content == "src/util.py:4\n\nFound 4 total occurrences across 1 file."
    single = run_grep({"pattern": "import", "output_mode": "count"}, env_for(project))
    assert single.content == "src/app.py:1\n\nFound 1 total occurrence across 1 file."


def test_grep_empty_answers_differ_per_mode(project: Path) -> None:
    env = env_for(project)
    assert run_grep({"pattern": "zzz"}, env).content == "No files found"
    assert run_grep({"pattern": "zzz", "output_mode": "content"}, env).content == "No matches found"
    assert run_grep({"pattern": "zzz", "output_mode": "count"}, env).content == \
        "No matches found\n\nFound 0 total occurrences across 0 files."


def test_grep_missing_path_is_wrapped_up_to_2_1_257(project: Path) -> None:
    text = f"Path does not exist: nope. Note: your current working directory is {project}."
    assert run_grep({"pattern": "x", "path": "nope"}, env_for(project, "2.1.278")).content == text
    assert run_grep({"pattern": "x", "path": "nope"}, env_for(project, "2.1.257")).content == \
        f"<tool_use_error>{text}</tool_use_error>"


def test_grep_skips_binary_files(project: Path) -> None:
    (project / "blob.bin").write_bytes(b"TODO\0binary")
    assert "blob.bin" not in str(run_grep({"pattern": "TODO"}, env_for(project)).content)


@pytest.mark.parametrize("tool_input", [
    {"pattern": "[unclosed"},
    {"pattern": "x", "-A": 2},
    {"pattern": "x", "head_limit": 5},
    {"pattern": "x", "type": "js"},
])
def test_grep_without_a_measurement_is_not_modelled(project: Path, tool_input: dict[str, object]) -> None:
    with pytest.raises(NotModelled):
        run_grep(tool_input, env_for(project))


# -- Write, Edit, Read ----------------------------------------------------------------------------


def test_write_creates_with_directories_and_overwrites_unread_files(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("original\n")
    env = env_for(tmp_path)
    assert run_write({"file_path": "sub/dir/new.txt", "content": "x\n"}, env).content == \
        f"File created successfully at: sub/dir/new.txt {NOTE}"
    assert run_write({"file_path": "old.txt", "content": "replaced\n"}, env).content == \
        f"The file old.txt has been updated successfully. {NOTE}"
    assert (tmp_path / "sub/dir/new.txt").read_text() == "x\n" and (tmp_path / "old.txt").read_text() == "replaced\n"


def test_edit_refusals_in_the_engines_order(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("dup x\ndup y\n")
    env = env_for(tmp_path)

    def edit(**tool_input: object) -> str:
        result = run_edit({"file_path": "a.txt", **tool_input}, env)
        assert result.is_error is True
        return str(result.content)

    assert edit(old_string="dup", new_string="dup") == \
        "<tool_use_error>No changes to make: old_string and new_string are exactly the same.</tool_use_error>"
    assert edit(old_string="gone", new_string="x") == \
        "<tool_use_error>String to replace not found in file.\nString: gone</tool_use_error>"
    assert edit(old_string="dup", new_string="DUP").startswith(
        "<tool_use_error>Found 2 matches of the string to replace, but replace_all is false.")
    assert edit(old_string="", new_string="x") == \
        "<tool_use_error>Cannot create new file - file already exists.</tool_use_error>"
    missing = run_edit({"file_path": "none.txt", "old_string": "a", "new_string": "b"}, env)
    assert missing.content == \
        f"<tool_use_error>File does not exist. Note: your current working directory is {tmp_path}.</tool_use_error>"
    assert (tmp_path / "a.txt").read_text() == "dup x\ndup y\n"


def test_edit_note_needs_the_whole_file_on_2_1_332_only(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\nthree\n")
    new, old = env_for(tmp_path), env_for(tmp_path, "2.1.278")
    assert run_edit({"file_path": "a.txt", "old_string": "one", "new_string": "ONE"}, new).content == \
        "The file a.txt has been updated successfully."
    assert run_edit({"file_path": "a.txt", "old_string": "ONE", "new_string": "one"}, old).content == \
        f"The file a.txt has been updated successfully. {NOTE}"
    run_read({"file_path": "a.txt", "limit": 1}, new)  # a partial view does not count
    assert NOTE not in str(run_edit({"file_path": "a.txt", "old_string": "one", "new_string": "1"}, new).content)
    run_read({"file_path": "a.txt"}, new)
    assert run_edit({"file_path": "a.txt", "old_string": "t", "new_string": "T", "replace_all": True}, new).content \
        == f"The file a.txt has been updated. All occurrences were successfully replaced. {NOTE}"
    assert (tmp_path / "a.txt").read_text() == "1\nTwo\nThree\n"


def test_edit_with_an_empty_old_string_creates_a_missing_file(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    assert run_edit({"file_path": "made.txt", "old_string": "", "new_string": "made\n"}, env).content == \
        f"The file made.txt has been updated successfully. {NOTE}"
    assert run_edit({"file_path": "made.txt", "old_string": "made", "new_string": "MADE"}, env).content == \
        f"The file made.txt has been updated successfully. {NOTE}"
    assert (tmp_path / "made.txt").read_text() == "MADE\n"


# -- NotebookEdit ----------------------------------------------------------------------------------


def notebook(tmp_path: Path, **extra: object) -> Path:
    cells = [
        {"cell_type": "code", "execution_count": None, "id": "cell-a", "metadata": {}, "outputs": [],
         "source": ["print(1)"], **extra},
        {"cell_type": "markdown", "id": "cell-b", "metadata": {}, "source": ["# Notes"]},
    ]
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1))
    return path


def test_notebook_edit_checks_the_extension_and_insert_type_before_the_read(tmp_path: Path) -> None:
    notebook(tmp_path)
    (tmp_path / "plain.txt").write_text("text\n")
    env = env_for(tmp_path)
    assert str(run_notebook_edit({"notebook_path": "plain.txt", "new_source": "x"}, env).content).startswith(
        "<tool_use_error>File must be a Jupyter notebook (.ipynb file).")
    assert run_notebook_edit({"notebook_path": "nb.ipynb", "new_source": "x", "edit_mode": "insert"}, env).content == \
        "<tool_use_error>Cell type is required when using edit_mode=insert.</tool_use_error>"
    for path in ("nb.ipynb", "missing.ipynb"):
        assert run_notebook_edit({"notebook_path": path, "cell_id": "cell-a", "new_source": "x"}, env).content == \
            "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"


def test_read_shows_cells_and_notebook_edit_rewrites_the_file(tmp_path: Path) -> None:
    path = notebook(tmp_path)
    env = env_for(tmp_path)
    assert run_read({"file_path": "nb.ipynb"}, env).content == (
        '<cell id="cell-a">print(1)</cell id="cell-a">\n'
        '<cell id="cell-b"><cell_type>markdown</cell_type># Notes</cell id="cell-b">')
    edit = {"notebook_path": "nb.ipynb", "cell_id": "cell-a", "new_source": "done", "cell_type": "markdown"}
    assert run_notebook_edit(edit, env).content == "Updated cell cell-a with done"
    assert run_notebook_edit({"notebook_path": "nb.ipynb", "cell_id": "cell-b", "new_source": "",
                              "edit_mode": "delete"}, env).content == "Deleted cell cell-b"
    assert run_notebook_edit({"notebook_path": "nb.ipynb", "cell_id": "zz", "new_source": "x"}, env).content == \
        '<tool_use_error>Cell with ID "zz" not found in notebook.</tool_use_error>'
    with pytest.raises(NotModelled, match="insert"):  # the new cell's id is random: no case can measure it
        run_notebook_edit({"notebook_path": "nb.ipynb", "new_source": "first", "cell_type": "code",
                           "edit_mode": "insert"}, env)
    text = path.read_text()
    assert text.endswith("}\n")  # 2.1.332 ends the file with a newline
    cells = json.loads(text)["cells"]
    assert cells == [{"cell_type": "markdown", "id": "cell-a", "metadata": {}, "source": "done"}]


def test_before_2_1_332_a_retyped_cell_keeps_its_code_fields(tmp_path: Path) -> None:
    path = notebook(tmp_path)
    env = env_for(tmp_path, "2.1.278")
    run_read({"file_path": "nb.ipynb"}, env)
    run_notebook_edit({"notebook_path": "nb.ipynb", "cell_id": "cell-a", "new_source": "m", "cell_type": "markdown"},
                      env)
    text = path.read_text()
    assert not text.endswith("\n")
    assert json.loads(text)["cells"][0] == {"cell_type": "markdown", "execution_count": None, "id": "cell-a",
                                            "metadata": {}, "outputs": [], "source": "m"}


def test_a_notebook_with_outputs_is_not_modelled(tmp_path: Path) -> None:
    notebook(tmp_path, outputs=[{"output_type": "stream", "name": "stdout", "text": ["1\n"]}])
    with pytest.raises(NotModelled):
        run_read({"file_path": "nb.ipynb"}, env_for(tmp_path))
