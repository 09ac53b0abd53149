#!/bin/bash
cat > /dev/null; echo "PostToolUseFailure h3" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-3-REASON"}}'
