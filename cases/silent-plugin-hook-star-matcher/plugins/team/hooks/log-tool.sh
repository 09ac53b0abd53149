#!/bin/bash
# PreToolUse hook of the plugin: one line per tool the engine is about to run.
python3 -c 'import json, sys; d = json.load(sys.stdin); print("PreToolUse | " + d["tool_name"])' >> "$CLAUDE_PROJECT_DIR/tools.log"
