#!/bin/bash
cat > /dev/null; echo "PreToolUse h4" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-4-REASON"}}'
