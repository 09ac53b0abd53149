#!/bin/bash
cat > /dev/null; echo "SubagentStop h0" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStop", "additionalContext": "HOOK-0-CONTEXT"}}'
