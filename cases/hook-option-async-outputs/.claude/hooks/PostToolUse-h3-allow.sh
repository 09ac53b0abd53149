#!/bin/bash
cat > /dev/null; echo "PostToolUse h3" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-3-REASON"}}'
