"""Scripted answers to permission prompts (a case's ``approvals``) for the real engine in print mode.

``claude -p`` asks no one: an ``ask`` is a refusal unless ``--permission-prompt-tool`` names an MCP tool
to ask instead. The harness passes its own (approvals_server.py, started through ``--mcp-config``), which
answers each prompt with the case's next answer and logs the prompt, so a run records what the user
was asked and what they answered.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import approvals_server
from harness.case import Case
from harness.engine_name import EngineName
from harness.errors import NotObservable

#: The server's name in the engine's MCP configuration; its tool is offered as ``mcp__<server>__<tool>``.
_SERVER = "ccharness_approvals"
TOOL = f"mcp__{_SERVER}__{approvals_server.TOOL}"


@dataclass(frozen=True)
class ApprovalsTool:
    """The permission prompt tool of one run: its files in the run's TMPDIR."""

    answers: Path
    log: Path
    config: Path

    @classmethod
    def for_case(cls, case: Case, tmp: Path) -> ApprovalsTool | None:
        """The tool for ``case`` (None when it scripts no approvals), its files written under ``tmp``."""
        if case.approvals is None:
            return None
        folder = tmp / "cc-harness-approvals"
        folder.mkdir(parents=True, exist_ok=True)
        tool = cls(folder / "answers.json", folder / "asked.jsonl", folder / "mcp.json")
        tool.answers.write_text(json.dumps([a.as_json() for a in case.approvals]), encoding="utf-8")
        args = [approvals_server.__file__, str(tool.answers), str(tool.log)]
        server = {"type": "stdio", "command": sys.executable, "args": args}
        tool.config.write_text(json.dumps({"mcpServers": {_SERVER: server}}), encoding="utf-8")
        return tool

    def argv(self) -> list[str]:
        return ["--mcp-config", str(self.config), "--permission-prompt-tool", TOOL]

    def asked(self) -> tuple[dict[str, Any], ...]:
        """The prompts the engine showed, in order: ``{"tool", "input", "answer"}`` (answer: the index of the
        scripted answer given, None when the script had none left)."""
        if not self.log.exists():
            return ()
        return tuple(json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines() if line.strip())


def not_scripted(case: Case, engine: EngineName) -> list[str]:
    """Why ``case`` cannot run on an adapter that does not answer prompts yet (the Agent SDKs ask their
    permission callback, which the harness does not script) or serves no planned faults: a case with
    ``approvals`` or ``run.api_faults``. Empty when it can run. Known before any run, so the reports' agents
    grid counts such a case as not-modelled without running it (reporting/recorded.py)."""
    reasons = []
    if case.run.api_faults:
        reasons.append(f"{case.case_file}: run.api_faults: {engine} serves no planned API faults")
    if case.approvals is not None:
        reasons.append(
            f"{case.case_file}: approvals: {engine} asks the SDK's permission callback, which cc-harness does not"
            " script yet; the case's answers reach only claude -p (--permission-prompt-tool)"
        )
    return reasons


def not_scripted_here(case: Case, engine: EngineName) -> None:
    """Raise NotObservable, with the first of ``not_scripted``'s reasons, for a case this adapter cannot run."""
    if reasons := not_scripted(case, engine):
        raise NotObservable(reasons[0], phase="run")
