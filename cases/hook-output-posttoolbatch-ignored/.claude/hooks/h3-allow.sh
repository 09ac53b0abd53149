#!/bin/bash
cat > /dev/null; echo "PostToolBatch h3" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolBatch", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-3-REASON"}}'
