#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h2 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo HOOK-2-STDOUT
