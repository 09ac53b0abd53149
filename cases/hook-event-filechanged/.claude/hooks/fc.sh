#!/usr/bin/env bash
# Appends "<label> <file name> <event>" to fired.txt once.
line=$(python3 -c 'import json,os,sys; d=json.load(sys.stdin); print(sys.argv[1], os.path.basename(d.get("file_path", "")), d.get("event", ""))' "$1")
grep -qxF "$line" "$CLAUDE_PROJECT_DIR/fired.txt" 2>/dev/null || echo "$line" >> "$CLAUDE_PROJECT_DIR/fired.txt"
