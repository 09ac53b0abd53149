#!/bin/bash
d=$(python3 -c "import json, sys; print(json.load(sys.stdin)['delta'])")
echo "MessageDisplay h4 $d" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "MessageDisplay", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-4-REASON"}}'
