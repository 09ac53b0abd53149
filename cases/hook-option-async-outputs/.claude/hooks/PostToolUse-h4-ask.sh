#!/bin/bash
cat > /dev/null; echo "PostToolUse h4" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-4-REASON"}}'
