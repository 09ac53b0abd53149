#!/usr/bin/env bash
# Appends "<label> <the payload's delta, index and final> <its keys>" to fired.txt.
python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join([sys.argv[1], str(d.get("delta", "-")), str(d.get("index", "-")), str(d.get("final", "-")),
                ",".join(sorted(d))]))' "$1" >> "$CLAUDE_PROJECT_DIR/fired.txt"
