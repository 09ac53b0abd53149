#!/bin/bash
cat > /dev/null; echo "PostToolBatch h4" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolBatch", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-4-REASON"}}'
