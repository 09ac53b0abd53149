"""One agent's tool names, translated at the fake Messages API, so that a case keeps Claude Code's names.

A case scripts ``Bash{command}``; Qwen Code offers ``run_shell_command{command}``, and its file tools take
absolute paths only where Claude Code's also take one relative to the working folder. The translation sits between
the fake API and the scripted model: each request the agent sends is rewritten into Claude Code's names (the
tools it offers, the tool calls in its history) before the scripted model sees it, and each scripted call is
rewritten into the agent's names before the agent gets it. The scripted model, the transcript and every check
stay in one vocabulary; a tool the table does not name passes through as the agent calls it (a tool only that
agent has shows under its own name, which a case's ``offered.tools`` check then reports).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.case import Case
from harness.engines.fakeapi import Responder
from harness.model_request import ModelRequest


@dataclass(frozen=True)
class Vocabulary:
    """Claude Code's tool name -> the agent's, and the input keys that differ between the two."""

    tools: Mapping[str, str]
    #: Claude Code's tool name -> {its input key: the agent's} for the keys the agent names otherwise
    #: (opencode's ``read{filePath}`` for ``Read{file_path}``); keys not named pass as they are.
    keys: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: Input keys holding a path that the agent takes absolute only: a scripted relative path is made
    #: absolute under the working folder (what a model would write for that agent's schema).
    absolute: frozenset[str] = frozenset()
    _back: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        back: dict[str, str] = {}
        for claude, agent in self.tools.items():
            back.setdefault(agent, claude)  # Agent and Task both map to one tool: the first named wins back
        object.__setattr__(self, "_back", back)

    def agent_name(self, claude: str) -> str:
        return self.tools.get(claude, claude)

    def claude_name(self, agent: str) -> str:
        return self._back.get(agent, agent)

    def knows(self, claude: str) -> bool:
        return claude in self.tools


    def wrap(self, respond: Responder, *, workdir: Path) -> Responder:
        """``respond`` spoken in the agent's names on the API side, Claude Code's on the model side."""

        def translated(request: ModelRequest) -> list[dict[str, Any]]:
            blocks = respond(self.to_claude(request))
            return [self._for_agent(block, workdir) for block in blocks]

        return translated

    def _for_agent(self, block: dict[str, Any], workdir: Path) -> dict[str, Any]:
        if block.get("type") != "tool_use":
            return block
        given = block.get("input")
        tool_input = dict(given) if isinstance(given, dict) else given
        if isinstance(tool_input, dict):
            for key in self.absolute & tool_input.keys():
                value = tool_input[key]
                if isinstance(value, str) and value and not value.startswith("/"):
                    tool_input[key] = str(workdir / value)
        claude = str(block.get("name", ""))
        if isinstance(tool_input, dict):
            tool_input = _renamed(tool_input, self.keys.get(claude, {}))
        return {**block, "name": self.agent_name(claude), "input": tool_input}

    def to_claude(self, request: ModelRequest) -> ModelRequest:
        messages = tuple(
            {**m, "content": [self._in_claude_terms(b) for b in m["content"]]}
            if m.get("role") == "assistant" and isinstance(m.get("content"), list)
            else m
            for m in request.messages
        )
        tools = tuple(self.claude_name(name) for name in request.tools)
        return ModelRequest(system=request.system, messages=messages, tools=tools, model=request.model)

    def _in_claude_terms(self, block: dict[str, Any]) -> dict[str, Any]:
        """A tool call of the agent's history in Claude Code's name and input keys."""
        if block.get("type") != "tool_use":
            return block
        claude = self.claude_name(str(block.get("name", "")))
        given = block.get("input")
        back = {agent: key for key, agent in self.keys.get(claude, {}).items()}
        tool_input = _renamed(given, back) if isinstance(given, dict) else given
        return {**block, "name": claude, "input": tool_input}


def _renamed(tool_input: dict[str, Any], keys: Mapping[str, str]) -> dict[str, Any]:
    return {keys.get(k, k): v for k, v in tool_input.items()}


def scripted_calls(case: Case) -> set[str]:
    """The tools a case's scripted model calls, in every step and context (Claude Code's names)."""
    turns = [t for step in case.steps for t in step.turns] + [t for ctx in case.contexts for t in ctx.turns]
    return {t.call.name for t in turns if t.call is not None}
