"""The ``env`` of the settings files: layered, and what it reaches as far as the measurements go.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332:

- the files layer key by key, the later winning: user < project < local < ``--settings``
  (settings-env-user-under-project, settings-env-local-over-project, settings-env-cli-over-local);
- the layered env is part of every process the engine starts, over the engine's own environment (a variable
  set in both is the settings file's): Bash calls, command hooks of settings files on SessionStart,
  UserPromptSubmit, PreToolUse, Stop and SessionEnd, a plugin's, a skill's and an agent's frontmatter hooks,
  and a project ``.mcp.json`` stdio server (settings-env-hooks-mcp, contrast settings-env-hooks-mcp-none);
- an http hook's header takes a variable of its ``allowedEnvVars`` from there too, the settings value over the
  process's own, and a settings variable it does not list stays empty (settings-env-http-header, contrast
  hook-http-action);
- folder trust does not gate it: in a folder whose trust was never accepted the user, project and local
  files' env reach the same processes (settings-env-untrusted).

What is not measured stays not-modelled (``env_unmodelled``): variables the engine or the shell read
themselves, ``--settings`` env beside anything but Bash, user-scoped and plugin MCP servers, a server's own
``env`` naming the same variable.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from harness.refengine.config_model import McpServerDef
from harness.refengine.errors import NotModelled
from harness.refengine.hooks import HookRule

#: Prefixes of variables the engine itself reads (its own switches, the API, telemetry, the shell, Node), and
#: variables that change how a shell runs a command: a settings ``env`` that sets one changes the engine or the
#: shell it starts, not only what a command sees.
_ENGINE_VARIABLES = re.compile(r"(CLAUDE|ANTHROPIC|MCP|OTEL|DISABLE|ENABLE|BASH|NODE|AWS|GOOGLE|VERTEX|CLOUD|HTTP|"
                               r"NO_PROXY|USE_|MAX_|API_|IS_|PATH$|HOME$|SHELL|TMP|LANG|LC_|TERM|ENV$|IFS$|"
                               r"CDPATH$|GLOBIGNORE$|PS[0-9]$|POSIXLY_CORRECT$|PROMPT_COMMAND$)", re.I)

#: Settings levels in precedence order, lowest first.
_LEVELS = ("user", "project", "local", "flag")


def settings_env(files: Mapping[str, dict[str, Any]]) -> dict[str, str]:
    """``env`` of every settings file, key by key, the later file winning (LEVELS)."""
    out: dict[str, Any] = {}
    for level in _LEVELS:
        value = files.get(level, {}).get("env")
        if isinstance(value, Mapping):
            out.update(value)
        elif value is not None:
            raise NotModelled(f"settings env that is not an object ({value!r})")
    return out


def env_unmodelled(files: Mapping[str, dict[str, Any]], env: Mapping[str, Any], *, trusted: bool,
                   hooks: tuple[HookRule, ...], servers: Mapping[str, McpServerDef]) -> str | None:
    """What a settings ``env`` reaches that no case measures. ``hooks``: every hook rule of the run (settings,
    plugin, skill and agent frontmatter; every action type is measured but for ``--settings`` env);
    ``servers``: the MCP servers it starts."""
    if bad := sorted(k for k, v in env.items() if not isinstance(v, str)):
        return f"settings env {', '.join(bad)} with a value that is not a string"
    if engine := sorted(k for k in env if _ENGINE_VARIABLES.match(k)):
        return f"settings env {', '.join(engine)} (a variable the engine itself or its shell may read)"
    if isinstance(files.get("flag", {}).get("env"), Mapping) and files["flag"]["env"]:
        if not trusted:
            return "--settings env in a folder whose trust was never accepted (measured for the settings files)"
        if hooks or servers:
            return "--settings env beside hooks or MCP servers (measured for a Bash call only)"
    if other := sorted(s.name for s in servers.values() if s.scope != "project"):
        return f"settings env beside the {', '.join(other)} MCP server (measured for a project .mcp.json server)"
    if clash := sorted({k for s in servers.values() for k in s.env if k in env}):
        return f"settings env {', '.join(clash)} also set by an MCP server's own env (which wins is not measured)"
    return None
