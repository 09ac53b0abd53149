"""The reference engine: an executable spec of CLAIMS.md, readable before fast.

Laid out like the WebAssembly reference interpreter, one module per area:

- ``profiles``     version profiles: the one table naming the version each behaviour changed at
- ``readings``     documented readings: what the articles say a version does, laid over its profile
- ``messages``     the engine's fixed strings (the conformance material, A7)
- ``config``       reading the ``.claude/`` fixture: settings, skills, agents, ``.mcp.json``, trust
- ``hooks``        hook rules, the matcher, the stdin payload, how results combine
- ``hook_actions`` firing an event: command, http, mcp_tool, prompt and agent actions
- ``mcp_client``   MCP servers over stdio through the official SDK
- ``tools``        the built-in tools run in the working copy (Bash, Read, Write, Edit, Glob, Grep, NotebookEdit)
- ``web``          WebFetch and WebSearch: a fetch or a model request of their own, then the model's answer
- ``bash_safety``  which Bash commands run without asking in default mode, and the refusal text
- ``permissions``  rules, modes and each tool's own check
- ``skills``       the Skill tool: validation, approval, inline runs, forks
- ``agents``       the Agent tool, tool pools, depth cap, subagent contexts
- ``conversation`` one model context and its turn-scoped state
- ``runtime``      the state of a run: per process, per session, per run
- ``dispatch``     one tool_use from lookup to PostToolUse
- ``session``      steps, sessions, and the loop every context runs

What it does not model is listed in NOT_MODELLED.md. The adapter is harness/engines/reference.py.
"""
