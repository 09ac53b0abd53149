"""The grammar's words for the surface's wider elements: hook handler types beside ``command``, settings keys
beside hooks and permission lists, and built-in tools beyond the file and shell tools. Each is an element of
``docs/surface/claude-V.json``; one the grammar does not draw is listed with the reason, so the grammar's reach
is the whole surface less what is said here (tests/test_explore_grammar.py holds it to that).

Values are the simplest a team would write, each chosen so that a run is the same every time: an http
handler posts to a port nothing listens on (a refused connection), a prompt handler's model call has no tools
(the fake model API answers such a side call with ``ok``), an mcp_tool handler calls the fixture's ``srv``
server (absent unless the scenario holds it: that, too, is a case).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Handler types beside ``command``, with the fields each needs (``{i}``: the hook's index).
HANDLER_TYPES: Mapping[str, Mapping[str, Any]] = {
    "http": {"url": "http://127.0.0.1:9/hook-{i}"},
    "prompt": {"prompt": "HOOK-{i}-PROMPT: may this go on? $ARGUMENTS"},
    "mcp_tool": {"server": "srv", "tool": "ping"},
}
HANDLER_TYPES_LEFT_OUT: Mapping[str, str] = {
    "agent": "opens a conversation with tools at each firing: how many a run makes decides how many turns its "
    "script needs, which a drawn case cannot know",
}
#: A value for each option of a non-command handler (the surface's ``<type>.<option>``).
TYPE_OPTION_VALUES: Mapping[str, Any] = {
    "timeout": 30, "statusMessage": "Checking", "once": True, "if": "Bash(echo *)", "onFailure": "block",
    "headers": {"X-Explore": "$EXPLORE_VAR"}, "allowedEnvVars": ["EXPLORE_VAR"], "model": "haiku",
    "continueOnBlock": True, "input": {},
}
TYPE_OPTIONS_LEFT_OUT: Mapping[str, str] = {
    "cloud": "no value form is known offline (a cloud-run handler)",
}


#: Settings keys beside ``hooks``, ``permissions.allow/deny/ask``, ``env`` and ``enableAllProjectMcpServers``
#: (which the scenario writes itself), with a value each; a ``permissions.`` key goes inside ``permissions``.
SETTING_VALUES: Mapping[str, Any] = {
    "additionalMarketplaces": [], "agent": "probe", "agentPushNotifEnabled": False, "allowAllClaudeAiMcps": False,
    "allowManagedHooksOnly": True, "allowManagedMcpServersOnly": True, "allowManagedPermissionRulesOnly": True,
    "allowedChannelPlugins": [], "allowedHttpHookUrls": ["http://127.0.0.1:*"], "allowedMarketplaces": [],
    "allowedMcpServers": [{"serverName": "srv"}], "appendPlugins": [], "blockedMarketplaces": [],
    "deniedMcpServers": [{"serverName": "srv"}], "disableAgentView": True, "disableAllHooks": True,
    "disableBundledSkills": True, "disableSkillShellExecution": True, "disabledMcpjsonServers": ["srv"],
    "enabledMcpjsonServers": ["srv"], "enabledPlugins": {}, "extraKnownMarketplaces": {},
    "httpHookAllowedEnvVars": ["EXPLORE_VAR"], "permissions.additionalDirectories": ["../shared"],
    "permissions.blockFileToolReadsOutsideWorkingDirectories": True, "permissions.blockReadsExemptPaths": [
        "/etc/hostname"], "permissions.blockReadsOutsideWorkingDirectories": True,
    "permissions.blockWritesOutsideWorkingDirectories": True, "permissions.defaultMode": "acceptEdits",
    "permissions.denyInsteadOfPrompting": True, "permissions.disableAutoMode": "disable",
    "permissions.disableBypassPermissionsMode": "disable", "permissions.workingDirectoriesExclude": [],
    "pluginConfigs": {}, "pluginSuggestionMarketplaces": [], "pluginTrustMessage": "EXPLORE-TRUST",
    "prependPlugins": [], "sandbox": {"enabled": False}, "skillListingBudgetFraction": 0.5,
    "skillListingMaxDescChars": 20, "skillOverrides": {}, "skipDangerousModePermissionPrompt": True,
    "strictKnownMarketplaces": [], "strictPluginOnlyCustomization": True, "syncClaudeAiPlugins": False,
    "syncClaudeAiSkills": False,
}
#: Keys the scenario writes itself.
SETTINGS_OWN = frozenset({"hooks", "permissions", "permissions.allow", "permissions.deny", "permissions.ask",
                          "enableAllProjectMcpServers"})
#: Keys of the surface the grammar does not set, and why (beside those docs/surface/unreachable.yaml lists).
SETTINGS_LEFT_OUT: Mapping[str, str] = {
    "permissions.workingDirectoriesAsGiven": "its value form is not known offline",
    "subagentPromptCacheTtl": "its value form (seconds, or a duration text) is not known offline",
}

#: Built-in calls beyond the file and shell tools (added to vocabulary.TOOL_CALLS): kind -> (tool, input).
MORE_TOOL_CALLS: Mapping[str, tuple[str, dict[str, Any]]] = {
    "notebook-edit": ("NotebookEdit", {"notebook_path": "nb.ipynb", "cell_id": "c1", "new_source": "print({n})"}),
    "websearch": ("WebSearch", {"query": "explore {n}"}),
    "task-stop": ("TaskStop", {"task_id": "nosuch-{n}"}),
    "task-output": ("TaskOutput", {"task_id": "nosuch-{n}", "block": False}),
    "tool-search": ("ToolSearch", {"query": "select:Read"}),
    "cron-list": ("CronList", {}),
    "list-agents": ("ListAgents", {}),
}
TOOLS_LEFT_OUT: Mapping[str, str] = {
    "Task": "the init list's name of Agent, which the grammar draws as Agent",
    "CronCreate": "schedules a prompt for later: the run's end races it",
    "CronDelete": "needs a job CronCreate made",
    "ScheduleWakeup": "wakes the model later: the run's end races it",
    "Monitor": "watches a process in the background: the run's end races it",
    "EnterWorktree": "makes a git worktree of a repository the fixture is not",
    "ExitWorktree": "needs EnterWorktree first",
    "SendMessage": "writes to a running background agent, which a drawn case has not",
    "ReportFindings": "a review loop's tool: its input form is not known offline",
    "Workflow": "its input form is not known offline",
}
