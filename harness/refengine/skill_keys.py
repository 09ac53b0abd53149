"""Skill frontmatter keys beyond the ones definition_files.skill_def reads: what each does, as far as measured.

2.1.332's SKILL.md schema accepts, beside the skill keys, the keys of a plugin manifest (``_MANIFEST_KEYS``:
typed there as any value, described ``@internal``), two provenance markers, ``fallback`` and ``background``. The
binary reads the manifest keys where a SKILL.md stands for a plugin's manifest; in a user's or project's skill
they change nothing a run shows. Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 in a project's and a user's
skill (frontmatter-keys-user), with the value types a manifest gives them (silent-skill-key-plugin-manifest-keys)
and with the forms the explorer writes, a text where a manifest has a list and a flag as a text
(skill-key-manifest-values, skill-key-manifest-fork, against their ``-absent`` contrasts): the skill is listed
with its description alone, its Skill call is allowed in print mode without approval, its body is loaded inline
or opens the fork, and the fork's answer comes back.

Not modelled, so the run says not-modelled:

- a value that may name something to load (a non-empty ``mcpServers``, ``lspServers``, ``agents``,
  ``settings`` or ``userConfig``; a mapping or a nested list anywhere): only empty ones and plain texts, flags,
  numbers and lists of them were measured;
- ``background`` on a ``context: fork`` skill with another value than ``true`` (a flag or the text): the schema
  says such a fork runs as a background agent that reports back later, but in print mode the fork still runs in
  the turn and its answer is the Skill call's result, with or without an ``agent``, on every pin
  (skill-key-background-fork); other values were not measured;
- ``fallback`` beside a plugin skill of the same name or any MCP server: the binary drops a fallback skill when a
  plugin or MCP skill with the same suffix is loaded (``Dropping fallback skill``), which was not measured;
- any of these keys in a plugin's skill or in a command file (a plugin's SKILL.md may stand for its manifest).

``hide-from-slash-command-tool`` (``_COMMAND_KEYS``), in no release's schema, is what public plugins' commands carry
(ralph-loop): in a plugin's command file it changes nothing measured (slash-command-hide-from-tool against its
``-absent`` contrast, 2.1.252 to 2.1.332: the command is listed to the model as before and expands when typed). A
Skill call on such a command is not measured (skills.validation_error says not-modelled), nor the key in a skill
or a project's or user's command.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Plugin-manifest keys and provenance markers a SKILL.md may carry, measured to change nothing.
_MANIFEST_KEYS = frozenset({
    "agents", "author", "channels", "created_by", "defaultEnabled", "dependencies", "displayName", "experimental",
    "homepage", "improved_by", "keywords", "lspServers", "mcpServers", "monitors", "outputStyles", "repository",
    "settings", "themes", "userConfig", "workflows",
})
#: Keys the binary reads for other things than the skill's own run (see the module's text).
_CONDITIONAL_KEYS = frozenset({"background", "fallback"})
#: Keys of a plugin's command file measured to change its listing and its typed expansion in nothing.
_COMMAND_KEYS = frozenset({"hide-from-slash-command-tool"})
#: Every key this module decides on.
KEYS = _MANIFEST_KEYS | _CONDITIONAL_KEYS
#: Manifest keys whose value in a plugin manifest defines things to load: measured only empty.
_DEFINING = frozenset({"agents", "lspServers", "mcpServers", "settings", "userConfig"})


def command_keys(*, plugin: str | None, command: bool) -> frozenset[str]:
    """The keys of ``_COMMAND_KEYS`` known where the file is: a plugin's command only."""
    return _COMMAND_KEYS if plugin and command else frozenset()


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, bool, int, float))


def _plain(value: Any) -> bool:
    """A text, flag, number or null, or a list of them: the value forms measured."""
    return all(map(_scalar, value)) if isinstance(value, list) else _scalar(value)


def _background_measured(value: Any) -> bool:
    """``true`` as a flag or a text: the values of ``background`` measured on a fork skill."""
    return value is True or value == "true"


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, (list, dict)) and not value)


def key_problem(name: str, meta: Mapping[str, Any], *, plugin: str | None, command: bool) -> str | None:
    """Why skill ``name``'s frontmatter keys of ``KEYS`` are not modelled, if they are not. ``plugin`` names the
    plugin the skill comes with; ``command`` is a command file's frontmatter."""
    keys = sorted(k for k in KEYS if k in meta)
    if not keys:
        return None
    where = f"plugin {plugin!r}'s skill" if plugin else "command" if command else None
    if where:
        return f"{where} {name!r} frontmatter key {', '.join(keys)} (measured in a user's or project's skill only)"
    odd = [k for k in keys if not (_empty(meta[k]) or (k not in _DEFINING and _plain(meta[k])))]
    if odd:
        shown = ", ".join(f"{k}: {meta[k]!r}" for k in odd)
        return f"skill {name!r} frontmatter {shown} (measured with empty or plain values only)"
    if "background" in meta and meta.get("context") == "fork" and not _background_measured(meta["background"]):
        return (f"skill {name!r} frontmatter background: {meta['background']!r} on a context: fork skill "
                "(measured: true, as a flag or a text)")
    return None


def fallback_problem(skills: Mapping[str, Any], *, mcp_servers: bool) -> str | None:
    """Why the ``fallback`` key of a skill among ``skills`` (name -> SkillDef) is not modelled, if it is not:
    beside any MCP server (which may bring skills) or a plugin skill ``<plugin>:<same name>``."""
    fallbacks = sorted(s.name for s in skills.values() if s.fallback)
    if not fallbacks:
        return None
    if mcp_servers:
        return f"skill {fallbacks[0]!r} frontmatter key fallback beside an MCP server (unmeasured)"
    suffixes = {name.rsplit(":", 1)[1] for name in skills if ":" in name}
    if clash := [name for name in fallbacks if name in suffixes]:
        return f"skill {clash[0]!r} frontmatter key fallback beside a plugin skill of that name (unmeasured)"
    return None
