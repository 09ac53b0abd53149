#!/bin/bash
cat > /dev/null; echo "PostToolUseFailure h4" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-4-REASON"}}'
