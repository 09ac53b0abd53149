#!/bin/bash
cat > /dev/null; echo "PostToolBatch h6" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolBatch", "updatedInput": {"command": "echo UPDATED-6"}, "permissionDecision": "allow"}}'
