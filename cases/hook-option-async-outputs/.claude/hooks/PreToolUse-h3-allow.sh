#!/bin/bash
cat > /dev/null; echo "PreToolUse h3" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-3-REASON"}}'
