#!/bin/bash
# Appends "<event> <tool name, if any>" to hooks.txt.
what=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("tool_name") or "")')
echo "$1 $what" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
