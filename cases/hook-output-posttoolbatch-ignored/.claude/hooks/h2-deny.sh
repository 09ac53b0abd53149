#!/bin/bash
cat > /dev/null; echo "PostToolBatch h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolBatch", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-2-REASON"}}'
