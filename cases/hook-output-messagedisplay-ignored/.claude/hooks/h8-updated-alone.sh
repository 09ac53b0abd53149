#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h8 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "MessageDisplay", "updatedInput": {"command": "echo UPDATED-8"}}}'
