#!/bin/bash
cat > /dev/null; echo "PostToolUseFailure h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-2-REASON"}}'
