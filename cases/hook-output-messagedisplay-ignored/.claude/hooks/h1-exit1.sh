#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h1 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo "HOOK-1-REASON" >&2; exit 1
