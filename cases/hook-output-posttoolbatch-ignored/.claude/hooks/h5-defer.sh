#!/bin/bash
cat > /dev/null; echo "PostToolBatch h5" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolBatch", "permissionDecision": "defer", "permissionDecisionReason": "HOOK-5-REASON"}}'
