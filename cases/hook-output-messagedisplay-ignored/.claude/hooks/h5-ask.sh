#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h5 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "MessageDisplay", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-5-REASON"}}'
