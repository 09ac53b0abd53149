#!/usr/bin/env bash
# Appends one line per firing to batch.txt: each call's tool_name, tool_response and keys, then the payload's keys.
python3 -c '
import json, sys
d = json.load(sys.stdin)
calls = ["%s: %s | %s" % (c["tool_name"], c["tool_response"], ",".join(sorted(c))) for c in d.get("tool_calls", [])]
print(" ".join([*calls, "|", ",".join(sorted(d))]))' >> "$CLAUDE_PROJECT_DIR/batch.txt"
