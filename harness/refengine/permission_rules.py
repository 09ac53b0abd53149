"""Permission rules: ``Tool`` or ``Tool(specifier)`` from settings lists and skills, and what each specifier form
binds (Bash patterns, Read/Edit paths, WebFetch domains, Skill and Agent names), as measured.

Which rule wins, and what the tool itself says when none decides, is permissions.py's.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from harness.refengine.errors import NotModelled
from harness.refengine.rule_paths import PROJECT, Places, binds, edit_allow_binds
from harness.refengine.tool_model import ALIASES, resolve, skill_name


@dataclass(frozen=True, kw_only=True)
class Rule:
    """``Tool`` or ``Tool(specifier)`` from a settings list or a skill's ``allowed-tools``."""

    tool: str
    specifier: str | None = None
    home: Path | None = dataclasses.field(default=None, compare=False)
    """The run's HOME, which ``~/`` path rules are read against (None for a skill's ``allowed-tools``)."""
    levels: frozenset[str] = dataclasses.field(default=PROJECT, compare=False)
    """The settings levels that hold the rule (a skill's rules are the project's)."""
    allows: bool = dataclasses.field(default=False, compare=False)
    """An allow rule of a settings file: an Edit one reads its path apart (rule_paths.edit_allow_binds)."""

    @classmethod
    def parse(cls, text: str, *, home: Path | None = None, levels: frozenset[str] = PROJECT,
              allows: bool = False) -> Rule:
        m = re.fullmatch(r"\s*([^(\s]+)\s*(?:\((.*)\))?\s*", text)
        if m is None:
            return cls(tool=text.strip(), home=home, levels=levels, allows=allows)
        specifier = m.group(2)
        return cls(tool=ALIASES.get(m.group(1), m.group(1)), specifier=None if specifier in (None, "*") else specifier,
                   home=home, levels=levels, allows=allows)

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
            return self.binds_path(resolve(str(tool_input["file_path"]), workdir=workdir), workdir=workdir)
        if tool == "WebFetch" and self.specifier.startswith("domain:"):
            return _domain_matches(self.specifier.removeprefix("domain:"), str(tool_input.get("url", "")))
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

    def binds_path(self, path: Path, *, workdir: Path) -> bool:
        """Whether this rule's path specifier binds the absolute ``path`` (rule_paths.py)."""
        assert self.specifier is not None
        places = Places(workdir=workdir, home=self.home, levels=self.levels)
        if self.allows and self.tool == "Edit":
            return edit_allow_binds(self.specifier, path, places)
        return binds(self.specifier, path, places)

    @property
    def text(self) -> str:
        return f"{self.tool}({self.specifier})" if self.specifier is not None else self.tool


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    allow: tuple[Rule, ...] = ()
    deny: tuple[Rule, ...] = ()
    ask: tuple[Rule, ...] = ()

    @classmethod
    def from_lists(cls, *, allow: Iterable[str], deny: Iterable[str], ask: Iterable[str],
                   home: Path | None = None, origins: Iterable[tuple[str, str]] = ()) -> RuleSet:
        """The rules of the settings files; ``home``: the run's HOME, for ``~/`` path rules; ``origins``: the
        settings level of each rule text (the project's where none is given)."""
        levels: dict[str, set[str]] = {}
        for text, level in origins:
            levels.setdefault(text, set()).add(level)

        def parsed(texts: Iterable[str], *, allows: bool = False) -> tuple[Rule, ...]:
            return tuple(Rule.parse(t, home=home, levels=frozenset(levels.get(t, PROJECT)), allows=allows)
                         for t in texts)

        return cls(allow=parsed(allow, allows=True), deny=parsed(deny), ask=parsed(ask))


def host_of(url: str) -> str | None:
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host or None


def _domain_matches(pattern: str, url: str) -> bool:
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


def bash_pattern_matches(pattern: str, command: str) -> bool:
    """``Bash(git:*)`` = ``Bash(git *)``; ``cmd *`` also matches the bare ``cmd`` (word boundary)."""
    if pattern.endswith(":*"):
        pattern = pattern[:-2] + " *"
    if pattern.endswith(" *") and command.strip() == pattern[:-2]:
        return True
    regex = ".*".join(re.escape(piece) for piece in pattern.split("*"))
    return re.fullmatch(regex, command.strip(), re.DOTALL) is not None
