#!/bin/bash
cat > /dev/null; echo "PreToolUse h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-2-REASON"}}'
