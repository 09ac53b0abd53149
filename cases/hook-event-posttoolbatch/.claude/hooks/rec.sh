#!/usr/bin/env bash
# Appends "<label> <each call's tool_name, tool_input.command and tool_response> <the payload's keys>" to fired.txt.
python3 -c '
import json, sys
d = json.load(sys.stdin)
calls = [":".join([c["tool_name"], c["tool_input"].get("command"), str(c["tool_response"]), str(sorted(c))])
         for c in d.get("tool_calls", [])]
print(" ".join([sys.argv[1], *calls, ",".join(sorted(d))]))' "$1" >> "$CLAUDE_PROJECT_DIR/fired.txt"
