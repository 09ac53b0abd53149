#!/usr/bin/env bash
# Appends "<label>: <sorted stdin keys>" to keys.txt; the payload's key set per version goes into the snapshot.
# A line already there is not written again (some events fire many times, MessageDisplay per message).
line=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(sys.argv[1] + ": " + " ".join(sorted(d)))' "$1")
grep -qxF "$line" "$CLAUDE_PROJECT_DIR/keys.txt" 2>/dev/null || echo "$line" >> "$CLAUDE_PROJECT_DIR/keys.txt"
