#!/usr/bin/env bash
# Appends "<label> <the payload's values of the fields named after it>" to fired.txt once.
line=$(python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join([sys.argv[1], *(str(d.get(k, "-") if not isinstance(d.get(k), dict) else d[k].get("command", "-")) for k in sys.argv[2:])]))' "$@")
grep -qxF "$line" "$CLAUDE_PROJECT_DIR/fired.txt" 2>/dev/null || echo "$line" >> "$CLAUDE_PROJECT_DIR/fired.txt"
