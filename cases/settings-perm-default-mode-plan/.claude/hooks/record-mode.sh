#!/usr/bin/env bash
# Records the mode each PreToolUse payload names: `tool_name permission_mode` per line in mode.txt.
python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["tool_name"], d.get("permission_mode"))' >> "$CLAUDE_PROJECT_DIR/mode.txt"
