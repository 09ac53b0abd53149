#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h3 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "MessageDisplay", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-3-REASON"}}'
