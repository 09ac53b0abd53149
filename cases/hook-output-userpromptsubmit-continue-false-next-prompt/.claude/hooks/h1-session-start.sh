#!/bin/bash
source=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["source"])')
echo "SessionStart $source" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
