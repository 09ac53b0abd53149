#!/bin/bash
cat > /dev/null; echo "PostToolUse h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-2-REASON"}}'
