#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h0 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo "HOOK-0-REASON" >&2; exit 2
