"""NotebookEdit, and Read of a notebook: Jupyter notebooks as the measured versions edit and show them."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from harness.refengine import tool_messages
from harness.refengine.errors import NotModelled
from harness.refengine.profiles import Profile
from harness.refengine.tool_model import ToolEnvironment, ToolResult, resolve, tool_error


def _load_notebook(path: Path) -> dict[str, Any]:
    """A notebook the measurement covers: nbformat 4.5 or later (cells have ids), a python kernel."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        raise NotModelled("notebook that is not JSON") from None
    notebook: dict[str, Any] = loaded if isinstance(loaded, dict) else {}
    cells = notebook.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, dict) and isinstance(c.get("id"), str) for c in cells):
        raise NotModelled("notebook whose cells have no ids (nbformat before 4.5)")
    language = (notebook.get("metadata", {}).get("kernelspec") or {}).get("language", "python")
    if language != "python":
        raise NotModelled(f"notebook with a {language} kernel")
    return notebook


def _source(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def read_notebook(path: Path, tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """Cells as ``<cell id="x">source</cell id="x">``, markdown ones tagged (measured, no outputs)."""
    if tool_input.get("offset") or tool_input.get("limit"):
        raise NotModelled("Read of a notebook with offset or limit")
    notebook = _load_notebook(path)
    if any(cell.get("outputs") or cell.get("attachments") for cell in notebook["cells"]):
        raise NotModelled("Read of a notebook cell with outputs or attachments")
    env.known.add(path)
    text = "\n".join(tool_messages.notebook_cell_view(c["id"], str(c.get("cell_type", "code")), _source(c))
                     for c in notebook["cells"])
    return ToolResult(content=text, response={"type": "notebook", "file": {"filePath": tool_input["file_path"],
                                                                             "cells": notebook["cells"]}})


def input_refusal(path: Path, tool_input: Mapping[str, Any], known: Collection[Path]) -> str | None:
    """The input validation's refusal, in the engine's order (measured): a path not ending in .ipynb, an insert
    without a cell_type, then a notebook not in ``known`` (the files the context read), a missing one too. It
    answers before PreToolUse hooks and the permission check (notebook_rules.py)."""
    if path.suffix != ".ipynb":
        return tool_messages.NOTEBOOK_ONLY
    if tool_input.get("edit_mode") == "insert" and tool_input.get("cell_type") is None:
        return tool_messages.NOTEBOOK_INSERT_NEEDS_TYPE
    if path not in known or not path.is_file():
        return tool_messages.FILE_NOT_READ
    return None


def run_notebook_edit(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """replace (default), insert after ``cell_id`` (first without one) or delete; checks in the engine's
    order, measured: the extension, insert's cell_type, then an earlier Read (also for a missing file)."""
    given = tool_input["notebook_path"]
    path = resolve(given, workdir=env.workdir)
    mode = str(tool_input.get("edit_mode") or "replace")
    cell_type = tool_input.get("cell_type")
    if (refusal := input_refusal(path, tool_input, env.known)) is not None:
        return tool_error(refusal)
    if mode not in ("replace", "insert", "delete") or cell_type not in (None, "code", "markdown"):
        raise NotModelled(f"NotebookEdit edit_mode {mode} / cell_type {cell_type}")
    notebook = _load_notebook(path)
    cells: list[dict[str, Any]] = notebook["cells"]
    cell_id = tool_input.get("cell_id")
    index = next((i for i, c in enumerate(cells) if c["id"] == cell_id), None)
    if cell_id is not None and index is None:
        if re.fullmatch(r"cell-\d+", str(cell_id)):
            raise NotModelled("NotebookEdit cell_id of the form cell-N (an index) that names no cell")
        return tool_error(tool_messages.notebook_cell_not_found(str(cell_id)))
    source = tool_input["new_source"]
    if mode == "delete" and index is not None:
        del cells[index]
        text = tool_messages.notebook_deleted(str(cell_id))
    elif mode == "insert":
        # The new cell's id is random on every run (eight hex digits), so no case's snapshot can hold the
        # answer that names it: without a measurement on every pinned version, the insert is not modelled.
        raise NotModelled("a NotebookEdit insert (the new cell's id is random; no case measures the answer)")
    elif index is not None:
        _replace_cell(cells[index], source, cell_type, env.profile)
        text = tool_messages.notebook_updated(str(cell_id), source)
    else:
        raise NotModelled(f"NotebookEdit {mode} without a cell_id")
    ending = "\n" if env.profile.notebook_trailing_newline else ""
    # JSON.stringify(notebook, null, 1): one-space indent, non-ASCII kept (measured layout).
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + ending, encoding="utf-8")
    return ToolResult(content=text, response={"new_source": source, "cell_id": cell_id, "edit_mode": mode,
                                              "notebook_path": str(path), "language": "python"})


def _replace_cell(cell: dict[str, Any], source: str, cell_type: Any, profile: Profile) -> None:
    """The source becomes one string, in place; a code cell retyped markdown loses its code fields on 2.1.332
    and keeps them before (measured)."""
    if cell.get("outputs"):
        raise NotModelled("NotebookEdit of a code cell with outputs")
    if cell_type is not None and cell_type != cell.get("cell_type"):
        if cell_type == "code":
            raise NotModelled("NotebookEdit turning a markdown cell into code")
        cell["cell_type"] = cell_type
        if profile.notebook_retype_drops_code_fields:
            cell.pop("execution_count", None)
            cell.pop("outputs", None)
    cell["source"] = source
