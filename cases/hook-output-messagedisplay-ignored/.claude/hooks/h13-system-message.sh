#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h13 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"systemMessage": "HOOK-13-MESSAGE"}'
