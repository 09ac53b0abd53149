"""Permission rules: ``Tool`` or ``Tool(specifier)`` from settings lists and skills, and what each specifier form
binds (Bash patterns, Read/Edit paths, WebFetch domains, Skill and Agent names), as measured.

Which rule wins, and what the tool itself says when none decides, is permissions.py's.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from harness.refengine.errors import NotModelled
from harness.refengine.tool_model import ALIASES, skill_name


@dataclass(frozen=True, kw_only=True)
class Rule:
    """``Tool`` or ``Tool(specifier)`` from a settings list or a skill's ``allowed-tools``."""

    tool: str
    specifier: str | None = None

    @classmethod
    def parse(cls, text: str) -> Rule:
        m = re.fullmatch(r"\s*([^(\s]+)\s*(?:\((.*)\))?\s*", text)
        if m is None:
            return cls(tool=text.strip())
        specifier = m.group(2)
        return cls(tool=ALIASES.get(m.group(1), m.group(1)), specifier=None if specifier in (None, "*") else specifier)

    def covers_tool(self, tool: str) -> bool:
        if self.tool == tool:
            return True
        # ``mcp__server`` covers every tool of that server; ``mcp__server__*`` and ``mcp__server__rec*`` the
        # tools whose names start so (measured for allow rules: rule-mcp-star, rule-mcp-prefix).
        if self.tool.startswith("mcp__") and self.tool.endswith("*"):
            return tool.startswith(self.tool[:-1])
        if self.is_mcp_server:
            return tool.startswith(self.tool + "__")
        return False

    @property
    def is_mcp_server(self) -> bool:
        """The bare ``mcp__server`` form."""
        return self.tool.startswith("mcp__") and self.tool.count("__") == 1 and self.specifier is None

    def matches(self, tool: str, tool_input: Mapping[str, Any], *, workdir: Path) -> bool:
        if not self.covers_tool(tool):
            return False
        if tool.startswith("mcp__"):
            if self.specifier is not None:
                raise NotModelled(f"permission rule {self.text} for the MCP tool {tool} (MCP server and tool rules)")
            return True  # which lists a covering rule may sit in is checked by _check_modelled
        if self.specifier is None:
            return True
        if tool == "Bash":
            return bash_pattern_matches(self.specifier, str(tool_input.get("command", "")))
        if tool in ("Read", "Edit") and isinstance(tool_input.get("file_path"), str):
            path = Path(os.path.normpath(workdir / str(tool_input["file_path"])))
            return path_rule_matches(self.specifier, path, workdir=workdir)
        if tool == "WebFetch" and self.specifier.startswith("domain:"):
            return domain_matches(self.specifier.removeprefix("domain:"), str(tool_input.get("url", "")))
        if tool == "WebSearch":
            # Measured on 2.1.252 to 2.1.332 (rule-websearch-query): WebSearch(claude ai) in deny does not refuse a
            # search for exactly "claude ai"; a WebSearch rule with a specifier binds no call.
            return False
        if tool == "Skill":
            name = skill_name(tool_input)
            return name == self.specifier or (self.specifier.endswith(":*") and name == self.specifier[:-2])
        if tool == "Agent":
            return str(tool_input.get("subagent_type", "general-purpose")) == self.specifier
        # Path rules follow gitignore's globs with //abs, ~/ and settings-relative roots; WebFetch(domain:),
        # Tool(param:value): none is measured, and a wrong match answers allow or deny wrongly.
        raise NotModelled(f"permission rule {self.text} for {tool} (unmodelled permission rule form)")

    @property
    def text(self) -> str:
        return f"{self.tool}({self.specifier})" if self.specifier is not None else self.tool


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    allow: tuple[Rule, ...] = ()
    deny: tuple[Rule, ...] = ()
    ask: tuple[Rule, ...] = ()

    @classmethod
    def from_lists(cls, *, allow: Iterable[str], deny: Iterable[str], ask: Iterable[str]) -> RuleSet:
        return cls(allow=tuple(map(Rule.parse, allow)), deny=tuple(map(Rule.parse, deny)),
                   ask=tuple(map(Rule.parse, ask)))


def host_of(url: str) -> str | None:
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host or None


def domain_matches(pattern: str, url: str) -> bool:
    """``WebFetch(domain:H)`` and ``WebFetch(domain:*.H)`` against a URL's host. Measured on 2.1.252 to 2.1.332
    (rule-webfetch-domain, rule-webfetch-domain-wildcard): ``example.com`` binds example.com, ``*.example.com``
    binds docs.example.com and not 127.0.0.1. Whether ``example.com`` binds a subdomain, or ``*.example.com``
    the bare domain, is not measured."""
    host = host_of(url)
    if host is None:
        raise NotModelled(f"WebFetch(domain:{pattern}) against the URL {url!r} (no host)")
    base = pattern.removeprefix("*.").lower()
    if pattern.startswith("*."):
        if host.endswith("." + base):
            return True
    elif host == base:
        return True
    if host == base or host.endswith("." + base):
        raise NotModelled(f"WebFetch(domain:{pattern}) against the host {host} (unmeasured domain match)")
    return False


#: A path rule's measured shapes: a relative folder (``src/**``) or an absolute one (``//abs/**``), plain segments.
_PATH_RULE = re.compile(r"(//)?([\w.-]+(?:/[\w.-]+)*)/\*\*")


def path_rule_matches(specifier: str, path: Path, *, workdir: Path) -> bool:
    """A Read or Edit deny rule's path form against a call's absolute path. Measured on 2.1.252 to 2.1.332:
    ``src/**`` binds src/app.py and lib/src/util.py (the folder at any depth), not top.py; ``//x/shut/**`` binds
    /x/shut/a.txt, not /x/open/a.txt. ``/src/**`` (anchored; it leaves lib/src/util.py alone), ``~/`` rules, other
    globs, and a relative rule against a path outside the working copy are not modelled."""
    m = _PATH_RULE.fullmatch(specifier)
    if m is None:
        raise NotModelled(f"path rule {specifier} (unmodelled permission rule form)")
    folder = m.group(2).split("/")
    if m.group(1):
        return path.parts[1:len(folder) + 1] == tuple(folder) and len(path.parts) > len(folder) + 1
    if not path.is_relative_to(workdir):
        raise NotModelled(f"path rule {specifier} against {path}, outside the working copy")
    parts = path.relative_to(workdir).parts[:-1]  # the folders the file lies in
    return any(parts[i:i + len(folder)] == tuple(folder) for i in range(len(parts) - len(folder) + 1))



def bash_pattern_matches(pattern: str, command: str) -> bool:
    """``Bash(git:*)`` = ``Bash(git *)``; ``cmd *`` also matches the bare ``cmd`` (word boundary)."""
    if pattern.endswith(":*"):
        pattern = pattern[:-2] + " *"
    if pattern.endswith(" *") and command.strip() == pattern[:-2]:
        return True
    regex = ".*".join(re.escape(piece) for piece in pattern.split("*"))
    return re.fullmatch(regex, command.strip(), re.DOTALL) is not None
